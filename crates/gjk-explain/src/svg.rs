//! The pictures: one SVG with a panel for the shapes and a panel per iteration.
//!
//! Hand-written SVG, styled by classes (`shape-a`, `shape-b`, `minkowski`, `simplex`,
//! `direction`, `closest`, `origin`, …) so a reader — or a test — can find each part.

use core::fmt::Write;

use crate::classic::ClassicEnd;
use glam::DVec2;

use crate::body::{difference_outline, hull_edges, Body};
use crate::format::{num, Style};
use crate::record::{Outcome, Record, Step};
use crate::space::Space;
use crate::text::{method_name, region_short, verdict};

const P: Style = Style::Picture;
/// The plot area of a panel, in pixels (square).
const PLOT: f64 = 300.0;
/// Space around a plot inside its panel.
const PAD: f64 = 12.0;
/// Height of a panel's title row.
const PANEL_TITLE: f64 = 22.0;
/// Height of one caption line.
const LINE: f64 = 15.0;
/// Gap between panels and around the picture.
const GAP: f64 = 16.0;
/// Height of the picture's title block and legend.
const HEADER: f64 = 92.0;
/// The length of the direction arrows, as a fraction of the plot's side.
const ARROW: f64 = 0.25;
/// The longest caption line, in characters, before it is split.
const CAPTION_CHARS: usize = 46;

const STYLE: &str = "
  text { font-family: 'DejaVu Sans', Helvetica, Arial, sans-serif; fill: #1f2937; }
  .title { font-size: 20px; font-weight: bold; }
  .subtitle { font-size: 13px; fill: #4b5563; }
  .panel-title { font-size: 13px; font-weight: bold; }
  .caption { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 11px; }
  .tick { font-size: 9px; fill: #6b7280; }
  .label { font-size: 11px; font-weight: bold; }
  .legend { font-size: 12px; }
  .frame { fill: #ffffff; stroke: #d1d5db; stroke-width: 1; }
  .grid { stroke: #eef0f3; stroke-width: 1; }
  .axis { stroke: #9ca3af; stroke-width: 1.2; }
  .shape-a { fill: #2563eb; fill-opacity: 0.16; stroke: #2563eb; stroke-width: 2; }
  .shape-b { fill: #ea580c; fill-opacity: 0.16; stroke: #ea580c; stroke-width: 2; }
  .vertex-a { fill: #2563eb; }
  .vertex-b { fill: #ea580c; }
  .minkowski { fill: #7c3aed; fill-opacity: 0.10; stroke: #7c3aed; stroke-width: 1.5; }
  .edge-a { stroke: #2563eb; stroke-width: 1; stroke-opacity: 0.7; }
  .edge-b { stroke: #ea580c; stroke-width: 1; stroke-opacity: 0.7; }
  .minkowski-edge { stroke: #7c3aed; stroke-width: 0.8; stroke-opacity: 0.35; }
  .minkowski-core { fill: none; stroke: #7c3aed; stroke-width: 1; stroke-dasharray: 4 3; }
  .simplex { fill: #059669; fill-opacity: 0.22; stroke: #059669; stroke-width: 2.5; stroke-linejoin: round; }
  .simplex-tested { fill: none; stroke: #059669; stroke-width: 1.2; stroke-dasharray: 5 4; }
  .simplex-vertex { fill: #059669; }
  .dropped { fill: #ffffff; stroke: #059669; stroke-width: 1.5; }
  .support-new { fill: none; stroke: #059669; stroke-width: 2; }
  .direction { stroke: #dc2626; stroke-width: 2.5; }
  .next-direction { stroke: #dc2626; stroke-width: 1.8; stroke-dasharray: 6 4; }
  .closest { fill: #db2777; }
  .closest-line { stroke: #db2777; stroke-width: 1.5; stroke-dasharray: 3 3; }
  .origin { fill: #111827; }
  .red { fill: #dc2626; }
  .pink { fill: #db2777; }
  .green { fill: #059669; }
  .blue { fill: #2563eb; }
  .orange { fill: #ea580c; }
  .purple { fill: #7c3aed; }
";

/// How panel coordinates (screen units, y up) map to pixels.
struct Frame {
    left: f64,
    top: f64,
    min: DVec2,
    scale: f64,
    span: f64,
}

impl Frame {
    /// A square view of `bounds` (grown by a margin) placed with its top-left at `left, top`.
    fn new(left: f64, top: f64, (lo, hi): (DVec2, DVec2)) -> Frame {
        let size = (hi - lo).max(DVec2::splat(1e-9));
        let span = size.max_element() * 1.3;
        let center = 0.5 * (lo + hi);
        Frame { left, top, min: center - DVec2::splat(span / 2.0), scale: PLOT / span, span }
    }

    fn px(&self, p: DVec2) -> DVec2 {
        DVec2::new(
            self.left + (p.x - self.min.x) * self.scale,
            self.top + PLOT - (p.y - self.min.y) * self.scale,
        )
    }

    /// Where to put a label of `chars` characters wanted at `at` with `anchor`, kept inside the
    /// plot (the anchor may flip so the text stays in).
    fn place(&self, at: DVec2, anchor: &'static str, chars: usize) -> (DVec2, &'static str) {
        let width = 6.6 * chars as f64;
        let (lo, hi) = (self.left + 3.0, self.left + PLOT - 3.0);
        let y = at.y.clamp(self.top + 12.0, self.top + PLOT - 4.0);
        let start = match anchor {
            "end" => at.x - width,
            "middle" => at.x - width / 2.0,
            _ => at.x,
        };
        if start < lo {
            (DVec2::new(lo, y), "start")
        } else if start + width > hi {
            (DVec2::new(hi, y), "end")
        } else {
            (DVec2::new(at.x, y), anchor)
        }
    }

    fn max(&self) -> DVec2 {
        self.min + DVec2::splat(self.span)
    }
}

/// A growing SVG document.
struct Doc {
    out: String,
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn points_attr(points: &[DVec2]) -> String {
    let parts: Vec<String> = points.iter().map(|p| format!("{:.2},{:.2}", p.x, p.y)).collect();
    parts.join(" ")
}

impl Doc {
    fn polygon(&mut self, points: &[DVec2], class: &str) {
        match points.len() {
            0 => {}
            1 => self.circle(points[0], 3.0, class),
            2 => self.line(points[0], points[1], class),
            _ => {
                let _ = writeln!(
                    self.out,
                    r#"<polygon class="{class}" points="{}"/>"#,
                    points_attr(points)
                );
            }
        }
    }

    fn polyline(&mut self, points: &[DVec2], class: &str) {
        let _ =
            writeln!(self.out, r#"<polyline class="{class}" points="{}"/>"#, points_attr(points));
    }

    fn line(&mut self, a: DVec2, b: DVec2, class: &str) {
        let _ = writeln!(
            self.out,
            r#"<line class="{class}" x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}"/>"#,
            a.x, a.y, b.x, b.y
        );
    }

    fn arrow(&mut self, a: DVec2, b: DVec2, class: &str) {
        let _ = writeln!(
            self.out,
            r#"<line class="{class}" x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" marker-end="url(#arrow-red)"/>"#,
            a.x, a.y, b.x, b.y
        );
    }

    fn circle(&mut self, c: DVec2, r: f64, class: &str) {
        let _ = writeln!(
            self.out,
            r#"<circle class="{class}" cx="{:.2}" cy="{:.2}" r="{r}"/>"#,
            c.x, c.y
        );
    }

    fn text(&mut self, at: DVec2, class: &str, anchor: &str, s: &str) {
        let _ = writeln!(
            self.out,
            r#"<text class="{class}" x="{:.2}" y="{:.2}" text-anchor="{anchor}">{}</text>"#,
            at.x,
            at.y,
            esc(s)
        );
    }

    fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, class: &str) {
        let _ = writeln!(
            self.out,
            r#"<rect class="{class}" x="{x:.2}" y="{y:.2}" width="{w:.2}" height="{h:.2}" rx="6"/>"#
        );
    }
}

/// A "nice" grid step (1, 2 or 5 times a power of ten) giving about six lines over `span`.
fn nice_step(span: f64) -> f64 {
    let raw = (span / 6.0).max(1e-12);
    let power = 10f64.powf(raw.log10().floor());
    let m = raw / power;
    power
        * if m < 1.5 {
            1.0
        } else if m < 3.5 {
            2.0
        } else if m < 7.5 {
            5.0
        } else {
            10.0
        }
}

/// Everything one picture needs.
pub(crate) struct Picture<'r, 's, V: Space> {
    pub title: &'r str,
    pub a: &'r Body<'s, V>,
    pub b: &'r Body<'s, V>,
    pub record: &'r Record<V>,
    /// The wireframe of `A − B` in 3D when both shapes are point sets.
    pub difference_edges: Vec<(V, V)>,
}

impl<'r, 's, V: Space> Picture<'r, 's, V> {
    /// The picture of `record` for the pair `a`, `b`.
    pub fn new(
        title: &'r str,
        a: &'r Body<'s, V>,
        b: &'r Body<'s, V>,
        record: &'r Record<V>,
    ) -> Self {
        let difference_edges = match (&a.vertices, &b.vertices) {
            (Some(pa), Some(pb)) if V::DIM == 3 => {
                let mut all: Vec<V> =
                    pa.iter().flat_map(|&p| pb.iter().map(move |&q| p - q)).collect();
                all.dedup();
                hull_edges(&all)
            }
            _ => Vec::new(),
        };
        Self { title, a, b, record, difference_edges }
    }
}

/// The label of point `p`: `w<k>` for the iteration whose support point it is.
fn label_of<V: Space>(record: &Record<V>, p: V) -> String {
    record.steps.iter().find(|s| s.w == p).map_or_else(String::new, |s| format!("w{}", s.iteration))
}

impl<V: Space> Picture<'_, '_, V> {
    pub fn render(&self) -> String {
        let panels = 1 + self.record.steps.len();
        let columns = if panels == 4 { 2 } else { panels.min(3) };
        let rows = panels.div_ceil(columns);
        let captions: Vec<Vec<String>> =
            self.record.steps.iter().enumerate().map(|(k, s)| self.caption(k, s)).collect();
        let caption_lines =
            captions.iter().map(Vec::len).max().unwrap_or(0).max(self.world_caption().len());
        let panel_w = PLOT + 2.0 * PAD;
        let panel_h = PAD + PANEL_TITLE + PLOT + 8.0 + caption_lines as f64 * LINE + PAD;
        let width = GAP + columns as f64 * (panel_w + GAP);
        let height = HEADER + rows as f64 * (panel_h + GAP);
        let mut doc = Doc { out: String::new() };
        let _ = writeln!(
            doc.out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}">"#
        );
        let _ = writeln!(doc.out, "<style>{STYLE}</style>");
        doc.out.push_str(
            r##"<defs><marker id="arrow-red" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="11" markerHeight="11" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#dc2626"/></marker></defs>"##,
        );
        doc.out.push('\n');
        let _ = writeln!(
            doc.out,
            r##"<rect x="0" y="0" width="{width:.0}" height="{height:.0}" fill="#f9fafb"/>"##
        );
        self.header(&mut doc, width);
        let steps_bounds = self.steps_bounds();
        let difference = difference_outline(self.a, self.b);
        for k in 0..panels {
            let left = GAP + (k % columns) as f64 * (panel_w + GAP);
            let top = HEADER + (k / columns) as f64 * (panel_h + GAP);
            let _ = writeln!(doc.out, r#"<g id="panel-{k}">"#);
            doc.rect(left, top, panel_w, panel_h, "frame");
            let plot_top = top + PAD + PANEL_TITLE;
            let caption_top = plot_top + PLOT + 8.0 + LINE - 3.0;
            let _ = writeln!(
                doc.out,
                r#"<clipPath id="clip-{k}"><rect x="{:.2}" y="{plot_top:.2}" width="{PLOT}" height="{PLOT}"/></clipPath>"#,
                left + PAD
            );
            if k == 0 {
                doc.text(
                    DVec2::new(left + PAD, top + PAD + 12.0),
                    "panel-title",
                    "start",
                    "A and B",
                );
                let frame = Frame::new(left + PAD, plot_top, self.world_bounds());
                let _ = writeln!(doc.out, r#"<g clip-path="url(#clip-{k})">"#);
                self.world_panel(&mut doc, &frame);
                doc.out.push_str("</g>\n");
                self.caption_lines(&mut doc, left + PAD, caption_top, &self.world_caption());
            } else {
                let step = &self.record.steps[k - 1];
                let title = format!("Iteration {}", step.iteration);
                doc.text(DVec2::new(left + PAD, top + PAD + 12.0), "panel-title", "start", &title);
                let frame = Frame::new(left + PAD, plot_top, steps_bounds);
                let _ = writeln!(doc.out, r#"<g clip-path="url(#clip-{k})">"#);
                self.step_panel(&mut doc, &frame, &difference, step);
                doc.out.push_str("</g>\n");
                self.caption_lines(&mut doc, left + PAD, caption_top, &captions[k - 1]);
            }
            doc.out.push_str("</g>\n");
        }
        doc.out.push_str("</svg>\n");
        doc.out
    }

    fn header(&self, doc: &mut Doc, width: f64) {
        doc.text(
            DVec2::new(GAP, 30.0),
            "title",
            "start",
            &format!("GJK step by step: {}", self.title),
        );
        let calls = self.record.steps.len();
        let sub = format!(
            "{} ({}) \u{b7} {} \u{b7} {} support call{}",
            method_name(self.record),
            V::NAME,
            verdict(self.record),
            calls,
            if calls == 1 { "" } else { "s" }
        );
        doc.text(DVec2::new(GAP, 50.0), "subtitle", "start", &sub.replace('-', "\u{2212}"));
        let robust = matches!(self.record.outcome, Outcome::Robust(_));
        let mut x = GAP;
        let y = 74.0;
        let mut swatch = |doc: &mut Doc, class: &str, label: &str, kind: u8| {
            match kind {
                0 => doc.out.push_str(&format!(
                    r#"<rect class="{class}" x="{x:.1}" y="{:.1}" width="14" height="12"/>"#,
                    y - 10.0
                )),
                1 => doc.line(DVec2::new(x, y - 4.0), DVec2::new(x + 14.0, y - 4.0), class),
                _ => doc.circle(DVec2::new(x + 7.0, y - 4.0), 4.0, class),
            }
            doc.out.push('\n');
            doc.text(DVec2::new(x + 19.0, y), "legend", "start", label);
            x += 24.0 + 7.0 * label.chars().count() as f64 + 14.0;
        };
        swatch(doc, "shape-a", "A", 0);
        swatch(doc, "shape-b", "B", 0);
        swatch(doc, "minkowski", "A \u{2212} B", 0);
        swatch(doc, "simplex", "simplex", 0);
        swatch(doc, "direction", "search direction d", 1);
        if robust {
            swatch(doc, "closest", "closest point v", 2);
        } else {
            swatch(doc, "next-direction", "next direction", 1);
        }
        swatch(doc, "origin", "origin", 2);
        let _ = width;
    }

    fn caption_lines(&self, doc: &mut Doc, left: f64, top: f64, lines: &[String]) {
        for (i, line) in lines.iter().enumerate() {
            doc.text(DVec2::new(left, top + i as f64 * LINE), "caption", "start", line);
        }
    }

    /// The shapes' bounds on screen (with the closest points).
    fn world_bounds(&self) -> (DVec2, DVec2) {
        let mut pts: Vec<DVec2> = self.a.outline();
        pts.extend(self.b.outline());
        if let Outcome::Robust(r) = &self.record.outcome {
            pts.push(r.point_a.screen());
            pts.push(r.point_b.screen());
        }
        bounds(&pts)
    }

    /// The bounds of the Minkowski difference, the origin and every simplex point on screen.
    fn steps_bounds(&self) -> (DVec2, DVec2) {
        let mut pts = difference_outline(self.a, self.b);
        pts.push(DVec2::ZERO);
        for s in &self.record.steps {
            pts.push(s.w.screen());
        }
        // Room for the direction arrows drawn from the origin (ARROW of the view's span).
        let (lo, hi) = bounds(&pts);
        let reach = ARROW * 1.3 * (hi - lo).max_element() + 1e-12;
        for s in &self.record.steps {
            for d in [Some(s.direction), s.next_direction].into_iter().flatten() {
                if let Some(u) = d.direction() {
                    pts.push(u.screen() * reach * 1.15);
                }
            }
        }
        bounds(&pts)
    }

    fn world_caption(&self) -> Vec<String> {
        let mut lines = vec![
            format!("A: {}", self.a.description),
            format!("B: {}", self.b.description),
            format!("first d = {}", self.record.first_direction.show(P)),
        ];
        if let Outcome::Robust(r) = &self.record.outcome {
            if !r.intersecting {
                lines.push(format!("distance = {}", num(r.distance, P)));
                lines.push(format!("on A: {}", r.point_a.show(P)));
                lines.push(format!("on B: {}", r.point_b.show(P)));
            }
        }
        wrap(lines)
    }

    fn caption(&self, k: usize, s: &Step<V>) -> Vec<String> {
        let last = k + 1 == self.record.steps.len();
        let mut lines = vec![
            format!("d = {}", s.direction.show(P)),
            format!("a = {}", s.a.show(P)),
            format!("b = {}", s.b.show(P)),
            format!("w = a \u{2212} b = {}, w\u{b7}d = {}", s.w.show(P), num(s.progress, P)),
        ];
        match &self.record.outcome {
            Outcome::Robust(r) => {
                if s.refused {
                    lines.push(match r.termination {
                        gjk::Termination::Converged => {
                            "duality gap closed: w not added".to_string()
                        }
                        gjk::Termination::NoProgress => {
                            "w is already a vertex: no progress".to_string()
                        }
                        other => format!("w not added ({other:?})"),
                    });
                } else {
                    let lambdas: Vec<String> = s.lambdas.iter().map(|&l| num(l, P)).collect();
                    lines.push(format!(
                        "simplex: {} pt, \u{3bb} = ({})",
                        s.kept.len(),
                        lambdas.join(", ")
                    ));
                }
                if let Some(v) = s.closest {
                    lines.push(format!("v = {}  |v| = {}", v.show(P), num(v.length(), P)));
                }
                if last {
                    lines.push(format!("\u{2192} {:?}: {}", r.termination, verdict(self.record)));
                }
            }
            Outcome::Classic(end) => {
                if s.tested.is_empty() {
                    lines.push("w\u{b7}d \u{2264} 0: origin not reached".to_string());
                } else {
                    let regions: Vec<&str> = s.regions.iter().map(|&r| region_short(r)).collect();
                    lines.push(format!("region: {}", regions.join(" \u{2192} ")));
                }
                if let Some(next) = s.next_direction {
                    lines.push(format!("next d = {}", next.show(P)));
                }
                if last {
                    let end_text = match end {
                        ClassicEnd::Cycle { first_seen } => format!("Cycle (back to {first_seen})"),
                        other => format!("{other:?}"),
                    };
                    lines.push(format!("\u{2192} {end_text}: {}", verdict(self.record)));
                }
            }
        }
        wrap(lines)
    }

    /// Grid and axes: in 2D a square grid with labelled ticks; in 3D the grid of the plane
    /// y = 0 and the three axes, projected.
    fn grid(&self, doc: &mut Doc, frame: &Frame, extent: (V, V)) {
        if V::DIM == 2 {
            let step = nice_step(frame.span);
            let (lo, hi) = (frame.min, frame.max());
            for axis in 0..2 {
                let first = (lo[axis] / step).ceil() as i64;
                let last = (hi[axis] / step).floor() as i64;
                for i in first..=last {
                    let t = i as f64 * step;
                    let (p, q) = if axis == 0 {
                        (DVec2::new(t, lo.y), DVec2::new(t, hi.y))
                    } else {
                        (DVec2::new(lo.x, t), DVec2::new(hi.x, t))
                    };
                    let class = if i == 0 { "axis" } else { "grid" };
                    doc.line(frame.px(p), frame.px(q), class);
                    let label = num(t, P);
                    if axis == 0 {
                        doc.text(frame.px(p) + DVec2::new(0.0, -3.0), "tick", "middle", &label);
                    } else {
                        doc.text(frame.px(p) + DVec2::new(3.0, -2.0), "tick", "start", &label);
                    }
                }
            }
            return;
        }
        let (lo, hi) = extent;
        let reach =
            (0..3).map(|i| lo.component(i).abs().max(hi.component(i).abs())).fold(0.0, f64::max);
        let step = nice_step(2.0 * reach);
        let n = (reach / step).ceil() as i64;
        let at = |x: f64, z: f64| V::from_components([x, 0.0, z]).screen();
        for i in -n..=n {
            let t = i as f64 * step;
            let m = n as f64 * step;
            doc.line(frame.px(at(t, -m)), frame.px(at(t, m)), "grid");
            doc.line(frame.px(at(-m, t)), frame.px(at(m, t)), "grid");
        }
        for (axis, name) in ["x", "y", "z"].iter().enumerate() {
            let tip = (V::axis(axis) * ((n as f64 + 0.6) * step)).screen();
            doc.line(frame.px(DVec2::ZERO), frame.px(tip), "axis");
            doc.text(frame.px(tip) + DVec2::new(0.0, -4.0), "tick", "middle", name);
        }
        let label = format!("grid {} (plane y = 0)", num(step, P));
        doc.text(DVec2::new(frame.left + 4.0, frame.top + PLOT - 4.0), "tick", "start", &label);
    }

    /// The 3D box around points (for the 3D grid).
    fn extent(points: impl Iterator<Item = V>) -> (V, V) {
        let mut lo = V::ZERO;
        let mut hi = V::ZERO;
        for p in points {
            lo = lo.zip_map(p, f64::min);
            hi = hi.zip_map(p, f64::max);
        }
        (lo, hi)
    }

    fn body_extent(&self, bodies: &[&Body<'_, V>]) -> (V, V) {
        let mut pts = Vec::new();
        for body in bodies {
            for i in 0..V::DIM {
                pts.push(body.support(V::axis(i)));
                pts.push(body.support(-V::axis(i)));
            }
        }
        Self::extent(pts.into_iter())
    }

    fn world_panel(&self, doc: &mut Doc, frame: &Frame) {
        self.grid(doc, frame, self.body_extent(&[self.a, self.b]));
        for (body, class, vertex_class, name) in
            [(self.a, "shape-a", "vertex-a", "A"), (self.b, "shape-b", "vertex-b", "B")]
        {
            let outline: Vec<DVec2> = body.outline().iter().map(|&p| frame.px(p)).collect();
            doc.polygon(&outline, class);
            if let Some(vertices) = &body.vertices {
                let edge_class = if name == "A" { "edge-a" } else { "edge-b" };
                for (p, q) in hull_edges(vertices) {
                    doc.line(frame.px(p.screen()), frame.px(q.screen()), edge_class);
                }
                for &v in vertices {
                    doc.circle(frame.px(v.screen()), 2.5, vertex_class);
                }
            }
            let center = frame.px(body.pose.transform_point(body.shape.center()).screen());
            let color = if name == "A" { "label blue" } else { "label orange" };
            doc.text(center + DVec2::new(0.0, 4.0), color, "middle", name);
        }
        if let Outcome::Robust(r) = &self.record.outcome {
            if !r.intersecting {
                let (pa, pb) = (frame.px(r.point_a.screen()), frame.px(r.point_b.screen()));
                doc.line(pa, pb, "closest-line");
                doc.circle(pa, 3.5, "closest");
                doc.circle(pb, 3.5, "closest");
                let mid = 0.5 * (pa + pb) + DVec2::new(6.0, -6.0);
                doc.text(mid, "label pink", "start", &format!("distance {}", num(r.distance, P)));
            }
        }
    }

    fn step_panel(&self, doc: &mut Doc, frame: &Frame, difference: &[DVec2], s: &Step<V>) {
        let extent_points = self.record.steps.iter().map(|s| s.w).chain(
            (0..V::DIM)
                .flat_map(|i| [V::axis(i), -V::axis(i)])
                .map(|d| self.a.support(d) - self.b.support(-d)),
        );
        self.grid(doc, frame, Self::extent(extent_points));
        let outline: Vec<DVec2> = difference.iter().map(|&p| frame.px(p)).collect();
        doc.polygon(&outline, "minkowski");
        for &(p, q) in &self.difference_edges {
            doc.line(frame.px(p.screen()), frame.px(q.screen()), "minkowski-edge");
        }
        if self.record.margins > 0.0 && matches!(self.record.outcome, Outcome::Robust(_)) {
            let core = crate::body::sampled_outline(|u| {
                let d = V::lift(u);
                let a = self
                    .a
                    .pose
                    .transform_point(self.a.shape.support(self.a.pose.inverse_transform_vector(d)));
                let b = self.b.pose.transform_point(
                    self.b.shape.support(self.b.pose.inverse_transform_vector(-d)),
                );
                (a - b).screen()
            });
            let mut core: Vec<DVec2> = core.iter().map(|&p| frame.px(p)).collect();
            if let Some(&first) = core.first() {
                core.push(first);
            }
            doc.polyline(&core, "minkowski-core");
        }
        let to_px =
            |points: &[V]| points.iter().map(|p| frame.px(p.screen())).collect::<Vec<DVec2>>();
        // The simplex the step tested (dashed), then the one it kept (solid).
        let tested = to_px(&s.tested);
        if tested.len() >= 2 {
            self.simplex_shape(doc, &tested, "simplex-tested");
        }
        let kept = to_px(&s.kept);
        self.simplex_shape(doc, &kept, "simplex");
        for (p, q) in s.tested.iter().zip(&tested) {
            if !s.kept.contains(p) {
                doc.circle(*q, 4.0, "dropped");
            }
        }
        for &q in &kept {
            doc.circle(q, 3.5, "simplex-vertex");
        }
        // Vertex labels, pushed away from the simplex's centre.
        let mut labelled: Vec<V> = s.kept.clone();
        for p in &s.tested {
            if !labelled.contains(p) {
                labelled.push(*p);
            }
        }
        let centre = labelled.iter().map(|p| frame.px(p.screen())).sum::<DVec2>()
            / labelled.len().max(1) as f64;
        for p in &labelled {
            let at = frame.px(p.screen());
            let away = (at - centre).try_normalize().unwrap_or(DVec2::new(0.0, -1.0));
            let label = label_of(self.record, *p);
            let text = if *p == s.w { format!("{label} {}", p.show(P)) } else { label };
            let anchor = if away.x < -0.3 {
                "end"
            } else if away.x > 0.3 {
                "start"
            } else {
                "middle"
            };
            let (at, anchor) =
                frame.place(at + away * 12.0 + DVec2::new(0.0, 4.0), anchor, text.chars().count());
            doc.text(at, "label green", anchor, &text);
        }
        // The new support point, ringed.
        doc.circle(frame.px(s.w.screen()), 7.0, "support-new");
        // Search directions from the origin, scaled to the view.
        let origin = frame.px(DVec2::ZERO);
        let length = ARROW * PLOT;
        let arrow_to = |d: V| {
            let u = d.direction().map_or(DVec2::ZERO, |u| u.screen());
            origin + DVec2::new(u.x, -u.y) * length
        };
        let tip = arrow_to(s.direction);
        doc.arrow(origin, tip, "direction");
        doc.text(tip + DVec2::new(6.0, -6.0), "label red", "start", "d");
        if let Some(next) = s.next_direction {
            let tip = arrow_to(next);
            doc.arrow(origin, tip, "next-direction");
            doc.text(tip + DVec2::new(6.0, 12.0), "label red", "start", "next d");
        }
        if let Some(v) = s.closest.filter(|v| v.length() > 0.0) {
            let at = frame.px(v.screen());
            doc.line(origin, at, "closest-line");
            doc.circle(at, 4.0, "closest");
            doc.text(at + DVec2::new(-8.0, 14.0), "label pink", "end", "v");
        }
        doc.circle(origin, 3.5, "origin");
        doc.text(origin + DVec2::new(-5.0, 13.0), "tick", "end", "origin");
    }

    /// Draws a simplex given in pixels: a dot, a segment, a triangle, or a tetrahedron's faces.
    fn simplex_shape(&self, doc: &mut Doc, points: &[DVec2], class: &str) {
        if points.len() <= 3 {
            if points.len() == 1 && class == "simplex-tested" {
                return;
            }
            doc.polygon(points, class);
            return;
        }
        for skip in 0..points.len() {
            let face: Vec<DVec2> =
                points.iter().enumerate().filter(|&(i, _)| i != skip).map(|(_, &p)| p).collect();
            doc.polygon(&face, class);
        }
    }
}

/// The bounding box of screen points.
fn bounds(points: &[DVec2]) -> (DVec2, DVec2) {
    let mut lo = DVec2::splat(f64::INFINITY);
    let mut hi = DVec2::splat(f64::NEG_INFINITY);
    for p in points.iter().filter(|p| p.is_finite()) {
        lo = lo.min(*p);
        hi = hi.max(*p);
    }
    if lo.x > hi.x {
        return (DVec2::splat(-1.0), DVec2::splat(1.0));
    }
    (lo, hi)
}

/// Splits long caption lines at ", " boundaries.
fn wrap(lines: Vec<String>) -> Vec<String> {
    let mut out = Vec::new();
    for line in lines {
        let mut current = String::new();
        for (i, piece) in line.split(", ").enumerate() {
            let joined = if i == 0 { piece.to_string() } else { format!("{current}, {piece}") };
            if i > 0 && joined.chars().count() > CAPTION_CHARS {
                out.push(format!("{current},"));
                current = format!("    {piece}");
            } else {
                current = joined;
            }
        }
        out.push(current);
    }
    out
}
