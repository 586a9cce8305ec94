//! `"query": "time_of_impact"`: the first time two moving, turning shapes come within the
//! linear slop of each other.

use std::io::Write;

use gjk::{time_of_impact, CastStatus, Motion, ToiResult, Vector};
use glam::{DVec2, DVec3};
use serde_json::Value;

use super::{Failure, QueryKind, NON_FINITE};
use crate::json::Object;
use crate::output::Record;
use crate::shapes::{Dimension, PairSpec, Space};
use crate::status::Status;

/// The row of [`super::KINDS`].
pub(super) const KIND: QueryKind = QueryKind {
    name: "time_of_impact",
    input: r#"{"a": SHAPE, "b": SHAPE, "pose_a": POSE, "pose_b": POSE, "velocity_a": P,
               "velocity_b": P, "angular_velocity_a": W, "angular_velocity_b": W,
               "max_toi": t}
               A moves by t x velocity_a and turns at angular_velocity_a about its
               position (pose_a's translation), B likewise, for t in [0, max_toi]; W is
               radians per unit time: a number in 2D (counter-clockwise), a vector
               [x, y, z] in 3D (axis x rate); angular velocities optional (0), poses
               optional, max_toi >= 0. Finds when the shapes first come within the
               linear slop (1/1000 of the smaller shape's reach from its position)"#,
    answer: r#"  {"id": 1, "hit": true, "toi": 0.5, "point_a": [..], "point_b": [..], "normal": [..],
   "distance": 0.001, "slop": 0.002, "iterations": 4, "status": "hit"}
  hit                whether the shapes come within the slop in [0, max_toi] (or already
                     overlap at t = 0); a pair that touches in the interval is never missed
  toi                the first time they are within the slop (conservative: they are at
                     least slop/2 apart before it); 0 when initially overlapping; max_toi
                     when there is no hit; at the iteration cap, a lower bound
  point_a, point_b   the closest points of A and B at time toi, world coordinates; when
                     initially overlapping, the deepest points; null when there is no hit
                     or no contact
  normal             unit, from A toward B at time toi; null when there is no hit or no
                     contact
  distance           the shapes' distance at time toi (between slop/2 and slop for a hit);
                     minus the depth when initially overlapping; null when there is no hit
  slop               the target separation used
  iterations         advancement steps (one distance query each)
  status             how the query ended:
"#,
    statuses: &Status::CAST,
    run,
};

/// A time-of-impact query as read from JSON, before the dimension is known.
struct ToiSpec {
    pair: PairSpec,
    velocity_a: [f64; 3],
    velocity_b: [f64; 3],
    /// `[0, 0, ω]` in 2D.
    angular_a: [f64; 3],
    angular_b: [f64; 3],
    max_toi: f64,
}

fn run(line: &Object<'_>, id: &Value, out: &mut dyn Write) -> Result<(), Failure> {
    let mut dimension = Dimension::default();
    let query = ToiSpec {
        pair: PairSpec::parse(line, &mut dimension)?,
        velocity_a: dimension.vector(line, "velocity_a")?,
        velocity_b: dimension.vector(line, "velocity_b")?,
        angular_a: dimension.angular_velocity(line, "angular_velocity_a")?,
        angular_b: dimension.angular_velocity(line, "angular_velocity_b")?,
        max_toi: super::max_toi(line)?,
    };
    if dimension.resolve(&[&query.pair.a, &query.pair.b]) == 2 {
        answer::<DVec2>(&query, id, out)
    } else {
        answer::<DVec3>(&query, id, out)
    }
}

/// Answers in dimension `V` and writes the record: `{"id","hit","toi","point_a","point_b",
/// "normal","distance","slop","iterations","status"}`.
fn answer<V: Space>(query: &ToiSpec, id: &Value, out: &mut dyn Write) -> Result<(), Failure> {
    let pair = query.pair.build::<V>()?;
    let motion_a =
        Motion::new(pair.pose_a, V::from_components(query.velocity_a), V::angular(query.angular_a));
    let motion_b =
        Motion::new(pair.pose_b, V::from_components(query.velocity_b), V::angular(query.angular_b));
    let result = time_of_impact(&*pair.a, &motion_a, &*pair.b, &motion_b, query.max_toi);
    write(out, id, &result)
}

fn write<V: Vector<Real = f64>>(
    out: &mut dyn Write,
    id: &Value,
    r: &ToiResult<V>,
) -> Result<(), Failure> {
    if r.status == CastStatus::InvalidInput {
        // Every field is checked when read (finite, |x| <= 1e15), so the angle over the
        // interval is finite too: the library refusing is a bug.
        let why = "the library refused the motion as invalid (a bug: please report this line)";
        return Err(Failure::Line(why.to_owned()));
    }
    let finite = r.toi.is_finite()
        && r.distance.is_finite()
        && r.linear_slop.is_finite()
        && r.point_a.is_finite()
        && r.point_b.is_finite()
        && r.normal.is_finite();
    if !finite {
        return Err(Failure::Line(NON_FINITE.to_owned()));
    }
    // The library leaves points and normal zero when it has none: no hit, or an initial
    // overlap whose contact query found no direction.
    let found = r.status != CastStatus::NoHit;
    let contact = found && r.normal != V::ZERO;
    let mut record = Record::begin(out, id)?;
    record.field("hit", r.is_hit())?;
    record.number("toi", r.toi)?;
    record.optional_vector("point_a", contact.then_some(r.point_a))?;
    record.optional_vector("point_b", contact.then_some(r.point_b))?;
    record.optional_vector("normal", contact.then_some(r.normal))?;
    record.optional_number("distance", found.then_some(r.distance))?;
    record.number("slop", r.linear_slop)?;
    record.field("iterations", r.iterations)?;
    record.string("status", Status::Cast(r.status).name())?;
    Ok(record.end()?)
}
