//! The 3D expanding polytope: a closed triangle mesh with facet adjacency.
//!
//! Each facet stores its three corners counter-clockwise seen from outside, and for each edge
//! `i` (corner `i` to corner `i + 1`) the facet across it and that edge's index there. Adding a
//! support point `w` beyond the closest facet:
//! 1. **horizon walk** (van den Bergen 2001, "silhouette"): depth-first from the closest facet
//!    over the adjacency, mark the facets `w` sees (`n·w > d`, up to rounding); an edge from a seen facet to an
//!    unseen one is a horizon edge. Entering each facet through one edge and visiting the other
//!    two in order lists the horizon as one counter-clockwise loop;
//! 2. check that the loop closes (rounding can make visibility inconsistent; then the polytope
//!    is left as it was and the expansion reports a degenerate end);
//! 3. delete the seen facets and close the hole with a fan of facets from `w` to the horizon.
//!
//! Storage is fixed: a closed triangulated polyhedron with `V` vertices has `2V − 4` facets, and
//! freed facet slots are reused.

use super::{cross, unit, Expansion, Facet, Stuck, Vertex};
use crate::math::{Real, Vector};

/// The most vertices the polytope holds (4 to start, one per iteration).
const MAX_VERTICES: usize = 72;
/// The most facets a closed triangulated polytope of `MAX_VERTICES` vertices has.
const MAX_FACETS: usize = 2 * MAX_VERTICES - 4;

/// Facet and vertex indices fit in a byte.
type Index = u8;

/// A triangle of the mesh.
#[derive(Clone, Copy, Debug)]
struct Triangle<V: Vector> {
    /// Vertex indices, counter-clockwise seen from outside.
    corners: [Index; 3],
    /// The facet across edge `i` (corner `i` → corner `i + 1`).
    neighbours: [Index; 3],
    /// The index of the shared edge in that neighbour.
    neighbour_edges: [u8; 3],
    /// Whether the slot holds a facet of the current polytope.
    alive: bool,
    /// The expansion step that last found this facet visible (0: never).
    seen: u32,
    /// Outward unit normal; zero when the triangle has no area.
    normal: V,
    /// `normal · corner` (infinite when the triangle has no area, so it is never closest).
    distance: V::Real,
}

impl<V: Vector> Triangle<V> {
    const EMPTY: Self = Self {
        corners: [0; 3],
        neighbours: [0; 3],
        neighbour_edges: [0; 3],
        alive: false,
        seen: 0,
        normal: V::ZERO,
        distance: V::Real::INFINITY,
    };
}

/// A horizon edge: the unseen facet and the index of its edge bordering the seen region.
#[derive(Clone, Copy, Debug)]
struct HorizonEdge {
    facet: Index,
    edge: u8,
}

/// The polytope.
pub(crate) struct Polyhedron<V: Vector> {
    vertices: [Vertex<V>; MAX_VERTICES],
    vertex_count: usize,
    facets: [Triangle<V>; MAX_FACETS],
    /// Slots `0..facet_slots` have been used; dead ones among them are listed in `free`.
    facet_slots: usize,
    free: [Index; MAX_FACETS],
    free_count: usize,
    /// The current expansion step (stamps the facets found visible).
    step: u32,
    /// How far below a facet's plane a new point still counts as seeing it: a few rounding
    /// units of the polytope's size, so that a point on the plane of a neighbouring facet
    /// (common on boxes, whose support points often lie in the middle of a face of `D`)
    /// replaces that facet instead of making a fan triangle without area.
    slack: V::Real,
    /// The horizon of the current step (a simple cycle, so at most one edge per vertex) and
    /// the planes of the facets that will close it; kept here so each step reuses the space.
    horizon: [HorizonEdge; MAX_VERTICES],
    planes: [(V, V::Real); MAX_VERTICES],
    horizon_len: usize,
}

impl<V: Vector> Polyhedron<V> {
    /// The tetrahedron of `vertices` (affinely independent), with outward-facing facets;
    /// `size` is the largest |w|, the scale of rounding errors.
    #[inline(always)]
    pub(crate) fn new(vertices: &[Vertex<V>; 4], size: V::Real) -> Self {
        let mut polytope = Self {
            vertices: [Vertex::ZERO; MAX_VERTICES],
            vertex_count: 4,
            facets: [Triangle::EMPTY; MAX_FACETS],
            facet_slots: 4,
            free: [0; MAX_FACETS],
            free_count: 0,
            step: 0,
            slack: V::Real::from_f64(64.0) * V::Real::EPSILON * size,
            horizon: [HorizonEdge { facet: 0, edge: 0 }; MAX_VERTICES],
            planes: [(V::ZERO, V::Real::ZERO); MAX_VERTICES],
            horizon_len: 0,
        };
        let [p0, p1, p2, p3] = *vertices;
        // Orient so that p3 lies below the facet (p0, p1, p2): negative volume.
        let positive = V::tetrahedron_volume6(p0.w, p1.w, p2.w, p3.w) > V::Real::ZERO;
        polytope.vertices[..4].copy_from_slice(&if positive {
            [p0, p2, p1, p3]
        } else {
            [p0, p1, p2, p3]
        });
        let corners: [[Index; 3]; 4] = [[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]];
        for (slot, c) in corners.iter().enumerate() {
            polytope.facets[slot] = polytope.triangle(*c);
        }
        // Link each edge to the facet holding it reversed.
        for f in 0..4 {
            for e in 0..3 {
                let (from, to) = edge_ends(&polytope.facets[f].corners, e);
                for g in (0..4).filter(|&g| g != f) {
                    if let Some(k) = (0..3).find(|&k| edge_ends(&corners[g], k) == (to, from)) {
                        polytope.facets[f].neighbours[e] = g as Index;
                        polytope.facets[f].neighbour_edges[e] = k as u8;
                    }
                }
            }
        }
        polytope
    }

    /// A live facet on `corners`, with its plane (no normal and an infinite distance when it
    /// has no area).
    fn triangle(&self, corners: [Index; 3]) -> Triangle<V> {
        let (normal, distance) = self.plane(corners).unwrap_or((V::ZERO, V::Real::INFINITY));
        Triangle { corners, alive: true, normal, distance, ..Triangle::EMPTY }
    }

    /// The outward unit normal of the triangle on `corners` and its plane's distance from the
    /// origin, or `None` when the triangle has no area.
    fn plane(&self, corners: [Index; 3]) -> Option<(V, V::Real)> {
        let [a, b, c] = corners.map(|i| self.vertices[i as usize].w);
        let n = unit(cross(b - a, c - a))?;
        // The mean of the corners' offsets treats the three alike.
        Some((n, (n.dot(a) + n.dot(b) + n.dot(c)) * V::Real::from_f64(1.0 / 3.0)))
    }

    fn sees(&self, facet: usize, w: V) -> bool {
        let t = &self.facets[facet];
        t.normal.dot(w) > t.distance - self.slack
    }

    /// Marks the facets visible from `w` reachable from `facet` (entered through its edge
    /// `entry`) and lists the horizon edges in counter-clockwise order. `false` when the list
    /// overflows or the walk goes too deep, which a consistent polytope never does.
    fn silhouette(&mut self, facet: usize, entry: usize, w: V, depth: usize) -> bool {
        if self.facets[facet].seen == self.step {
            return true;
        }
        if !self.sees(facet, w) {
            if self.horizon_len == MAX_VERTICES {
                return false;
            }
            self.horizon[self.horizon_len] =
                HorizonEdge { facet: facet as Index, edge: entry as u8 };
            self.horizon_len += 1;
            return true;
        }
        if depth > MAX_FACETS {
            return false;
        }
        self.facets[facet].seen = self.step;
        for k in 1..3 {
            let e = if entry + k >= 3 { entry + k - 3 } else { entry + k };
            let t = self.facets[facet];
            let (next, next_entry) = (t.neighbours[e] as usize, t.neighbour_edges[e] as usize);
            if !self.silhouette(next, next_entry, w, depth + 1) {
                return false;
            }
        }
        true
    }

    /// The current horizon's edges as `(s, t)`: the new facet on each is `(s, t, w)` (the
    /// unseen facet's edge reversed).
    fn horizon_edge(&self, i: usize) -> (Index, Index) {
        let h = self.horizon[i];
        let (from, to) = edge_ends(&self.facets[h.facet as usize].corners, h.edge as usize);
        (to, from)
    }

    /// Whether the horizon is one closed loop: each edge ends where the next begins.
    fn closes(&self) -> bool {
        let n = self.horizon_len;
        n >= 3 && (0..n).all(|i| self.horizon_edge(i).1 == self.horizon_edge(next(i, n)).0)
    }

    /// A free facet slot.
    fn allocate(&mut self) -> usize {
        if self.free_count > 0 {
            self.free_count -= 1;
            self.free[self.free_count] as usize
        } else {
            self.facet_slots += 1;
            self.facet_slots - 1
        }
    }

    /// Replaces the facets stamped `self.step` by the fan from vertex `apex` to the horizon,
    /// whose planes are in `self.planes`.
    fn stitch(&mut self, apex: Index) {
        for slot in 0..self.facet_slots {
            let t = &mut self.facets[slot];
            if t.alive && t.seen == self.step {
                t.alive = false;
                self.free[self.free_count] = slot as Index;
                self.free_count += 1;
            }
        }
        let n = self.horizon_len;
        let mut slots = [0 as Index; MAX_VERTICES];
        for slot in slots.iter_mut().take(n) {
            *slot = self.allocate() as Index;
        }
        for i in 0..n {
            let h = self.horizon[i];
            let (s, t) = self.horizon_edge(i);
            let (normal, distance) = self.planes[i];
            let slot = slots[i] as usize;
            self.facets[slot] = Triangle {
                corners: [s, t, apex],
                neighbours: [h.facet, slots[next(i, n)], slots[if i == 0 { n - 1 } else { i - 1 }]],
                neighbour_edges: [h.edge, 2, 1],
                alive: true,
                seen: 0,
                normal,
                distance,
            };
            let across = &mut self.facets[h.facet as usize];
            across.neighbours[h.edge as usize] = slot as Index;
            across.neighbour_edges[h.edge as usize] = 0;
        }
    }

    /// How many facet slots are free or freeable without growing past capacity.
    fn room(&self) -> usize {
        MAX_FACETS - self.facet_slots + self.free_count
    }
}

/// The ends of edge `e` of a triangle with these corners.
#[inline]
fn edge_ends(corners: &[Index; 3], e: usize) -> (Index, Index) {
    (corners[e], corners[next(e, 3)])
}

/// `(i + 1) mod n` for `i < n`, without a division.
#[inline]
fn next(i: usize, n: usize) -> usize {
    if i + 1 == n {
        0
    } else {
        i + 1
    }
}

impl<V: Vector> Expansion<V> for Polyhedron<V> {
    fn closest(&self) -> Option<Facet<V>> {
        let mut best: Option<Facet<V>> = None;
        for (index, t) in self.facets[..self.facet_slots].iter().enumerate() {
            if t.alive && t.distance.is_finite() && best.is_none_or(|b| t.distance < b.distance) {
                best = Some(Facet { index, normal: t.normal, distance: t.distance });
            }
        }
        best
    }

    fn has_vertex(&self, w: V) -> bool {
        self.vertices[..self.vertex_count].iter().any(|v| v.w == w)
    }

    fn grow(&mut self, facet: &Facet<V>, vertex: Vertex<V>) -> Result<(), Stuck> {
        if self.vertex_count == MAX_VERTICES {
            return Err(Stuck::Full);
        }
        self.step += 1;
        self.horizon_len = 0;
        let w = vertex.w;
        // The closest facet is visible by construction (w lies beyond it): start there.
        let start = facet.index;
        self.facets[start].seen = self.step;
        for e in 0..3 {
            let t = self.facets[start];
            let (next, entry) = (t.neighbours[e] as usize, t.neighbour_edges[e] as usize);
            if !self.silhouette(next, entry, w, 0) {
                return Err(self.abandon());
            }
        }
        if !self.closes() {
            return Err(self.abandon());
        }
        let seen = self.facets[..self.facet_slots]
            .iter()
            .filter(|t| t.alive && t.seen == self.step)
            .count();
        if self.room() + seen < self.horizon_len {
            self.abandon();
            return Err(Stuck::Full);
        }
        // Every new facet must have an area: otherwise `w` is on a horizon edge's line.
        let apex = self.vertex_count as Index;
        self.vertices[self.vertex_count] = vertex;
        for i in 0..self.horizon_len {
            let (s, t) = self.horizon_edge(i);
            match self.plane([s, t, apex]) {
                Some(plane) => self.planes[i] = plane,
                None => return Err(self.abandon()),
            }
        }
        self.vertex_count += 1;
        self.stitch(apex);
        Ok(())
    }

    fn facets(&self) -> impl Iterator<Item = Facet<V>> + '_ {
        self.facets[..self.facet_slots].iter().enumerate().filter_map(|(index, t)| {
            (t.alive && t.distance.is_finite()).then_some(Facet {
                index,
                normal: t.normal,
                distance: t.distance,
            })
        })
    }

    fn coverage(&self, facet: &Facet<V>) -> V::Real {
        let [l0, l1, l2] = self.barycentric(facet);
        l0.min(l1).min(l2)
    }

    fn witnesses(&self, facet: &Facet<V>) -> (V, V) {
        let [p, q, r] = self.facets[facet.index].corners.map(|i| self.vertices[i as usize]);
        let weights = self.barycentric(facet).map(|l| l.max(V::Real::ZERO));
        let sum = weights[0] + weights[1] + weights[2];
        let [l0, l1, l2] = if sum.is_positive() {
            weights.map(|l| l / sum)
        } else {
            [V::Real::from_f64(1.0 / 3.0); 3]
        };
        let a = p.a * l0 + q.a * l1 + r.a * l2;
        let w = p.w * l0 + q.w * l1 + r.w * l2;
        (a, a - w)
    }
}

impl<V: Vector> Polyhedron<V> {
    /// The barycentric coordinates of the origin's projection `x = n d` onto `facet`: ratios
    /// of the sub-triangles' areas along the normal (negative outside).
    fn barycentric(&self, facet: &Facet<V>) -> [V::Real; 3] {
        let [p, q, r] = self.facets[facet.index].corners.map(|i| self.vertices[i as usize].w);
        let n = facet.normal;
        let x = n * facet.distance;
        let total = n.dot(cross(q - p, r - p));
        if !total.is_positive() {
            return [V::Real::from_f64(1.0 / 3.0); 3];
        }
        [n.dot(cross(q - x, r - x)), n.dot(cross(r - x, p - x)), n.dot(cross(p - x, q - x))]
            .map(|l| l / total)
    }
}

impl<V: Vector> Polyhedron<V> {
    /// Forgets the current step's marks (the polytope is unchanged) and reports a degenerate
    /// update.
    fn abandon(&mut self) -> Stuck {
        for t in &mut self.facets[..self.facet_slots] {
            if t.seen == self.step {
                t.seen = 0;
            }
        }
        Stuck::Degenerate
    }
}
