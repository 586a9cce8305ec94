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

use super::{CoreBoundary, CorePolygon};
use crate::hull::Hull;
use crate::math::{Real, Vector};

/// The edges of a 2D polygon hull (empty for other hulls: 3D, segments, points). Edge `i` runs
/// counter-clockwise from `vertices[i]` to `vertices[i + 1]` (cyclically).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Outline<V: Vector> {
    vertices: Vec<V>,
    /// The outward unit normals and the lines' offsets: `normal · x = offset` on the edge.
    normals: Vec<V>,
    offsets: Vec<V::Real>,
    /// `1 / |edge|²`, for the projections onto the edges.
    inverse_lengths2: Vec<V::Real>,
}

impl<V: Vector> Outline<V> {
    /// The hull's edges when it is a polygon in the plane with at most `limit` vertices (beyond
    /// that a scan of every edge costs more than GJK's climb); otherwise none.
    pub(crate) fn new(hull: &Hull<V>, limit: usize) -> Self {
        let mut outline = Self::new_empty();
        let all = hull.vertices();
        if V::DIM != 2 || hull.dimension() != 2 || all.len() > limit {
            return outline;
        }
        // The hull lists its edges in order around the boundary, each starting where the last
        // one ended; anything else (or an edge without length) is not a polygon to scan.
        let faces = hull.faces();
        let count = faces.len();
        for (k, face) in faces.enumerate() {
            let &[i, j] = face.vertices else { return Self::new_empty() };
            let next = hull.face((k + 1) % count).vertices.first().copied();
            let (start, end) = (all[i as usize], all[j as usize]);
            let length2 = (end - start).length_squared();
            if next != Some(j) || !length2.is_positive() {
                return Self::new_empty();
            }
            outline.vertices.push(start);
            outline.normals.push(face.normal);
            outline.offsets.push(face.offset);
            outline.inverse_lengths2.push(V::Real::ONE / length2);
        }
        if count < 3 {
            return Self::new_empty();
        }
        outline
    }

    /// No edges.
    fn new_empty() -> Self {
        Self {
            vertices: Vec::new(),
            normals: Vec::new(),
            offsets: Vec::new(),
            inverse_lengths2: Vec::new(),
        }
    }

    /// True when there are no edges (not a small polygon).
    pub(crate) fn is_empty(&self) -> bool {
        self.vertices.is_empty()
    }

    /// The corners and edge normals, or `None` when this is not a small polygon.
    pub(crate) fn polygon(&self) -> Option<CorePolygon<'_, V>> {
        (!self.is_empty())
            .then_some(CorePolygon { vertices: &self.vertices, normals: &self.normals })
    }

    /// Edge `i`'s ends.
    #[inline]
    fn ends(&self, i: usize) -> (V, V) {
        let next = if i + 1 == self.vertices.len() { 0 } else { i + 1 };
        (self.vertices[i], self.vertices[next])
    }

    /// The edge whose line `p` is farthest outside of (nearest to, from inside): its index and
    /// excess `n·p − c`. Ties go to the first edge in the hull's order.
    #[inline]
    fn largest_excess(&self, p: V) -> (usize, V::Real) {
        let mut best = (0, -V::Real::INFINITY);
        for (i, (normal, &offset)) in self.normals.iter().zip(&self.offsets).enumerate() {
            let excess = normal.dot(p) - offset;
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
        for (i, &inverse_length2) in self.inverse_lengths2.iter().enumerate() {
            let (start, end) = self.ends(i);
            let along = end - start;
            let t = (p - start).dot(along) * inverse_length2;
            let q = if t <= V::Real::ZERO {
                start
            } else if t >= V::Real::ONE {
                end
            } else {
                start + along * t
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
        let normal = self.normals[i];
        CoreBoundary { point: p - normal * excess, normal, depth: -excess }
    }
}
