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
    center: V,
    /// The largest distance of a vertex from `center`.
    extent: V::Real,
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
        Ok(Self { hull, scan_order, scan_lanes, outline, center, extent })
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
    fn feature(&self, dir: V) -> Feature<V> {
        hull_feature(&self.hull, dir).unwrap_or_else(|| Feature::point(self.support(dir), 0))
    }
}

/// See [`Polytope::feature`](Support::feature).
fn hull_feature<V: Vector>(hull: &Hull<V>, dir: V) -> Option<Feature<V>> {
    let vertices = hull.vertices();
    if hull.faces().len() == 0 {
        return match *vertices {
            [a, b] => Some(Feature::segment(a, b, [0, 1], 0, dir)),
            _ => None,
        };
    }
    // Scan the normals alone (contiguous); faces are read only where they are needed.
    let normals = hull.normals();
    let mut best = (0, -V::Real::INFINITY);
    for (f, normal) in normals.iter().enumerate() {
        let along = normal.dot(dir);
        if along > best.1 {
            best = (f, along);
        }
    }
    let face = hull.face(best.0);
    if V::DIM == 2 || hull.dimension() < 3 {
        return face_feature(vertices, face.vertices, face.normal, best.0 as u32);
    }
    // Merge the triangles of the same plane: normals within rounding, offsets within the
    // hull's own tolerance.
    let (mut ids, mut n, mut id) = ([0u32; FEATURE_CAPACITY], 0, best.0);
    let parallel = V::Real::ONE - V::Real::from_f64(1e-6);
    let tolerance = hull.tolerance() * V::Real::TWO;
    for (g, normal) in normals.iter().enumerate() {
        if normal.dot(face.normal) < parallel {
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
                return face_feature(vertices, face.vertices, face.normal, best.0 as u32);
            }
            ids[n] = v;
            n += 1;
        }
    }
    sort_around(&mut ids[..n], vertices, face.normal);
    face_feature(vertices, &ids[..n], face.normal, id as u32)
}

/// The face of hull vertices `indices` as a [`Feature`].
fn face_feature<V: Vector>(
    vertices: &[V],
    indices: &[u32],
    normal: V,
    id: u32,
) -> Option<Feature<V>> {
    let mut points = [V::ZERO; FEATURE_CAPACITY];
    for (p, &i) in points.iter_mut().zip(indices) {
        *p = *vertices.get(i as usize)?;
    }
    Feature::face(&points[..indices.len().min(FEATURE_CAPACITY)], indices, normal, id)
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
    for k in 1..indices.len() {
        let mut j = k;
        while j > 0 && key(indices[j - 1]) > key(indices[j]) {
            indices.swap(j - 1, j);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec2;

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
