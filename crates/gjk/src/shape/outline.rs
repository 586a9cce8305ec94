//! The edges of a small convex polygon, for exact point queries without GJK.
//!
//! A disc against a polygon is the most common 2D query. Its answer is one point projection
//! onto the polygon: outside, the nearest point of the nearest edge; inside, the way out
//! through the edge whose line is nearest. A scan of the edges answers both exactly, in a few
//! arithmetic operations per edge — a fraction of what GJK's loop (or EPA, for a disc centre
//! inside) spends on the same question.
//!
//! Why the scans are right, for a convex polygon `P` with outward unit edge normals `nᵢ` and
//! edge lines `nᵢ·x = cᵢ`, and the excess `sᵢ(p) = nᵢ·p − cᵢ`:
//! - `p ∈ P` exactly when every `sᵢ(p) ≤ 0` (`P` is the intersection of the edges' half
//!   planes);
//! - outside, the nearest point of `P` lies on the boundary, which is the union of the edges,
//!   so the nearest of the edges' nearest points is the answer;
//! - inside, the distance to the boundary is `minᵢ −sᵢ(p)`: every boundary point lies on some
//!   edge's line, at least `−sᵢ` away, and the foot of the perpendicular to the nearest line,
//!   `p − sᵢ nᵢ`, lies in `P` (it is no farther out than `p` for every other edge, by the
//!   choice of the nearest one), hence on that edge.

use alloc::vec::Vec;

use super::CoreBoundary;
use crate::hull::Hull;
use crate::math::{Real, Vector};

/// One edge, counter-clockwise along the boundary.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Edge<V: Vector> {
    start: V,
    end: V,
    /// `end − start`, and `1 / |end − start|²`.
    along: V,
    inverse_length2: V::Real,
    /// The outward unit normal and the line's offset: `normal · x = offset` on the edge.
    normal: V,
    offset: V::Real,
}

/// The edges of a 2D polygon hull (empty for other hulls: 3D, segments, points).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Outline<V: Vector> {
    edges: Vec<Edge<V>>,
}

impl<V: Vector> Outline<V> {
    /// The hull's edges when it is a polygon in the plane with at most `limit` vertices (beyond
    /// that a scan of every edge costs more than GJK's climb); otherwise none.
    pub(crate) fn new(hull: &Hull<V>, limit: usize) -> Self {
        let vertices = hull.vertices();
        if V::DIM != 2 || hull.dimension() != 2 || vertices.len() > limit {
            return Self { edges: Vec::new() };
        }
        let edges = hull
            .faces()
            .filter_map(|face| {
                let &[i, j] = face.vertices else { return None };
                let (start, end) = (vertices[i as usize], vertices[j as usize]);
                let along = end - start;
                let length2 = along.length_squared();
                length2.is_positive().then(|| Edge {
                    start,
                    end,
                    along,
                    inverse_length2: V::Real::ONE / length2,
                    normal: face.normal,
                    offset: face.offset,
                })
            })
            .collect::<Vec<_>>();
        // A polygon has at least three edges; anything else is not one to scan.
        let edges = if edges.len() >= 3 { edges } else { Vec::new() };
        Self { edges }
    }

    /// True when there are no edges (not a small polygon).
    pub(crate) fn is_empty(&self) -> bool {
        self.edges.is_empty()
    }

    /// The edge whose line `p` is farthest outside of (nearest to, from inside): its index and
    /// excess `n·p − c`. Ties go to the first edge in the hull's order.
    #[inline]
    fn largest_excess(&self, p: V) -> (usize, V::Real) {
        let mut best = (0, -V::Real::INFINITY);
        for (i, edge) in self.edges.iter().enumerate() {
            let excess = edge.normal.dot(p) - edge.offset;
            if excess > best.1 {
                best = (i, excess);
            }
        }
        best
    }

    /// The point of the polygon nearest to `p`: `p` itself inside (no excess above 0),
    /// otherwise the nearest of the edges' nearest points (the first edge's on ties; an end
    /// point is returned exactly as the vertex it is).
    #[inline]
    pub(crate) fn closest(&self, p: V) -> V {
        if self.largest_excess(p).1 <= V::Real::ZERO {
            return p;
        }
        let mut best = (V::Real::INFINITY, p);
        for edge in &self.edges {
            let t = (p - edge.start).dot(edge.along) * edge.inverse_length2;
            let q = if t <= V::Real::ZERO {
                edge.start
            } else if t >= V::Real::ONE {
                edge.end
            } else {
                edge.start + edge.along * t
            };
            let gap2 = (p - q).length_squared();
            if gap2 < best.0 {
                best = (gap2, q);
            }
        }
        best.1
    }

    /// The way out from `p` (in the polygon, or within rounding of it): through the edge whose
    /// line is nearest, the first in the hull's order on ties. For a point outside, the edge it
    /// is farthest outside of, with `depth = −`(that excess) `< 0`.
    #[inline]
    pub(crate) fn nearest_exit(&self, p: V) -> CoreBoundary<V> {
        let (i, excess) = self.largest_excess(p);
        let normal = self.edges[i].normal;
        CoreBoundary { point: p - normal * excess, normal, depth: -excess }
    }
}
