use crate::bounds::Aabb;
use crate::math::Pose;
use alloc::vec::Vec;

use super::lanes::Lanes;
use super::outline::Outline;
use super::{check_point, farthest_from, Core, CorePolytope, Feature, Support, FEATURE_CAPACITY};
use crate::error::ShapeError;
use crate::geometry::cross;
use crate::hull::Hull;
use crate::math::{Real, Vector};

/// Hulls with at most this many vertices are searched by a plain scan: below it, scanning
/// contiguous lanes (see [`Lanes`]) beats hill climbing's scattered neighbour reads. Measured
/// on unit-sphere samples, f32 (ns per support, scan against cold climb): 19 against 52 at 32
/// vertices, 34 against 43 at 48, 50 against 52 at 64.
pub(crate) const SCAN_THRESHOLD: usize = 64;

// The scan keeps its dot products on the stack.
const _: () = assert!(SCAN_THRESHOLD <= super::lanes::MAX_POINTS);

/// The convex hull of a finite point set: a convex polygon in 2D, a convex polytope in 3D.
///
/// The points need not be in any order nor all be vertices of the hull; repeated, collinear and
/// coplanar points are fine (a flat point set is a flat polytope, a collinear one a segment).
/// The constructor computes the [`Hull`] (Quickhull in 3D, monotone chain in 2D); support then
/// climbs the hull's vertex graph from the search hint (see [`Support::support_hinted`]), or
/// scans the vertices of small hulls (at most 64 vertices, where a scan is faster).
///
/// Ties: a scan returns the vertex that came *first in the input* among those farthest along
/// the direction — the convention of the GJK tutorials, whose worked examples depend on it.
///
/// Polygons of at most 64 vertices in 2D also project points exactly by a scan of their edges
/// ([`Core::closest_point`](crate::Core::closest_point), [`Core::nearest_boundary`](crate::Core::nearest_boundary)), so a disc or a point
/// against one skips GJK and EPA.
///
/// ```
/// use gjk::{Polytope, Support};
/// use glam::DVec2;
/// let square = Polytope::new(vec![
///     DVec2::new(0.0, 0.0), DVec2::new(1.0, 0.0), DVec2::new(1.0, 1.0), DVec2::new(0.0, 1.0),
///     DVec2::new(0.5, 0.5), // inside: not a vertex
/// ]).unwrap();
/// assert_eq!(square.support(DVec2::new(1.0, 0.1)), DVec2::new(1.0, 1.0));
/// assert_eq!(square.points().len(), 4);
/// assert_eq!(square.core().closest_point(DVec2::new(2.0, 0.5)), Some(DVec2::new(1.0, 0.5)));
/// assert!(Polytope::<DVec2>::new(vec![]).is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Polytope<V: Vector> {
    hull: Hull<V>,
    /// Small hulls only: their vertices in input order, for the scan (empty for large hulls).
    scan_order: Vec<V>,
    /// The same vertices lane by lane, as the scan reads them.
    scan_lanes: Lanes<V::Real>,
    /// Small polygons in 2D only: the edges, for exact point projections.
    outline: Outline<V>,
    /// Small solid hulls in 3D only: each triangle's merged planar face, computed once.
    planar: PlanarFaces,
    /// Solid hulls in 3D of at most [`MAX_POINTS`](super::lanes::MAX_POINTS) triangles only
    /// (empty otherwise): the triangles' unit normals lane by lane, for the scan of
    /// [`Support::feature`].
    normal_lanes: Lanes<V::Real>,
    center: V,
    /// The largest distance of a vertex from `center`.
    extent: V::Real,
}

/// Hulls in 3D with at most this many triangles keep their merged planar faces
/// ([`PlanarFaces`]); it covers every hull of at most [`SCAN_THRESHOLD`] vertices (at most
/// `2 × 64 − 4` triangles). Building them costs a scan of the triangles per triangle, which
/// larger hulls would pay quadratically at construction; they merge per query instead.
const PLANAR_MAX_TRIANGLES: usize = 2 * SCAN_THRESHOLD;

/// How far apart (in x) the unit normals of triangles that may merge can be, with room for
/// rounding: the merge's cosine test admits at most 1.5e-3.
const WINDOW: f64 = 4e-3;

/// For each triangle of a hull, the face [`Support::feature`] answers when that triangle is
/// the best aligned: the triangle with its coplanar neighbours merged and sorted around
/// (exactly what the per-query merge computes: it is the same function, run once per
/// triangle at construction), so a query is one scan of the normals and a copy.
#[derive(Clone, Debug, Default, PartialEq)]
struct PlanarFaces {
    /// Per triangle: the merged face's id and its vertex indices, `indices[start..start + len]`.
    faces: Vec<(u32, u32, u32)>,
    /// The merged faces' vertex indices, in order around each face; triangles of one face
    /// share its run.
    indices: Vec<u32>,
}

impl PlanarFaces {
    /// The merged faces of a small solid hull in 3D; empty otherwise.
    fn new<V: Vector>(hull: &Hull<V>) -> Self {
        let mut planar = Self::default();
        let count = hull.faces().len();
        if V::DIM != 3 || hull.dimension() < 3 || count == 0 || count > PLANAR_MAX_TRIANGLES {
            return planar;
        }
        // Only triangles whose normals nearly agree can merge (a cosine of 1 − 1e-6 is an
        // angle of 1.4e-3, so each component differs by less than that): sorted by the
        // normals' x, each triangle looks at a window of its neighbours in that order, in
        // index order as the per-query merge does.
        let normals = hull.normals();
        let x = |g: u32| normals[g as usize].component(0).to_f64();
        let mut by_x: Vec<u32> = (0..count as u32).collect();
        by_x.sort_unstable_by(|&g, &h| x(g).total_cmp(&x(h)).then(g.cmp(&h)));
        let mut window = Vec::new();
        for f in 0..count {
            let (lo, hi) = (x(f as u32) - WINDOW, x(f as u32) + WINDOW);
            let start = by_x.partition_point(|&g| x(g) < lo);
            let end = by_x.partition_point(|&g| x(g) <= hi);
            window.clear();
            window.extend_from_slice(&by_x[start..end]);
            window.sort_unstable();
            let (ids, n, id) = merged_face(hull, f, &window);
            let ids = &ids[..n];
            // The group's first triangle usually has the same face: share its run.
            if let Some(&(gid, start, len)) = planar.faces.get(id as usize) {
                let (start, len) = (start as usize, len as usize);
                if gid == id && planar.indices[start..start + len] == *ids {
                    planar.faces.push(planar.faces[id as usize]);
                    continue;
                }
            }
            planar.faces.push((id, planar.indices.len() as u32, n as u32));
            planar.indices.extend_from_slice(ids);
        }
        planar
    }
}

impl<V: Vector> Polytope<V> {
    /// The convex hull of `points`: an error if there are none or a coordinate is not finite.
    pub fn new(points: Vec<V>) -> Result<Self, ShapeError> {
        if points.is_empty() {
            return Err(ShapeError::EmptyPointSet);
        }
        for &p in &points {
            check_point("point", p)?;
        }
        let hull = Hull::new(&points)?;
        let center = centroid(hull.vertices());
        let scan_order = in_input_order(&hull);
        let scan_lanes = Lanes::new(&scan_order);
        let outline = Outline::new(&hull, SCAN_THRESHOLD);
        let extent = farthest_from(hull.vertices(), center);
        let planar = PlanarFaces::new(&hull);
        let normal_lanes = normal_lanes(&hull);
        Ok(Self { hull, scan_order, scan_lanes, outline, planar, normal_lanes, center, extent })
    }

    /// The hull's vertices: the input points that are corners of the hull, unchanged (points
    /// inside, on edges or faces, and duplicates are gone). [`Hull::input_indices`] maps them
    /// back to the input.
    #[inline]
    pub fn points(&self) -> &[V] {
        self.hull.vertices()
    }

    /// The hull: faces, edges, vertex adjacency.
    #[inline]
    pub fn hull(&self) -> &Hull<V> {
        &self.hull
    }

    /// The vertex farthest along `dir` by a scan of small hulls, or `None` for large ones.
    #[inline]
    fn scanned(&self, dir: V) -> Option<V> {
        (!self.scan_lanes.is_empty()).then(|| self.scan_order[self.scan_lanes.argmax(dir)])
    }

    /// The climbing half of [`Support::support_hinted`], kept out of line so the scan of
    /// small hulls compiles as tightly as on its own.
    #[inline(never)]
    fn climbed(&self, dir: V, hint: &mut u32) -> V {
        // The seed is usually a step from the top, whatever the previous direction was (GJK's
        // early iterations turn by large angles); the hint still wins when the table's cell is
        // a poor guess (flat or needle-like hulls) and the directions have settled.
        let hinted = (*hint as usize).wrapping_sub(1);
        let found = self.hull.climb_hinted(dir, self.hull.seed(dir), hinted);
        *hint = found as u32 + 1;
        self.hull.vertices()[found]
    }
}

/// The unit normals of a solid 3D hull's triangles lane by lane, when they are at most
/// [`MAX_POINTS`](super::lanes::MAX_POINTS) (a hull of up to 34 vertices); empty otherwise.
fn normal_lanes<V: Vector>(hull: &Hull<V>) -> Lanes<V::Real> {
    let normals = hull.normals();
    let solid = V::DIM == 3 && hull.dimension() == 3;
    if solid && normals.len() <= super::lanes::MAX_POINTS {
        Lanes::new(normals)
    } else {
        Lanes::new::<V>(&[])
    }
}

/// The vertices of a small hull in the order of the input points (empty for large hulls).
fn in_input_order<V: Vector>(hull: &Hull<V>) -> Vec<V> {
    if hull.vertices().len() > SCAN_THRESHOLD {
        return Vec::new();
    }
    let mut order: Vec<(u32, V)> =
        hull.input_indices().iter().copied().zip(hull.vertices().iter().copied()).collect();
    order.sort_unstable_by_key(|&(index, _)| index);
    order.into_iter().map(|(_, v)| v).collect()
}

/// The mean of the points, summed as `p / n` so huge coordinates cannot overflow.
fn centroid<V: Vector>(points: &[V]) -> V {
    let weight = V::Real::ONE / V::Real::from_f64(points.len() as f64);
    points.iter().fold(V::ZERO, |sum, &p| sum + p * weight)
}

impl<V: Vector> Support<V> for Polytope<V> {
    /// Scans small hulls; climbs from the seed table's vertex for `dir` otherwise.
    #[inline]
    fn support(&self, dir: V) -> V {
        if let Some(found) = self.scanned(dir) {
            return found;
        }
        self.hull.vertices()[self.hull.support_index(dir)]
    }

    /// Climbs from the seed table's vertex for `dir`, weighing the vertex the hint names in the
    /// first step, and stores where it stopped. The hint is the vertex index plus one; 0 (the
    /// warm-start cache's initial value) or an index beyond this hull means "no hint".
    #[inline]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        if let Some(found) = self.scanned(dir) {
            return found;
        }
        self.climbed(dir, hint)
    }

    #[inline]
    fn center(&self) -> V {
        self.center
    }
    #[inline]
    fn extent(&self) -> V::Real {
        self.extent
    }

    /// Small polygons in 2D (at most 64 vertices): the corners counter-clockwise from the
    /// lowest (smallest `x`, then `y`), with the edges' outward normals. Small solid hulls in
    /// 3D (at most 64 vertices): the face planes. Other hulls (large ones, flat ones in 3D,
    /// segments, points) are general.
    #[inline]
    fn core(&self) -> Core<'_, V> {
        if let Some(polygon) = self.outline.polygon() {
            return Core::Polygon(polygon);
        }
        let small = !self.scan_lanes.is_empty();
        if V::DIM == 3 && small && self.hull.dimension() == 3 {
            let (normals, offsets) = self.hull.planes();
            return Core::Polytope(CorePolytope { normals, offsets });
        }
        Core::General
    }
    /// Small hulls: every posed vertex (one pass). Large hulls: the support function along
    /// ± each axis, which climbs the vertex graph instead of touching every vertex.
    fn aabb(&self, pose: &Pose<V>) -> Aabb<V> {
        if self.hull.vertices().len() <= SCAN_THRESHOLD {
            crate::bounds::points_aabb(self.hull.vertices(), pose, V::Real::ZERO)
        } else {
            super::support_aabb(self, pose)
        }
    }

    /// The hull's face whose normal is most aligned with `dir` (a scan of the faces), with
    /// its coplanar neighbours merged in 3D (the hull stores triangles: a cube's face is two).
    /// Vertex ids are indices into [`Polytope::points`]; the face id is the smallest index of
    /// the merged triangles. A segment hull answers the segment; a point hull, or a face of
    /// more than [`FEATURE_CAPACITY`] vertices, the support point.
    ///
    /// Hulls of at most 128 triangles look the merged face up (computed at construction);
    /// larger ones merge per query, with the same result.
    fn feature(&self, dir: V) -> Feature<V> {
        if let Some(edge) = self.outline.feature(dir) {
            return edge;
        }
        hull_feature(&self.hull, &self.planar, &self.normal_lanes, dir, || self.support(dir))
    }
}

/// See [`Polytope::feature`](Support::feature); `fallback` gives the support point where
/// the hull has no face to answer.
#[inline(always)]
fn hull_feature<V: Vector>(
    hull: &Hull<V>,
    planar: &PlanarFaces,
    normal_lanes: &Lanes<V::Real>,
    dir: V,
    fallback: impl FnOnce() -> V,
) -> Feature<V> {
    let vertices = hull.vertices();
    if hull.faces().len() == 0 {
        return match *vertices {
            [a, b] => Feature::segment(a, b, [0, 1], 0, dir),
            _ => Feature::point(fallback(), 0),
        };
    }
    // The first triangle whose normal is the most aligned (ties: the first, so that feature
    // ids stay stable): over the lanes when the hull has them (the manifold asks twice per
    // query; on a 32-vertex hull the lanes take about half the instructions of the plain
    // scan), otherwise over the normals alone (contiguous); faces are read only where they
    // are needed. Both compute the dot products alike and find the same triangle.
    let normals = hull.normals();
    let best = if normal_lanes.is_empty() {
        let mut best = (0, -V::Real::INFINITY);
        for (f, normal) in normals.iter().enumerate() {
            let along = normal.dot(dir);
            if along > best.1 {
                best = (f, along);
            }
        }
        best.0
    } else {
        normal_lanes.argmax(dir)
    };
    let face = hull.face(best);
    if V::DIM == 2 || hull.dimension() < 3 {
        return Feature::gathered_or(vertices, face.vertices, face.normal, best as u32, fallback);
    }
    if let Some(&(id, start, len)) = planar.faces.get(best) {
        let run = &planar.indices[start as usize..(start + len) as usize];
        return Feature::gathered_or(vertices, run, face.normal, id, fallback);
    }
    let (ids, n, id) = merged_face(hull, best, 0..normals.len() as u32);
    Feature::gathered_or(vertices, &ids[..n], face.normal, id, fallback)
}

/// The face [`Polytope::feature`](Support::feature) answers when triangle `best` of a solid
/// 3D hull is the best aligned: its vertex indices (the first `n`, sorted around) and its id.
/// The triangle with the coplanar ones merged, or the triangle alone when the merged face
/// has more than [`FEATURE_CAPACITY`] vertices. `candidates`: the triangles that may merge,
/// in increasing order (all of them, or those whose normals are near).
fn merged_face<V: Vector>(
    hull: &Hull<V>,
    best: usize,
    candidates: impl IntoIterator<Item = impl core::borrow::Borrow<u32>>,
) -> ([u32; FEATURE_CAPACITY], usize, u32) {
    let (vertices, normals) = (hull.vertices(), hull.normals());
    let face = hull.face(best);
    let alone = || {
        let mut ids = [0u32; FEATURE_CAPACITY];
        let n = face.vertices.len().min(FEATURE_CAPACITY);
        ids[..n].copy_from_slice(&face.vertices[..n]);
        (ids, n, best as u32)
    };
    // Merge the triangles of the same plane: normals within rounding, offsets within the
    // hull's own tolerance.
    let (mut ids, mut n, mut id) = ([0u32; FEATURE_CAPACITY], 0, best);
    let parallel = V::Real::ONE - V::Real::from_f64(1e-6);
    let tolerance = hull.tolerance() * V::Real::TWO;
    for g in candidates {
        let g = *g.borrow() as usize;
        if normals[g].dot(face.normal) < parallel {
            continue;
        }
        let other = hull.face(g);
        if (other.offset - face.offset).abs() > tolerance {
            continue;
        }
        id = id.min(g);
        for &v in other.vertices {
            if ids[..n].contains(&v) {
                continue;
            }
            if n == FEATURE_CAPACITY {
                return alone();
            }
            ids[n] = v;
            n += 1;
        }
    }
    sort_around(&mut ids[..n], vertices, face.normal);
    (ids, n, id as u32)
}

/// Sorts the indices of coplanar vertices counter-clockwise about `normal` around their mean,
/// by a pseudo-angle in `[0, 4)` (monotone in the angle, no trigonometry); insertion sort, the
/// faces are small.
fn sort_around<V: Vector>(indices: &mut [u32], vertices: &[V], normal: V) {
    if indices.len() < 3 {
        return;
    }
    let weight = V::Real::ONE / V::Real::from_f64(indices.len() as f64);
    let mean = indices.iter().fold(V::ZERO, |sum, &i| sum + vertices[i as usize] * weight);
    let u = normal.any_orthogonal();
    let w = cross(normal, u);
    let key = |i: u32| {
        let d = vertices[i as usize] - mean;
        let (x, y) = (d.dot(u), d.dot(w));
        let r = x.abs() + y.abs();
        if !r.is_positive() {
            return V::Real::ZERO;
        }
        if y >= V::Real::ZERO {
            V::Real::ONE - x / r
        } else {
            V::Real::from_f64(3.0) + x / r
        }
    };
    // Each key once (a face has at most FEATURE_CAPACITY vertices), moved with its index.
    let mut keys = [V::Real::ZERO; FEATURE_CAPACITY];
    for (k, &i) in keys.iter_mut().zip(indices.iter()) {
        *k = key(i);
    }
    for k in 1..indices.len() {
        let mut j = k;
        while j > 0 && keys[j - 1] > keys[j] {
            indices.swap(j - 1, j);
            keys.swap(j - 1, j);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, DVec3, Vec3};

    /// The fallback of [`hull_feature`] for hulls that always have a face.
    fn no_face<V>() -> V {
        panic!("the hull has a face along every direction")
    }

    /// A small deterministic generator (the tests need no crate for it).
    fn lcg(state: &mut u64) -> f64 {
        *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (*state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }

    /// The merged faces looked up agree with the merge per query over every triangle, and
    /// (`brute`) with brute force: the face's vertices are the hull's vertices on its plane.
    /// (In f32 the merge's tolerances, relative to f64 rounding, can leave a rotated box's
    /// face as its triangles, so brute force is for f64.)
    fn check_planar<V: Vector>(points: Vec<V>, dirs: &[V], brute: bool) {
        let polytope = Polytope::new(points).unwrap();
        let hull = polytope.hull();
        assert!(!polytope.planar.faces.is_empty());
        for &dir in dirs {
            let looked_up =
                hull_feature(hull, &polytope.planar, &polytope.normal_lanes, dir, no_face);
            // The merge per query, and the plain scan of the normals.
            let merged =
                hull_feature(hull, &PlanarFaces::default(), &Lanes::new::<V>(&[]), dir, no_face);
            assert_eq!(looked_up, merged);
            if !brute {
                continue;
            }
            let (normal, first) = (looked_up.normal(), looked_up.vertices()[0]);
            let scale = hull.vertices().iter().fold(0.0, |m: f64, v| m.max(v.length().to_f64()));
            let on_plane: Vec<u32> = (0..hull.vertices().len() as u32)
                .filter(|&i| {
                    let d = (hull.vertices()[i as usize] - first).dot(normal).to_f64();
                    d.abs() <= 1e-4 * scale
                })
                .collect();
            let mut ids = looked_up.ids().to_vec();
            ids.sort_unstable();
            assert_eq!(ids, on_plane, "dir {dir:?}");
        }
    }

    #[test]
    fn merged_faces_are_computed_once_with_the_same_answer() {
        let mut state = 7;
        let dirs: Vec<DVec3> = (0..300)
            .map(|_| DVec3::new(lcg(&mut state), lcg(&mut state), lcg(&mut state)))
            .collect();
        // A box with points on its faces' planes and edges, rotated: faces of 4 to 8 vertices.
        let turn = glam::DQuat::from_euler(glam::EulerRot::XYZ, 0.3, -0.7, 1.1);
        let mut boxy: Vec<DVec3> = Vec::new();
        for i in 0..8 {
            let s = |b: usize| if i >> b & 1 == 1 { 1.0 } else { -1.0 };
            boxy.push(DVec3::new(2.0 * s(0), s(1), 0.5 * s(2)));
        }
        boxy.extend([
            DVec3::new(2.0, 0.3, 0.5),
            DVec3::new(-2.0, 1.0, 0.1),
            DVec3::new(0.4, -1.0, 0.5),
        ]);
        check_planar(boxy.iter().map(|&p| turn * p).collect(), &dirs, true);
        let dirs32: Vec<Vec3> = dirs.iter().map(|d| d.as_vec3()).collect();
        check_planar(boxy.iter().map(|&p| (turn * p).as_vec3()).collect(), &dirs32, false);
        check_planar(boxy.iter().map(|&p| p.as_vec3()).collect(), &dirs32, true);
        // Random points: triangles only, each its own face.
        let cloud: Vec<DVec3> = (0..40)
            .map(|_| DVec3::new(lcg(&mut state), lcg(&mut state), lcg(&mut state)))
            .collect();
        check_planar(cloud, &dirs, true);
    }

    /// A small polygon's edge read from its outline is the hull's face feature: the same
    /// vertices, ids, normal and face id (the manifold's ids depend on it), along random
    /// directions and along each edge's own normal and its neighbours' bisectors (ties).
    #[test]
    fn a_polygon_edge_from_the_outline_is_the_hulls_face() {
        let mut state = 11;
        for count in [3usize, 5, 8, 31] {
            let points: Vec<DVec2> =
                (0..count * 2).map(|_| DVec2::new(lcg(&mut state), lcg(&mut state))).collect();
            let polygon = Polytope::new(points).unwrap();
            assert!(polygon.outline.polygon().is_some(), "{count} points");
            let normals = polygon.hull().normals().to_vec();
            let mut dirs: Vec<DVec2> =
                (0..200).map(|_| DVec2::new(lcg(&mut state), lcg(&mut state))).collect();
            dirs.extend(normals.iter().copied());
            dirs.extend(normals.windows(2).map(|w| w[0] + w[1]));
            for dir in dirs {
                let from_hull = Some(hull_feature(
                    polygon.hull(),
                    &polygon.planar,
                    &polygon.normal_lanes,
                    dir,
                    no_face,
                ));
                assert_eq!(polygon.outline.feature(dir), from_hull, "dir {dir:?}");
            }
        }
    }

    /// The face [`Polytope::feature`] gathers straight into the feature, against brute force
    /// along random directions: the normal is the most aligned triangle's (a plain scan), each
    /// vertex is the hull vertex its id names, and the ids are the hull's vertices on that
    /// plane, in order around it (each turn counter-clockwise about the normal).
    #[test]
    fn a_hull_face_feature_is_its_plane_s_vertices_in_order() {
        let mut state = 23;
        for (count, boxy) in [(12usize, false), (32, false), (60, false), (8, true)] {
            let points: Vec<DVec3> = (0..count)
                .map(|i| {
                    let p = DVec3::new(lcg(&mut state), lcg(&mut state), lcg(&mut state));
                    if boxy {
                        let s = |b: usize| if i >> b & 1 == 1 { 1.0 } else { -1.0 };
                        DVec3::new(2.0 * s(0), s(1), 0.5 * s(2))
                    } else {
                        p
                    }
                })
                .collect();
            let polytope = Polytope::new(points).unwrap();
            let hull = polytope.hull();
            for _ in 0..300 {
                let dir = DVec3::new(lcg(&mut state), lcg(&mut state), lcg(&mut state));
                let f = polytope.feature(dir);
                let best = (0..hull.normals().len()).fold(0, |b, i| {
                    if hull.normals()[i].dot(dir) > hull.normals()[b].dot(dir) {
                        i
                    } else {
                        b
                    }
                });
                assert_eq!(f.normal(), hull.normals()[best], "dir {dir:?}");
                for (v, &id) in f.vertices().iter().zip(f.ids()) {
                    assert_eq!(*v, hull.vertices()[id as usize]);
                }
                let first = f.vertices()[0];
                let mut on_plane: Vec<u32> = (0..hull.vertices().len() as u32)
                    .filter(|&i| {
                        (hull.vertices()[i as usize] - first).dot(f.normal()).abs() <= 1e-9
                    })
                    .collect();
                let mut ids = f.ids().to_vec();
                ids.sort_unstable();
                on_plane.sort_unstable();
                assert_eq!(ids, on_plane, "dir {dir:?}");
                let k = f.vertices().len();
                assert!(k >= 3);
                for i in 0..k {
                    let (p, q, r) =
                        (f.vertices()[i], f.vertices()[(i + 1) % k], f.vertices()[(i + 2) % k]);
                    assert!((q - p).cross(r - q).dot(f.normal()) > 0.0, "dir {dir:?}");
                }
            }
        }
    }

    #[test]
    fn ties_go_to_the_first_input_point_as_in_the_tutorials() {
        // Along +x the corners (1, 1) and (1, −1) tie; whichever was given first wins.
        let (top, bottom) = (DVec2::new(1.0, 1.0), DVec2::new(1.0, -1.0));
        for (first, second) in [(top, bottom), (bottom, top)] {
            let square = Polytope::new(vec![DVec2::new(-1.0, 0.5), first, second, -top]).unwrap();
            assert_eq!(square.support(DVec2::X), first);
            assert_eq!(square.support_hinted(DVec2::X, &mut 0), first);
        }
    }
}
