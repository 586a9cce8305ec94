//! `"query": "shape_cast"`: the first time two shapes moving in straight lines touch.

use std::io::Write;

use gjk::{shape_cast, CastStatus, ShapeCastResult, Vector};
use glam::{DVec2, DVec3};
use serde_json::Value;

use super::{Failure, QueryKind, NON_FINITE};
use crate::json::Object;
use crate::output::Record;
use crate::shapes::{Dimension, PairSpec, Space};
use crate::status::Status;

/// The row of [`super::KINDS`].
pub(super) const KIND: QueryKind = QueryKind {
    name: "shape_cast",
    input: r#"{"a": SHAPE, "b": SHAPE, "pose_a": POSE, "pose_b": POSE, "velocity_a": P,
               "velocity_b": P, "max_toi": t}
               A moves by t x velocity_a and B by t x velocity_b (world coordinates,
               translation only) for t in [0, max_toi]; max_toi >= 0; poses optional"#,
    answer: r#"  {"id": 1, "hit": true, "toi": 0.5, "point_a": [..], "point_b": [..], "normal": [..],
   "iterations": 4, "status": "hit"}
  hit                whether the shapes touch within [0, max_toi] (or already do at t = 0)
  toi                the time of first contact, in units of the velocities; 0 when
                     initially overlapping; max_toi when there is no hit; at the iteration
                     cap, a lower bound: the shapes are apart before it
  point_a, point_b   the contact points on A and on B at time toi, world coordinates (equal
                     within the tolerance); when initially overlapping, the deepest points;
                     null when there is no hit or no contact
  normal             unit, from A toward B at time toi (initially overlapping: along which
                     B moves out); null when there is no hit or no contact
  iterations         support calls
  status             how the cast ended:
"#,
    statuses: &Status::CAST,
    run,
};

/// A shape cast as read from JSON, before the dimension is known.
struct CastSpec {
    pair: PairSpec,
    velocity_a: [f64; 3],
    velocity_b: [f64; 3],
    max_toi: f64,
}

fn run(line: &Object<'_>, id: &Value, out: &mut dyn Write) -> Result<(), Failure> {
    let mut dimension = Dimension::default();
    let cast = CastSpec {
        pair: PairSpec::parse(line, &mut dimension)?,
        velocity_a: dimension.vector(line, "velocity_a")?,
        velocity_b: dimension.vector(line, "velocity_b")?,
        max_toi: super::max_toi(line)?,
    };
    if dimension.resolve(&[&cast.pair.a, &cast.pair.b]) == 2 {
        answer::<DVec2>(&cast, id, out)
    } else {
        answer::<DVec3>(&cast, id, out)
    }
}

/// Casts in dimension `V` and writes the answer record: `{"id","hit","toi","point_a",
/// "point_b","normal","iterations","status"}`.
fn answer<V: Space>(cast: &CastSpec, id: &Value, out: &mut dyn Write) -> Result<(), Failure> {
    let pair = cast.pair.build::<V>()?;
    let velocity_a = V::from_components(cast.velocity_a);
    let velocity_b = V::from_components(cast.velocity_b);
    let (a, b) = (&*pair.a, &*pair.b);
    let result = shape_cast(a, &pair.pose_a, velocity_a, b, &pair.pose_b, velocity_b, cast.max_toi);
    write(out, id, &result)
}

fn write<V: Vector<Real = f64>>(
    out: &mut dyn Write,
    id: &Value,
    cast: &ShapeCastResult<V>,
) -> Result<(), Failure> {
    if cast.status == CastStatus::InvalidInput {
        let why = "the library refused the cast as invalid (a bug: please report this line)";
        return Err(Failure::Line(why.to_owned()));
    }
    let finite = cast.toi.is_finite()
        && cast.point_a.is_finite()
        && cast.point_b.is_finite()
        && cast.normal.is_finite();
    if !finite {
        return Err(Failure::Line(NON_FINITE.to_owned()));
    }
    // The library leaves points and normal zero when it has none: no hit, or an initial
    // overlap whose contact query found no direction.
    let contact = cast.status != CastStatus::NoHit && cast.normal != V::ZERO;
    let mut record = Record::begin(out, id)?;
    record.field("hit", cast.is_hit())?;
    record.number("toi", cast.toi)?;
    record.optional_vector("point_a", contact.then_some(cast.point_a))?;
    record.optional_vector("point_b", contact.then_some(cast.point_b))?;
    record.optional_vector("normal", contact.then_some(cast.normal))?;
    record.field("iterations", cast.iterations)?;
    record.string("status", Status::Cast(cast.status).name())?;
    Ok(record.end()?)
}
