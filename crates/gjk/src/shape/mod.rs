//! Convex shapes, each known by its support function.
//!
//! A shape is the set `core ⊕ ball(margin)`: the *core* is given by [`Support::support`], and
//! [`Support::margin`] sweeps it by a ball (0 for most shapes). Balls, capsules and rounded
//! shapes have a small core (a point, a segment, any shape) and a radius: GJK runs on the cores
//! and subtracts the radii afterwards, which is exact and converges in a few iterations where
//! the curved surface would need many.

mod any;
mod ball;
mod capsule;
mod cone;
mod cores;
mod cuboid;
mod cylinder;
mod ellipsoid;
mod feature;
mod lanes;
mod minkowski;
mod outline;
mod point;
mod polytope;
mod posed;
mod rounded;
mod segment;
#[cfg(feature = "serde")]
mod serde;
mod triangle;

pub use any::{NoSolid, Shape, ShapeSpace, Solid};
pub use ball::Ball;
pub use capsule::Capsule;
pub use cone::Cone;
pub(crate) use cores::{closest_on_segment, closest_on_segments, offset_from_core};
pub use cores::{Core, CoreBoundary, CorePolygon, CorePolytope};
pub use cuboid::Cuboid;
pub use cylinder::Cylinder;
pub use cylinder::CAP_CORNERS;
pub use ellipsoid::Ellipsoid;
pub(crate) use feature::polygon_normal;
pub use feature::{Feature, FEATURE_CAPACITY};
pub use minkowski::MinkowskiSum;
pub use point::Point;
pub use polytope::Polytope;
pub use posed::Posed;
pub use rounded::Rounded;
pub use segment::Segment;
pub use triangle::Triangle;

use crate::bounds::Aabb;
use crate::error::ShapeError;
use crate::math::{Pose, Real, Vector};

/// A convex shape given by its support function, in its own local frame.
///
/// Implement this for your own convex shapes; every query accepts them.
///
/// ```
/// use gjk::{Support, Vector};
/// use glam::DVec2;
///
/// /// The unit square [0, 1]², written by hand.
/// struct UnitSquare;
/// impl Support<DVec2> for UnitSquare {
///     fn support(&self, dir: DVec2) -> DVec2 {
///         DVec2::new(if dir.x > 0.0 { 1.0 } else { 0.0 }, if dir.y > 0.0 { 1.0 } else { 0.0 })
///     }
///     fn center(&self) -> DVec2 {
///         DVec2::splat(0.5)
///     }
/// }
/// let d = gjk::distance(&UnitSquare, &gjk::Pose::IDENTITY, &gjk::Ball::<DVec2>::new(1.0).unwrap(),
///     &gjk::Pose::from_translation(DVec2::new(3.0, 0.5)).unwrap());
/// assert!((d - 1.0).abs() < 1e-12);
/// ```
pub trait Support<V: Vector> {
    /// A point of the core that is farthest along `dir`: `argmax_{p ∈ core} p · dir`.
    ///
    /// `dir` need not be unit length and may be tiny; it is never NaN. For the zero direction
    /// any point of the core is a valid answer. Must be deterministic.
    fn support(&self, dir: V) -> V;

    /// [`Support::support`] with a hint: `hint` holds where the last search ended (a vertex
    /// index; 0 at first). Shapes that can search locally — hulls with vertex adjacency weigh
    /// that vertex in their climb — use it and write the new place back, so a query's
    /// successive, similar directions (and the next frame's, through the warm-start cache)
    /// cost O(1).
    /// The default ignores the hint.
    #[inline]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        let _ = hint;
        self.support(dir)
    }

    /// The radius of the ball that sweeps the core (0 for shapes that are their own core;
    /// a ball's radius, a capsule's radius, a rounded shape's margin).
    #[inline]
    fn margin(&self) -> V::Real {
        V::Real::ZERO
    }

    /// A point deep inside the shape, used for the first search direction.
    #[inline]
    fn center(&self) -> V {
        V::ZERO
    }

    /// The radius about [`Support::center`] of a ball holding the core (the shape without its
    /// margin), or an upper bound of it within a small factor (the built-in shapes bound
    /// lengths by sum norms, which need no square root). Touching tolerances are relative to
    /// the pair's size, the centres' distance plus both extents, the same for every query of
    /// the pair.
    ///
    /// The default asks the support function along ± each axis: every point `p` of the core
    /// lies within the largest of those support points' distances `m` from the centre in each
    /// coordinate, so `|p − c| ≤ √d m`. That is `2d` support calls; the built-in shapes
    /// answer in closed form.
    #[inline]
    fn extent(&self) -> V::Real {
        let center = self.center();
        let mut far = V::Real::ZERO;
        for i in 0..V::DIM {
            for dir in [V::axis(i), -V::axis(i)] {
                far = far.max((self.support(dir) - center).length());
            }
        }
        far * V::Real::from_f64((V::DIM as f64).sqrt())
    }

    /// What the core is (in the local frame): a point, a segment, an axis-aligned box, a
    /// small 2D polygon, a small 3D polytope's face planes, a triangle, an ellipsoid, a
    /// cylinder, a cone, or [`Core::General`] (the default), known by the support function
    /// alone.
    ///
    /// This one answer picks every query's path ([`crate::dispatch`]): a point against a box
    /// is one projection, two segments (capsules) a closed form, two boxes the separating-axis
    /// test, a ray against any kind but the general one a closed form, anything else GJK and
    /// EPA. The data must be exact; a wrapper that moves or turns
    /// its shape maps it ([`Core::moved`]) or answers [`Core::General`].
    ///
    /// ```
    /// use gjk::{Core, Cuboid, Rounded, Support};
    /// use glam::Vec3;
    /// let slab = Rounded::new(Cuboid::new(Vec3::new(2.0, 0.5, 1.0))?, 0.1)?;
    /// assert_eq!(slab.core(), Core::Box(Vec3::new(2.0, 0.5, 1.0)));
    /// # Ok::<(), gjk::ShapeError>(())
    /// ```
    #[inline]
    fn core(&self) -> Core<'_, V> {
        Core::General
    }

    /// The tightest axis-aligned box of the whole shape (core swept by the margin) placed by
    /// `pose`, in the outer frame.
    ///
    /// The default asks the support function along ± each axis ([`support_aabb`]), which is
    /// exact for every convex shape: the largest coordinate `j` of a convex set is reached at
    /// its support point along axis `j`. The built-in shapes answer in closed form.
    ///
    /// ```
    /// use gjk::{bounds::Aabb, Cuboid, Pose, Support};
    /// use glam::DVec2;
    /// let b = Cuboid::new(DVec2::new(2.0, 1.0))?;
    /// let quarter = Pose::from_angle_translation(core::f64::consts::FRAC_PI_2, DVec2::X)?;
    /// let bounds = b.aabb(&quarter);
    /// assert!((bounds.min - DVec2::new(0.0, -2.0)).length() < 1e-12);
    /// assert!((bounds.max - DVec2::new(2.0, 2.0)).length() < 1e-12);
    /// # Ok::<(), gjk::ShapeError>(())
    /// ```
    #[inline]
    fn aabb(&self, pose: &Pose<V>) -> Aabb<V> {
        support_aabb(self, pose)
    }

    /// The supporting feature of the core along `dir` (local frame): the face, edge or vertex
    /// whose points are farthest along `dir`, taking the face most aligned with `dir` when
    /// several touch the support point. Contact manifolds ([`crate::manifold`](mod@crate::manifold)) clip these.
    ///
    /// The default derives it from [`Support::core`] ([`Feature::of_core`]: a box's face, a
    /// small polygon's edge, a segment, a point) and answers the support point alone for a
    /// general core — right for curved shapes, which touch at one point. Shapes with flat
    /// faces that the core does not tell override it (3D hulls, cylinders, cones, triangles). The
    /// feature must lie on the core: the manifold trusts it.
    ///
    /// ```
    /// use gjk::{Ball, Capsule, Support};
    /// use glam::Vec3;
    /// let side = Capsule::new(Vec3::ZERO, Vec3::X, 0.5)?.feature(Vec3::Y);
    /// assert_eq!(side.vertices(), [Vec3::ZERO, Vec3::X]);
    /// assert_eq!(Ball::<Vec3>::new(1.0)?.feature(Vec3::Y).vertices(), [Vec3::ZERO]);
    /// # Ok::<(), gjk::ShapeError>(())
    /// ```
    #[inline]
    fn feature(&self, dir: V) -> Feature<V> {
        Feature::of_core_or(self.core(), dir, || self.support(dir))
    }
}

impl<V: Vector, S: Support<V> + ?Sized> Support<V> for &S {
    #[inline]
    fn support(&self, dir: V) -> V {
        (**self).support(dir)
    }
    #[inline]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        (**self).support_hinted(dir, hint)
    }
    #[inline]
    fn margin(&self) -> V::Real {
        (**self).margin()
    }
    #[inline]
    fn center(&self) -> V {
        (**self).center()
    }
    #[inline]
    fn extent(&self) -> V::Real {
        (**self).extent()
    }
    #[inline]
    fn core(&self) -> Core<'_, V> {
        (**self).core()
    }
    #[inline]
    fn aabb(&self, pose: &Pose<V>) -> Aabb<V> {
        (**self).aabb(pose)
    }

    fn feature(&self, dir: V) -> Feature<V> {
        (**self).feature(dir)
    }
}

impl<V: Vector, S: Support<V> + ?Sized> Support<V> for alloc::boxed::Box<S> {
    #[inline]
    fn support(&self, dir: V) -> V {
        (**self).support(dir)
    }
    #[inline]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        (**self).support_hinted(dir, hint)
    }
    #[inline]
    fn margin(&self) -> V::Real {
        (**self).margin()
    }
    #[inline]
    fn center(&self) -> V {
        (**self).center()
    }
    #[inline]
    fn extent(&self) -> V::Real {
        (**self).extent()
    }
    #[inline]
    fn core(&self) -> Core<'_, V> {
        (**self).core()
    }
    #[inline]
    fn aabb(&self, pose: &Pose<V>) -> Aabb<V> {
        (**self).aabb(pose)
    }

    fn feature(&self, dir: V) -> Feature<V> {
        (**self).feature(dir)
    }
}

/// The support point of the whole shape (core swept by the margin) along `dir`.
///
/// For the zero direction it returns a point on the boundary along the first axis.
///
/// ```
/// use gjk::{full_support, Ball};
/// use glam::DVec2;
/// let ball = Ball::<DVec2>::new(2.0).unwrap();
/// assert_eq!(full_support(&ball, DVec2::new(0.0, 5.0)), DVec2::new(0.0, 2.0));
/// ```
pub fn full_support<V: Vector, S: Support<V> + ?Sized>(shape: &S, dir: V) -> V {
    let core = shape.support(dir);
    let radius = shape.margin();
    if radius == V::Real::ZERO {
        return core;
    }
    core + dir.direction().unwrap_or(V::axis(0)) * radius
}

/// The exact box of any convex shape from its support function: along ± each world axis,
/// mapped into the shape's frame, then swept by the margin. `2d` support calls.
///
/// ```
/// use gjk::{shape::support_aabb, Ball, Pose, Support};
/// use glam::Vec3;
/// let ball = Ball::<Vec3>::new(2.0).unwrap();
/// let pose = Pose::from_translation(Vec3::X).unwrap();
/// assert_eq!(support_aabb(&ball, &pose), ball.aabb(&pose));
/// ```
pub fn support_aabb<V: Vector, S: Support<V> + ?Sized>(shape: &S, pose: &Pose<V>) -> Aabb<V> {
    let mut min = [V::Real::ZERO; 3];
    let mut max = [V::Real::ZERO; 3];
    for j in 0..V::DIM {
        let local = pose.inverse_transform_vector(V::axis(j));
        max[j] = pose.transform_point(shape.support(local)).component(j);
        min[j] = pose.transform_point(shape.support(-local)).component(j);
    }
    Aabb::new(V::from_components(min), V::from_components(max)).loosened(shape.margin())
}

/// Checks that a size is finite and strictly positive.
pub(crate) fn check_positive<R: Real>(what: &'static str, value: R) -> Result<R, ShapeError> {
    if !value.is_finite() {
        return Err(ShapeError::NonFinite { what });
    }
    if !value.is_positive() {
        return Err(ShapeError::NotPositive { what, value: value.to_f64() });
    }
    Ok(value)
}

/// Checks that a size is finite and not negative.
pub(crate) fn check_non_negative<R: Real>(what: &'static str, value: R) -> Result<R, ShapeError> {
    if !value.is_finite() {
        return Err(ShapeError::NonFinite { what });
    }
    if value < R::ZERO {
        return Err(ShapeError::Negative { what, value: value.to_f64() });
    }
    Ok(value)
}

/// Checks that every coordinate of a point is finite.
pub(crate) fn check_point<V: Vector>(what: &'static str, p: V) -> Result<V, ShapeError> {
    if p.is_finite() {
        Ok(p)
    } else {
        Err(ShapeError::NonFinite { what })
    }
}

/// The largest distance of `points` from `center`: the extent of a shape held by its corners.
#[inline]
pub(crate) fn farthest_from<V: Vector>(points: &[V], center: V) -> V::Real {
    points.iter().fold(V::Real::ZERO, |far, &p| far.max((p - center).length()))
}
