//! Convex hulls of point sets, with the vertex adjacency that makes support a local search.
//!
//! [`Hull::new`] computes the convex hull of any finite point set in 2D or 3D: Andrew's monotone
//! chain in the plane ([`planar`](self)), Quickhull (Barber, Dobkin & Huhdanpaa 1996) in space.
//! Degenerate inputs give lower-dimensional hulls: coplanar points in 3D a flat polygon (still a
//! 3D shape: it answers 3D support queries), collinear points a segment, one distinct point a
//! point. Duplicates, collinear and coplanar points on the boundary and near-degenerate jitter
//! are absorbed by a tolerance relative to the point cloud's size (see [`Hull::tolerance`]):
//! every vertex is an extreme point, farther than the tolerance from the convex hull of the
//! other vertices. Quickhull alone does not promise that (a point on an edge or face of the
//! final hull can become a vertex before the points around it are seen, and stay); a post-pass
//! finds such vertices and rebuilds without them ([`prune`](self)).
//!
//! Construction runs in `f64` whatever the vector type (an `f32` input is exact in `f64`), so
//! `f32` hulls are as clean as `f64` ones; the stored vertices are the input points, unchanged.
//!
//! **Support by hill climbing.** On the 1-skeleton (vertices and edges) of a convex polytope,
//! the linear function `x ↦ x·d` has no local maximum that is not global: from a vertex that is
//! not a maximiser, some edge leads strictly uphill (the argument behind the simplex method). So
//! [`Hull::climb`] walks from any vertex to the neighbour with the largest `x·d`, as long as it
//! is *strictly* larger — values increase at each step, so the walk cannot cycle on plateaus and
//! ends after at most `n` steps — and the vertex where it stops is a support point. The walk
//! starts from a vertex looked up in a *seed table*: a cube map of directions (a square map
//! for flat hulls) with about one cell per vertex, in the hull's principal frame, each cell
//! holding a vertex farthest along the cell's centre direction. Finding the cell costs three
//! dot products, a few compares and one division, and the walk from its seed usually takes one
//! or two steps, the last being the one that checks the neighbours. A previous answer (GJK's
//! hint) is weighed in the first step, as one more neighbour.

mod planar;
mod prune;
mod quickhull;
mod seed;

use alloc::vec::Vec;

use glam::{DVec2, DVec3};

use crate::error::ShapeError;
use crate::geometry::argmax_dot;
use crate::math::{Real, Vector};
use seed::SeedTable;

/// The tolerance of the first construction attempt, in units of `f64::EPSILON` times the point
/// cloud's scale (its extent plus its distance from the origin).
const BASE_TOLERANCE: f64 = 64.0;
/// Each failed attempt multiplies the tolerance by this.
const TOLERANCE_GROWTH: f64 = 100.0;
/// Construction attempts before giving up on adjacency (the hull then falls back to scanning).
const ATTEMPTS: usize = 4;

/// One face of a [`Hull`]: its vertices and its outward plane `normal · x = offset`.
///
/// In 3D a face of a full-dimensional hull is a triangle (coplanar neighbours are not merged);
/// a flat hull has two polygon faces, one per side. In 2D a face is an edge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Face<'a, V: Vector> {
    /// The outward unit normal.
    pub normal: V,
    /// The plane's offset: `normal · v = offset` for the face's vertices `v` (the largest of
    /// their values, so every hull vertex satisfies `normal · v ≤ offset` up to rounding).
    pub offset: V::Real,
    /// Indices into [`Hull::vertices`], counter-clockwise seen from outside (3D), or in
    /// counter-clockwise order along the boundary (2D).
    pub vertices: &'a [u32],
}

/// The convex hull of a point set, with faces, edges and vertex adjacency.
///
/// ```
/// use gjk::hull::Hull;
/// use glam::DVec3;
///
/// // The unit cube's corners, its centre and a duplicate corner.
/// let mut points: Vec<DVec3> = (0..8)
///     .map(|i| DVec3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
///     .collect();
/// points.push(DVec3::splat(0.5));
/// points.push(DVec3::ONE);
/// let hull = Hull::new(&points)?;
/// assert_eq!(hull.dimension(), 3);
/// assert_eq!(hull.vertices().len(), 8);
/// assert_eq!(hull.faces().len(), 12); // triangles
/// assert_eq!(hull.edges().len(), 18);
/// let top = hull.climb(DVec3::new(0.1, 0.2, 1.0), 0);
/// assert_eq!(hull.vertices()[top], DVec3::new(1.0, 1.0, 1.0));
/// # Ok::<(), gjk::ShapeError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Hull<V: Vector> {
    /// The vertices: input points, unchanged.
    vertices: Vec<V>,
    /// For each vertex, its index in the input.
    input_indices: Vec<u32>,
    /// The affine dimension: 0 point, 1 segment, 2 polygon, 3 polyhedron.
    dimension: u8,
    /// Faces: planes, and corners in CSR form (`face_corners[face_starts[f]..face_starts[f+1]]`).
    normals: Vec<V>,
    offsets: Vec<V::Real>,
    face_starts: Vec<u32>,
    face_corners: Vec<u32>,
    /// Undirected edges, `a < b`.
    edges: Vec<[u32; 2]>,
    /// Vertex adjacency in CSR form: `neighbours[neighbour_starts[v]..neighbour_starts[v+1]]`.
    neighbour_starts: Vec<u32>,
    neighbours: Vec<u32>,
    /// Where cold climbs start (see [`Hull::seed`]).
    seeds: SeedTable,
    /// The distance below which points count as on the boundary.
    tolerance: V::Real,
    /// False only when construction failed and the hull is the bare point set (support scans).
    climbable: bool,
}

/// The combinatorial result of construction, in input indices.
enum Skeleton {
    Point(u32),
    Segment(u32, u32),
    /// Counter-clockwise around `normal`.
    Polygon {
        cycle: Vec<u32>,
        normal: DVec3,
    },
    Solid(Vec<[u32; 3]>),
    /// Construction failed: these are the distinct points.
    Unstructured(Vec<u32>),
}

/// How the point cloud starts: its affine dimension and a first simplex.
enum Layout {
    Point(u32),
    Segment(u32, u32),
    Flat { normal: DVec3, u: DVec3, v: DVec3 },
    Solid([u32; 4]),
}

impl<V: Vector> Hull<V> {
    /// The convex hull of `points`: an error if there are none or a coordinate is not finite.
    ///
    /// Runs in `O(n log n)` expected time (Quickhull's output-sensitive bound is
    /// `O(n log r)` for `r` vertices) and allocates; queries on the result do not.
    pub fn new(points: &[V]) -> Result<Self, ShapeError> {
        if points.is_empty() {
            return Err(ShapeError::EmptyPointSet);
        }
        if points.iter().any(|p| !p.is_finite()) {
            return Err(ShapeError::NonFinite { what: "point" });
        }
        let (cloud, unit) = normalised_cloud(points);
        let mut tolerance = BASE_TOLERANCE * f64::EPSILON * cloud_scale(&cloud);
        for _ in 0..ATTEMPTS {
            if let Some(skeleton) = skeleton::<V>(&cloud, tolerance) {
                return Ok(Self::assemble(points, &cloud, skeleton, tolerance * unit));
            }
            tolerance *= TOLERANCE_GROWTH;
        }
        let distinct = distinct_points(&cloud);
        Ok(Self::assemble(points, &cloud, Skeleton::Unstructured(distinct), tolerance * unit))
    }

    /// The hull's vertices (a subset of the input points, coordinates unchanged).
    #[inline]
    pub fn vertices(&self) -> &[V] {
        &self.vertices
    }

    /// For each vertex, the index of the input point it is.
    #[inline]
    pub fn input_indices(&self) -> &[u32] {
        &self.input_indices
    }

    /// The affine dimension of the hull: 0 (a point), 1 (a segment), 2 (a polygon, flat in 3D),
    /// 3 (a polyhedron).
    #[inline]
    pub fn dimension(&self) -> usize {
        self.dimension as usize
    }

    /// How far an input point may lie outside the hull's faces and still have been left out:
    /// points within this distance of the boundary (duplicates, points on edges and faces,
    /// rounding jitter) are not vertices. Relative to the point cloud's size and distance from
    /// the origin; about `1.4e-14` of that scale unless rounding forced a retry.
    #[inline]
    pub fn tolerance(&self) -> V::Real {
        self.tolerance
    }

    /// The faces (see [`Face`]): triangles of a polyhedron, the two sides of a flat polygon in
    /// 3D, the edges of a polygon or the two sides of a segment in 2D; none otherwise.
    pub fn faces(&self) -> impl ExactSizeIterator<Item = Face<'_, V>> + '_ {
        (0..self.normals.len()).map(move |f| self.face(f))
    }

    /// The faces' outward unit normals, in face order (as [`Hull::faces`]).
    #[inline]
    pub(crate) fn normals(&self) -> &[V] {
        &self.normals
    }

    /// Face `f`.
    ///
    /// # Panics
    /// If `f ≥ faces().len()`, like slice indexing.
    pub fn face(&self, f: usize) -> Face<'_, V> {
        let range = self.face_starts[f] as usize..self.face_starts[f + 1] as usize;
        Face {
            normal: self.normals[f],
            offset: self.offsets[f],
            vertices: &self.face_corners[range],
        }
    }

    /// The faces' outward unit normals and plane offsets, in the order of [`Hull::faces`].
    #[inline]
    pub(crate) fn planes(&self) -> (&[V], &[V::Real]) {
        (&self.normals, &self.offsets)
    }

    /// The edges `[a, b]` (`a < b`, indices into [`Hull::vertices`]).
    #[inline]
    pub fn edges(&self) -> &[[u32; 2]] {
        &self.edges
    }

    /// The vertices joined to vertex `v` by an edge.
    #[inline]
    pub fn neighbours(&self, v: usize) -> &[u32] {
        match (self.neighbour_starts.get(v), self.neighbour_starts.get(v + 1)) {
            (Some(&start), Some(&end)) => &self.neighbours[start as usize..end as usize],
            _ => &[],
        }
    }

    /// The index of a vertex farthest along `dir`, by scanning every vertex (the first on ties).
    #[inline]
    pub fn scan(&self, dir: V) -> usize {
        argmax_dot(&self.vertices, dir)
    }

    /// The index of a vertex farthest along `dir`, by hill climbing from vertex `start` (taken
    /// modulo the vertex count): see the [module documentation](self). Never allocates; at
    /// most `n` steps.
    ///
    /// Values are compared in `f64` whatever the vector type: rounding in `f32` can make the
    /// neighbours of a vertex near the *minimum* look no higher than it, a false summit.
    pub fn climb(&self, dir: V, start: usize) -> usize {
        self.climb_hinted(dir, start, usize::MAX)
    }

    /// [`Hull::climb`] from `start` whose first step also weighs vertex `hint` (ignored when
    /// out of range), as if it were one more neighbour of `start`: a hint left by a nearby
    /// direction then saves the walk from the start, and costs nothing when it is worse.
    /// Checking the hint alongside the first neighbours, rather than choosing between it and
    /// `start` before the walk, keeps it off the chain of dependent loads.
    pub(crate) fn climb_hinted(&self, dir: V, start: usize, hint: usize) -> usize {
        if !self.climbable {
            return self.scan(dir);
        }
        let dir = to_f64(dir);
        let n = self.vertices.len();
        // No division in the usual case (`start` in range).
        let mut current = if start < n { start } else { start % n };
        let mut best = dot_f64(self.vertices[current], dir);
        let mut next = current;
        if let Some(&h) = self.vertices.get(hint) {
            let value = dot_f64(h, dir);
            if value > best {
                best = value;
                next = hint;
            }
        }
        // Values strictly increase, so no vertex is visited twice.
        for _ in 0..n {
            for &k in self.neighbours(current) {
                let value = dot_f64(self.vertices[k as usize], dir);
                if value > best {
                    best = value;
                    next = k as usize;
                }
            }
            if next == current {
                break;
            }
            current = next;
        }
        current
    }

    /// A vertex near the top along `dir`, where a cold [`Hull::climb`] should start: the seed
    /// table's entry for `dir`'s cell, a vertex farthest along the cell's centre direction
    /// (see the [module documentation](self)). Constant time.
    #[inline]
    pub fn seed(&self, dir: V) -> usize {
        self.seeds.seed(dir)
    }

    /// The index of a vertex farthest along `dir`: a climb from the seed (see [`Hull::seed`]).
    #[inline]
    pub fn support_index(&self, dir: V) -> usize {
        self.climb(dir, self.seed(dir))
    }

    /// Builds the public structure from the skeleton.
    /// `cloud` is the normalised copy of `points` (for well-scaled normals).
    fn assemble(points: &[V], cloud: &[DVec3], skeleton: Skeleton, tolerance: f64) -> Self {
        let order: Vec<u32> = match &skeleton {
            Skeleton::Point(a) => alloc::vec![*a],
            Skeleton::Segment(a, b) => alloc::vec![*a, *b],
            Skeleton::Polygon { cycle, .. } => cycle.clone(),
            Skeleton::Solid(triangles) => {
                let mut v: Vec<u32> = triangles.iter().flatten().copied().collect();
                v.sort_unstable();
                v.dedup();
                // Neighbours near each other in memory: fewer cache misses while climbing.
                let extent = half_extent(cloud);
                let unit = if extent > 0.0 { 1.0 / extent } else { 1.0 };
                v.sort_by_cached_key(|&i| morton_key(cloud[i as usize] * unit));
                v
            }
            Skeleton::Unstructured(v) => v.clone(),
        };
        let mut local = alloc::vec![u32::MAX; points.len()];
        for (k, &i) in order.iter().enumerate() {
            local[i as usize] = k as u32;
        }
        let vertices: Vec<V> = order.iter().map(|&i| points[i as usize]).collect();
        let mut hull = Self {
            vertices,
            input_indices: order,
            dimension: 0,
            normals: Vec::new(),
            offsets: Vec::new(),
            face_starts: alloc::vec![0],
            face_corners: Vec::new(),
            edges: Vec::new(),
            neighbour_starts: Vec::new(),
            neighbours: Vec::new(),
            seeds: SeedTable::empty(),
            tolerance: V::Real::from_f64(tolerance),
            climbable: true,
        };
        let n = hull.vertices.len() as u32;
        match skeleton {
            Skeleton::Point(_) => {}
            Skeleton::Segment(..) => {
                hull.dimension = 1;
                hull.edges.push([0, 1]);
                if V::DIM == 2 {
                    let along = cloud[hull.input_indices[1] as usize]
                        - cloud[hull.input_indices[0] as usize];
                    let side = DVec3::new(along.y, -along.x, 0.0);
                    hull.push_face(side, &[0, 1]);
                    hull.push_face(-side, &[1, 0]);
                }
            }
            Skeleton::Polygon { normal, .. } => {
                hull.dimension = 2;
                let cycle: Vec<u32> = (0..n).collect();
                hull.edges = (0..n).map(|k| sorted_pair(k, (k + 1) % n)).collect();
                if V::DIM == 2 {
                    for k in 0..n {
                        let (a, b) = (k, (k + 1) % n);
                        let along = cloud[hull.input_indices[b as usize] as usize]
                            - cloud[hull.input_indices[a as usize] as usize];
                        hull.push_face(DVec3::new(along.y, -along.x, 0.0), &[a, b]);
                    }
                } else {
                    hull.push_face(normal, &cycle);
                    let reversed: Vec<u32> = cycle.iter().rev().copied().collect();
                    hull.push_face(-normal, &reversed);
                }
            }
            Skeleton::Solid(triangles) => {
                hull.dimension = 3;
                for t in &triangles {
                    let c = t.map(|i| local[i as usize]);
                    let [a, b, d] = t.map(|i| cloud[i as usize]);
                    hull.push_face((b - a).cross(d - a), &c);
                    for k in 0..3 {
                        if c[k] < c[(k + 1) % 3] {
                            hull.edges.push([c[k], c[(k + 1) % 3]]);
                        }
                    }
                }
            }
            Skeleton::Unstructured(_) => {
                hull.dimension = V::DIM as u8;
                hull.climbable = false;
            }
        }
        hull.edges.sort_unstable();
        hull.edges.dedup();
        hull.link();
        hull.seeds = SeedTable::new(&hull);
        hull
    }

    fn vertex(&self, i: u32) -> V {
        self.vertices[i as usize]
    }

    /// Adds a face with the given (not necessarily unit) outward normal.
    fn push_face(&mut self, normal: DVec3, corners: &[u32]) {
        let normal = normal.try_normalize().unwrap_or(DVec3::X);
        let offset = corners
            .iter()
            .map(|&i| normal.dot(to_f64(self.vertex(i))))
            .fold(f64::NEG_INFINITY, f64::max);
        self.normals.push(from_f64(normal));
        self.offsets.push(V::Real::from_f64(offset));
        self.face_corners.extend_from_slice(corners);
        self.face_starts.push(self.face_corners.len() as u32);
    }

    /// Builds the CSR adjacency from the edge list.
    fn link(&mut self) {
        let n = self.vertices.len();
        let mut starts = alloc::vec![0u32; n + 1];
        for &[a, b] in &self.edges {
            starts[a as usize + 1] += 1;
            starts[b as usize + 1] += 1;
        }
        for k in 0..n {
            starts[k + 1] += starts[k];
        }
        let mut fill = starts.clone();
        let mut neighbours = alloc::vec![0u32; starts[n] as usize];
        for &[a, b] in &self.edges {
            neighbours[fill[a as usize] as usize] = b;
            fill[a as usize] += 1;
            neighbours[fill[b as usize] as usize] = a;
            fill[b as usize] += 1;
        }
        self.neighbour_starts = starts;
        self.neighbours = neighbours;
    }
}

/// The position of a normalised point (coordinates in [−1, 1]) along a Morton (Z-order)
/// curve with 10 bits per axis: points close in space get close keys.
fn morton_key(p: DVec3) -> u32 {
    let spread = |x: f64| -> u32 {
        // Quantise to 10 bits, then put two zero bits between consecutive bits.
        let mut v = (((x + 1.0) * 511.5).clamp(0.0, 1023.0)) as u32;
        v = (v | (v << 16)) & 0x0300_00FF;
        v = (v | (v << 8)) & 0x0300_F00F;
        v = (v | (v << 4)) & 0x030C_30C3;
        (v | (v << 2)) & 0x0924_9249
    };
    spread(p.x) | (spread(p.y) << 1) | (spread(p.z) << 2)
}

/// The pair in increasing order.
fn sorted_pair(a: u32, b: u32) -> [u32; 2] {
    if a < b {
        [a, b]
    } else {
        [b, a]
    }
}

/// A point as `f64` coordinates in 3D (z = 0 in 2D).
#[inline]
fn to_f64<V: Vector>(p: V) -> DVec3 {
    DVec3::new(p.component(0).to_f64(), p.component(1).to_f64(), p.component(2).to_f64())
}

/// `p · d` in `f64`.
#[inline(always)]
fn dot_f64<V: Vector>(p: V, d: DVec3) -> f64 {
    let xy = p.component(0).to_f64() * d.x + p.component(1).to_f64() * d.y;
    if V::DIM == 2 {
        xy
    } else {
        xy + p.component(2).to_f64() * d.z
    }
}

/// A vector of type `V` from `f64` coordinates (z dropped in 2D).
fn from_f64<V: Vector>(p: DVec3) -> V {
    V::from_components([p.x, p.y, p.z].map(V::Real::from_f64))
}

/// The points in `f64`, scaled by a power of two (exact) so the largest coordinate is about 1
/// and centred on their bounding box, so no difference or product overflows; with the scale
/// factor's inverse (to bring tolerances back to the input's units).
fn normalised_cloud<V: Vector>(points: &[V]) -> (Vec<DVec3>, f64) {
    let raw: Vec<DVec3> = points.iter().map(|&p| to_f64(p)).collect();
    let magnitude = raw.iter().fold(0.0f64, |m, p| m.max(p.abs().max_element()));
    let exponent = if magnitude > 0.0 { libm::frexp(magnitude).1 } else { 0 };
    let scale = libm::scalbn(1.0, -exponent);
    let (mut lo, mut hi) = (DVec3::INFINITY, DVec3::NEG_INFINITY);
    for p in &raw {
        lo = lo.min(*p * scale);
        hi = hi.max(*p * scale);
    }
    let centre = (lo + hi) * 0.5;
    let cloud = raw.iter().map(|&p| p * scale - centre).collect();
    (cloud, 1.0 / scale)
}

/// The size that rounding errors scale with: the cloud's half-extent plus its offset from the
/// origin (the coordinates were rounded at that magnitude before centring); at least the
/// smallest normal number so tolerances never vanish.
fn cloud_scale(cloud: &[DVec3]) -> f64 {
    // After normalisation the largest input coordinate was about 1.
    half_extent(cloud) + 1.0
}

/// The largest coordinate of the centred cloud.
fn half_extent(cloud: &[DVec3]) -> f64 {
    cloud.iter().fold(0.0f64, |m, p| m.max(p.abs().max_element()))
}

/// The indices of the distinct points (first occurrence of each).
fn distinct_points(cloud: &[DVec3]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..cloud.len() as u32).collect();
    let key = |i: u32| cloud[i as usize].to_array();
    order.sort_unstable_by(|&i, &j| {
        let (p, q) = (key(i), key(j));
        (0..3).map(|k| p[k].total_cmp(&q[k])).find(|o| o.is_ne()).unwrap_or(i.cmp(&j))
    });
    order.dedup_by(|i, j| key(*i) == key(*j));
    order.sort_unstable();
    order
}

/// The hull's combinatorics at one tolerance; `None` if rounding defeated Quickhull.
fn skeleton<V: Vector>(cloud: &[DVec3], tolerance: f64) -> Option<Skeleton> {
    match layout(cloud, tolerance) {
        Layout::Point(a) => Some(Skeleton::Point(a)),
        Layout::Segment(a, b) => Some(Skeleton::Segment(a, b)),
        Layout::Flat { normal, u, v } => {
            let (u, v, normal) =
                if V::DIM == 2 { (DVec3::X, DVec3::Y, DVec3::Z) } else { (u, v, normal) };
            let plane: Vec<DVec2> = cloud.iter().map(|p| DVec2::new(p.dot(u), p.dot(v))).collect();
            let cycle = planar::monotone_chain(&plane, tolerance);
            Some(match cycle.len() {
                1 => Skeleton::Point(cycle[0]),
                2 => Skeleton::Segment(cycle[0], cycle[1]),
                _ => Skeleton::Polygon { cycle, normal },
            })
        }
        Layout::Solid(start) => {
            let triangles = match drop_deep_interior(cloud, start, tolerance) {
                None => quickhull::quickhull(cloud, start, tolerance).ok()?,
                Some((kept, index)) => {
                    // `start` is kept, in front: its points are the first four of `kept`.
                    let triangles = quickhull::quickhull(&kept, [0, 1, 2, 3], tolerance).ok()?;
                    let original = |t: [u32; 3]| t.map(|i| index[i as usize]);
                    triangles.into_iter().map(original).collect()
                }
            };
            extreme_only(cloud, triangles, tolerance).map(Skeleton::Solid)
        }
    }
}

/// Rebuilds without redundant vertices at most this many times: each round leaves out an
/// independent set of them (see [`prune::redundant_vertices`]), so a chain of `k` redundant
/// vertices along an edge needs about `log k` rounds; the vertex list shrinks every round.
const PRUNE_ROUNDS: usize = 8;

/// The hull `triangles` of `cloud` (indices into it) rebuilt until every vertex is extreme (up
/// to `tolerance`): Quickhull can leave points on the final hull's edges and faces as vertices
/// (see [`prune`]). Each round runs Quickhull again on the vertices alone, less the redundant
/// ones found, and checks the result; after [`PRUNE_ROUNDS`] rebuilds the last one stands.
/// Inputs without redundant vertices (all the round ones) only pay for one check. `None` if a
/// rebuild fails (rounding: the caller retries with a larger tolerance).
///
/// A removed point lies within `tolerance` of the hull of the points kept in its round. On
/// exactly degenerate inputs (points on edges and faces) it lies on that hull, which is the
/// final one; only points that sit near the boundary without lying on it (within the
/// tolerance, across several rounds) can end up a few tolerances outside the final hull.
fn extreme_only(
    cloud: &[DVec3],
    mut triangles: Vec<[u32; 3]>,
    tolerance: f64,
) -> Option<Vec<[u32; 3]>> {
    for _ in 0..PRUNE_ROUNDS {
        let mut redundant = prune::redundant_vertices(cloud, &triangles, tolerance);
        if redundant.is_empty() {
            break;
        }
        redundant.sort_unstable();
        let mut kept: Vec<u32> = triangles.iter().flatten().copied().collect();
        kept.sort_unstable();
        kept.dedup();
        kept.retain(|i| redundant.binary_search(i).is_err());
        let points: Vec<DVec3> = kept.iter().map(|&i| cloud[i as usize]).collect();
        // The remaining vertices span the same solid (the removed ones lie in their hull).
        let Layout::Solid(start) = layout(&points, tolerance) else { return None };
        let local = quickhull::quickhull(&points, start, tolerance).ok()?;
        triangles = local.into_iter().map(|t| t.map(|i| kept[i as usize])).collect();
    }
    Some(triangles)
}

/// Inputs below this size go to Quickhull whole: the interior filter would not pay for itself.
const FILTER_MIN_POINTS: usize = 2048;

/// Drops the points that cannot be hull vertices because they lie deep inside the hull of a
/// few extreme points: Quickhull would otherwise test each of them against faces round after
/// round before discarding it. The extreme points along the 26 directions of a cube's faces,
/// edges and corners span a polytope `P` inside the hull; a ball around their centroid inside
/// `P` (radius: the centroid's distance to `P`'s nearest face plane) is inside the hull, and a
/// point in it, deeper than the tolerance, is interior (one distance per point; on round
/// clouds most interior points go). Measured on 100,000 points uniform in a ball: Quickhull
/// time down by about a quarter.
///
/// Returns the kept points (the four of `start` first) and their input indices, or `None` when
/// there is nothing to gain (small or flat inputs).
fn drop_deep_interior(
    cloud: &[DVec3],
    start: [u32; 4],
    tolerance: f64,
) -> Option<(Vec<DVec3>, Vec<u32>)> {
    if cloud.len() < FILTER_MIN_POINTS {
        return None;
    }
    let mut directions = Vec::with_capacity(13);
    for x in [-1.0, 0.0, 1.0] {
        for y in [-1.0, 0.0, 1.0] {
            for z in [-1.0, 0.0, 1.0] {
                // One of each opposite pair (first non-zero coordinate positive): the pass
                // below tracks both ends.
                if [x, y, z].into_iter().find(|&c| c != 0.0) == Some(1.0) {
                    directions.push(DVec3::new(x, y, z));
                }
            }
        }
    }
    let mut low = [(0u32, f64::INFINITY); 13];
    let mut high = [(0u32, f64::NEG_INFINITY); 13];
    for (i, p) in cloud.iter().enumerate() {
        for (k, d) in directions.iter().enumerate() {
            let v = p.dot(*d);
            if v < low[k].1 {
                low[k] = (i as u32, v);
            }
            if v > high[k].1 {
                high[k] = (i as u32, v);
            }
        }
    }
    let mut extremes: Vec<u32> = low.iter().chain(&high).map(|e| e.0).collect();
    extremes.sort_unstable();
    extremes.dedup();
    let corners: Vec<DVec3> = extremes.iter().map(|&i| cloud[i as usize]).collect();
    let Layout::Solid(first) = layout(&corners, tolerance) else { return None };
    let triangles = quickhull::quickhull(&corners, first, tolerance).ok()?;
    let centre = corners.iter().fold(DVec3::ZERO, |sum, &p| sum + p) / corners.len() as f64;
    let radius = triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| corners[i as usize]);
            let normal = (b - a).cross(c - a).try_normalize().unwrap_or(DVec3::ZERO);
            normal.dot(a - centre)
        })
        .fold(f64::INFINITY, f64::min)
        - 2.0 * tolerance;
    if radius <= 0.0 {
        return None;
    }
    let inside = radius * radius;
    let mut index: Vec<u32> = start.to_vec();
    index.extend((0..cloud.len() as u32).filter(|i| {
        !start.contains(i) && (cloud[*i as usize] - centre).length_squared() >= inside
    }));
    let kept = index.iter().map(|&i| cloud[i as usize]).collect();
    Some((kept, index))
}

/// The index of the point maximising `f`.
fn argmax(cloud: &[DVec3], f: impl Fn(DVec3) -> f64) -> (u32, f64) {
    let mut best = (0u32, f64::NEG_INFINITY);
    for (i, &p) in cloud.iter().enumerate() {
        let value = f(p);
        if value > best.1 {
            best = (i as u32, value);
        }
    }
    best
}

/// The cloud's affine dimension (within `tolerance`) and a well-spread first simplex: the two
/// extremes along the widest axis, the point farthest from their line, the point farthest from
/// the plane of those three.
fn layout(cloud: &[DVec3], tolerance: f64) -> Layout {
    let widest = (0..3)
        .map(|k| {
            let (lo, _) = argmax(cloud, |p| -p[k]);
            let (hi, _) = argmax(cloud, |p| p[k]);
            (lo, hi, cloud[hi as usize][k] - cloud[lo as usize][k])
        })
        .fold((0, 0, -1.0), |best, axis| if axis.2 > best.2 { axis } else { best });
    let (a, b) = (widest.0, widest.1);
    let origin = cloud[a as usize];
    let Some(u) = (cloud[b as usize] - origin).try_normalize().filter(|_| widest.2 > tolerance)
    else {
        return Layout::Point(a);
    };
    let (c, off_line) = argmax(cloud, |p| (p - origin).cross(u).length());
    if off_line <= tolerance {
        let (lo, _) = argmax(cloud, |p| -p.dot(u));
        let (hi, _) = argmax(cloud, |p| p.dot(u));
        return Layout::Segment(lo, hi);
    }
    let Some(normal) = u.cross(cloud[c as usize] - origin).try_normalize() else {
        return Layout::Segment(a, b);
    };
    let (d, off_plane) = argmax(cloud, |p| normal.dot(p - origin).abs());
    if off_plane <= tolerance {
        return Layout::Flat { normal, u, v: normal.cross(u) };
    }
    Layout::Solid([a, b, c, d])
}
