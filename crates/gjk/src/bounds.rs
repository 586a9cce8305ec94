//! Axis-aligned bounding boxes: the broad phase's currency.
//!
//! Every shape answers [`Support::aabb`](crate::Support::aabb): the tightest axis-aligned box of the shape (core swept
//! by its margin) under a pose. The default asks the support function along ± each world axis,
//! mapped into the shape's frame: for a convex set `K` the largest `x_j` over `K` *is*
//! `support(e_j) · e_j`, so those `2d` calls give the exact box of any convex shape, user shapes
//! included. The built-in shapes answer in closed form instead (a rotated box is `|R| h`, a
//! ball `t ± r`, a cylinder `h |a_j| + r √(1 − a_j²)` per axis, ...), which is cheaper than
//! `2d` support calls and exact up to the rounding of the pose's rotation.
//!
//! Rounding: the closed forms and the support path both round (a rotation, a square root), so a
//! computed box can miss the exact one by a few ulps of the shape's size. The broad phase
//! ([`crate::world`]) never relies on that last ulp: it fattens every box by a margin.

use crate::math::{Pose, Real, Rotation, Vector};

/// An axis-aligned box `[min, max]` (per coordinate).
///
/// ```
/// use gjk::bounds::Aabb;
/// use glam::Vec2;
/// let a = Aabb::new(Vec2::ZERO, Vec2::ONE);
/// let b = Aabb::new(Vec2::splat(0.5), Vec2::splat(2.0));
/// assert!(a.intersects(&b));
/// assert_eq!(a.merged(&b), Aabb::new(Vec2::ZERO, Vec2::splat(2.0)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb<V> {
    /// The smallest coordinates.
    pub min: V,
    /// The largest coordinates.
    pub max: V,
}

impl<V: Vector> Aabb<V> {
    /// The box with corners `min` and `max` (`min ≤ max` per coordinate is the caller's part).
    #[inline]
    pub const fn new(min: V, max: V) -> Self {
        Self { min, max }
    }

    /// The box of one point.
    #[inline]
    pub fn from_point(p: V) -> Self {
        Self { min: p, max: p }
    }

    /// The smallest box holding all `points` (`None` when there are none).
    pub fn from_points(points: impl IntoIterator<Item = V>) -> Option<Self> {
        let mut points = points.into_iter();
        let first = Self::from_point(points.next()?);
        Some(points.fold(first, |b, p| b.with_point(p)))
    }

    /// The box grown to hold `p`.
    #[inline]
    pub fn with_point(self, p: V) -> Self {
        Self {
            min: self.min.zip_map(p, |a, b| a.min(b)),
            max: self.max.zip_map(p, |a, b| a.max(b)),
        }
    }

    /// The centre.
    #[inline]
    pub fn center(&self) -> V {
        (self.min + self.max) * V::Real::HALF
    }

    /// Half the size along each axis.
    #[inline]
    pub fn half_extents(&self) -> V {
        (self.max - self.min) * V::Real::HALF
    }

    /// Whether the boxes share a point (touching counts).
    #[inline]
    pub fn intersects(&self, other: &Self) -> bool {
        (0..V::DIM).all(|i| {
            self.min.component(i) <= other.max.component(i)
                && other.min.component(i) <= self.max.component(i)
        })
    }

    /// Whether `other` lies inside `self` (boundaries may touch).
    #[inline]
    pub fn contains(&self, other: &Self) -> bool {
        (0..V::DIM).all(|i| {
            self.min.component(i) <= other.min.component(i)
                && other.max.component(i) <= self.max.component(i)
        })
    }

    /// Whether the point lies in the box (boundary included).
    #[inline]
    pub fn contains_point(&self, p: V) -> bool {
        (0..V::DIM).all(|i| {
            self.min.component(i) <= p.component(i) && p.component(i) <= self.max.component(i)
        })
    }

    /// The smallest box holding both.
    #[inline]
    pub fn merged(&self, other: &Self) -> Self {
        Self {
            min: self.min.zip_map(other.min, |a, b| a.min(b)),
            max: self.max.zip_map(other.max, |a, b| a.max(b)),
        }
    }

    /// The box grown by `margin` on every side (a fattened box; negative margins are taken
    /// as given and may empty the box).
    #[inline]
    pub fn loosened(&self, margin: V::Real) -> Self {
        Self { min: self.min.map(|x| x - margin), max: self.max.map(|x| x + margin) }
    }

    /// The box swept by a translation: it holds the box at its start and at `start + motion`
    /// (and every place between), for the broad phase of a body that moves by `motion` this
    /// step.
    #[inline]
    pub fn swept(&self, motion: V) -> Self {
        Self {
            min: self.min.zip_map(motion, |m, d| if d < V::Real::ZERO { m + d } else { m }),
            max: self.max.zip_map(motion, |m, d| if d > V::Real::ZERO { m + d } else { m }),
        }
    }

    /// The tree's cost of a box: its perimeter's half in 2D (`w + h`), half its surface area
    /// in 3D (`wh + hd + dw`) — proportional to the chance that a random ray or box hits it
    /// (the surface area heuristic).
    #[inline]
    pub fn measure(&self) -> V::Real {
        let size = self.max - self.min;
        let [w, h, d] = [size.component(0), size.component(1), size.component(2)];
        if V::DIM == 2 {
            w + h
        } else {
            w * h + h * d + d * w
        }
    }

    /// Where the ray `origin + t direction` enters the box, as a ray parameter `t` in
    /// `[0, max_toi]` (0 when the origin is inside), or `None` when it misses within
    /// `max_toi`. The slab test; a direction coordinate of 0 keeps that coordinate fixed
    /// (inside its slab or a miss).
    ///
    /// ```
    /// use gjk::Aabb;
    /// use glam::Vec2;
    /// let b = Aabb::new(Vec2::new(2.0, -1.0), Vec2::new(3.0, 1.0));
    /// assert_eq!(b.ray_entry(Vec2::ZERO, Vec2::X, 10.0), Some(2.0));
    /// assert_eq!(b.ray_entry(Vec2::ZERO, Vec2::X, 1.0), None);
    /// assert_eq!(b.ray_entry(Vec2::ZERO, Vec2::Y, 10.0), None);
    /// ```
    pub fn ray_entry(&self, origin: V, direction: V, max_toi: V::Real) -> Option<V::Real> {
        let (mut enter, mut leave) = (V::Real::ZERO, max_toi);
        for i in 0..V::DIM {
            let (o, d) = (origin.component(i), direction.component(i));
            let (lo, hi) = (self.min.component(i), self.max.component(i));
            if d == V::Real::ZERO {
                if o < lo || o > hi {
                    return None;
                }
                continue;
            }
            let (t0, t1) = ((lo - o) / d, (hi - o) / d);
            let (near, far) = if t0 <= t1 { (t0, t1) } else { (t1, t0) };
            enter = enter.max(near);
            leave = leave.min(far);
            // An empty interval, or NaN (an infinite box against a zero gap), is a miss.
            if !matches!(
                enter.partial_cmp(&leave),
                Some(core::cmp::Ordering::Less | core::cmp::Ordering::Equal)
            ) {
                return None;
            }
        }
        Some(enter)
    }
}

/// The columns of a rotation's matrix: the images of the axes (`R e_i`).
#[inline]
pub(crate) fn rotated_axes<V: Vector>(pose: &Pose<V>) -> [V; 3] {
    let rotation = pose.rotation();
    [rotation.rotate(V::axis(0)), rotation.rotate(V::axis(1)), rotation.rotate(V::axis(2))]
}

/// The world box of the local box `[−h, h]` under `pose`, about the local point `center`:
/// half extent `Σ_i |R_ji| h_i` along world axis `j`.
#[inline]
pub(crate) fn posed_box<V: Vector>(pose: &Pose<V>, center: V, half_extents: V) -> Aabb<V> {
    let columns = rotated_axes(pose);
    let mut half = V::ZERO;
    for (i, column) in columns.iter().enumerate().take(V::DIM) {
        let h = half_extents.component(i);
        half = half + column.map(|x| x.abs() * h);
    }
    let c = pose.transform_point(center);
    Aabb::new(c - half, c + half)
}

/// The box of the points `points` (local frame) under `pose`, swept by `margin`.
///
/// Past a few points (hulls) the rotation is applied as a matrix — its columns, the rotated
/// axes, computed once — so each point costs a matrix product instead of a quaternion
/// rotation (a third of the arithmetic), and the translation is added to the box's corners
/// only. The corners agree with the per-point transform to a few ulps of the points'
/// coordinates, which the world's reach boxes pad for (`World`'s rounding pad).
pub(crate) fn points_aabb<V: Vector>(points: &[V], pose: &Pose<V>, margin: V::Real) -> Aabb<V> {
    if points.len() <= 4 {
        return Aabb::from_points(points.iter().map(|&p| pose.transform_point(p)))
            .unwrap_or(Aabb::from_point(pose.translation()))
            .loosened(margin);
    }
    let rotation = pose.rotation();
    let mut columns = [V::ZERO; 3];
    for (k, column) in columns.iter_mut().enumerate().take(V::DIM) {
        *column = rotation.rotate(V::axis(k));
    }
    let rotated = points.iter().map(|&p| {
        let mut q = columns[0] * p.component(0);
        for (k, column) in columns.iter().enumerate().take(V::DIM).skip(1) {
            q = q + *column * p.component(k);
        }
        q
    });
    match Aabb::from_points(rotated) {
        Some(b) => {
            let t = pose.translation();
            Aabb::new(b.min + t, b.max + t).loosened(margin)
        }
        None => Aabb::from_point(pose.translation()).loosened(margin),
    }
}
