//! `serde` for [`Shape`] and [`Pose`] (feature `serde`).
//!
//! A shape is written as its defining data with a `type` tag — `{"type": "cuboid",
//! "half_extents": [1, 2, 3]}` in JSON — and read back through the shapes' constructors, so a
//! negative radius or a NaN coordinate in the input is a deserialization error, never a shape.
//! A hull is written as its vertices (the hull of the hull is itself). User shapes
//! ([`Shape::Custom`]) have no data to write: serializing one is an error.
//!
//! A pose is `{"rotation": R, "translation": V}` with glam's encodings (a quaternion as
//! `[x, y, z, w]`; a 2D rotation as `{"cos": c, "sin": s}`), normalised and checked by
//! [`Pose::new`] when read.
//!
//! ```
//! use gjk::{Cuboid, Pose, Shape};
//! use glam::Vec3;
//! let shape: Shape<Vec3> = Cuboid::new(Vec3::new(1.0, 2.0, 3.0))?.into();
//! let json = serde_json::to_string(&shape).unwrap();
//! assert_eq!(json, r#"{"type":"cuboid","half_extents":[1.0,2.0,3.0]}"#);
//! let back: Shape<Vec3> = serde_json::from_str(&json).unwrap();
//! assert_eq!(format!("{back:?}"), format!("{shape:?}"));
//! assert!(serde_json::from_str::<Shape<Vec3>>(r#"{"type":"ball","radius":-1}"#).is_err());
//! # Ok::<(), gjk::ShapeError>(())
//! ```

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::de::Error as _;
use serde::ser::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::any::{Shape, ShapeSpace};
use super::{Ball, Capsule, Cuboid, Ellipsoid, Point, Polytope, Rounded, Segment, Triangle};
use crate::error::ShapeError;
use crate::math::{Pose, Vector};

/// The data of a shape, as written.
#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum Repr<V, R> {
    Point { position: V },
    Segment { a: V, b: V },
    Triangle { a: V, b: V, c: V },
    Ball { radius: R },
    Cuboid { half_extents: V },
    Capsule { a: V, b: V, radius: R },
    Ellipsoid { radii: V },
    Polytope { points: Vec<V> },
    Cylinder { half_height: R, radius: R },
    Cone { half_height: R, radius: R },
    Rounded { shape: Box<Repr<V, R>>, margin: R },
}

fn to_repr<V: ShapeSpace>(shape: &Shape<V>) -> Option<Repr<V, V::Real>> {
    Some(match shape {
        Shape::Point(p) => Repr::Point { position: p.position() },
        Shape::Segment(s) => Repr::Segment { a: s.a(), b: s.b() },
        Shape::Triangle(t) => {
            let [a, b, c] = t.corners();
            Repr::Triangle { a, b, c }
        }
        Shape::Ball(b) => Repr::Ball { radius: b.radius() },
        Shape::Cuboid(c) => Repr::Cuboid { half_extents: c.half_extents() },
        Shape::Capsule(c) => {
            let [a, b] = c.ends();
            Repr::Capsule { a, b, radius: c.radius() }
        }
        Shape::Ellipsoid(e) => Repr::Ellipsoid { radii: e.radii() },
        Shape::Polytope(p) => Repr::Polytope { points: p.points().to_vec() },
        Shape::Solid(s) => match V::solid_parts(s) {
            (false, half_height, radius) => Repr::Cylinder { half_height, radius },
            (true, half_height, radius) => Repr::Cone { half_height, radius },
        },
        Shape::Rounded(r) => {
            Repr::Rounded { shape: Box::new(to_repr(r.shape())?), margin: r.rounding() }
        }
        Shape::Custom(_) => return None,
    })
}

/// The shape of `repr`, built by the constructors, or why not.
fn from_repr<V: ShapeSpace>(repr: Repr<V, V::Real>) -> Result<Shape<V>, String> {
    let e = |e: ShapeError| format!("invalid shape: {e}");
    Ok(match repr {
        Repr::Point { position } => Point::new(position).map_err(e)?.into(),
        Repr::Segment { a, b } => Segment::new(a, b).map_err(e)?.into(),
        Repr::Triangle { a, b, c } => Triangle::new(a, b, c).map_err(e)?.into(),
        Repr::Ball { radius } => Ball::new(radius).map_err(e)?.into(),
        Repr::Cuboid { half_extents } => Cuboid::new(half_extents).map_err(e)?.into(),
        Repr::Capsule { a, b, radius } => Capsule::new(a, b, radius).map_err(e)?.into(),
        Repr::Ellipsoid { radii } => Ellipsoid::new(radii).map_err(e)?.into(),
        Repr::Polytope { points } => Polytope::new(points).map_err(e)?.into(),
        Repr::Cylinder { half_height, radius } => solid::<V>(false, half_height, radius)?,
        Repr::Cone { half_height, radius } => solid::<V>(true, half_height, radius)?,
        Repr::Rounded { shape, margin } => {
            Shape::Rounded(Box::new(Rounded::new(from_repr(*shape)?, margin).map_err(e)?))
        }
    })
}

/// A cylinder or cone; in 2D, where there are none, the error says so.
fn solid<V: ShapeSpace>(
    is_cone: bool,
    half_height: V::Real,
    radius: V::Real,
) -> Result<Shape<V>, String> {
    match V::make_solid(is_cone, half_height, radius) {
        Some(Ok(solid)) => Ok(Shape::Solid(solid)),
        Some(Err(e)) => Err(format!("invalid shape: {e}")),
        None => Err("invalid shape: cylinders and cones exist only in 3D".into()),
    }
}

impl<V> Serialize for Shape<V>
where
    V: ShapeSpace + Serialize,
    V::Real: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match to_repr(self) {
            Some(repr) => repr.serialize(serializer),
            None => Err(S::Error::custom("a user shape (Shape::Custom) has no data to serialize")),
        }
    }
}

impl<'de, V> Deserialize<'de> for Shape<V>
where
    V: ShapeSpace + Deserialize<'de>,
    V::Real: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let repr = Repr::<V, V::Real>::deserialize(deserializer)?;
        from_repr(repr).map_err(D::Error::custom)
    }
}

/// A pose as written.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PoseRepr<R, V> {
    rotation: R,
    translation: V,
}

impl<V> Serialize for Pose<V>
where
    V: Vector + Serialize,
    V::Rotation: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        PoseRepr { rotation: self.rotation(), translation: self.translation() }
            .serialize(serializer)
    }
}

impl<'de, V> Deserialize<'de> for Pose<V>
where
    V: Vector + Deserialize<'de>,
    V::Rotation: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let repr = PoseRepr::<V::Rotation, V>::deserialize(deserializer)?;
        Pose::new(repr.rotation, repr.translation)
            .map_err(|e| D::Error::custom(format!("invalid pose: {e}")))
    }
}
