//! Small geometric kernels shared by the algorithms, each written once: the cross product
//! through components (so generic code can use it), normalisation that survives tiny and huge
//! vectors, signed areas, edge normals, projections onto a normal, the farthest point of a list.
//!
//! Nothing here knows shapes or queries: the module sits at the bottom of the crate's module
//! graph, next to [`crate::math`]. Only [`cross`] is public (the teaching algorithm of
//! `gjk-explain` uses it); the rest serves the crate's own algorithms.

use crate::math::{Real, Vector};

/// The 3D cross product written with [`Vector::component`], so that generic code can use it
/// (2D vectors are taken in the plane z = 0: the result is along z, which 2D vectors drop).
///
/// ```
/// use gjk::geometry::cross;
/// use glam::DVec3;
/// assert_eq!(cross(DVec3::X, DVec3::Y), DVec3::Z);
/// ```
#[inline]
pub fn cross<V: Vector>(a: V, b: V) -> V {
    let [a0, a1, a2] = [a.component(0), a.component(1), a.component(2)];
    let [b0, b1, b2] = [b.component(0), b.component(1), b.component(2)];
    V::from_components([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])
}

/// `v / |v|`, or `None` when `v` has no direction. The plain formula where `|v|²` is safely
/// representable (the usual case: one division and a square root), [`Vector::direction`]'s
/// rescaling otherwise.
#[inline(always)]
pub(crate) fn unit<V: Vector>(v: V) -> Option<V> {
    let ll = v.length_squared();
    if ll > V::Real::from_f64(1e-30) && ll < V::Real::from_f64(1e30) {
        Some(v * (V::Real::ONE / ll.sqrt()))
    } else {
        v.direction()
    }
}

/// The 2D cross product `u × v = u₀ v₁ − u₁ v₀` (positive when `v` turns counter-clockwise
/// from `u`).
#[inline(always)]
pub(crate) fn cross_2d<V: Vector>(u: V, v: V) -> V::Real {
    u.component(0) * v.component(1) - u.component(1) * v.component(0)
}

/// Twice the signed area of the 2D triangle `a, b, c` (positive when counter-clockwise).
#[inline]
pub(crate) fn area2<V: Vector>(a: V, b: V, c: V) -> V::Real {
    let xy = |p: V| [p.component(0), p.component(1)];
    twice_signed_area(xy(a), xy(b), xy(c))
}

/// Twice the signed area of the 2D triangle `a, b, c` (positive when counter-clockwise).
#[inline]
pub(crate) fn twice_signed_area<R: Real>(a: [R; 2], b: [R; 2], c: [R; 2]) -> R {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// The normal of the 2D edge `a b` (rotated +90°).
pub(crate) fn edge_normal_2d<V: Vector>(a: V, b: V) -> V {
    let e = b - a;
    V::from_components([-e.component(1), e.component(0), V::Real::ZERO])
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
