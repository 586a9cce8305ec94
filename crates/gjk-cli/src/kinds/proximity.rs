//! `"query": "proximity"` (the default): distance and closest points of two shapes, or their
//! penetration depth, normal and deepest points when they intersect.

use std::io::Write;

use gjk::{ContactOptions, GjkOptions, Goal, Pair, Real, Termination, Vector, WarmStart};
use serde_json::Value;

use super::{Failure, QueryKind, NON_FINITE};
use crate::json::Object;
use crate::output::Record;
use crate::shapes::{parse_pair, ParsedPair, PosedPair};
use crate::status::Status;

/// The row of [`super::KINDS`].
pub(super) const KIND: QueryKind = QueryKind {
    name: "proximity",
    input: r#"{"a": SHAPE, "b": SHAPE, "pose_a": POSE, "pose_b": POSE}
               the distance of A and B, or how deep they overlap; poses optional"#,
    answer: r#"  {"id": 1, "intersects": false, "distance": 1.0, "point_a": [..], "point_b": [..],
   "normal": [..], "penetration_depth": 0.0, "iterations": 3, "status": "converged"}
  intersects         whether the shapes touch or overlap (touching counts as intersecting)
  distance           the gap between the shapes; 0 when intersecting
  point_a, point_b   world coordinates: the closest points when apart; when intersecting,
                     the deepest points of the overlap
  normal             unit, from A toward B; moving B by penetration_depth x normal
                     separates intersecting shapes
  penetration_depth  how deep the shapes overlap; 0 when apart or just touching
  iterations         support calls of GJK plus those of EPA
  status             how the loops behind these numbers ended: GJK's for separated pairs;
                     for intersecting pairs the contact query's (epa_* when EPA ran):
"#,
    statuses: &Status::PROXIMITY,
    run,
};

fn run(line: &Object<'_>, id: &Value, out: &mut dyn Write) -> Result<(), Failure> {
    match parse_pair(line)? {
        ParsedPair::Two(pair) => write(out, id, &solve(&pair)),
        ParsedPair::Three(pair) => write(out, id, &solve(&pair)),
    }
}

/// Writes the answer record: `{"id","intersects","distance","point_a","point_b","normal",
/// "penetration_depth","iterations","status"}`.
fn write<V: Vector<Real = f64>>(
    out: &mut dyn Write,
    id: &Value,
    answer: &Answer<V>,
) -> Result<(), Failure> {
    let finite = answer.distance.is_finite()
        && answer.penetration_depth.is_finite()
        && answer.point_a.is_finite()
        && answer.point_b.is_finite()
        && answer.normal.is_finite();
    if !finite {
        return Err(Failure::Line(NON_FINITE.to_owned()));
    }
    let mut record = Record::begin(out, id)?;
    record.field("intersects", answer.intersecting)?;
    record.number("distance", answer.distance)?;
    record.vector("point_a", answer.point_a)?;
    record.vector("point_b", answer.point_b)?;
    record.vector("normal", answer.normal)?;
    record.number("penetration_depth", answer.penetration_depth)?;
    record.field("iterations", answer.iterations)?;
    record.string("status", answer.status.name())?;
    Ok(record.end()?)
}

/// The answer to one pair, in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Answer<V: Vector> {
    /// Whether the shapes touch or overlap.
    pub intersecting: bool,
    /// The gap between them (0 when intersecting).
    pub distance: f64,
    /// Separated: the closest point of A. Intersecting: A's deepest point (EPA witness).
    pub point_a: V,
    /// Separated: the closest point of B. Intersecting: B's deepest point.
    pub point_b: V,
    /// The unit normal from A toward B (for intersecting pairs: moving B by
    /// `penetration_depth × normal` separates them).
    pub normal: V,
    /// How deep the shapes overlap (0 when separated or just touching).
    pub penetration_depth: f64,
    /// Support calls of GJK plus those of EPA.
    pub iterations: u32,
    /// How GJK's distance run ended (the demo's `termination` column).
    pub termination: Termination,
    /// How the loops behind the printed numbers ended (the `status` field).
    pub status: Status,
}

/// The query of one pair: GJK distance, then, for intersecting pairs, the contact query (EPA on
/// the cores, warm-started from GJK's simplex) for the depth and normal. Default options.
pub(crate) fn solve<V: Vector<Real = f64>>(pair: &PosedPair<V>) -> Answer<V> {
    let pair = Pair::new(&*pair.a, pair.pose_a, &*pair.b, pair.pose_b);
    let mut cache = WarmStart::default();
    let gjk = pair.gjk(Goal::Distance, &GjkOptions::default(), &mut cache);
    let mut answer = Answer {
        intersecting: gjk.intersecting,
        distance: gjk.distance,
        point_a: gjk.point_a,
        point_b: gjk.point_b,
        normal: gjk.normal,
        penetration_depth: 0.0,
        iterations: gjk.iterations,
        termination: gjk.termination,
        status: Status::of(&gjk, None),
    };
    if gjk.intersecting {
        let contact = pair.contact_with(&ContactOptions::default(), &mut cache);
        // Without a contact GJK's points stay, and the status says they are no contact.
        if let Some(c) = contact.contact {
            answer.point_a = c.point_a;
            answer.point_b = c.point_b;
            answer.normal = c.normal;
            answer.penetration_depth = c.depth.max(f64::ZERO);
        }
        answer.iterations += contact.gjk_iterations + contact.epa_iterations;
        answer.status = Status::of(&gjk, Some(&contact));
    }
    answer
}
