//! The edges of a small convex polygon hull, laid out for the polygon kernels of
//! [`Core::Polygon`](super::Core::Polygon).

use alloc::vec::Vec;

use super::{CorePolygon, Feature};
use crate::hull::Hull;
use crate::math::{Real, Vector};

/// The edges of a 2D polygon hull (empty for other hulls: 3D, segments, points). Edge `i` runs
/// counter-clockwise from `vertices[i]` to `vertices[i + 1]` (cyclically).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Outline<V: Vector> {
    vertices: Vec<V>,
    /// The edges' outward unit normals.
    normals: Vec<V>,
    /// Each corner's index among the hull's vertices: its id in a [`Feature`].
    ids: Vec<u32>,
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
            outline.ids.push(i);
        }
        if count < 3 {
            return Self::new_empty();
        }
        outline
    }

    /// No edges.
    fn new_empty() -> Self {
        Self { vertices: Vec::new(), normals: Vec::new(), ids: Vec::new() }
    }

    /// The edge whose normal is the most aligned with `dir` (the first of equals), as the
    /// hull's face of the same index (edge `k` is the hull's face `k`, ids are hull vertex
    /// indices), read from the contiguous edges without the hull's face lookup; `None` when
    /// this is not a small polygon.
    #[inline]
    pub(crate) fn feature(&self, dir: V) -> Option<Feature<V>> {
        if self.vertices.is_empty() {
            return None;
        }
        let k = crate::geometry::argmax_dot(&self.normals, dir);
        let next = if k + 1 == self.vertices.len() { 0 } else { k + 1 };
        let ends = [self.vertices[k], self.vertices[next]];
        Some(Feature::edge(ends, [self.ids[k], self.ids[next]], self.normals[k], k as u32))
    }

    /// The corners and edge normals, or `None` when this is not a small polygon.
    pub(crate) fn polygon(&self) -> Option<CorePolygon<'_, V>> {
        (!self.vertices.is_empty())
            .then_some(CorePolygon { vertices: &self.vertices, normals: &self.normals })
    }
}
