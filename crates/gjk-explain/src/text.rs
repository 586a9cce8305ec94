//! The walkthrough in words and numbers, as a tutorial would tell it.

use core::fmt::Write;

use gjk::classic::{ClassicEnd, Region};
use gjk::{Real, Termination};

use crate::body::Body;
use crate::format::{num, Style};
use crate::record::{Outcome, Record, Step};
use crate::space::Space;

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

/// The whole walkthrough.
pub(crate) fn walkthrough<V: Space>(
    title: &str,
    a: &Body<'_, V>,
    b: &Body<'_, V>,
    record: &Record<V>,
) -> String {
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
    for (k, step) in record.steps.iter().enumerate() {
        let last = k + 1 == record.steps.len();
        match &record.outcome {
            Outcome::Robust(r) => robust_step(&mut out, step, last.then_some(r.termination)),
            Outcome::Classic(end) => classic_step(&mut out, step, last.then_some(*end)),
        }
    }
    out.push('\n');
    result(&mut out, record);
    out
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
