//! Two triangles (2D): the separating-axis test unrolled for three edges a side.
//!
//! The general polygon test ([`super::polygon_separation`]) lays a triangle out as a polygon
//! with unit edge normals (three normalisations per triangle) and walks the other polygon's
//! vertices per edge, one normal rotated into the other frame each time: for two triangles
//! that set-up cost more than the test itself, and more than GJK's run to a verdict
//! (docs/benchmarks.md, issue 16, branch `tri2d`). Here B's three corners are placed in A's
//! frame once and each edge's separation is the smallest of three cross products over the
//! edge's length; the answer is the same quantity (the first separating edge's separation, or
//! minus the penetration depth), up to rounding.

use super::polygons::ccw_triangle;
use super::PolygonGap;
use crate::geometry::cross_2d;
use crate::math::{Pose, Real, Vector};
use crate::simplex::SupportPoint;

/// The largest separation of the corners `other` across the edges of the counter-clockwise
/// triangle `t` (both in one frame): for edge `p q`, `min_v n·(v − p)` with `n` its outward
/// unit normal, stopping at the first positive one (a separating edge).
#[inline(always)]
fn deepest_across<V: Vector>(t: &[V; 3], other: &[V; 3]) -> V::Real {
    let mut best = -V::Real::INFINITY;
    for i in 0..3 {
        let p = t[i];
        let e = t[if i == 2 { 0 } else { i + 1 }] - p;
        // `n·d` for the outward normal `n = (e₁, −e₀)` (right of a counter-clockwise edge)
        // is `d × e`; divided by |e| at the end, once per edge.
        let low =
            cross_2d(other[0] - p, e).min(cross_2d(other[1] - p, e)).min(cross_2d(other[2] - p, e));
        let separation = low / e.length();
        if separation > best {
            best = separation;
            if separation > V::Real::ZERO {
                break;
            }
        }
    }
    best
}

/// Triangles A (corners in its frame) and B (corners in its frame, placed by `rel`, B's frame
/// to A's): positive, a lower bound of their distance (the first separating edge's
/// separation); otherwise minus the penetration depth. `None` when a triangle's area is
/// within rounding of zero or the numbers are not finite: GJK answers.
#[inline(always)]
pub(crate) fn triangle_separation<V: Vector>(
    a: [V; 3],
    b: [V; 3],
    rel: &Pose<V>,
) -> Option<V::Real> {
    let a = ccw_triangle(a)?;
    let b = ccw_triangle(b)?.map(|v| rel.transform_point(v));
    let on_a = deepest_across(&a, &b);
    let gap = if on_a > V::Real::ZERO { on_a } else { on_a.max(deepest_across(&b, &a)) };
    gap.is_finite().then_some(gap)
}

/// Triangles A and B (as for [`triangle_separation`]): [`PolygonGap::Overlap`] when no edge
/// separates them, else their exact closest points in A's frame, in closed form: apart, the
/// closest pair is a corner of one triangle against an edge of the other, so the smallest of
/// the nine corner–edge distances each way is the answer (the scheme of the brute-force
/// oracle, cheaper than the polygon walk's steps and certificate for three corners a side).
/// `None` as for [`triangle_separation`]. Not inlined: in the callers' bodies, shared with
/// the polygon walk, it cost the walk of two octagons about 65 instructions a query.
#[inline(never)]
pub(crate) fn triangle_closest<V: Vector>(
    a: [V; 3],
    b: [V; 3],
    rel: &Pose<V>,
) -> Option<PolygonGap<V>> {
    let a = ccw_triangle(a)?;
    let b_local = ccw_triangle(b)?;
    let b = b_local.map(|v| rel.transform_point(v));
    let on_a = deepest_across(&a, &b);
    if !on_a.is_finite() {
        return None;
    }
    if on_a <= V::Real::ZERO {
        let on_b = deepest_across(&b, &a);
        if !on_b.is_finite() {
            return None;
        }
        if on_b <= V::Real::ZERO {
            return Some(PolygonGap::Overlap);
        }
    }
    // Apart: the nearest corner–edge pair, corners of A against B's edges, then the reverse.
    let (a_on_b, i, j, s) = nearest_corner(&a, &b);
    let (b_on_a, k, l, t) = nearest_corner(&b, &a);
    let next = |i: usize| if i == 2 { 0 } else { i + 1 };
    let point = if a_on_b <= b_on_a {
        // Corner `i` of A, edge `j` of B at `s`.
        let on_b = |c: &[V; 3]| c[j] + (c[next(j)] - c[j]) * s;
        SupportPoint::new(a[i], on_b(&b), on_b(&b_local))
    } else {
        // Corner `k` of B, edge `l` of A at `t`.
        SupportPoint::new(a[l] + (a[next(l)] - a[l]) * t, b[k], b_local[k])
    };
    point.w.is_finite().then_some(PolygonGap::Apart(point))
}

/// The corner of `from` nearest to the edges of `to` (both in one frame): its squared
/// distance, the corner, the edge and the parameter along it of the nearest point.
#[inline(always)]
fn nearest_corner<V: Vector>(from: &[V; 3], to: &[V; 3]) -> (V::Real, usize, usize, V::Real) {
    let mut best = (V::Real::INFINITY, 0, 0, V::Real::ZERO);
    for j in 0..3 {
        let p = to[j];
        let e = to[if j == 2 { 0 } else { j + 1 }] - p;
        let inverse = V::Real::ONE / e.length_squared();
        for (i, &v) in from.iter().enumerate() {
            let d = v - p;
            let s = (d.dot(e) * inverse).max(V::Real::ZERO).min(V::Real::ONE);
            let r = d - e * s;
            let r2 = r.length_squared();
            if r2 < best.0 {
                best = (r2, i, j, s);
            }
        }
    }
    best
}
