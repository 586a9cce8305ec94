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
//! freed facet slots are reused. The facets are stored field by field (corners, links, normals,
//! distances in separate arrays): finding the closest facet reads one dense array of distances,
//! and every array starts zeroed (a `memset`), since only slots already written are ever read.
//! A step remembers the facets it found visible, so deleting them touches nothing else.

use super::{cross, unit, Expansion, Facet, Stuck, Vertex};
use crate::math::{Real, Vector};

/// The most vertices the polytope holds (4 to start, one per iteration).
const MAX_VERTICES: usize = 72;
/// The most facets a closed triangulated polytope of `MAX_VERTICES` vertices has.
const MAX_FACETS: usize = 2 * MAX_VERTICES - 4;

/// Facet and vertex indices fit in a byte.
type Index = u8;

/// One side of an edge shared by two facets: the facet and the edge's index in it (`0..3`, the
/// edge from corner `i` to corner `i + 1`), packed as `facet << 2 | edge`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Link(u16);

impl Link {
    #[inline]
    fn new(facet: usize, edge: usize) -> Self {
        Self(((facet as u16) << 2) | edge as u16)
    }
    #[inline]
    fn facet(self) -> usize {
        usize::from(self.0 >> 2)
    }
    #[inline]
    fn edge(self) -> usize {
        usize::from(self.0 & 3)
    }
}

/// The polytope.
pub(crate) struct Polyhedron<V: Vector> {
    vertices: [Vertex<V>; MAX_VERTICES],
    vertex_count: usize,
    /// Each facet's vertex indices, counter-clockwise seen from outside.
    corners: [[Index; 3]; MAX_FACETS],
    /// Across each facet's edge `i`: the neighbouring facet and the edge's index there.
    links: [[Link; 3]; MAX_FACETS],
    /// Outward unit normals (zero for a triangle without area).
    normals: [V; MAX_FACETS],
    /// `normal · corner`: infinite for free slots and triangles without area, so that neither
    /// is ever closest nor seen.
    distances: [V::Real; MAX_FACETS],
    /// The expansion step that last found each facet visible (0: never).
    stamps: [u8; MAX_FACETS],
    /// Slots `0..facet_slots` have been used; free ones among them are listed in `free`.
    facet_slots: usize,
    free: [Index; MAX_FACETS],
    free_count: usize,
    /// The current expansion step (stamps the facets found visible); at most one per vertex.
    step: u8,
    /// How far below a facet's plane a new point still counts as seeing it: a few rounding
    /// units of the polytope's size, so that a point on the plane of a neighbouring facet
    /// (common on boxes, whose support points often lie in the middle of a face of `D`)
    /// replaces that facet instead of making a fan triangle without area.
    slack: V::Real,
    /// The facets the current step found visible.
    visible: [Index; MAX_FACETS],
    visible_len: usize,
    /// The horizon of the current step as the unseen facets' sides of its edges (a simple
    /// cycle, so at most one edge per vertex), and the planes of the facets that will close
    /// it; kept here so each step reuses the space.
    horizon: [Link; MAX_VERTICES],
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
            corners: [[0; 3]; MAX_FACETS],
            links: [[Link(0); 3]; MAX_FACETS],
            normals: [V::ZERO; MAX_FACETS],
            distances: [V::Real::ZERO; MAX_FACETS],
            stamps: [0; MAX_FACETS],
            facet_slots: 4,
            free: [0; MAX_FACETS],
            free_count: 0,
            step: 0,
            slack: V::Real::from_f64(64.0) * V::Real::EPSILON * size,
            visible: [0; MAX_FACETS],
            visible_len: 0,
            horizon: [Link(0); MAX_VERTICES],
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
        const CORNERS: [[Index; 3]; 4] = [[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]];
        for (slot, &c) in CORNERS.iter().enumerate() {
            polytope.set_facet(slot, c);
        }
        // Link each edge to the facet holding it reversed.
        for (f, corners) in CORNERS.iter().enumerate() {
            for e in 0..3 {
                let (from, to) = edge_ends(corners, e);
                for g in (0..4).filter(|&g| g != f) {
                    if let Some(k) = (0..3).find(|&k| edge_ends(&CORNERS[g], k) == (to, from)) {
                        polytope.links[f][e] = Link::new(g, k);
                    }
                }
            }
        }
        polytope
    }

    /// Puts the triangle on `corners` in `slot` with its plane (no normal and an infinite
    /// distance when it has no area); the links are the caller's.
    fn set_facet(&mut self, slot: usize, corners: [Index; 3]) {
        let (normal, distance) = self.plane(corners).unwrap_or((V::ZERO, V::Real::INFINITY));
        self.corners[slot] = corners;
        self.normals[slot] = normal;
        self.distances[slot] = distance;
    }

    /// The outward unit normal of the triangle on `corners` and its plane's distance from the
    /// origin, or `None` when the triangle has no area.
    #[inline]
    fn plane(&self, corners: [Index; 3]) -> Option<(V, V::Real)> {
        let [a, b, c] = corners.map(|i| self.vertices[i as usize].w);
        let n = unit(cross(b - a, c - a))?;
        // The mean of the corners' offsets treats the three alike.
        Some((n, (n.dot(a) + n.dot(b) + n.dot(c)) * V::Real::from_f64(1.0 / 3.0)))
    }

    /// Whether `w` lies above `facet`'s plane (less the slack).
    #[inline]
    fn sees(&self, facet: usize, w: V) -> bool {
        self.normals[facet].dot(w) > self.distances[facet] - self.slack
    }

    /// Marks the facets visible from `w` reachable from `facet` (entered through its edge
    /// `entry`) and lists the horizon edges in counter-clockwise order. `false` when the list
    /// overflows or the walk goes too deep, which a consistent polytope never does.
    fn silhouette(&mut self, facet: usize, entry: usize, w: V, depth: usize) -> bool {
        if self.stamps[facet] == self.step {
            return true;
        }
        if !self.sees(facet, w) {
            if self.horizon_len == MAX_VERTICES {
                return false;
            }
            self.horizon[self.horizon_len] = Link::new(facet, entry);
            self.horizon_len += 1;
            return true;
        }
        if depth > MAX_FACETS {
            return false;
        }
        self.mark_visible(facet);
        let links = self.links[facet];
        for k in 1..3 {
            let across = links[if entry + k >= 3 { entry + k - 3 } else { entry + k }];
            if !self.silhouette(across.facet(), across.edge(), w, depth + 1) {
                return false;
            }
        }
        true
    }

    /// Stamps `facet` as seen by the current step and lists it.
    #[inline]
    fn mark_visible(&mut self, facet: usize) {
        self.stamps[facet] = self.step;
        self.visible[self.visible_len] = facet as Index;
        self.visible_len += 1;
    }

    /// The current horizon's edges as `(s, t)`: the new facet on each is `(s, t, w)` (the
    /// unseen facet's edge reversed).
    #[inline]
    fn horizon_edge(&self, i: usize) -> (Index, Index) {
        let h = self.horizon[i];
        let (from, to) = edge_ends(&self.corners[h.facet()], h.edge());
        (to, from)
    }

    /// Whether the horizon is one closed loop: each edge ends where the next begins.
    fn closes(&self) -> bool {
        let n = self.horizon_len;
        n >= 3 && (0..n).all(|i| self.horizon_edge(i).1 == self.horizon_edge(next(i, n)).0)
    }

    /// A free facet slot.
    #[inline]
    fn allocate(&mut self) -> usize {
        if self.free_count > 0 {
            self.free_count -= 1;
            self.free[self.free_count] as usize
        } else {
            self.facet_slots += 1;
            self.facet_slots - 1
        }
    }

    /// Replaces the facets the current step found visible by the fan from vertex `apex` to the
    /// horizon, whose planes are in `self.planes`.
    fn stitch(&mut self, apex: Index) {
        for &slot in &self.visible[..self.visible_len] {
            self.distances[slot as usize] = V::Real::INFINITY;
            self.free[self.free_count] = slot;
            self.free_count += 1;
        }
        let n = self.horizon_len;
        let mut slots = [0usize; MAX_VERTICES];
        for slot in slots.iter_mut().take(n) {
            *slot = self.allocate();
        }
        for i in 0..n {
            let h = self.horizon[i];
            let (s, t) = self.horizon_edge(i);
            let (normal, distance) = self.planes[i];
            let slot = slots[i];
            let before = slots[if i == 0 { n - 1 } else { i - 1 }];
            self.corners[slot] = [s, t, apex];
            self.links[slot] = [h, Link::new(slots[next(i, n)], 2), Link::new(before, 1)];
            self.normals[slot] = normal;
            self.distances[slot] = distance;
            self.stamps[slot] = 0;
            self.links[h.facet()][h.edge()] = Link::new(slot, 0);
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
        let mut best = V::Real::INFINITY;
        let mut index = usize::MAX;
        for (i, &d) in self.distances[..self.facet_slots].iter().enumerate() {
            if d < best {
                best = d;
                index = i;
            }
        }
        (index != usize::MAX).then(|| Facet { index, normal: self.normals[index], distance: best })
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
        self.visible_len = 0;
        let w = vertex.w;
        // The closest facet is visible by construction (w lies beyond it): start there.
        let start = facet.index;
        self.mark_visible(start);
        let links = self.links[start];
        for across in links {
            if !self.silhouette(across.facet(), across.edge(), w, 0) {
                return Err(self.abandon());
            }
        }
        if !self.closes() {
            return Err(self.abandon());
        }
        if self.room() + self.visible_len < self.horizon_len {
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
        self.distances[..self.facet_slots]
            .iter()
            .enumerate()
            .filter(|(_, distance)| distance.is_finite())
            .map(|(index, &distance)| Facet { index, normal: self.normals[index], distance })
    }

    fn coverage(&self, facet: &Facet<V>) -> V::Real {
        let [l0, l1, l2] = self.barycentric(facet);
        l0.min(l1).min(l2)
    }

    fn witnesses(&self, facet: &Facet<V>) -> (V, V) {
        let [p, q, r] = self.corners[facet.index].map(|i| self.vertices[i as usize]);
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
        let [p, q, r] = self.corners[facet.index].map(|i| self.vertices[i as usize].w);
        let n = facet.normal;
        let x = n * facet.distance;
        let total = n.dot(cross(q - p, r - p));
        if !total.is_positive() {
            return [V::Real::from_f64(1.0 / 3.0); 3];
        }
        [n.dot(cross(q - x, r - x)), n.dot(cross(r - x, p - x)), n.dot(cross(p - x, q - x))]
            .map(|l| l / total)
    }

    /// Forgets the current step's marks (the polytope is unchanged) and reports a degenerate
    /// update.
    fn abandon(&mut self) -> Stuck {
        for &slot in &self.visible[..self.visible_len] {
            self.stamps[slot as usize] = 0;
        }
        Stuck::Degenerate
    }
}
