//! Two convex polygons (2D): overlap, or their exact closest points, by a walk around their
//! Minkowski difference, without GJK.
//!
//! The Minkowski difference `D = A − B` of two convex polygons is a convex polygon whose
//! edges are A's edges and B's edges reversed, merged by slope: its vertices are the pairs
//! `aᵢ − bₖ` whose normal cones meet, and from one of them the next counter-clockwise is one
//! step along A's edge or along B's reversed edge, whichever turns less (the sign of a cross
//! product; both when parallel), the scheme of the Minkowski sum of two convex polygons. The
//! walk starts at `D`'s vertex farthest along the direction from A's centre to B's (A's
//! vertex farthest that way minus B's farthest back), the vertex that faces the origin.
//!
//! For an edge `p q` of `D` (direction `e = q − p`):
//! * the origin lies beyond its line (`e × p > 0`): the edge is *visible*, and the polygons
//!   are apart. The origin projects onto the line at parameter `t = −p·e / e·e`;
//! * along the visible edges the distance to the origin falls, then rises (seen from a point
//!   outside, the visible part of a convex polygon's boundary is unimodal), so the closest
//!   point of `D` is inside the visible edge with `0 < t < 1`, or the vertex where `t ≥ 1` on
//!   one edge meets `t ≤ 0` on the next or an edge the origin does not see (then the distance
//!   rises along that edge too). From a visible edge the walk goes forward while `t > 1`,
//!   backward while `t < 0`, and never turns round;
//! * the edges on both sides of the start invisible: most often the polygons overlap, which
//!   the origin strictly inside a triangle of three vertices of `D` proves; otherwise the
//!   walk goes once round `D` for a visible edge. A lap without one would mean the overlap in
//!   exact arithmetic (`D`'s edges carry the edge normals of both polygons), but rounding can
//!   bend a thin polygon out of convexity, so it proves nothing: GJK answers.
//!
//! The answer is a vertex of `D` (a vertex of A against a vertex of B), or a point inside an
//! edge of `D` (a vertex of one polygon against an edge of the other): the minimum over all
//! vertex–edge pairs, found in a few steps instead of by trying them all, and exact up to
//! rounding. Every walk is at most one lap (`n_A + n_B` steps). The closest points are
//! certified before they are returned: `w = a − b` must span a supporting plane of `D` (one
//! scan of both polygons along `w`), since every rounded step of the walk assumes convex
//! polygons. Numbers that do not stay finite, and answers the plane does not certify, are
//! declined, and GJK answers.

use crate::geometry::cross_2d;
use crate::math::{along_normal, Pose, Real, Vector};
use crate::simplex::SupportPoint;

/// What the walk found for two polygons, in A's frame.
#[derive(Clone, Copy, Debug)]
pub(crate) enum PolygonGap<V: Vector> {
    /// The polygons overlap or touch: no edge normal separates them.
    Overlap,
    /// The polygons are apart: the closest points of A and B, `w = a − b` their offset
    /// (exactly along the closest edge's normal when the answer is inside an edge of `D`).
    Apart(SupportPoint<V>),
}

/// Polygon A (vertices counter-clockwise, its frame) against polygon B (the same, placed by
/// `rel`, its frame to A's), `toward` pointing from A's centre to B's (A's frame; any
/// direction is right, a good one shortens the walk): [`PolygonGap::Overlap`], or the closest
/// points; `None` when the numbers are not finite or a polygon has no vertex.
#[inline]
pub(crate) fn polygon_closest<V: Vector>(
    a: &[V],
    b: &[V],
    rel: &Pose<V>,
    toward: V,
    size: V::Real,
) -> Option<PolygonGap<V>> {
    if a.is_empty() || b.is_empty() {
        return None;
    }
    match walk_around(a, b, rel, toward)? {
        Verdict::Proved(gap) => certified(a, b, rel, gap, size),
        // A lap without a visible edge proves nothing when rounding bent a thin polygon
        // (an f32 hull of nearly collinear points) out of convexity: GJK answers.
        Verdict::NoVisibleEdge => None,
    }
}

/// What the walk found: an answer to certify, or a lap round `D` without a visible edge.
enum Verdict<V: Vector> {
    Proved(PolygonGap<V>),
    NoVisibleEdge,
}

/// The walk's answer when it holds: an overlap proved by a triangle of `D`'s vertices around
/// the origin as it is; closest points only when `w` spans a supporting plane of `D`, no
/// vertex pair `aᵢ − bₖ` nearer than `|w|` along `w` by more than rounding (`64 ε` of the
/// coordinates, `size`: both shapes' extents plus B's offset). The walk's steps assume
/// convex polygons in every rounded comparison; a nearly flat polygon, whose rounded vertices
/// need not be convex, can send it to a vertex pair that is not the closest (an f32 hull of
/// nearly collinear points, touching a point, reported 15 apart at a size of 14). `None` (GJK
/// answers) when the plane does not hold.
#[inline(always)]
fn certified<V: Vector>(
    a: &[V],
    b: &[V],
    rel: &Pose<V>,
    gap: PolygonGap<V>,
    size: V::Real,
) -> Option<PolygonGap<V>> {
    let PolygonGap::Apart(p) = gap else { return Some(gap) };
    let w = p.w;
    // B's vertices along `w` in B's frame: `(R bₖ + t)·w = bₖ·(Rᵀ w) + t·w`.
    let w_in_b = rel.inverse_transform_vector(w);
    let low_a = a.iter().fold(V::Real::INFINITY, |m, x| m.min(x.dot(w)));
    let high_b = b.iter().fold(-V::Real::INFINITY, |m, x| m.max(x.dot(w_in_b)));
    let lower = low_a - (high_b + rel.translation().dot(w));
    let slack = V::Real::from_f64(64.0) * V::Real::EPSILON * size * w.length();
    (w.dot(w) - lower <= slack).then_some(gap)
}

/// The walk round `D` (see the module docs), its answer not yet certified.
#[inline(always)]
fn walk_around<V: Vector>(a: &[V], b: &[V], rel: &Pose<V>, toward: V) -> Option<Verdict<V>> {
    // The start must be a vertex of D: both polygons' farthest vertices along one direction.
    // A zero direction (the same centres: one polygon inside the other, say) ties every
    // vertex, and the first of each would be no such pair; scaled, tiny ones do not underflow.
    let reach = toward.max_abs();
    let toward = if reach > V::Real::ZERO && reach.is_finite() {
        toward * (V::Real::ONE / reach)
    } else {
        V::axis(0)
    };
    let walk = Walk { a, b, rel };
    let i = farthest(a, toward);
    let k = farthest(b, -rel.inverse_transform_vector(toward));
    let start = walk.end(i, k);
    let ahead = walk.forward(&start);
    if visible(&start, &ahead) {
        return walk.walk_from(start, ahead).map(Verdict::Proved);
    }
    let behind = walk.backward(&start);
    if visible(&behind, &start) {
        return walk.walk_from(behind, start).map(Verdict::Proved);
    }
    // Neither edge at the start visible: most often the polygons overlap. The origin
    // strictly inside a triangle of three vertices of D proves it for less than going
    // round D: the start (farthest along `toward`), the vertex farthest back, and the
    // vertex farthest across the line between them on the origin's side.
    let support = |dir: V| -> V {
        let k = farthest(b, -rel.inverse_transform_vector(dir));
        a[farthest(a, dir)] - rel.transform_point(b[k])
    };
    let back = support(-toward);
    let side = back - start.d;
    let mut across = V::from_components([-side.component(1), side.component(0), V::Real::ZERO]);
    if across.dot(start.d) > V::Real::ZERO {
        across = -across;
    }
    let third = support(across);
    let (u, v, w) = (
        cross_2d(back - start.d, -start.d),
        cross_2d(third - back, -back),
        cross_2d(start.d - third, -third),
    );
    let zero = V::Real::ZERO;
    if (u > zero && v > zero && w > zero) || (u < zero && v < zero && w < zero) {
        return Some(Verdict::Proved(PolygonGap::Overlap));
    }
    let mut p = ahead;
    for _ in 0..a.len() + b.len() {
        let q = walk.forward(&p);
        if visible(&p, &q) {
            return walk.walk_from(p, q).map(Verdict::Proved);
        }
        p = q;
    }
    Some(Verdict::NoVisibleEdge)
}

/// The index of the vertex farthest along `dir` (the first on ties).
#[inline(always)]
fn farthest<V: Vector>(vertices: &[V], dir: V) -> usize {
    let mut best = (0, dir.dot(vertices[0]));
    for (j, &v) in vertices.iter().enumerate().skip(1) {
        let h = dir.dot(v);
        if h > best.1 {
            best = (j, h);
        }
    }
    best.0
}

/// Whether the origin lies strictly beyond the line of the edge `p q` of `D`.
#[inline(always)]
fn visible<V: Vector>(p: &End<V>, q: &End<V>) -> bool {
    cross_2d(q.d - p.d, p.d) > V::Real::ZERO
}

/// The two polygons' vertices and B's placement, for the walk along `D = A − B`.
struct Walk<'p, V: Vector> {
    a: &'p [V],
    b: &'p [V],
    rel: &'p Pose<V>,
}

/// A vertex of `D`: the vertex pair `(i, k)` and its point `aᵢ − bₖ` (A's frame), with B's
/// vertex in A's frame.
#[derive(Clone, Copy)]
struct End<V> {
    i: usize,
    k: usize,
    b: V,
    d: V,
}

impl<V: Vector> Walk<'_, V> {
    /// The vertex of `D` at vertex pair `(i, k)`.
    #[inline(always)]
    fn end(&self, i: usize, k: usize) -> End<V> {
        let b = self.rel.transform_point(self.b[k]);
        End { i, k, b, d: self.a[i] - b }
    }

    /// The next vertex of `D` counter-clockwise after `p`: one step along A's edge from
    /// `aᵢ`, along B's edge from `bₖ` reversed, or both when they are parallel.
    #[inline(always)]
    fn forward(&self, p: &End<V>) -> End<V> {
        let i1 = if p.i + 1 == self.a.len() { 0 } else { p.i + 1 };
        let k1 = if p.k + 1 == self.b.len() { 0 } else { p.k + 1 };
        let along_a = self.a[i1] - self.a[p.i];
        let b1 = self.rel.transform_point(self.b[k1]);
        let turn = step_turn(along_a, p.b - b1);
        if turn > V::Real::ZERO {
            End { i: i1, k: p.k, b: p.b, d: self.a[i1] - p.b }
        } else if turn < V::Real::ZERO {
            End { i: p.i, k: k1, b: b1, d: self.a[p.i] - b1 }
        } else {
            End { i: i1, k: k1, b: b1, d: self.a[i1] - b1 }
        }
    }

    /// The vertex of `D` before `q` (counter-clockwise): the mirror of [`Walk::forward`].
    #[inline(always)]
    fn backward(&self, q: &End<V>) -> End<V> {
        let i0 = if q.i == 0 { self.a.len() - 1 } else { q.i - 1 };
        let k0 = if q.k == 0 { self.b.len() - 1 } else { q.k - 1 };
        let along_a = self.a[q.i] - self.a[i0];
        let b0 = self.rel.transform_point(self.b[k0]);
        // Mirrored (`> 0` steps back along B, `< 0` along A), and so is an edge of no length.
        let turn = -step_turn(-along_a, b0 - q.b);
        if turn > V::Real::ZERO {
            End { i: q.i, k: k0, b: b0, d: self.a[q.i] - b0 }
        } else if turn < V::Real::ZERO {
            End { i: i0, k: q.k, b: q.b, d: self.a[i0] - q.b }
        } else {
            End { i: i0, k: k0, b: b0, d: self.a[i0] - b0 }
        }
    }

    /// From the visible edge `p q` of `D` to the closest point of `D`.
    #[inline(never)]
    fn walk_from(&self, mut p: End<V>, mut q: End<V>) -> Option<PolygonGap<V>> {
        let e = q.d - p.d;
        let (s, ee) = (-p.d.dot(e), e.dot(e));
        let laps = self.a.len() + self.b.len();
        if s >= ee {
            // The closest point lies ahead: forward until the origin projects before an
            // edge's end or the edge is not visible.
            for _ in 0..laps {
                p = q;
                q = self.forward(&p);
                let e = q.d - p.d;
                if e == V::ZERO {
                    continue; // an edge of no length (a flat box's side) changes nothing
                }
                let (s, ee) = (-p.d.dot(e), e.dot(e));
                if s <= V::Real::ZERO || !visible(&p, &q) {
                    return self.vertex(&p);
                }
                if s < ee {
                    return self.inside(&p, &q, s / ee);
                }
            }
            None
        } else if s <= V::Real::ZERO {
            for _ in 0..laps {
                q = p;
                p = self.backward(&q);
                let e = q.d - p.d;
                if e == V::ZERO {
                    continue;
                }
                let (s, ee) = (-p.d.dot(e), e.dot(e));
                if s >= ee || !visible(&p, &q) {
                    return self.vertex(&q);
                }
                if s > V::Real::ZERO {
                    return self.inside(&p, &q, s / ee);
                }
            }
            None
        } else {
            self.inside(&p, &q, s / ee)
        }
    }

    /// The answer at a vertex of `D`: A's vertex against B's.
    fn vertex(&self, p: &End<V>) -> Option<PolygonGap<V>> {
        let point = SupportPoint { w: p.d, a: self.a[p.i], b: p.b, b_local: self.b[p.k] };
        p.d.is_finite().then_some(PolygonGap::Apart(point))
    }

    /// The answer inside the edge `p q` of `D` at parameter `t`: a vertex of one polygon
    /// against the other's edge (the vertex's polygon keeps its index, so its point stays
    /// exact; on parallel edges, A's part of the edge comes first, then B's). The offset is
    /// `p`'s component along the edge's normal, not `a − b`, which carries the rounding of
    /// both points' coordinates.
    fn inside(&self, p: &End<V>, q: &End<V>, t: V::Real) -> Option<PolygonGap<V>> {
        let (zero, one) = (V::Real::ZERO, V::Real::ONE);
        let e = q.d - p.d;
        let (ta, tb) = if p.k == q.k {
            (t, zero)
        } else if p.i == q.i {
            (zero, t)
        } else {
            // Parallel: A's part first, then B's, split where A's length ends.
            let share = (self.a[q.i] - self.a[p.i]).dot(e) / e.dot(e);
            if t <= share {
                (t / share, zero)
            } else {
                (one, (t - share) / (one - share))
            }
        };
        let on = |v: &[V], from: usize, to: usize, u: V::Real| {
            if from == to || u == zero {
                v[from]
            } else if u == one {
                v[to]
            } else {
                v[from] + (v[to] - v[from]) * u
            }
        };
        let point_a = on(self.a, p.i, q.i, ta);
        let b_local = on(self.b, p.k, q.k, tb);
        let point_b = self.rel.transform_point(b_local);
        let normal = V::from_components([e.component(1), -e.component(0), zero]);
        let w = along_normal(normal, p.d)?;
        let point = SupportPoint { w, a: point_a, b: point_b, b_local };
        let finite = w.is_finite() && point_a.is_finite() && point_b.is_finite();
        finite.then_some(PolygonGap::Apart(point))
    }
}

/// Which edge the walk takes: `> 0` A's (`along_a`), `< 0` B's reversed (`along_b`), `0`
/// both (parallel). An edge of no length (a flat box's side) goes alone, whatever its turn:
/// taking both steps would bring the other edge forward out of its turn.
#[inline(always)]
fn step_turn<V: Vector>(along_a: V, along_b: V) -> V::Real {
    let turn = cross_2d(along_a, along_b);
    if turn != V::Real::ZERO {
        turn
    } else if along_a == V::ZERO {
        V::Real::ONE
    } else if along_b == V::ZERO {
        -V::Real::ONE
    } else {
        turn
    }
}
