//! The 2D expanding polytope: a convex polygon kept in counter-clockwise order.
//!
//! A support point `w` found along the outward normal of the closest edge `(vᵢ, vᵢ₊₁)` lies
//! beyond that edge, so it goes between `vᵢ` and `vᵢ₊₁`. That alone would keep the polygon
//! convex only if every vertex were on the boundary of the Minkowski difference `D`, and the
//! starting triangle need not be: GJK's closed form for two segment cores (and a warm-started
//! simplex) hands over points inside `D` — two crossing segments meet at a point whose `w` is
//! the origin itself. Such a vertex would stay in the polygon forever, its edges passing
//! through the origin at distance 0, and the expansion could never converge. So growing is the
//! 2D horizon step of EPA: after inserting `w`, the neighbours that `w` sees past (the vertices
//! that are no longer strictly convex, `area(prev, v, w) ≤ 0` behind `w` and
//! `area(w, v, next) ≤ 0` ahead of it) leave the polygon. It stays convex, counter-clockwise,
//! and only grows, so it still contains the origin.
//!
//! The vertices are stored in the order they came and linked both ways counter-clockwise, so
//! inserting or dropping one moves nothing; edge `i` runs from vertex `i` to the next one.
//! Scans follow the links from a live vertex (`head`), so they meet the edges in the
//! polygon's order. As for the polyhedron, the capacity is a type parameter: [`Small`] first,
//! [`Large`] when it fills up (dropped vertices keep their slots).

use super::{Absorb, EpaFace, Expansion, Faces, Facet, Storage, Stuck, Vertex};
use crate::geometry::{area2, unit};
use crate::math::{Real, Vector};

/// The polygon most expansions fit in: 24 vertices.
pub(crate) type Small<V> = Polygon<V, 24>;
/// The polygon an expansion moves into when [`Small`] fills up: 64 vertices (3 to start, one
/// per iteration).
pub(crate) type Large<V> = Polygon<V, 64>;

/// A convex polygon of support points with each edge's outward normal and line distance.
pub(crate) struct Polygon<V: Vector, const N: usize> {
    vertices: [Vertex<V>; N],
    /// Edge `i` runs from vertex `i` to vertex `next[i]`: its outward unit normal and the
    /// signed distance of its line from the origin (infinite, with a zero normal, when it has
    /// no length, so that it is never closest).
    edges: [(V, V::Real); N],
    /// The next vertex counter-clockwise.
    next: [u8; N],
    /// The previous vertex counter-clockwise.
    prev: [u8; N],
    /// A vertex of the polygon, where scans start.
    head: u8,
    /// Slots used (dropped vertices included).
    len: usize,
    /// Vertices in the polygon.
    count: usize,
}

impl<V: Vector, const N: usize> Storage<V> for Polygon<V, N> {
    #[inline(always)]
    fn empty() -> Self {
        const { assert!(N < 256) };
        Self {
            vertices: [Vertex::ZERO; N],
            edges: [(V::ZERO, V::Real::ZERO); N],
            next: [0; N],
            prev: [0; N],
            head: 0,
            len: 0,
            count: 0,
        }
    }

    /// The triangle of the first three `vertices`, turned counter-clockwise.
    #[inline]
    fn start(&mut self, vertices: &[Vertex<V>; 4], _size: V::Real) {
        let [p, q, r, _] = *vertices;
        let ccw = area2(p.w, q.w, r.w) >= V::Real::ZERO;
        self.vertices[..3].copy_from_slice(&if ccw { [p, q, r] } else { [p, r, q] });
        self.next[..3].copy_from_slice(&[1, 2, 0]);
        self.prev[..3].copy_from_slice(&[2, 0, 1]);
        self.head = 0;
        self.len = 3;
        self.count = 3;
        for i in 0..3 {
            self.edges[i] = self.edge(i);
        }
    }
}

impl<V: Vector, const M: usize, const N: usize> Absorb<Polygon<V, M>> for Polygon<V, N> {
    fn absorb(&mut self, small: &Polygon<V, M>) {
        const { assert!(M <= N) };
        self.vertices[..M].copy_from_slice(&small.vertices);
        self.edges[..M].copy_from_slice(&small.edges);
        self.next[..M].copy_from_slice(&small.next);
        self.prev[..M].copy_from_slice(&small.prev);
        self.head = small.head;
        self.len = small.len;
        self.count = small.count;
    }
}

impl<V: Vector, const N: usize> Polygon<V, N> {
    /// The normal and distance of edge `i`, from its vertices (no normal and an infinite
    /// distance when it has no length).
    #[inline]
    fn edge(&self, i: usize) -> (V, V::Real) {
        let (from, to) = (self.vertices[i].w, self.vertices[usize::from(self.next[i])].w);
        let e = to - from;
        // Counter-clockwise order: the outside is on the right, (e.y, −e.x).
        match unit(V::from_components([e.component(1), -e.component(0), V::Real::ZERO])) {
            Some(normal) => (normal, (normal.dot(from) + normal.dot(to)) * V::Real::HALF),
            None => (V::ZERO, V::Real::INFINITY),
        }
    }

    /// The edges' start vertices in counter-clockwise order from `head`.
    #[inline]
    fn order(&self) -> impl Iterator<Item = usize> + '_ {
        let mut i = usize::from(self.head);
        (0..self.count).map(move |_| {
            let here = i;
            i = usize::from(self.next[i]);
            here
        })
    }

    /// Makes `to` follow `from`.
    #[inline]
    fn link(&mut self, from: usize, to: usize) {
        self.next[from] = to as u8;
        self.prev[to] = from as u8;
    }

    /// Drops the neighbours of the new vertex `k` that are no longer strictly convex (the
    /// horizon step of the module docs), keeping at least a triangle.
    #[inline]
    fn drop_hidden(&mut self, k: usize) {
        let w = self.vertices[k].w;
        while self.count > 3 {
            let v = usize::from(self.prev[k]);
            let before = usize::from(self.prev[v]);
            if area2(self.vertices[before].w, self.vertices[v].w, w) > V::Real::ZERO {
                break;
            }
            self.unlink(v);
        }
        while self.count > 3 {
            let v = usize::from(self.next[k]);
            let after = usize::from(self.next[v]);
            if area2(w, self.vertices[v].w, self.vertices[after].w) > V::Real::ZERO {
                break;
            }
            self.unlink(v);
        }
    }

    /// Takes vertex `v` out of the polygon (its slot stays used).
    #[inline]
    fn unlink(&mut self, v: usize) {
        let (before, after) = (usize::from(self.prev[v]), usize::from(self.next[v]));
        self.link(before, after);
        if usize::from(self.head) == v {
            self.head = after as u8;
        }
        self.count -= 1;
    }

    fn ends(&self, facet: &Facet<V>) -> (Vertex<V>, Vertex<V>) {
        let i = facet.index;
        (self.vertices[i], self.vertices[usize::from(self.next[i])])
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

impl<V: Vector, const N: usize> Faces<V> for Polygon<V, N> {
    #[inline]
    fn face(&self, facet: &Facet<V>) -> EpaFace<V> {
        let (from, to) = self.ends(facet);
        EpaFace::new(facet, &[from.w, to.w])
    }

    fn visit(&self, f: &mut dyn FnMut(EpaFace<V>)) {
        self.facets().for_each(|facet| f(self.face(&facet)));
    }
}

impl<V: Vector, const N: usize> Expansion<V> for Polygon<V, N> {
    fn closest(&self) -> Option<Facet<V>> {
        let mut best = V::Real::INFINITY;
        let mut index = usize::MAX;
        for i in self.order() {
            let d = self.edges[i].1;
            if d < best {
                best = d;
                index = i;
            }
        }
        (index != usize::MAX).then(|| Facet { index, normal: self.edges[index].0, distance: best })
    }

    fn has_vertex(&self, w: V) -> bool {
        self.order().any(|i| self.vertices[i].w == w)
    }

    fn grow(&mut self, facet: &Facet<V>, vertex: Vertex<V>) -> Result<(), Stuck> {
        if self.len == N {
            return Err(Stuck::Full);
        }
        // Between the edge's ends: i → k → j.
        let (i, k) = (facet.index, self.len);
        let j = usize::from(self.next[i]);
        self.vertices[k] = vertex;
        self.link(i, k);
        self.link(k, j);
        self.len += 1;
        self.count += 1;
        self.drop_hidden(k);
        let before = usize::from(self.prev[k]);
        let (edge_before, edge_after) = (self.edge(before), self.edge(k));
        if !edge_before.1.is_finite() || !edge_after.1.is_finite() {
            // A zero-length edge: `w` repeats a vertex up to rounding.
            return Err(Stuck::Degenerate);
        }
        self.edges[before] = edge_before;
        self.edges[k] = edge_after;
        Ok(())
    }

    fn facets(&self) -> impl Iterator<Item = Facet<V>> + '_ {
        self.order().filter(|&i| self.edges[i].1.is_finite()).map(|index| {
            let (normal, distance) = self.edges[index];
            Facet { index, normal, distance }
        })
    }

    fn barycentric(&self, facet: &Facet<V>) -> [V::Real; 3] {
        let t = self.parameter(facet);
        [t, V::Real::ONE - t, V::Real::INFINITY]
    }

    fn cap(&self, facet: &Facet<V>) -> super::Cap<V> {
        let (from, to) = self.ends(facet);
        let mut points = [Vertex::ZERO; crate::epa::CAP];
        points[..2].copy_from_slice(&[from, to]);
        super::Cap { points, len: 2, face: 2 }
    }

    fn affine(&self, _: &Facet<V>, _: [V::Real; 3], _: V::Real) -> bool {
        false
    }

    fn witnesses(&self, facet: &Facet<V>, barycentric: [V::Real; 3], _: V::Real) -> (V, V) {
        let (from, to) = self.ends(facet);
        let t = barycentric[0].max(V::Real::ZERO).min(V::Real::ONE);
        let a = from.a + (to.a - from.a) * t;
        let w = from.w + (to.w - from.w) * t;
        (a, a - w)
    }
}
