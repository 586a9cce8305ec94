//! # gjk — convex collision queries that never hang
//!
//! Two convex shapes, each known only by its [support function](Support): do they touch, how far
//! apart are they, and where are their closest points? This crate answers with the
//! Gilbert–Johnson–Keerthi algorithm and the signed-volumes simplex solver of Montanari et al.
//! (2017) — exact on polytopes, robust on flat, thin and touching configurations, bounded in
//! every loop, allocation-free in the hot path, in 2D and 3D, `f32` and `f64`, on
//! [glam](https://docs.rs/glam) types.
//!
//! ```
//! use gjk::{closest_points, intersects, Ball, Cuboid, Pose, Proximity};
//! use glam::DVec3;
//!
//! let crate_box = Cuboid::new(DVec3::new(1.0, 0.5, 0.5))?;
//! let ball = Ball::<DVec3>::new(0.5)?;
//! let at_origin = Pose::IDENTITY;
//! let over_there = Pose::from_translation(DVec3::new(3.0, 0.0, 0.0))?;
//!
//! assert!(!intersects(&crate_box, &at_origin, &ball, &over_there));
//! match closest_points(&crate_box, &at_origin, &ball, &over_there) {
//!     Proximity::Separated(s) => {
//!         assert!((s.distance - 1.5).abs() < 1e-12);
//!         assert!((s.point_a - DVec3::new(1.0, 0.0, 0.0)).length() < 1e-12);
//!         assert!((s.normal - DVec3::X).length() < 1e-12); // from A toward B
//!     }
//!     Proximity::Intersecting => unreachable!(),
//! }
//! # Ok::<(), gjk::ShapeError>(())
//! ```
//!
//! ## Map
//! * Shapes ([`shape`]): [`Point`], [`Segment`], [`Triangle`], [`Polytope`] (hull of points),
//!   [`Ball`], [`Ellipsoid`], [`Cuboid`], [`Capsule`], 3D [`Cylinder`] and [`Cone`]; combinators
//!   [`Posed`], [`Rounded`], [`MinkowskiSum`]. Implement [`Support`] for your own. Each shape
//!   tells what its [`Core`] is (a point, a segment, a box, a small polygon or polytope, a
//!   triangle, an ellipsoid, a cylinder, a cone, or general), and one dispatch table
//!   ([`dispatch`]) picks every query's path from the cores.
//! * Every query comes as `query(a, pose_a, b, pose_b)` with defaults and
//!   `query_with(.., &Options)` with options and the whole result: [`intersects`] /
//!   [`intersects_with`], [`distance`] / [`distance_with`], [`closest_points`] /
//!   [`closest_points_with`], [`contact()`] / [`contact_with`] (its one extra parameter is the
//!   prediction distance, which every caller chooses), [`ray_cast`] / [`ray_cast_with`] (with a
//!   [`Ray`]), [`shape_cast`] / [`shape_cast_with`]. A [`Pair`] holds two posed shapes for
//!   repeated queries, with a [`WarmStart`] cache for coherent motion ([`Pair::gjk`],
//!   [`Pair::contact_with`]) and a [`GjkObserver`] to watch each iteration; a [`Trace`] records
//!   them ([`trace`]). One [`Tolerance`] per pair says what touching means, the same for every
//!   query and path.
//! * Penetration ([`contact`](mod@contact), [`epa`]): the depth, normal and witness points of
//!   overlapping shapes (or their gap, up to a prediction distance) as a [`Contact`]; the
//!   Expanding Polytope Algorithm runs only when the shapes' cores overlap and no closed form
//!   applies.
//! * Contact manifolds ([`manifold`](mod@manifold)): [`manifold()`] gives the contact patch
//!   a solver needs to rest a box on a table — one normal, up to 2 points (2D) or 4 (3D),
//!   each with its depth and a [`ContactId`] naming the features that made it, stable from
//!   frame to frame — by clipping the shapes' supporting features
//!   ([`Support::feature`]) along the contact's normal; [`Pair::manifold_with`] takes a
//!   [`WarmStart`] cache for pairs followed from frame to frame (the [`world`]'s).
//! * Casts ([`cast`]): time of impact under linear motion by the GJK ray cast of van den Bergen
//!   (2004), margins as a distance target, with a [`CastStatus`] for hits, misses and initial
//!   overlap; ray casts against the primitives in closed form ([`dispatch`]).
//! * Time of impact under rotation and translation ([`toi`]): [`time_of_impact`] /
//!   [`time_of_impact_with`] of two shapes each moving by a [`Motion`] (linear and angular
//!   velocity), by conservative advancement, which never misses a contact.
//! * Math ([`math`]): [`Vector`] over glam's `Vec2`, `Vec3`, `Vec3A`, `DVec2`, `DVec3`; [`Pose`].

//! ## Conventions
//! Shapes live in their local frame; a [`Pose`] places them in the world. Results are in world
//! coordinates; the normal points from A toward B. Touching (distance within the relative
//! tolerance of the shapes' size) counts as intersecting. Constructors validate their input and
//! return a [`ShapeError`]; no query panics or returns NaN for valid shapes.
//!
//! Range: the simplex solver multiplies up to three coordinates (signed volumes), so answers
//! are accurate for coordinates (relative to shape A's frame) of magnitude about `1e-100` to
//! `1e100` in `f64` and `1e-10` to `1e10` in `f32`; beyond that they stay finite but may be
//! wrong. Far from the world origin, put the offset in the poses: queries run in A's frame.
//!
//! Without the default `std` feature the crate is `no_std` (it needs `alloc` for [`Polytope`]).

#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

pub mod bounds;
pub mod cast;
pub mod contact;
pub mod dispatch;
pub mod epa;
pub mod error;
mod finish;
pub mod geometry;
pub mod gjk;
pub mod hull;
pub mod manifold;
pub mod math;
pub mod mpr;
mod pair;
mod polish;
mod ray;
mod sat;
pub mod shape;
pub mod simplex;
#[cfg(test)]
mod test_rng;
pub mod toi;
mod tolerance;
pub mod trace;
pub mod world;

pub use crate::bounds::Aabb;
pub use crate::cast::{
    ray_cast, ray_cast_with, shape_cast, shape_cast_with, CastStatus, Ray, RayCastOptions,
    RayCastResult, RayHit, ShapeCastOptions, ShapeCastResult,
};
pub use crate::contact::{
    contact, contact_with, Contact, ContactOptions, ContactResult, ContactStatus,
};
pub use crate::epa::{
    EpaDecision, EpaFace, EpaObserver, EpaOptions, EpaStep, EpaTermination, Penetration,
};
pub use crate::error::ShapeError;
pub use crate::gjk::{
    closest_points, closest_points_with, distance, distance_with, intersects, intersects_with,
    GjkObserver, GjkOptions, GjkResult, GjkStep, Goal, Pair, Proximity, Separation, Termination,
    WarmStart,
};
pub use crate::hull::Hull;
pub use crate::manifold::{
    manifold, ContactId, ManifoldOptions, ManifoldPoint, ManifoldResult, ManifoldStatus,
};
pub use crate::math::{Pose, Real, Rotation, Rotation2, Vector, Vector3};
pub use crate::shape::{
    full_support, Ball, Capsule, Cone, Core, CoreBoundary, CorePolygon, CorePolytope, Cuboid,
    Cylinder, Ellipsoid, Feature, MinkowskiSum, NoSolid, Point, Polytope, Posed, Rounded, Segment,
    Shape, ShapeSpace, Solid, Support, Triangle,
};
pub use crate::simplex::{Simplex, SupportPoint};
pub use crate::toi::{reach, time_of_impact, time_of_impact_with, Motion, ToiOptions, ToiResult};
pub use crate::tolerance::Tolerance;
pub use crate::trace::{EpaIteration, GjkIteration, Trace, TraceEvent};
