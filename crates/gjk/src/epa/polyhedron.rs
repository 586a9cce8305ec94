//! The 3D expanding polytope: a closed triangle mesh with facet adjacency.
//!
//! Each facet stores its three corners counter-clockwise seen from outside, and for each edge
//! `i` (corner `i` to corner `i + 1`) the facet across it and that edge's index there. Adding a
//! support point `w` beyond the closest facet:
//! 1. **horizon walk** (van den Bergen 2001, "silhouette"): depth-first from the closest facet
//!    over the adjacency, mark the facets `w` sees (`n·w > d`, up to rounding); an edge from a
//!    seen facet to an unseen one is a horizon edge. Entering each facet through one edge and
//!    visiting the other two in order lists the horizon as one counter-clockwise loop;
//! 2. check, edge by edge, that the loop closes (rounding can make visibility inconsistent;
//!    the polytope is then left as it was and the expansion reports a degenerate end);
//! 3. delete the seen facets and close the hole with a fan of facets from `w` to the horizon
//!    (a fan facet without area, `w` on a horizon edge's line, also ends the expansion).
//!
//! Storage: a closed triangulated polyhedron with `V` vertices has `2V − 4` facets, and freed
//! facet slots are reused. The facets are stored field by field (corners, links, normals,
//! distances in separate tables): finding the closest facet reads one dense table of distances,
//! and the tables start zeroed (a `memset`; the distances infinite), since only slots already
//! written are ever read.
//! A step remembers the facets it found visible, so deleting them touches nothing else.
//!
//! Where the tables live is a type parameter ([`Layout`]): the expansion starts in a small
//! polytope of fixed arrays ([`Small`]: most runs need a couple of dozen vertices, and zeroing
//! the storage is a fair part of a short run), moves into a larger one ([`Large`]) only when
//! the small one fills up, and from there into vectors on the heap ([`Heap`]) that double when
//! full (big hulls, deep overlaps). Indices are as narrow as each layout allows (a byte in the
//! fixed arrays). Each move copies the slots as they are, so the expansion continues exactly
//! as if it had started in the larger polytope.

use alloc::vec;
use alloc::vec::Vec;
use core::ops::IndexMut;

use super::{Absorb, EpaFace, Expansion, Faces, Facet, Storage, Stuck, Vertex};
use crate::geometry::{cross, unit};
use crate::math::{Real, Vector};

/// The polytope most expansions fit in: 32 vertices. `CAREFUL` as for [`Polyhedron`].
pub(crate) type Small<V, const CAREFUL: bool = false> =
    Polyhedron<V, Fixed<32, { 2 * 32 - 4 }>, CAREFUL>;
/// The polytope an expansion moves into when [`Small`] fills up: 72 vertices (4 to start, then
/// one per iteration).
pub(crate) type Large<V, const CAREFUL: bool = false> =
    Polyhedron<V, Fixed<72, { 2 * 72 - 4 }>, CAREFUL>;
/// The polytope an expansion moves into when [`Large`] fills up: on the heap, doubling its
/// room whenever it fills up, up to [`Growing::LIMIT`] vertices.
pub(crate) type Heap<V, const CAREFUL: bool = false> = Polyhedron<V, Growing, CAREFUL>;

/// A vertex or facet index, stored as narrow as the layout allows (also the step stamps).
pub(crate) trait Slot: Copy + PartialEq {
    const ZERO: Self;
    /// `i`, which the layout's limits keep in range.
    fn new(i: usize) -> Self;
    fn get(self) -> usize;
}

/// One side of an edge shared by two facets: the facet and the edge's index in it (`0..3`, the
/// edge from corner `i` to corner `i + 1`), packed as `facet << 2 | edge`.
pub(crate) trait Link: Copy + PartialEq {
    const ZERO: Self;
    fn new(facet: usize, edge: usize) -> Self;
    fn facet(self) -> usize;
    fn edge(self) -> usize;
}

macro_rules! narrow {
    ($slot:ty, $link:ty) => {
        impl Slot for $slot {
            const ZERO: Self = 0;
            #[inline(always)]
            fn new(i: usize) -> Self {
                i as $slot
            }
            #[inline(always)]
            fn get(self) -> usize {
                usize::from(self)
            }
        }
        impl Link for $link {
            const ZERO: Self = 0;
            #[inline(always)]
            fn new(facet: usize, edge: usize) -> Self {
                ((facet as $link) << 2) | edge as $link
            }
            #[inline(always)]
            fn facet(self) -> usize {
                (self >> 2) as usize
            }
            #[inline(always)]
            fn edge(self) -> usize {
                (self & 3) as usize
            }
        }
    };
}
narrow!(u8, u16);
narrow!(u16, u32);

/// A table of slots: a fixed array, or a vector that can grow.
pub(crate) trait Table<T: Copy>:
    IndexMut<usize, Output = T> + AsRef<[T]> + AsMut<[T]>
{
    /// Grows the table to `len` slots (new ones set to `fill`); arrays cannot, and keep theirs.
    fn grow_to(&mut self, len: usize, fill: T);
}

impl<T: Copy, const N: usize> Table<T> for [T; N] {
    #[inline(always)]
    fn grow_to(&mut self, _len: usize, _fill: T) {}
}

impl<T: Copy> Table<T> for Vec<T> {
    fn grow_to(&mut self, len: usize, fill: T) {
        if len > self.len() {
            self.resize(len, fill);
        }
    }
}

/// Where a polyhedron keeps its slots: the index widths and the tables, per vertex and per
/// facet (a closed triangulated polyhedron with `V` vertices has `2V − 4` facets).
pub(crate) trait Layout {
    type Index: Slot;
    type Link: Link;
    type Vertices<T: Copy>: Table<T>;
    type Facets<T: Copy>: Table<T>;
    /// The most vertices the tables ever hold (their first size when they cannot grow).
    const LIMIT: usize;
    /// A new per-vertex table, every slot `fill`.
    fn vertices<T: Copy>(fill: T) -> Self::Vertices<T>;
    /// A new per-facet table, every slot `fill`.
    fn facets<T: Copy>(fill: T) -> Self::Facets<T>;
}

/// Arrays of `N` vertices and `F = 2N − 4` facets (on the stack), indices in a byte.
pub(crate) struct Fixed<const N: usize, const F: usize>;

impl<const N: usize, const F: usize> Layout for Fixed<N, F> {
    type Index = u8;
    type Link = u16;
    type Vertices<T: Copy> = [T; N];
    type Facets<T: Copy> = [T; F];
    const LIMIT: usize = N;
    #[inline(always)]
    fn vertices<T: Copy>(fill: T) -> [T; N] {
        // Facet indices fit in the byte, and links (facet << 2) in 16 bits.
        const { assert!(F == 2 * N - 4 && F < 256 && N < 256) };
        [fill; N]
    }
    #[inline(always)]
    fn facets<T: Copy>(fill: T) -> [T; F] {
        [fill; F]
    }
}

/// Vectors on the heap that double when full, 16-bit indices.
pub(crate) struct Growing;

impl Growing {
    /// The first room: twice [`Large`]'s, which it takes over.
    const START: usize = 144;
}

impl Layout for Growing {
    type Index = u16;
    type Link = u32;
    type Vertices<T: Copy> = Vec<T>;
    type Facets<T: Copy> = Vec<T>;
    /// Facet indices (`2 × LIMIT − 4` facets) and step stamps (one step per vertex) must fit in
    /// 16 bits. No expansion gets near it: the iteration cap stops it first.
    const LIMIT: usize = 1 << 15;
    fn vertices<T: Copy>(fill: T) -> Vec<T> {
        vec![fill; Self::START]
    }
    fn facets<T: Copy>(fill: T) -> Vec<T> {
        vec![fill; 2 * Self::START - 4]
    }
}

/// The starting tetrahedron's facets: `[0, 1, 2]` with vertex 3 below it, and the three facets
/// through vertex 3, all counter-clockwise seen from outside (first corner repeated, as in
/// [`Polyhedron::corners`]).
const TETRAHEDRON: [[u8; 4]; 4] = [[0, 1, 2, 0], [0, 3, 1, 0], [0, 2, 3, 0], [1, 3, 2, 1]];

/// Across each edge of [`TETRAHEDRON`]'s facets: the facet holding that edge reversed, and the
/// edge's index there, packed as a 16-bit [`Link`].
const TETRAHEDRON_LINKS: [[u16; 4]; 4] = {
    let mut links = [[0; 4]; 4];
    let mut f = 0;
    while f < 4 {
        let mut e = 0;
        while e < 3 {
            let (from, to) = (TETRAHEDRON[f][e], TETRAHEDRON[f][(e + 1) % 3]);
            let mut g = 0;
            while g < 4 {
                let mut k = 0;
                while k < 3 {
                    if TETRAHEDRON[g][k] == to && TETRAHEDRON[g][(k + 1) % 3] == from {
                        links[f][e] = ((g as u16) << 2) | k as u16;
                    }
                    k += 1;
                }
                g += 1;
            }
            e += 1;
        }
        f += 1;
    }
    links
};

/// The polytope, with room for `N` vertices and `F = 2N − 4` facets in the tables of layout `L`
/// (`N` and `F` below).
///
/// A `CAREFUL` polytope's horizon walk also guards against folds (see [`Polyhedron::walk`]):
/// the expansion runs in one only when the plain one ended [`Degenerate`](
/// crate::EpaTermination::Degenerate), since the guard costs a triple product per horizon edge.
///
/// The fields are laid out in this order (`repr(C)`) so that the zeroing of a new polytope is a
/// few `memset`s of under 2 KiB, split by the fields that start non-zero, rather than one large
/// one (which the C library runs as a `rep stosb`).
#[repr(C)]
pub(crate) struct Polyhedron<V: Vector, L: Layout, const CAREFUL: bool = false> {
    vertices: L::Vertices<Vertex<V>>,
    /// How far below a facet's plane a new point still counts as seeing it: a few rounding
    /// units of the polytope's size, so that a point on the plane of a neighbouring facet
    /// (common on boxes, whose support points often lie in the middle of a face of `D`)
    /// replaces that facet instead of making a fan triangle without area.
    slack: V::Real,
    /// Outward unit normals (zero for a triangle without area).
    normals: L::Facets<V>,
    /// The plane's offset `normal · corner`: infinite for free slots and triangles without
    /// area, so that neither is ever closest nor seen.
    distances: L::Facets<V::Real>,
    /// Each facet's vertex indices, counter-clockwise seen from outside, the first repeated
    /// at the end (edge `e` runs from entry `e` to entry `e + 1`).
    corners: L::Facets<[L::Index; 4]>,
    /// Across each facet's edge `i`: the neighbouring facet and the edge's index there (a
    /// fourth, unused entry pads the row, so that any edge index of a link is in bounds).
    links: L::Facets<[L::Link; 4]>,
    /// The expansion step that last found each facet visible (0: never; marks of earlier
    /// steps are stale).
    stamps: L::Facets<L::Index>,
    /// Free slots among `0..facet_slots`.
    free: L::Facets<L::Index>,
    /// The facets the current step found visible.
    visible: L::Facets<L::Index>,
    /// The horizon walk's pending edges (a visible facet's side).
    pending: L::Facets<L::Link>,
    /// The horizon of the current step (a simple cycle, so at most one edge per vertex): the
    /// unseen facets' sides of its edges, and the vertex each edge starts from (edge `i` runs
    /// from `rim[i]` to `rim[i + 1]`, cyclically, and the new facet on it is
    /// `(rim[i], rim[i + 1], w)`); kept here so each step reuses the space.
    horizon: L::Vertices<L::Link>,
    rim: L::Vertices<L::Index>,
    vertex_count: usize,
    /// Slots `0..facet_slots` have been used.
    facet_slots: usize,
    free_count: usize,
    visible_len: usize,
    horizon_len: usize,
    /// The current expansion step (stamps the facets found visible); at most one per vertex.
    step: L::Index,
}

impl<V: Vector, L: Layout, const CAREFUL: bool> Polyhedron<V, L, CAREFUL> {
    /// The horizon walk (van den Bergen's "silhouette") from the closest facet `start`, which
    /// `w` sees: depth first over the facets `w` sees, entering each through one edge and
    /// leaving through the other two in order, so that the unseen facets met on the way list
    /// the horizon as one counter-clockwise loop. Marks and lists the visible facets. `false`
    /// when a list overflows, which a consistent polytope never does (each facet is marked at
    /// most once).
    ///
    /// `FOLDS` (a careful polytope's walk while it holds the origin) also counts as seen a
    /// facet whose fan facet would leave the origin outside ([`Polyhedron::folds`]).
    #[inline]
    fn walk<const FOLDS: bool>(&mut self, start: usize, w: V) -> bool {
        // The lists' lengths, the step and the slack in locals: the compiler cannot tell that
        // the lists' stores leave those fields alone.
        let (step, slack) = (self.step, self.slack);
        self.stamps[start] = step;
        self.visible[0] = L::Index::new(start);
        let mut visible = 1;
        let mut horizon = 0;
        // A stack of edges to cross (the visible facet's side), the next one on top.
        self.pending[0] = L::Link::new(start, 2);
        self.pending[1] = L::Link::new(start, 1);
        self.pending[2] = L::Link::new(start, 0);
        let (facet_room, vertex_room) = (self.facet_capacity(), self.capacity());
        let mut top = 3;
        // Where the last horizon edge ended: the next one must start there.
        let mut end = L::Index::ZERO;
        while top > 0 {
            top -= 1;
            let here = self.pending[top];
            let across = self.links[here.facet()][here.edge()];
            let g = across.facet();
            if self.stamps[g] == step {
                continue;
            }
            if self.normals[g].dot(w) > self.distances[g] - slack
                || (FOLDS && self.folds(here, w, slack))
            {
                // Seen: mark it and leave through its other two edges, next one first.
                self.stamps[g] = step;
                self.visible[visible] = L::Index::new(g);
                visible += 1;
                let entry = across.edge();
                if top + 2 > facet_room {
                    return false;
                }
                self.pending[top] = L::Link::new(g, PREV[entry]);
                self.pending[top + 1] = L::Link::new(g, NEXT[entry]);
                top += 2;
            } else {
                let (s, t) = edge_ends(&self.corners[here.facet()], here.edge());
                if horizon == vertex_room || (horizon > 0 && s != end) {
                    return false;
                }
                self.horizon[horizon] = across;
                self.rim[horizon] = s;
                horizon += 1;
                end = t;
            }
        }
        self.visible_len = visible;
        self.horizon_len = horizon;
        // The loop closes.
        horizon >= 3 && end == self.rim[0]
    }

    /// Whether the fan facet from `w` over the seen facet's side `edge` would leave the origin
    /// outside its plane by more than `slack`: a fold, since a polytope that holds the origin
    /// keeps it when it grows by a point outside it. Then `w` lies in the plane of the facet
    /// across the edge to within that facet's rounding, which the visibility test misread;
    /// counting that facet as seen too unfolds the fan.
    ///
    /// A flat face of `D` (a cone's base against a box's corner) can start as slivers along a
    /// short arc of its rim, whose normals the rounding of their corners tilts by that rounding
    /// over the arc's sagitta; a point of the same face far away lands beyond one sliver and
    /// below its neighbour by the tilt times its distance, and the fan facet on their edge
    /// points back over the neighbour.
    #[inline(never)]
    fn folds(&self, edge: L::Link, w: V, slack: V::Real) -> bool {
        let (s, t) = edge_ends(&self.corners[edge.facet()], edge.edge());
        let (vs, vt) = (self.vertices[s.get()].w, self.vertices[t.get()].w);
        // The fan facet's `n·w`, scaled by `|c|` (the triple product of its corners).
        let c = cross(vs - w, vt - w);
        let offset = c.dot(w);
        offset < V::Real::ZERO && offset * offset > slack * slack * c.length_squared()
    }

    /// Room for this many vertices.
    #[inline(always)]
    fn capacity(&self) -> usize {
        self.vertices.as_ref().len()
    }

    /// Room for this many facets.
    #[inline(always)]
    fn facet_capacity(&self) -> usize {
        self.normals.as_ref().len()
    }

    /// Doubles the room of a growing layout (up to its limit), keeping every slot; `false`
    /// when it cannot grow.
    #[inline]
    fn enlarge(&mut self) -> bool {
        let n = self.capacity();
        let grown = (2 * n).min(L::LIMIT);
        if grown <= n {
            return false;
        }
        self.enlarge_to(grown);
        true
    }

    #[inline(never)]
    #[cold]
    fn enlarge_to(&mut self, n: usize) {
        let f = 2 * n - 4;
        self.vertices.grow_to(n, Vertex::ZERO);
        self.horizon.grow_to(n, L::Link::ZERO);
        self.rim.grow_to(n, L::Index::ZERO);
        self.normals.grow_to(f, V::ZERO);
        self.distances.grow_to(f, V::Real::INFINITY);
        self.corners.grow_to(f, [L::Index::ZERO; 4]);
        self.links.grow_to(f, [L::Link::ZERO; 4]);
        self.stamps.grow_to(f, L::Index::ZERO);
        self.free.grow_to(f, L::Index::ZERO);
        self.visible.grow_to(f, L::Index::ZERO);
        self.pending.grow_to(f, L::Link::ZERO);
    }

    /// Replaces the facets the current step found visible by the fan from the new vertex
    /// `apex` (at `w`) to the horizon. `false`, with the polytope left inconsistent, when a
    /// new facet has no area (`w` on a horizon edge's line); the expansion then ends without
    /// reading the polytope again.
    #[inline]
    fn stitch(&mut self, apex: L::Index, w: V) -> bool {
        let mut free = self.free_count;
        for i in 0..self.visible_len {
            let slot = self.visible[i];
            self.distances[slot.get()] = V::Real::INFINITY;
            self.free[free] = slot;
            free += 1;
        }
        // The new facets take the free slots from the top of the list down, then fresh ones.
        let (fresh, n) = (self.facet_slots, self.horizon_len);
        let slot = |free_list: &L::Facets<L::Index>, i: usize| {
            if i < free {
                free_list[free - 1 - i].get()
            } else {
                fresh + i - free
            }
        };
        // Facet i is (s_i, s_{i+1}, w), cyclically; each horizon vertex is read once, as its
        // offset from w.
        let first = (slot(&self.free, 0), self.rim[0]);
        let first_offset = self.vertices[first.1.get()].w - w;
        let mut before = slot(&self.free, n - 1);
        let (mut here, mut s) = first;
        let mut offset = first_offset;
        for i in 0..n {
            let (after, t, next_offset) = if i + 1 < n {
                let t = self.rim[i + 1];
                (slot(&self.free, i + 1), t, self.vertices[t.get()].w - w)
            } else {
                (first.0, first.1, first_offset)
            };
            let Some((normal, distance)) = fan_plane(offset, next_offset, w) else {
                return false;
            };
            let h = self.horizon[i];
            self.corners[here] = [s, t, apex, s];
            self.links[here] = [h, L::Link::new(after, 2), L::Link::new(before, 1), L::Link::ZERO];
            self.normals[here] = normal;
            self.distances[here] = distance;
            self.links[h.facet()][h.edge()] = L::Link::new(here, 0);
            (before, here, s, offset) = (here, after, t, next_offset);
        }
        self.free_count = free.saturating_sub(n);
        self.facet_slots = fresh + n.saturating_sub(free);
        true
    }

    /// Adds `vertex` beyond `facet`: the horizon walk from there (`FOLDS` as for
    /// [`Polyhedron::walk`]), then the fan. As [`Expansion::grow`].
    #[inline(always)]
    fn add<const FOLDS: bool>(&mut self, facet: usize, vertex: Vertex<V>) -> Result<(), Stuck> {
        if self.vertex_count == self.capacity() && !self.enlarge() {
            return Err(Stuck::Full);
        }
        self.step = L::Index::new(self.step.get() + 1);
        self.horizon_len = 0;
        self.visible_len = 0;
        if !self.walk::<FOLDS>(facet, vertex.w) {
            return Err(Stuck::Degenerate);
        }
        // Growing keeps the walk's lists.
        while self.room() + self.visible_len < self.horizon_len {
            if !self.enlarge() {
                return Err(Stuck::Full);
            }
        }
        let apex = L::Index::new(self.vertex_count);
        self.vertices[self.vertex_count] = vertex;
        self.vertex_count += 1;
        if !self.stitch(apex, vertex.w) {
            return Err(Stuck::Degenerate);
        }
        Ok(())
    }

    /// Adds `vertex` when it lies outside the polytope (beyond a facet's plane by more than
    /// the slack: the facet it lies farthest beyond is where the horizon walk starts); a point
    /// inside or on the polytope is left out. As [`Expansion::grow`] otherwise.
    pub(crate) fn insert(&mut self, vertex: Vertex<V>) -> Result<(), Stuck> {
        let mut best: Option<(V::Real, usize)> = None;
        for (i, &d) in self.distances.as_ref()[..self.facet_slots].iter().enumerate() {
            // Free slots and facets without area have infinite distances: never beyond.
            let beyond = self.normals[i].dot(vertex.w) - d;
            if beyond > self.slack && best.is_none_or(|(b, _)| beyond > b) {
                best = Some((beyond, i));
            }
        }
        let Some((_, index)) = best else { return Ok(()) };
        let facet = Facet { index, normal: self.normals[index], distance: self.distances[index] };
        self.grow(&facet, vertex)
    }

    /// Whether the origin lies inside the polytope by more than the slack: every facet's
    /// plane at a positive distance beyond it.
    pub(crate) fn holds_origin(&self) -> bool {
        self.closest().is_some_and(|f| f.distance > self.slack)
    }

    /// How many facet slots are free or freeable without growing past capacity.
    fn room(&self) -> usize {
        self.facet_capacity() - self.facet_slots + self.free_count
    }
}

/// The outward unit normal of the triangle `a, b, c` (counter-clockwise seen from outside) and
/// its plane's distance from the origin, or `None` when the triangle has no area.
#[inline(always)]
fn plane<V: Vector>(a: V, b: V, c: V) -> Option<(V, V::Real)> {
    let n = unit(cross(b - a, c - a))?;
    // The mean of the corners' offsets treats the three alike.
    Some((n, (n.dot(a) + n.dot(b) + n.dot(c)) * V::Real::from_f64(1.0 / 3.0)))
}

/// The plane of the fan facet `(w + u, w + v, w)` (counter-clockwise seen from outside), from
/// its corners' offsets `u`, `v` from the apex `w`: the unit normal and the apex's offset along
/// it, or `None` when the facet has no area.
///
/// The other corners' offsets differ from the apex's by `n·u` and `n·v`, which vanish up to the
/// rounding of `n`; averaging them in (as [`plane`] does) buys nothing measurable.
#[inline(always)]
fn fan_plane<V: Vector>(u: V, v: V, w: V) -> Option<(V, V::Real)> {
    let n = unit(cross(u, v))?;
    Some((n, n.dot(w)))
}

/// The ends of edge `e` of a triangle with these corners.
#[inline]
fn edge_ends<I: Slot>(corners: &[I; 4], e: usize) -> (I, I) {
    (corners[e], corners[(e + 1) & 3])
}

/// The edge after and before each edge of a triangle (an index past 2 maps to 0).
const NEXT: [usize; 4] = [1, 2, 0, 0];
const PREV: [usize; 4] = [2, 0, 1, 0];

impl<V: Vector, L: Layout, const CAREFUL: bool> Storage<V> for Polyhedron<V, L, CAREFUL> {
    #[inline(always)]
    fn empty() -> Self {
        Self {
            vertices: L::vertices(Vertex::ZERO),
            // Not zero: splits the zeroing (see the struct's docs); set by `start`.
            slack: V::Real::INFINITY,
            normals: L::facets(V::ZERO),
            distances: L::facets(V::Real::INFINITY),
            corners: L::facets([L::Index::ZERO; 4]),
            links: L::facets([L::Link::ZERO; 4]),
            stamps: L::facets(L::Index::ZERO),
            free: L::facets(L::Index::ZERO),
            visible: L::facets(L::Index::ZERO),
            pending: L::facets(L::Link::ZERO),
            horizon: L::vertices(L::Link::ZERO),
            rim: L::vertices(L::Index::ZERO),
            vertex_count: 0,
            facet_slots: 0,
            free_count: 0,
            visible_len: 0,
            horizon_len: 0,
            step: L::Index::ZERO,
        }
    }

    /// Makes this (empty) polytope the tetrahedron of `vertices` (affinely independent), with
    /// outward-facing facets; `size` is the largest |w|, the scale of rounding errors.
    #[inline]
    fn start(&mut self, vertices: &[Vertex<V>; 4], size: V::Real) {
        let [p0, p1, p2, p3] = *vertices;
        // Orient so that p3 lies below the facet (p0, p1, p2): negative volume.
        let positive = V::tetrahedron_volume6(p0.w, p1.w, p2.w, p3.w) > V::Real::ZERO;
        self.vertices.as_mut()[..4].copy_from_slice(&if positive {
            [p0, p2, p1, p3]
        } else {
            [p0, p1, p2, p3]
        });
        self.vertex_count = 4;
        self.slack = V::Real::from_f64(64.0) * V::Real::EPSILON * size;
        // Facet 0 on its own; the other three are the fan from vertex 3 over the edges
        // (1, 0), (0, 2) and (2, 1), as a step's new facets.
        let [w0, w1, w2, w3] = [0, 1, 2, 3].map(|i| self.vertices[i].w);
        let [u0, u1, u2] = [w0 - w3, w1 - w3, w2 - w3];
        let planes = [
            plane(w0, w1, w2),
            fan_plane(u1, u0, w3),
            fan_plane(u0, u2, w3),
            fan_plane(u2, u1, w3),
        ];
        for (slot, plane) in planes.into_iter().enumerate() {
            let (normal, distance) = plane.unwrap_or((V::ZERO, V::Real::INFINITY));
            self.corners[slot] = TETRAHEDRON[slot].map(|i| L::Index::new(usize::from(i)));
            self.links[slot] = TETRAHEDRON_LINKS[slot].map(|l| L::Link::new(l.facet(), l.edge()));
            self.normals[slot] = normal;
            self.distances[slot] = distance;
        }
        self.facet_slots = 4;
    }
}

impl<V: Vector, S: Layout, L: Layout, const CAREFUL: bool> Absorb<Polyhedron<V, S, CAREFUL>>
    for Polyhedron<V, L, CAREFUL>
{
    /// Makes this (empty, larger) polytope a copy of `small`, slot for slot.
    fn absorb(&mut self, small: &Polyhedron<V, S, CAREFUL>) {
        while self.capacity() < small.capacity() && self.enlarge() {}
        debug_assert!(self.capacity() >= small.capacity());
        let index = |i: S::Index| L::Index::new(i.get());
        let link = |l: S::Link| L::Link::new(l.facet(), l.edge());
        let vertices = small.vertex_count;
        self.vertices.as_mut()[..vertices].copy_from_slice(&small.vertices.as_ref()[..vertices]);
        self.vertex_count = vertices;
        for f in 0..small.facet_slots {
            self.corners[f] = small.corners[f].map(index);
            self.links[f] = small.links[f].map(link);
            self.normals[f] = small.normals[f];
            self.distances[f] = small.distances[f];
            self.stamps[f] = index(small.stamps[f]);
        }
        for i in 0..small.free_count {
            self.free[i] = index(small.free[i]);
        }
        self.facet_slots = small.facet_slots;
        self.free_count = small.free_count;
        self.step = index(small.step);
        self.slack = small.slack;
    }
}

impl<V: Vector, L: Layout, const CAREFUL: bool> Faces<V> for Polyhedron<V, L, CAREFUL> {
    #[inline]
    fn face(&self, facet: &Facet<V>) -> EpaFace<V> {
        let [p, q, r, _] = self.corners[facet.index].map(|i| self.vertices[i.get()].w);
        EpaFace::new(facet, &[p, q, r])
    }

    fn visit(&self, f: &mut dyn FnMut(EpaFace<V>)) {
        self.facets().for_each(|facet| f(self.face(&facet)));
    }
}

impl<V: Vector, L: Layout, const CAREFUL: bool> Expansion<V> for Polyhedron<V, L, CAREFUL> {
    fn closest(&self) -> Option<Facet<V>> {
        let distances = &self.distances.as_ref()[..self.facet_slots];
        let index = if distances.len() <= 32 {
            // The first strictly smallest distance.
            let mut best = V::Real::INFINITY;
            let mut index = usize::MAX;
            for (i, &d) in distances.iter().enumerate() {
                if d < best {
                    best = d;
                    index = i;
                }
            }
            index
        } else {
            // The same for longer scans: the smallest distance four lanes at a time (the
            // compiler turns the lanes into vector minima), then its first slot.
            let mut lanes = [V::Real::INFINITY; 4];
            let chunks = distances.chunks_exact(4);
            let rest = chunks.remainder();
            for chunk in chunks {
                for (lane, &d) in lanes.iter_mut().zip(chunk) {
                    *lane = if d < *lane { d } else { *lane };
                }
            }
            let mut best = V::Real::INFINITY;
            for &d in lanes.iter().chain(rest) {
                best = if d < best { d } else { best };
            }
            if best < V::Real::INFINITY {
                // The first chunk holding it (compared without branches), then the slot.
                let chunks = distances.chunks_exact(4);
                let first = chunks
                    .clone()
                    .position(|c| (c[0] == best) | (c[1] == best) | (c[2] == best) | (c[3] == best))
                    .unwrap_or(chunks.len());
                distances[4 * first..]
                    .iter()
                    .position(|&d| d == best)
                    .map_or(usize::MAX, |i| 4 * first + i)
            } else {
                usize::MAX
            }
        };
        (index != usize::MAX).then(|| Facet {
            index,
            normal: self.normals[index],
            distance: distances[index],
        })
    }

    fn has_vertex(&self, w: V) -> bool {
        self.vertices.as_ref()[..self.vertex_count].iter().any(|v| v.w == w)
    }

    fn grow(&mut self, facet: &Facet<V>, vertex: Vertex<V>) -> Result<(), Stuck> {
        // The closest facet is visible by construction (w lies beyond it): start there. A fold
        // is one only while the polytope holds the origin (its closest facet's plane beyond
        // it).
        if CAREFUL && facet.distance >= V::Real::ZERO {
            self.add::<true>(facet.index, vertex)
        } else {
            self.add::<false>(facet.index, vertex)
        }
    }

    fn facets(&self) -> impl Iterator<Item = Facet<V>> + '_ {
        self.distances.as_ref()[..self.facet_slots]
            .iter()
            .enumerate()
            .filter(|(_, distance)| distance.is_finite())
            .map(|(index, &distance)| Facet { index, normal: self.normals[index], distance })
    }

    /// The barycentric coordinates of the origin's projection `x = n d` onto `facet`: ratios
    /// of the sub-triangles' areas along the normal (negative outside).
    fn barycentric(&self, facet: &Facet<V>) -> [V::Real; 3] {
        let [p, q, r, _] = self.corners[facet.index].map(|i| self.vertices[i.get()].w);
        let n = facet.normal;
        let x = n * facet.distance;
        let total = n.dot(cross(q - p, r - p));
        if !total.is_positive() {
            return [V::Real::from_f64(1.0 / 3.0); 3];
        }
        [n.dot(cross(q - x, r - x)), n.dot(cross(r - x, p - x)), n.dot(cross(p - x, q - x))]
            .map(|l| l / total)
    }

    /// The facet's corners, the vertex farthest behind its plane, and the far corner of each
    /// neighbouring facet (across each edge), each vertex once.
    fn cap(&self, facet: &Facet<V>) -> super::Cap<V> {
        let f = facet.index;
        let face = self.corners[f];
        let mut points = [Vertex::ZERO; crate::epa::CAP];
        let mut taken = [L::Index::ZERO; crate::epa::CAP];
        for i in 0..3 {
            points[i] = self.vertices[face[i].get()];
            taken[i] = face[i];
        }
        // Behind: the smallest offset along the normal (never a corner of the facet, whose
        // offsets are the largest, unless the polytope is flat).
        let n = facet.normal;
        let mut behind = face[0];
        let mut low = V::Real::INFINITY;
        for (i, v) in self.vertices.as_ref()[..self.vertex_count].iter().enumerate() {
            let h = n.dot(v.w);
            if h < low {
                low = h;
                behind = L::Index::new(i);
            }
        }
        let mut len = 3;
        let mut add = |i: L::Index, points: &mut [Vertex<V>; crate::epa::CAP]| {
            if !taken[..len].contains(&i) {
                points[len] = self.vertices[i.get()];
                taken[len] = i;
                len += 1;
            }
        };
        add(behind, &mut points);
        for e in 0..3 {
            let across = self.links[f][e];
            add(self.corners[across.facet()][PREV[across.edge()]], &mut points);
        }
        super::Cap { points, len, face: 3 }
    }

    fn affine(&self, facet: &Facet<V>, barycentric: [V::Real; 3], slack: V::Real) -> bool {
        let [p, q, r, _] = self.corners[facet.index].map(|i| self.vertices[i.get()]);
        let (a, b) = ([p.a, q.a, r.a], [p.a - p.w, q.a - q.w, r.a - r.w]);
        match (combination(a, barycentric, slack), combination(b, barycentric, slack)) {
            (Some(true), other) | (other, Some(true)) => other.is_some(),
            _ => false,
        }
    }

    /// The corners' points at the facet's point nearest the origin's projection: the
    /// `barycentric` coordinates themselves when the projection lies in the facet, else the
    /// nearest point of the facet's edges (see [`nearest_on_edges`]).
    fn witnesses(&self, facet: &Facet<V>, barycentric: [V::Real; 3], slack: V::Real) -> (V, V) {
        let [p, q, r, _] = self.corners[facet.index].map(|i| self.vertices[i.get()]);
        let [l0, l1, l2] = if barycentric.iter().any(|&l| l < V::Real::ZERO) {
            if self.affine(facet, barycentric, slack) {
                barycentric
            } else {
                let x = facet.normal * facet.distance;
                nearest_on_edges([p.w, q.w, r.w], barycentric, x)
            }
        } else {
            let sum = barycentric[0] + barycentric[1] + barycentric[2];
            if sum.is_positive() {
                barycentric.map(|l| l / sum)
            } else {
                [V::Real::from_f64(1.0 / 3.0); 3]
            }
        };
        let a = p.a * l0 + q.a * l1 + r.a * l2;
        let w = p.w * l0 + q.w * l1 + r.w * l2;
        (a, a - w)
    }
}

/// Whether the affine combination of one shape's `points` with `weights` (summing to 1) is
/// a witness of that shape: `Some(true)` when the weights of coinciding points (a polytope's
/// vertex, a segment's end) pool to convex ones (the point lies in the shape), `Some(false)`
/// when it extends the corners' own line, `None` when it moves across that line by more
/// than `slack` plus a sixteenth of the extension (below).
///
/// An extension along the line of the corners (two distinct points, or three on a chord of a
/// rim) continues the chord of a curved feature, which leaves the shape only by the chord's
/// angle to the surface times the extension (f64, a cylinder's rim: corners on a 4e-10 chord,
/// extended by 6e-11, 1e-15 off the line). A move across the line is a move the shape need
/// not have room for: a cone's apex and two rim points a chord apart with weights `(1, −1, 1)`
/// put the witness at the apex moved by the whole chord, off the cone (f32, 1e-4 at size
/// 3.6). Accepted across the line: the rounding `slack`, plus a sixteenth of the extension
/// beyond the corners (a direction within 1/16 rad of the line's).
fn combination<V: Vector>(points: [V; 3], weights: [V::Real; 3], slack: V::Real) -> Option<bool> {
    let zero = V::Real::ZERO;
    // Each distinct point once, with the weights of its copies.
    let pooled = |i: usize| {
        let first = (0..i).all(|j| points[j] != points[i]);
        let same = (0..3).filter(|&j| points[j] == points[i]);
        first && same.map(|j| weights[j]).fold(zero, |s, l| s + l) < zero
    };
    if !(0..3).any(pooled) {
        return Some(true);
    }
    // The line through the two corners farthest apart.
    let (mut far, mut ends) = (zero, (points[0], points[1]));
    for (i, j) in [(0, 1), (0, 2), (1, 2)] {
        let ll = (points[j] - points[i]).length_squared();
        if ll > far {
            (far, ends) = (ll, (points[i], points[j]));
        }
    }
    let Some(u) = (ends.1 - ends.0).direction() else {
        return Some(false); // Every corner the same point: weights summing to 1 keep it.
    };
    let p = points[0] * weights[0] + points[1] * weights[1] + points[2] * weights[2] - ends.0;
    let t = p.dot(u);
    let beyond = (zero - t).max(t - far.sqrt()).max(zero);
    let across = (p - u * t).length();
    (across <= slack + beyond * V::Real::from_f64(1.0 / 16.0)).then_some(false)
}

/// The barycentric coordinates of the point of triangle `w` nearest to `x`, a point of its
/// plane outside it (`barycentric`, its coordinates, has a negative one): the nearest point
/// of the edges across the negative coordinates.
///
/// Clamping the negative coordinates to 0 and scaling the others instead is no projection:
/// it moves the point by the clamped weight times the edge's length. EPA's slivers on a curved
/// surface have two corners a rounding-sized chord apart and the third far away, with weights
/// like `(1, −7e-6, 7e-6)`; clamping moves the point 7e-6 of the far edge along it (a witness
/// 5 tolerances off a disc's rim), where the nearest point of the sliver is a rounding-sized
/// step from `x`.
fn nearest_on_edges<V: Vector>(w: [V; 3], barycentric: [V::Real; 3], x: V) -> [V::Real; 3] {
    let mut best = (V::Real::INFINITY, [V::Real::from_f64(1.0 / 3.0); 3]);
    for (i, &weight) in barycentric.iter().enumerate() {
        if weight >= V::Real::ZERO {
            continue;
        }
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        let e = w[k] - w[j];
        let ee = e.length_squared();
        let t = if ee.is_positive() {
            ((x - w[j]).dot(e) / ee).max(V::Real::ZERO).min(V::Real::ONE)
        } else {
            V::Real::ZERO
        };
        let gap = (w[j] + e * t - x).length_squared();
        if gap < best.0 {
            let mut weights = [V::Real::ZERO; 3];
            weights[j] = V::Real::ONE - t;
            weights[k] = t;
            best = (gap, weights);
        }
    }
    best.1
}
