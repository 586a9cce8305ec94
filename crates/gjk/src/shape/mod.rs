//! Convex shapes, each known by its support function.
//!
//! A shape is the set `core ⊕ ball(margin)`: the *core* is given by [`Support::support`], and
//! [`Support::margin`] sweeps it by a ball (0 for most shapes). Balls, capsules and rounded
//! shapes have a small core (a point, a segment, any shape) and a radius: GJK runs on the cores
//! and subtracts the radii afterwards, which is exact and converges in a few iterations where
//! the curved surface would need many.

mod ball;
mod capsule;
mod cone;
mod cuboid;
mod cylinder;
mod ellipsoid;
mod lanes;
mod minkowski;
mod outline;
mod point;
mod polytope;
mod posed;
mod rounded;
mod segment;
mod triangle;

pub use ball::Ball;
pub use capsule::Capsule;
pub use cone::Cone;
pub use cuboid::Cuboid;
pub use cylinder::Cylinder;
pub use ellipsoid::Ellipsoid;
pub use minkowski::MinkowskiSum;
pub use point::Point;
pub use polytope::Polytope;
pub use posed::Posed;
pub use rounded::Rounded;
pub use segment::Segment;
pub use triangle::Triangle;

use crate::error::ShapeError;
use crate::math::{Real, Vector};

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

    /// The core's only point, when the core is a single point (balls, points).
    ///
    /// With [`Support::closest_core_point`] on the other shape, queries then skip GJK: the
    /// answer is one projection, as fast as a dedicated ball-versus-shape routine.
    #[inline]
    fn core_point(&self) -> Option<V> {
        None
    }

    /// The core's two ends, when the core is a segment (capsules, segments).
    ///
    /// Two such shapes skip GJK: the closest points of two segments have a closed form (the
    /// stationary point of a quadratic in the two segment parameters, clamped to the unit
    /// square), so a capsule against a capsule costs one small computation.
    #[inline]
    fn core_segment(&self) -> Option<[V; 2]> {
        None
    }

    /// The core's half extents, when the core is the axis-aligned box `[−h, h]` of the local
    /// frame (boxes and rounded boxes).
    ///
    /// Two such shapes skip GJK and EPA in [`contact`](crate::contact()): the separating-axis
    /// test over the boxes' face normals and edge-pair directions gives the exact penetration
    /// depth and the touching features, at a fraction of an expansion's cost.
    ///
    /// ```
    /// use gjk::{Cuboid, Rounded, Support};
    /// use glam::Vec3;
    /// let slab = Rounded::new(Cuboid::new(Vec3::new(2.0, 0.5, 1.0))?, 0.1)?;
    /// assert_eq!(slab.core_box(), Some(Vec3::new(2.0, 0.5, 1.0)));
    /// # Ok::<(), gjk::ShapeError>(())
    /// ```
    #[inline]
    fn core_box(&self) -> Option<V> {
        None
    }

    /// The core's corners and edge normals, when the core is a convex polygon in 2D (polygons
    /// of at most 64 vertices).
    ///
    /// Two such shapes skip GJK and EPA in [`contact`](crate::contact()) and
    /// [`intersects`](crate::intersects()): in the plane every edge of the Minkowski difference
    /// is parallel to an edge of one of the polygons, so the separating-axis test over both
    /// polygons' edge normals gives the exact penetration depth (or a separating axis).
    ///
    /// ```
    /// use gjk::{Polytope, Support};
    /// use glam::Vec2;
    /// let square = Polytope::new(vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y])?;
    /// let core = square.core_polygon().unwrap();
    /// assert_eq!(core.vertices, [Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y]);
    /// assert_eq!(core.normals, [Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X]);
    /// # Ok::<(), gjk::ShapeError>(())
    /// ```
    #[inline]
    fn core_polygon(&self) -> Option<CorePolygon<'_, V>> {
        None
    }

    /// The point of the core closest to `p` (local frame; `p` itself when inside), when the
    /// shape can compute it exactly and cheaply (boxes, segments, capsules, points, balls,
    /// polygons of at most 64 vertices in 2D).
    /// `None` (the default) leaves the work to GJK.
    #[inline]
    fn closest_core_point(&self, p: V) -> Option<V> {
        let _ = p;
        None
    }

    /// For a point `p` inside the core (local frame): the nearest point of the core's boundary,
    /// the outward unit normal there and the distance — when the shape can compute them
    /// exactly and cheaply (boxes and small 2D polygons; balls and points, whose core has no
    /// interior). `None` (the default) leaves the work to the expanding polytope algorithm.
    ///
    /// This is the penetration depth of a point in the core: with `q` the boundary point
    /// nearest to `p`, the answer is `q`, `n` and `depth = |q − p| ≥ 0`, with
    /// `q = p + depth × n`. Pushing `p` by `depth` along `n` takes it out of the core, and no
    /// shorter push does. [`contact`](crate::contact()) uses it when the other shape's core is a
    /// single point (a ball deep inside a box): `depth` plus the margins is the contact's
    /// penetration depth, answered without iterating.
    ///
    /// Callers ask for points in the core or within rounding of its boundary (they use
    /// [`Support::closest_core_point`] first). For a point outside the core the answer is finite
    /// and its `depth` is at most 0 (for a box: minus the largest per-axis excess; for a point
    /// core: minus the distance to it), but otherwise unspecified.
    ///
    /// Implementations must break ties (a point equally near several faces) deterministically
    /// and document how.
    ///
    /// ```
    /// use gjk::{Cuboid, Support};
    /// use glam::DVec3;
    /// let b = Cuboid::new(DVec3::new(2.0, 1.0, 3.0))?;
    /// let exit = b.nearest_core_boundary(DVec3::new(0.5, -0.75, 0.0)).unwrap();
    /// assert_eq!(exit.depth, 0.25);                          // the −y face is nearest …
    /// assert_eq!(exit.normal, DVec3::NEG_Y);                 // … and faces outward
    /// assert_eq!(exit.point, DVec3::new(0.5, -1.0, 0.0));
    /// # Ok::<(), gjk::ShapeError>(())
    /// ```
    #[inline]
    fn nearest_core_boundary(&self, p: V) -> Option<CoreBoundary<V>> {
        let _ = p;
        None
    }
}

/// The way out of a shape's core from a point inside it: see
/// [`Support::nearest_core_boundary`].
///
/// `point = p + depth × normal` for the query point `p`.
///
/// ```
/// use gjk::{Cuboid, Support};
/// use glam::Vec2;
/// let square = Cuboid::new(Vec2::ONE)?;
/// let p = Vec2::new(0.25, 0.5);
/// let exit = square.nearest_core_boundary(p).unwrap();
/// assert_eq!(p + exit.normal * exit.depth, exit.point);
/// assert_eq!((exit.point, exit.normal, exit.depth), (Vec2::new(0.25, 1.0), Vec2::Y, 0.5));
/// # Ok::<(), gjk::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CoreBoundary<V: Vector> {
    /// The boundary point of the core nearest to the query point.
    pub point: V,
    /// The outward unit normal of the core at `point`.
    pub normal: V,
    /// The distance from the query point to `point` (`≥ 0` for a point in the core).
    pub depth: V::Real,
}

/// A core that is a convex polygon in the plane (see [`Support::core_polygon`]).
///
/// Queries use it only when it has at least three corners and as many normals; otherwise
/// they take the general GJK and EPA path. The corners must be counter-clockwise and the
/// normals the edges' outward unit normals: the answers are only as right as this data.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CorePolygon<'a, V> {
    /// The corners, counter-clockwise, at least three.
    pub vertices: &'a [V],
    /// The outward unit normal of each edge: edge `i` runs from `vertices[i]` to
    /// `vertices[i + 1]` (cyclically).
    pub normals: &'a [V],
}

/// The point of segment `a b` closest to `p`.
#[inline]
pub(crate) fn closest_on_segment<V: Vector>(a: V, b: V, p: V) -> V {
    let t = b - a;
    let tt = t.length_squared();
    if !tt.is_positive() {
        return a;
    }
    let along = (p - a).dot(t) / tt;
    a + t * along.max(V::Real::ZERO).min(V::Real::ONE)
}

/// The parameters `(s, t)` of the closest points `p₀ + s (p₁ − p₀)` and `q₀ + t (q₁ − q₀)` of
/// two segments (`s, t ∈ [0, 1]`).
///
/// The squared distance is a convex quadratic in `(s, t)`. With `d₁ = p₁ − p₀`,
/// `d₂ = q₁ − q₀`, `r = p₀ − q₀` and `a = d₁·d₁`, `b = d₁·d₂`, `c = d₁·r`, `e = d₂·d₂`,
/// `f = d₂·r`, its stationary point solves `a s − b t = −c`, `b s − e t = −f`; by Cramer's
/// rule `s = (b f − c e) / (a e − b²)`. Clamping `s` to `[0, 1]`, then taking the best `t` for
/// it (`t = (b s + f) / e`) and, when that `t` must be clamped, the best `s` for the clamped
/// `t` gives the minimum over the square (the quadratic is convex, and each step minimises
/// over one parameter exactly). Parallel segments (`a e − b²` within rounding of 0) have a
/// whole interval of closest pairs: `s = 0` picks one. Points (zero-length segments) reduce
/// to point–segment projections.
#[inline]
pub(crate) fn closest_on_segments<V: Vector>(
    [p0, p1]: [V; 2],
    [q0, q1]: [V; 2],
) -> (V::Real, V::Real) {
    let (zero, one) = (V::Real::ZERO, V::Real::ONE);
    let clamp = |x: V::Real| x.max(zero).min(one);
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, e, f) = (d1.length_squared(), d2.length_squared(), d2.dot(r));
    if !a.is_positive() && !e.is_positive() {
        return (zero, zero);
    }
    if !a.is_positive() {
        return (zero, clamp(f / e));
    }
    let c = d1.dot(r);
    if !e.is_positive() {
        return (clamp(-c / a), zero);
    }
    let b = d1.dot(d2);
    let denominator = a * e - b * b;
    let parallel = denominator <= V::Real::from_f64(16.0) * V::Real::EPSILON * a * e;
    let s = if parallel { zero } else { clamp((b * f - c * e) / denominator) };
    let t = (b * s + f) / e;
    if t < zero {
        (clamp(-c / a), zero)
    } else if t > one {
        (clamp((b - c) / a), one)
    } else {
        (s, t)
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
    fn core_point(&self) -> Option<V> {
        (**self).core_point()
    }
    #[inline]
    fn core_segment(&self) -> Option<[V; 2]> {
        (**self).core_segment()
    }
    #[inline]
    fn core_box(&self) -> Option<V> {
        (**self).core_box()
    }
    #[inline]
    fn core_polygon(&self) -> Option<CorePolygon<'_, V>> {
        (**self).core_polygon()
    }
    #[inline]
    fn closest_core_point(&self, p: V) -> Option<V> {
        (**self).closest_core_point(p)
    }
    #[inline]
    fn nearest_core_boundary(&self, p: V) -> Option<CoreBoundary<V>> {
        (**self).nearest_core_boundary(p)
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
    fn core_point(&self) -> Option<V> {
        (**self).core_point()
    }
    #[inline]
    fn core_segment(&self) -> Option<[V; 2]> {
        (**self).core_segment()
    }
    #[inline]
    fn core_box(&self) -> Option<V> {
        (**self).core_box()
    }
    #[inline]
    fn core_polygon(&self) -> Option<CorePolygon<'_, V>> {
        (**self).core_polygon()
    }
    #[inline]
    fn closest_core_point(&self, p: V) -> Option<V> {
        (**self).closest_core_point(p)
    }
    #[inline]
    fn nearest_core_boundary(&self, p: V) -> Option<CoreBoundary<V>> {
        (**self).nearest_core_boundary(p)
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

/// The index of the point with the largest dot product with `dir` (the first one on ties).
#[inline]
pub(crate) fn argmax_dot<V: Vector>(points: &[V], dir: V) -> usize {
    let mut best = 0;
    let mut best_dot = points[0].dot(dir);
    for (i, p) in points.iter().enumerate().skip(1) {
        let d = p.dot(dir);
        if d > best_dot {
            best = i;
            best_dot = d;
        }
    }
    best
}
