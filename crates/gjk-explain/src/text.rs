//! The walkthrough in words and numbers, as a tutorial would tell it.

use core::fmt::Write;

use crate::classic::{ClassicEnd, Region};
use gjk::{Real, Termination};

use crate::body::Body;
use crate::epa::{EpaEnd, EpaRecord};
use crate::format::{num, Style};
use crate::record::{Outcome, Record, Step};
use crate::space::Space;
use gjk::epa::EpaDecision;
use gjk::EpaTermination;

const T: Style = Style::Text;

/// `(x, y)` for text.
fn pt<V: Space>(p: V) -> String {
    p.show(T)
}

/// "the point P", "the segment P–Q", "the triangle P, Q, R", "the tetrahedron P, Q, R, S".
pub(crate) fn simplex_name<V: Space>(points: &[V], style: Style) -> String {
    let shown: Vec<String> = points.iter().map(|p| p.show(style)).collect();
    match points.len() {
        0 => "empty".to_string(),
        1 => format!("the point {}", shown[0]),
        2 => format!("the segment {} - {}", shown[0], shown[1]),
        3 => format!("the triangle {}", shown.join(", ")),
        _ => format!("the tetrahedron {}", shown.join(", ")),
    }
}

/// What a region decision means, in a phrase.
pub(crate) fn region_phrase(region: Region) -> &'static str {
    match region {
        Region::FirstPoint => "one point so far: search the opposite way, -d",
        Region::VertexA => "the origin is behind A (AB.AO <= 0): keep only A, search along AO",
        Region::EdgeAB => {
            "the origin is in the region of edge AB: keep AB, search along its perpendicular \
             toward the origin"
        }
        Region::OnLineAB => {
            "the origin is on the line through AB: the triple product (AB x AO) x AB is zero, \
             so search along the perpendicular of AB by convention"
        }
        Region::EdgeAC => {
            "the origin is in the region of edge AC: keep AC, search along its perpendicular \
             toward the origin"
        }
        Region::Inside => "the origin is inside the simplex (or on its boundary)",
        Region::AboveTriangle => {
            "the origin is above the triangle: keep it, search along its normal AB x AC"
        }
        Region::BelowTriangle => {
            "the origin is below the triangle (or in its plane): keep it re-wound, search \
             along -(AB x AC)"
        }
        Region::TowardEdgeAB => "the origin is in the region of edge AB; the segment test decides",
        Region::BeyondFaceABC => "the origin is beyond face ABC; that triangle's test decides",
        Region::BeyondFaceACD => "the origin is beyond face ACD; that triangle's test decides",
        Region::BeyondFaceADB => "the origin is beyond face ADB; that triangle's test decides",
    }
}

/// A short name of a region for captions.
pub(crate) fn region_short(region: Region) -> &'static str {
    match region {
        Region::FirstPoint => "first point: search -d",
        Region::VertexA => "behind A: keep A",
        Region::EdgeAB => "edge AB",
        Region::OnLineAB => "origin on line AB",
        Region::EdgeAC => "edge AC",
        Region::Inside => "inside",
        Region::AboveTriangle => "above ABC",
        Region::BelowTriangle => "below ABC",
        Region::TowardEdgeAB => "toward AB",
        Region::BeyondFaceABC => "beyond ABC",
        Region::BeyondFaceACD => "beyond ACD",
        Region::BeyondFaceADB => "beyond ADB",
    }
}

/// The method's name for titles.
pub(crate) fn method_name<V: Space>(record: &Record<V>) -> &'static str {
    match record.outcome {
        Outcome::Robust(_) => "robust GJK (signed volumes)",
        Outcome::Classic(_) => "classic GJK (tutorial region tests)",
    }
}

/// The verdict in a phrase.
pub(crate) fn verdict<V: Space>(record: &Record<V>) -> String {
    match &record.outcome {
        Outcome::Robust(r) if r.intersecting => "A and B intersect".to_string(),
        Outcome::Robust(r) => format!("apart, distance {}", num(r.distance, T)),
        Outcome::Classic(end) => match end {
            ClassicEnd::Enclosed => "A and B intersect".to_string(),
            ClassicEnd::Separated => "apart".to_string(),
            ClassicEnd::ZeroDirection => "gave up: zero search direction".to_string(),
            ClassicEnd::Cycle { first_seen } => {
                format!("gave up: loops back to iteration {first_seen}")
            }
            ClassicEnd::IterationCap => "gave up: iteration cap".to_string(),
        },
    }
}

/// The walkthrough cut at its steps, so that a stepper can show each step's own words; joined,
/// they are the whole walkthrough (`gjk explain`'s text).
#[derive(Clone, Debug, Default)]
pub(crate) struct Parts {
    /// The title, the shapes, the method and the first search direction.
    pub intro: String,
    /// One paragraph per support call.
    pub steps: Vec<String>,
    /// The method's result.
    pub result: String,
    /// What the penetration run does and where it starts (empty without one).
    pub epa_intro: String,
    /// One paragraph per expansion step.
    pub epa_steps: Vec<String>,
    /// The penetration's answer, beside the library's.
    pub epa_result: String,
}

impl Parts {
    /// The whole walkthrough.
    pub fn joined(&self) -> String {
        let mut out = self.intro.clone();
        self.steps.iter().for_each(|s| out.push_str(s));
        out.push('\n');
        out.push_str(&self.result);
        out.push_str(&self.epa_intro);
        self.epa_steps.iter().for_each(|s| out.push_str(s));
        out.push_str(&self.epa_result);
        out
    }
}

/// The whole walkthrough, in parts.
pub(crate) fn walkthrough<V: Space>(
    title: &str,
    a: &Body<'_, V>,
    b: &Body<'_, V>,
    record: &Record<V>,
) -> Parts {
    let mut out = String::new();
    let _ = writeln!(out, "GJK walkthrough: {title} ({})", V::NAME);
    let _ = writeln!(out, "Method: {}", method_name(record));
    let _ = writeln!(out, "Shape A: {}", a.description);
    let _ = writeln!(out, "Shape B: {}", b.description);
    out.push('\n');
    out.push_str(
        "The Minkowski difference A - B = {a - b : a in A, b in B} contains the origin exactly when\n\
         A and B intersect. GJK never builds it: it asks only for its support point along a\n\
         direction d, s(d) = s_A(d) - s_B(-d): the point of A farthest along d minus the point of\n\
         B farthest along -d.\n",
    );
    match record.outcome {
        Outcome::Robust(_) => out.push_str(
            "The robust method keeps a simplex of such points and, each iteration, the point v of the\n\
             simplex closest to the origin (signed volumes, Montanari et al. 2017); it searches next\n\
             along -v and stops when |v| cannot shrink any more or the origin is in the simplex.\n",
        ),
        Outcome::Classic(_) => out.push_str(
            "The classic method (as the tutorials teach it) grows a simplex toward the origin; region\n\
             tests built from triple products decide which part to keep and where to search next.\n\
             A is always the newest point. It answers only yes or no.\n",
        ),
    }
    if record.margins > 0.0 && matches!(record.outcome, Outcome::Robust(_)) {
        let _ = writeln!(
            out,
            "The shapes have rounded parts (margins summing to {}): GJK runs on their cores and \
             subtracts the margins at the end.",
            num(record.margins, T)
        );
    }
    let _ = writeln!(out, "\nFirst search direction: {}.\n", pt(record.first_direction));
    let mut parts = Parts { intro: out, ..Default::default() };
    for (k, step) in record.steps.iter().enumerate() {
        let last = k + 1 == record.steps.len();
        let mut out = String::new();
        match &record.outcome {
            Outcome::Robust(r) => robust_step(&mut out, step, last.then_some(r.termination)),
            Outcome::Classic(end) => classic_step(&mut out, step, last.then_some(*end)),
        }
        parts.steps.push(out);
    }
    result(&mut parts.result, record);
    if let Some(epa) = &record.epa {
        epa_text(&mut parts, epa);
    }
    parts
}

fn support_line(out: &mut String, step: &Step<impl Space>) {
    let _ = writeln!(
        out,
        "Iteration {}: search direction d = {}; support on A = {}, on B = {}, w = {}; w.d = {}.",
        step.iteration,
        pt(step.direction),
        pt(step.a),
        pt(step.b),
        pt(step.w),
        num(step.progress, T)
    );
}

fn robust_step<V: Space>(out: &mut String, step: &Step<V>, end: Option<Termination>) {
    support_line(out, step);
    if step.refused {
        let reason = match end {
            Some(Termination::Converged) => {
                let v = step.closest.unwrap_or(V::ZERO);
                let gap = v.length_squared() + step.progress;
                format!(
                    "  Stop: the duality gap |v|^2 - v.w = {} is within the tolerance \
                     ({} x |v|^2), so |v| = {} is the distance between the cores.",
                    num(gap, T),
                    num(f64::DEFAULT_TOLERANCE, T),
                    num(v.length(), T)
                )
            }
            Some(Termination::NoProgress) => {
                "  Stop: w is already a vertex of the simplex: no progress is possible, v is final."
                    .to_string()
            }
            Some(Termination::SeparatingAxis) => {
                "  Stop: v.w > 0 proves a separating axis: the shapes are apart.".to_string()
            }
            _ => "  Stop.".to_string(),
        };
        let _ = writeln!(out, "{reason}");
        return;
    }
    let lambdas: Vec<String> = step.lambdas.iter().map(|&l| num(l, T)).collect();
    let v = step.closest.unwrap_or(V::ZERO);
    let _ = writeln!(
        out,
        "  The simplex is now {}, with barycentric weights lambda = ({}); its point closest to \
         the origin is v = {} (|v| = {}).",
        simplex_name(&step.kept, T),
        lambdas.join(", "),
        pt(v),
        num(v.length(), T)
    );
    let dropped = step.tested.len() - step.kept.len().min(step.tested.len());
    if dropped > 0 {
        let _ =
            writeln!(out, "  ({dropped} vertex(es) dropped: they do not carry the closest point.)");
    }
    match end {
        Some(Termination::Contained) => {
            let _ = writeln!(
                out,
                "  The origin is on the simplex (or within the touching tolerance of it): the \
                 shapes touch or overlap, so GJK stops here."
            );
        }
        Some(Termination::NoProgress) => {
            let _ = writeln!(
                out,
                "  Stop: the new closest point is not closer than the last one (rounding has taken \
                 over); the best simplex is kept."
            );
        }
        Some(Termination::IterationCap) => {
            let _ = writeln!(out, "  Stop: the iteration cap is reached; v is the best found.");
        }
        Some(_) => {}
        None => {
            let _ = writeln!(out, "  Next: search along -v = {}.", pt(-v));
        }
    }
}

fn classic_step<V: Space>(out: &mut String, step: &Step<V>, end: Option<ClassicEnd>) {
    support_line(out, step);
    if step.tested.is_empty() {
        let _ = writeln!(
            out,
            "  w.d = {} <= 0: the farthest point of A - B along d does not pass the origin, so the \
             origin is outside A - B: the tutorial answers NO INTERSECTION.",
            num(step.progress, T)
        );
        return;
    }
    let _ = writeln!(out, "  w.d > 0: w is past the origin along d; add it.");
    if step.tested.len() >= 2 {
        let letters = ["A", "B", "C", "D"];
        let named: Vec<String> =
            step.tested.iter().zip(letters).map(|(p, l)| format!("{l} = {}", pt(*p))).collect();
        let _ = writeln!(out, "  Region test on {}:", named.join(", "));
    }
    for region in &step.regions {
        let _ = writeln!(out, "    - {}.", region_phrase(*region));
    }
    match end {
        Some(ClassicEnd::Enclosed) => {
            let _ = writeln!(
                out,
                "  The simplex, {}, encloses the origin: the tutorial answers INTERSECTION.",
                simplex_name(&step.kept, T)
            );
        }
        Some(ClassicEnd::ZeroDirection) => {
            let _ = writeln!(
                out,
                "  The next search direction is the zero vector (the simplex is flat or the origin \
                 lies on it): a tutorial loop would search along nothing. This run gives up."
            );
        }
        Some(ClassicEnd::Cycle { first_seen }) => {
            let _ = writeln!(
                out,
                "  The simplex and direction are the same as after iteration {first_seen}: a \
                 tutorial loop would go round forever. This run stops."
            );
        }
        _ => {
            let next = step.next_direction.map_or_else(|| "none".to_string(), pt);
            let _ = writeln!(
                out,
                "  The simplex is now {}. Next search direction: {}.",
                simplex_name(&step.kept, T),
                next
            );
            if end == Some(ClassicEnd::IterationCap) {
                let _ = writeln!(out, "  The iteration cap is reached: no answer.");
            }
        }
    }
}

fn result<V: Space>(out: &mut String, record: &Record<V>) {
    let calls = record.steps.len();
    match &record.outcome {
        Outcome::Robust(r) if r.intersecting => {
            let _ = writeln!(
                out,
                "Result: A and B intersect (touching counts). Termination: {:?} after {} support calls.",
                r.termination, r.iterations
            );
        }
        Outcome::Robust(r) => {
            let _ = writeln!(
                out,
                "Result: A and B are apart. Distance = {}; closest point on A = {}, on B = {}; \
                 normal from A to B = {}. Termination: {:?} after {} support calls.",
                num(r.distance, T),
                pt(r.point_a),
                pt(r.point_b),
                pt(r.normal),
                r.termination,
                r.iterations
            );
        }
        Outcome::Classic(end) => {
            let answer = match end.says_intersecting() {
                Some(true) => "INTERSECTION".to_string(),
                Some(false) => "NO INTERSECTION".to_string(),
                None => "no answer".to_string(),
            };
            let _ = writeln!(out, "Result: {answer} ({end:?} after {calls} support calls).");
        }
    }
}

/// The penetration run in words: what EPA does, each expansion step, and the answer beside the
/// library's own contact query.
fn epa_text<V: Space>(parts: &mut Parts, epa: &EpaRecord<V>) {
    let plane = V::DIM == 2;
    let (body, face) = if plane { ("polygon", "edge") } else { ("polytope", "face") };
    let out = &mut parts.epa_intro;
    match epa.end {
        EpaEnd::MarginsOnly { core_distance } => {
            let _ = writeln!(
                out,
                "\nPenetration: the cores are {} apart, but the rounded parts (margins) cover the \
                 gap, so the depth is the margins minus the cores' distance; no expansion is needed.",
                num(core_distance, T)
            );
        }
        EpaEnd::Flat => {
            let _ = writeln!(
                out,
                "\nPenetration: the cores' Minkowski difference is flat ({}): it has no {}, so \
                 the cores' depth is 0 and the depth is the margins' sum.",
                simplex_name(&epa.start, T),
                if plane { "area" } else { "volume" }
            );
        }
        EpaEnd::Expanded(_) => {
            let grow = if plane {
                "w joins the polygon between the ends of that edge"
            } else {
                "w joins the polytope: the faces it sees are replaced by a fan of triangles from w\n\
                 to their horizon"
            };
            let _ = writeln!(
                out,
                "\nPenetration (EPA, van den Bergen 2001; the library's own expansion): the origin is\n\
                 inside the cores' Minkowski difference; the depth is its distance to the boundary.\n\
                 EPA grows a {body} inside the difference: each step takes the {body}'s {face}\n\
                 closest to the origin (outward normal n, distance d), asks for the support point w\n\
                 along n, and stops when n.w - d is within the tolerance; otherwise\n\
                 {grow}.\n\
                 Start: {} (GJK's final simplex{}).\n",
                simplex_name(&epa.start, T),
                if epa.completed { ", completed with support points" } else { "" }
            );
        }
    }
    for step in &epa.steps {
        let mut out = String::new();
        let corners = &step.faces[step.closest];
        let closest = match corners[..] {
            [p, q] => format!("{} - {}", pt(p), pt(q)),
            _ => simplex_name(corners, T),
        };
        let size = if plane {
            format!("the polygon has {} vertices", step.faces.len())
        } else {
            format!("the polytope has {} faces", step.faces.len())
        };
        let _ = writeln!(
            out,
            "EPA iteration {}: {size}; its {face} closest to the origin is {closest} at distance \
             d = {}, outward normal n = {}. Support along n: on A = {}, on B = {}, w = {}; n.w = {}.",
            step.iteration,
            num(step.distance, T),
            pt(step.normal),
            pt(step.a),
            pt(step.b),
            pt(step.w),
            num(step.bound, T)
        );
        let gap = num(step.bound - step.distance, T);
        let _ = match step.decision {
            EpaDecision::Grow if plane => writeln!(
                out,
                "  The depth is between d and n.w, which differ by {gap}: add w between {} and {}.",
                pt(corners[0]),
                pt(corners[1])
            ),
            EpaDecision::Grow => writeln!(
                out,
                "  The depth is between d and n.w, which differ by {gap}: add w, replacing the \
                 faces it sees by a fan from w to their horizon."
            ),
            EpaDecision::Converged => writeln!(
                out,
                "  n.w - d = {gap} is within the tolerance: this {face} is on the boundary, and d is \
                 the depth of the cores."
            ),
            EpaDecision::Repeated => writeln!(
                out,
                "  w is already a vertex of the {body}: no progress is possible; the best upper \
                 bound found is the answer."
            ),
        };
        parts.epa_steps.push(out);
    }
    let out = &mut parts.epa_result;
    out.push('\n');
    match epa.end {
        EpaEnd::Expanded(EpaTermination::IterationCap) => {
            let _ = writeln!(
                out,
                "The iteration cap is reached: the best upper bound found is the answer."
            );
        }
        EpaEnd::Expanded(EpaTermination::Degenerate) => {
            let _ = writeln!(
                out,
                "Rounding stopped the expansion (degenerate): the best upper bound found is the answer."
            );
        }
        _ => {}
    }
    let _ = writeln!(
        out,
        "Penetration result: depth = {}, normal from A to B = {}; deepest point of A = {}, of B = {}.",
        num(epa.depth, T),
        pt(epa.normal),
        pt(epa.point_a),
        pt(epa.point_b)
    );
    let _ = match &epa.library {
        Some(c) => {
            // Symmetric pairs have several deepest directions: the depth must agree, the
            // normal may be another one of the same depth.
            let same_depth = (c.depth - epa.depth).abs() <= 1e-6 * c.depth.abs().max(1.0);
            let same_normal = (c.normal - epa.normal).length() <= 1e-6;
            let verdict = match (same_depth, same_normal) {
                (true, true) => "agrees",
                (true, false) => "agrees on the depth and picks another normal of the same depth",
                _ => "answers differently",
            };
            writeln!(
                out,
                "The library's contact query (gjk::contact) {verdict}: depth = {}, normal = {} ({:?}).",
                num(c.depth, T),
                pt(c.normal),
                c.status
            )
        }
        None => writeln!(out, "The library's contact query (gjk::contact) finds no contact."),
    };
}
