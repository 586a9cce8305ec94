//! `"query": "ray_cast"`: where a ray first hits one posed shape.

use std::io::Write;

use gjk::{ray_cast_with, CastStatus, RayCastOptions, RayCastResult, Vector};
use glam::{DVec2, DVec3};
use serde_json::Value;

use super::{Failure, QueryKind, NON_FINITE};
use crate::json::{self, Object};
use crate::output::Record;
use crate::shapes::{Dimension, PoseSpec, ShapeSpec, Space};
use crate::status::Status;

/// The row of [`super::KINDS`].
pub(super) const KIND: QueryKind = QueryKind {
    name: "ray_cast",
    input: r#"{"shape": SHAPE, "pose": POSE, "origin": P, "direction": P, "max_toi": t,
               "solid": true}
               the ray origin + s x direction for s in [0, max_toi], in world coordinates;
               direction not zero (need not be unit), max_toi >= 0; pose optional
               (identity); solid optional (default true: a ray starting inside the shape
               hits at toi 0; false: it hits where it leaves the shape)"#,
    answer: r#"  {"id": 1, "hit": true, "toi": 2.0, "point": [..], "normal": [..], "iterations": 2,
   "status": "hit"}
  hit                whether the ray hits within [0, max_toi] (or starts inside the shape)
  toi                the hit is at origin + toi x direction (in units of direction); with no
                     hit, max_toi; at the iteration cap, a lower bound: no hit before it
  point              the hit point, world coordinates; null when there is no hit
  normal             the unit outward normal of the shape there; null when there is no hit,
                     and when a ray starting inside a solid shape has none
  iterations         support calls (0: answered in closed form, as for the built-in
                     primitives)
  status             how the cast ended:
"#,
    statuses: &Status::CAST,
    run,
};

/// A ray cast as read from JSON, before the dimension is known.
struct RaySpec {
    shape: ShapeSpec,
    pose: PoseSpec,
    origin: [f64; 3],
    direction: [f64; 3],
    max_toi: f64,
    solid: bool,
}

fn run(line: &Object<'_>, id: &Value, out: &mut dyn Write) -> Result<(), Failure> {
    let mut dimension = Dimension::default();
    let ray = RaySpec {
        shape: ShapeSpec::parse(line.required("shape")?, "shape", &mut dimension)?,
        pose: PoseSpec::parse(line.optional("pose"), "pose", &mut dimension)?,
        origin: dimension.vector(line, "origin")?,
        direction: dimension.vector(line, "direction")?,
        max_toi: super::max_toi(line)?,
        solid: line.flag("solid", true)?,
    };
    if ray.direction == [0.0; 3] {
        let why = "must not be zero: a ray needs a direction".to_owned();
        return Err(Failure::Line(json::at("direction", why)));
    }
    if dimension.resolve(&[&ray.shape]) == 2 {
        answer::<DVec2>(&ray, id, out)
    } else {
        answer::<DVec3>(&ray, id, out)
    }
}

/// Casts the ray in dimension `V` and writes the answer record: `{"id","hit","toi","point",
/// "normal","iterations","status"}`.
fn answer<V: Space>(ray: &RaySpec, id: &Value, out: &mut dyn Write) -> Result<(), Failure> {
    let shape = ray.shape.build::<V>("shape")?;
    let pose = ray.pose.build::<V>("pose")?;
    let options = RayCastOptions { solid: ray.solid, ..RayCastOptions::default() };
    let origin = V::from_components(ray.origin);
    let direction = V::from_components(ray.direction);
    let cast =
        ray_cast_with(&*shape, &pose, &gjk::Ray::new(origin, direction), ray.max_toi, &options);
    write(out, id, &cast)
}

fn write<V: Vector<Real = f64>>(
    out: &mut dyn Write,
    id: &Value,
    cast: &RayCastResult<V>,
) -> Result<(), Failure> {
    if cast.status == CastStatus::InvalidInput {
        let why = "the library refused the ray as invalid (a bug: please report this line)";
        return Err(Failure::Line(why.to_owned()));
    }
    let hit = cast.hit;
    if !(hit.toi.is_finite() && hit.point.is_finite() && hit.normal.is_finite()) {
        return Err(Failure::Line(NON_FINITE.to_owned()));
    }
    let found = cast.status != CastStatus::NoHit;
    let mut record = Record::begin(out, id)?;
    record.field("hit", cast.hit().is_some())?;
    record.number("toi", hit.toi)?;
    record.optional_vector("point", found.then_some(hit.point))?;
    record.optional_vector("normal", (found && hit.normal != V::ZERO).then_some(hit.normal))?;
    record.field("iterations", cast.iterations)?;
    record.string("status", Status::Cast(cast.status).name())?;
    Ok(record.end()?)
}
