use alloc::vec::Vec;

use super::lanes::Lanes;
use super::outline::Outline;
use super::{check_point, farthest_from, Core, CorePolytope, Support};
use crate::error::ShapeError;
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
