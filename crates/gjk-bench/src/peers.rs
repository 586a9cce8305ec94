//! The 3D workloads handed to the peers that are not Rust crates (libccd, coal), and their
//! answers read back.
//!
//! Both peers run in `f64` on the very numbers of [`crate::workload`]: libccd through the FFI of
//! `crate::ccd` (feature `peers`), coal through `peers/coal_driver.cpp`, a C++ program that
//! reads the pairs from a text file and writes its answers and timings to another.
//!
//! **Pairs file** (written by [`write_pairs`]), whitespace-separated tokens:
//! ```text
//! workload NAME COUNT
//! SHAPE POSE SHAPE POSE          (COUNT lines: shape A, A's pose, shape B, B's pose)
//! ```
//! with `SHAPE` one of `box hx hy hz`, `sphere r`, `capsule h r`, `cylinder h r`, `cone h r`
//! (`h` half the height along the local y axis; the cone's apex at `+h`), `hull N x y z …`
//! (`N` points), and `POSE` = `qx qy qz qw tx ty tz` (unit quaternion, translation). Numbers
//! are written in Rust's shortest round-trip form, so the C++ side reads the same doubles.
//!
//! **Answers file** (written by the driver, read by [`parse_answers`]), one line per
//! (workload, query, method): `WORKLOAD QUERY METHOD NS V…` where `NS` is the best time per
//! query in nanoseconds and the values are, per pair, `0|1` (intersects), the distance
//! (distance), or `depth nx ny nz` (contact: `0 0 0 0` when the method reports no contact).

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use crate::cases::Depth;
use crate::spec::{BallSpec, CapsuleSpec, ConeSpec, CuboidSpec, CylinderSpec, HullSpec3};
use crate::spec::{Placement3, Spec3};
use crate::workload::Workload;

/// A 3D shape as the peers see it: one of the kinds both libccd's callbacks and coal's native
/// shapes cover.
#[derive(Clone, Debug, PartialEq)]
pub enum PeerShape {
    /// A box with these half extents.
    Box([f64; 3]),
    /// A sphere of this radius.
    Sphere(f64),
    /// A capsule around the y axis: core half-length and radius.
    Capsule(f64, f64),
    /// A cylinder around the y axis: half height and radius.
    Cylinder(f64, f64),
    /// A cone around the y axis (base at `−h`, apex at `+h`): half height and base radius.
    Cone(f64, f64),
    /// The convex hull of these points.
    Hull(Vec<[f64; 3]>),
}

/// A workload shape that the peers can answer for.
pub trait AsPeerShape: Spec3 {
    /// The shape in the peers' terms.
    fn peer_shape(&self) -> PeerShape;
}

impl AsPeerShape for CuboidSpec {
    fn peer_shape(&self) -> PeerShape {
        PeerShape::Box(self.half_extents)
    }
}

impl AsPeerShape for BallSpec {
    fn peer_shape(&self) -> PeerShape {
        PeerShape::Sphere(self.radius)
    }
}

impl AsPeerShape for CapsuleSpec {
    fn peer_shape(&self) -> PeerShape {
        PeerShape::Capsule(self.half_height, self.radius)
    }
}

impl AsPeerShape for CylinderSpec {
    fn peer_shape(&self) -> PeerShape {
        PeerShape::Cylinder(self.half_height, self.radius)
    }
}

impl AsPeerShape for ConeSpec {
    fn peer_shape(&self) -> PeerShape {
        PeerShape::Cone(self.half_height, self.radius)
    }
}

impl AsPeerShape for HullSpec3 {
    fn peer_shape(&self) -> PeerShape {
        PeerShape::Hull(self.points.clone())
    }
}

impl fmt::Display for PeerShape {
    /// The shape's tokens in the pairs file.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PeerShape::Box([x, y, z]) => write!(f, "box {x:e} {y:e} {z:e}"),
            PeerShape::Sphere(r) => write!(f, "sphere {r:e}"),
            PeerShape::Capsule(h, r) => write!(f, "capsule {h:e} {r:e}"),
            PeerShape::Cylinder(h, r) => write!(f, "cylinder {h:e} {r:e}"),
            PeerShape::Cone(h, r) => write!(f, "cone {h:e} {r:e}"),
            PeerShape::Hull(points) => {
                write!(f, "hull {}", points.len())?;
                points.iter().try_for_each(|[x, y, z]| write!(f, " {x:e} {y:e} {z:e}"))
            }
        }
    }
}

fn write_pose(out: &mut String, p: &Placement3) {
    let [qx, qy, qz, qw] = p.rotation;
    let [tx, ty, tz] = p.translation;
    // Writing to a String cannot fail.
    let _ = write!(out, "{qx:e} {qy:e} {qz:e} {qw:e} {tx:e} {ty:e} {tz:e}");
}

/// Appends a workload's pairs to `out` in the pairs-file format (see the module documentation).
pub fn write_pairs<A: AsPeerShape, B: AsPeerShape>(
    out: &mut String,
    w: &Workload<A, B, Placement3>,
) {
    let _ = writeln!(out, "workload {} {}", w.name, w.cases.len());
    for c in &w.cases {
        let _ = write!(out, "{} ", c.a.peer_shape());
        write_pose(out, &c.pose_a);
        let _ = write!(out, " {} ", c.b.peer_shape());
        write_pose(out, &c.pose_b);
        out.push('\n');
    }
}

/// One method's answers to one query on one workload.
#[derive(Clone, Debug, PartialEq)]
pub enum PeerAnswers {
    /// Whether each pair intersects.
    Intersects(Vec<bool>),
    /// Each pair's distance.
    Distance(Vec<f64>),
    /// Each pair's contact, `None` when the method reports none.
    Contact(Vec<Option<Depth>>),
}

/// One line of the answers file.
#[derive(Clone, Debug, PartialEq)]
pub struct PeerRun {
    /// The best time per query, in nanoseconds.
    pub ns: f64,
    /// The answers, pair by pair.
    pub answers: PeerAnswers,
}

/// The answers file, by (workload, query, method).
pub type PeerRuns = BTreeMap<(String, String, String), PeerRun>;

/// Why an answers file could not be read.
#[derive(Clone, Debug, PartialEq)]
pub struct ParseError {
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "answers file, line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for ParseError {}

fn parse_line(text: &str) -> Result<((String, String, String), PeerRun), String> {
    let mut tokens = text.split_whitespace();
    let mut word = |what: &str| tokens.next().map(str::to_owned).ok_or(format!("no {what}"));
    let key = (word("workload")?, word("query")?, word("method")?);
    let numbers: Vec<f64> = tokens
        .map(|t| t.parse::<f64>().map_err(|_| format!("not a number: {t:?}")))
        .collect::<Result<_, _>>()?;
    let (&ns, values) = numbers.split_first().ok_or("no time")?;
    if !(ns.is_finite() && ns > 0.0) {
        return Err(format!("time {ns} is not a positive number"));
    }
    let answers = match key.1.as_str() {
        "intersects" => PeerAnswers::Intersects(values.iter().map(|&v| v != 0.0).collect()),
        "distance" => PeerAnswers::Distance(values.to_vec()),
        "contact" if values.len() % 4 == 0 => PeerAnswers::Contact(
            values
                .chunks_exact(4)
                .map(|c| (c[0] != 0.0).then_some(Depth { depth: c[0], normal: [c[1], c[2], c[3]] }))
                .collect(),
        ),
        "contact" => return Err("contact values do not come in fours".into()),
        q => return Err(format!("unknown query {q:?}")),
    };
    Ok((key, PeerRun { ns, answers }))
}

/// Reads an answers file (see the module documentation).
pub fn parse_answers(text: &str) -> Result<PeerRuns, ParseError> {
    let mut runs = PeerRuns::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let (key, run) = parse_line(line).map_err(|reason| ParseError { line: i + 1, reason })?;
        runs.insert(key, run);
    }
    Ok(runs)
}

#[cfg(test)]
mod tests {
    //! Oracle: the workload's own numbers, read back from the text with the standard parser.
    use super::*;
    use crate::workload;

    #[test]
    fn pairs_file_holds_the_workloads_exact_numbers() {
        let w = workload::hull_32();
        let mut text = String::new();
        write_pairs(&mut text, &w);
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("workload hull_32 250"));
        let first: Vec<f64> =
            lines.next().unwrap().split_whitespace().filter_map(|t| t.parse().ok()).collect();
        // "hull" is skipped; 32 is the count, then the points, then the pose.
        assert_eq!(first[0], 32.0);
        let points: Vec<f64> = w.cases[0].a.points.iter().flatten().copied().collect();
        assert_eq!(&first[1..97], &points[..]);
        assert_eq!(&first[97..101], &w.cases[0].pose_a.rotation[..]);
        assert_eq!(&first[101..104], &w.cases[0].pose_a.translation[..]);
        assert_eq!(text.lines().count(), 251);
    }

    #[test]
    fn answers_are_read_and_bad_lines_refused() {
        let text =
            "box_box intersects coal 12.5 1 0 1\n\nbox_box contact ccd 3 0 0 0 0 0.5 0 1 0\n";
        let runs = parse_answers(text).unwrap();
        let key = |q: &str, m: &str| ("box_box".to_owned(), q.to_owned(), m.to_owned());
        assert_eq!(
            runs[&key("intersects", "coal")].answers,
            PeerAnswers::Intersects(vec![true, false, true])
        );
        let contact =
            PeerAnswers::Contact(vec![None, Some(Depth { depth: 0.5, normal: [0.0, 1.0, 0.0] })]);
        assert_eq!(runs[&key("contact", "ccd")].answers, contact);
        assert_eq!(parse_answers("a contact m 1 0 0").unwrap_err().line, 1);
        assert!(parse_answers("a distance m -1 0").is_err());
        assert!(parse_answers("a distance m 1 x").is_err());
        assert!(parse_answers("a volume m 1 0").is_err());
    }
}
