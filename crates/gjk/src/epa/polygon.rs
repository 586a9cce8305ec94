//! The 2D expanding polytope: a convex polygon kept in counter-clockwise order.
//!
//! Every vertex is a support point, so it lies on the boundary of the convex Minkowski
//! difference `D`; a support point `w` found along the outward normal of edge `(vᵢ, vᵢ₊₁)` lies
//! beyond that edge and, angularly, between its ends. Inserting `w` between `vᵢ` and `vᵢ₊₁`
//! therefore keeps the polygon convex and counter-clockwise: no horizon search is needed.

use super::{area2, Expansion, Facet, Storage, Stuck, Vertex};
use crate::math::{Real, Vector};

/// The most vertices the polygon holds (3 to start, one per iteration).
const CAPACITY: usize = 64;

/// A convex polygon of support points with each edge's outward normal and plane distance.
pub(crate) struct Polygon<V: Vector> {
    vertices: [Vertex<V>; CAPACITY],
    /// Edge `i` runs from vertex `i` to vertex `i + 1` (cyclically): (outward unit normal,
    /// signed distance of its line from the origin), or `None` when it has no length.
    edges: [Option<(V, V::Real)>; CAPACITY],
    len: usize,
}

impl<V: Vector> Storage<V> for Polygon<V> {
    #[inline(always)]
    fn empty() -> Self {
        Self { vertices: [Vertex::ZERO; CAPACITY], edges: [None; CAPACITY], len: 0 }
    }

    /// The triangle of the first three `vertices`, turned counter-clockwise.
    #[inline]
    fn start(&mut self, vertices: &[Vertex<V>; 4], _size: V::Real) {
        let [p, q, r, _] = *vertices;
        let ccw = area2(p.w, q.w, r.w) >= V::Real::ZERO;
        self.vertices[..3].copy_from_slice(&if ccw { [p, q, r] } else { [p, r, q] });
        self.len = 3;
        for i in 0..3 {
            self.edges[i] = self.edge(i);
        }
    }
}

impl<V: Vector> Polygon<V> {
    /// The normal and distance of edge `i`, from its vertices.
    fn edge(&self, i: usize) -> Option<(V, V::Real)> {
        let (from, to) = (self.vertices[i].w, self.vertices[(i + 1) % self.len].w);
        let e = to - from;
        // Counter-clockwise order: the outside is on the right, (e.y, −e.x).
        let normal =
            V::from_components([e.component(1), -e.component(0), V::Real::ZERO]).direction()?;
        Some((normal, (normal.dot(from) + normal.dot(to)) * V::Real::HALF))
    }
}

impl<V: Vector> Expansion<V> for Polygon<V> {
    fn closest(&self) -> Option<Facet<V>> {
        let mut best: Option<Facet<V>> = None;
        for (index, edge) in self.edges[..self.len].iter().enumerate() {
            if let Some((normal, distance)) = *edge {
                if best.is_none_or(|b| distance < b.distance) {
                    best = Some(Facet { index, normal, distance });
                }
            }
        }
        best
    }

    fn has_vertex(&self, w: V) -> bool {
        self.vertices[..self.len].iter().any(|v| v.w == w)
    }

    fn grow(&mut self, facet: &Facet<V>, vertex: Vertex<V>) -> Result<(), Stuck> {
        if self.len == CAPACITY {
            return Err(Stuck::Full);
        }
        let at = facet.index + 1;
        self.vertices.copy_within(at..self.len, at + 1);
        self.edges.copy_within(at..self.len, at + 1);
        self.vertices[at] = vertex;
        self.len += 1;
        let (before, after) = (self.edge(at - 1), self.edge(at));
        if before.is_none() || after.is_none() {
            // Undo: a zero-length edge means `w` repeats a vertex up to rounding.
            self.vertices.copy_within(at + 1..self.len, at);
            self.edges.copy_within(at + 1..self.len, at);
            self.len -= 1;
            return Err(Stuck::Degenerate);
        }
        self.edges[at - 1] = before;
        self.edges[at] = after;
        Ok(())
    }

    fn facets(&self) -> impl Iterator<Item = Facet<V>> + '_ {
        self.edges[..self.len].iter().enumerate().filter_map(|(index, edge)| {
            edge.map(|(normal, distance)| Facet { index, normal, distance })
        })
    }

    fn coverage(&self, facet: &Facet<V>) -> V::Real {
        let t = self.parameter(facet);
        t.min(V::Real::ONE - t)
    }

    fn witnesses(&self, facet: &Facet<V>) -> (V, V) {
        let (from, to) = self.ends(facet);
        let t = self.parameter(facet).max(V::Real::ZERO).min(V::Real::ONE);
        let a = from.a + (to.a - from.a) * t;
        let w = from.w + (to.w - from.w) * t;
        (a, a - w)
    }
}

impl<V: Vector> Polygon<V> {
    fn ends(&self, facet: &Facet<V>) -> (Vertex<V>, Vertex<V>) {
        (self.vertices[facet.index], self.vertices[(facet.index + 1) % self.len])
    }

    /// Where the origin's projection `n d` falls on the edge: 0 at its start, 1 at its end.
    fn parameter(&self, facet: &Facet<V>) -> V::Real {
        let (from, to) = self.ends(facet);
        let e = to.w - from.w;
        let ee = e.length_squared();
        if ee.is_positive() {
            (facet.normal * facet.distance - from.w).dot(e) / ee
        } else {
            V::Real::HALF
        }
    }
}
