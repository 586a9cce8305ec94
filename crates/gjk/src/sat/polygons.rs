//! Two convex polygons (2D): penetration by the separating-axis test, without GJK or EPA.
//!
//! The Minkowski sum of two convex polygons is bounded by the edges of both, merged by slope,
//! so every edge of `D = A − B` is parallel to an edge of A or of B: its outward normals are
//! A's edge normals `nᵢ` and B's negated edge normals `−mⱼ`. Along A's `nᵢ` the support value
//! of `D` is `cᵢ − min_b nᵢ·b` (`cᵢ` the offset of the edge's line): how far B's deepest vertex
//! lies below that line. The largest of the separations `min_b nᵢ·b − cᵢ` over A's edges, and
//! the same with the roles swapped, is then minus the exact penetration depth, or a separating
//! axis when positive (the scheme of Erin Catto's polygon collider in Box2D). The search stops
//! at the first separating edge: its separation bounds the distance from below, which is all
//! a contact or intersection query needs of polygons apart.
//!
//! The other polygon's deepest vertex turns with the reference edges' normals, so one walk
//! around it serves every edge (rotating calipers): `O(nA + nB)` dot products in all, a few
//! dozen for two octagons — a fraction of GJK's and EPA's support searches and simplex
//! updates, and exact.
//!
//! The witness points come from the features touching across the winning edge (the
//! *reference*; A's on ties within a few rounding units): the other polygon's deepest vertex
//! (the *incident* feature), or the edge it shares with an equally deep neighbour when the two
//! edges are parallel, clipped to the reference edge's slab; the centre of what is left is the
//! witness on the incident polygon, and its push by the depth along the normal the witness on
//! the reference edge.

use super::AxisTest;
use crate::geometry::cross_2d;
use crate::math::{Pose, Real, Vector};
use crate::shape::{Core, CorePolygon};

/// A 2D box `[−h, h]` or a triangle as a polygon: its corners counter-clockwise and its
/// edges' outward unit normals, so that a box or a triangle meets a polygon in the same test.
struct Corners<V> {
    vertices: [V; 4],
    normals: [V; 4],
    /// 4 for a box, 3 for a triangle.
    count: usize,
}

impl<V: Vector> Corners<V> {
    /// The box of half extents `h` (the first two components), corners from `(−hx, −hy)`.
    fn of_box(h: V) -> Self {
        let (x, y) = (h.component(0), h.component(1));
        let corner = |x, y| V::from_components([x, y, V::Real::ZERO]);
        Self {
            vertices: [corner(-x, -y), corner(x, -y), corner(x, y), corner(-x, y)],
            normals: [-V::axis(1), V::axis(0), V::axis(1), -V::axis(0)],
            count: 4,
        }
    }

    /// The triangle with these corners, turned counter-clockwise ([`ccw_triangle`]).
    fn of_triangle(corners: [V; 3]) -> Option<Self> {
        let [p, q, r] = ccw_triangle(corners)?;
        // The right-hand perpendicular of a counter-clockwise edge points out.
        let out = |x: V, y: V| {
            let e = y - x;
            crate::geometry::unit(V::from_components([
                e.component(1),
                -e.component(0),
                V::Real::ZERO,
            ]))
        };
        Some(Self {
            vertices: [p, q, r, r],
            normals: [out(p, q)?, out(q, r)?, out(r, p)?, V::ZERO],
            count: 3,
        })
    }

    /// The corners and normals as a core polygon.
    fn polygon(&self) -> CorePolygon<'_, V> {
        CorePolygon { vertices: &self.vertices[..self.count], normals: &self.normals[..self.count] }
    }
}

/// Runs `f` on two cores that are polygons, boxes or (2D) triangles (a box laid out as its
/// four corners, a triangle as its three, counter-clockwise); `None` for any other kind and
/// for triangles whose area is within rounding of zero. The dispatch table sends only those
/// kinds here. Not forced inline: inlined always, it saved two octagons' `intersects` 67
/// instructions a query in `f64` but cost their `distance` 91 in `f32` (the body lands in
/// `distance`'s fallback too; docs/benchmarks.md, "Stop 27 merged").
#[inline]
pub(crate) fn with_polygons<V: Vector, T>(
    a: &Core<'_, V>,
    b: &Core<'_, V>,
    f: impl FnOnce(&CorePolygon<'_, V>, &CorePolygon<'_, V>) -> T,
) -> Option<T> {
    let corners = |core: &Core<'_, V>| match core {
        Core::Box(h) => Some(Some(Corners::of_box(*h))),
        Core::Triangle(c) => Some(Corners::of_triangle(*c)),
        _ => None,
    };
    let (corners_a, corners_b) = (corners(a), corners(b));
    Some(f(&laid_out(a, &corners_a)?, &laid_out(b, &corners_b)?))
}

/// A triangle's corners counter-clockwise; `None` when its area is within rounding of zero
/// (collinear or repeated corners, where the sign of the area, hence the side each edge
/// faces, is not known): GJK takes those.
#[inline]
pub(super) fn ccw_triangle<V: Vector>([p, q, r]: [V; 3]) -> Option<[V; 3]> {
    let (u, v) = (q - p, r - p);
    let area = cross_2d(u, v);
    // The area's rounding is a few ε × |u| |v| ≤ ε (|u|² + |v|²); below 16 ε of that scale
    // its sign is not trusted.
    let scale = u.length_squared() + v.length_squared();
    // A NaN area fails the test too.
    let trusted = area.abs() > V::Real::from_f64(16.0) * V::Real::EPSILON * scale;
    trusted.then_some(if area > V::Real::ZERO { [p, q, r] } else { [p, r, q] })
}

/// Runs `f` on the vertices (counter-clockwise, each core's frame) of two cores that are
/// polygons, boxes or (2D) triangles, without the edge normals that [`with_polygons`] also
/// lays out: what the closest points need ([`super::polygon_closest`]). `None` as for
/// [`with_polygons`].
#[inline]
pub(crate) fn with_outlines<V: Vector, T>(
    a: &Core<'_, V>,
    b: &Core<'_, V>,
    f: impl FnOnce(&[V], &[V]) -> T,
) -> Option<T> {
    let corners = |core: &Core<'_, V>| -> Option<([V; 4], usize)> {
        match *core {
            Core::Box(h) => {
                let (x, y) = (h.component(0), h.component(1));
                let corner = |x, y| V::from_components([x, y, V::Real::ZERO]);
                Some(([corner(-x, -y), corner(x, -y), corner(x, y), corner(-x, y)], 4))
            }
            Core::Triangle(c) => {
                let [p, q, r] = ccw_triangle(c)?;
                Some(([p, q, r, r], 3))
            }
            _ => None,
        }
    };
    let (corners_a, corners_b) = (corners(a), corners(b));
    Some(f(outline(a, &corners_a)?, outline(b, &corners_b)?))
}

/// A polygon core's vertices, or a box's or triangle's laid-out `corners`.
#[inline(always)]
fn outline<'a, V: Vector>(
    core: &Core<'a, V>,
    corners: &'a Option<([V; 4], usize)>,
) -> Option<&'a [V]> {
    match (core, corners) {
        (Core::Polygon(p), _) => Some(p.vertices),
        (Core::Box(_) | Core::Triangle(_), Some((v, n))) => Some(&v[..*n]),
        _ => None,
    }
}

/// A polygon core as it is, or a box's or triangle's `corners` (`Some(None)`: a triangle
/// declined).
#[inline(always)]
fn laid_out<'a, V: Vector>(
    core: &Core<'a, V>,
    corners: &'a Option<Option<Corners<V>>>,
) -> Option<CorePolygon<'a, V>> {
    match (core, corners) {
        (_, Some(c)) => Some(c.as_ref()?.polygon()),
        (Core::Polygon(p), None) => Some(*p),
        _ => None,
    }
}

/// The deepest penetration of one polygon across another's edges.
#[derive(Clone, Copy, Debug)]
struct Deepest<R> {
    /// The largest separation `min_v n·v − c` over the reference polygon's edges (minus the
    /// overlap along that edge's normal).
    separation: R,
    /// The reference edge achieving it.
    edge: usize,
    /// The incident polygon's deepest vertex across that edge.
    vertex: usize,
}

/// The largest separation of polygons A and B (B placed by `rel`, its frame to A's) over both
/// polygons' edge normals: positive when they are apart (a lower bound of their distance; the
/// scan stops at the first separating edge), minus the penetration depth otherwise. No
/// witnesses: what an intersection test needs.
pub(crate) fn polygon_separation<V: Vector>(
    a: &CorePolygon<'_, V>,
    b: &CorePolygon<'_, V>,
    rel: &Pose<V>,
) -> V::Real {
    let on_a = deepest(a, b, rel).separation;
    if on_a > V::Real::ZERO {
        return on_a;
    }
    on_a.max(deepest(b, a, &rel.inverse()).separation)
}

/// Polygon A (its frame) against polygon B placed by `rel` (B's frame to A's): a separating
/// axis, or the exact depth, normal and witness points. Results are in A's frame.
pub(crate) fn polygon_pair<V: Vector>(
    a: &CorePolygon<'_, V>,
    b: &CorePolygon<'_, V>,
    rel: &Pose<V>,
) -> AxisTest<V> {
    // A separating edge ends the search: its separation bounds the distance from below,
    // which is all the callers ask of polygons apart.
    let on_a = deepest(a, b, rel);
    if on_a.separation > V::Real::ZERO {
        return AxisTest::Apart { gap: on_a.separation };
    }
    let inverse = rel.inverse();
    let on_b = deepest(b, a, &inverse);
    if on_b.separation > V::Real::ZERO {
        return AxisTest::Apart { gap: on_b.separation };
    }
    let slop = V::Real::from_f64(8.0) * V::Real::EPSILON * size(a, b, rel);
    if on_a.separation >= on_b.separation - slop {
        let depth = -on_a.separation;
        let (on_reference, on_incident) = witnesses(a, b, rel, on_a, depth, slop);
        AxisTest::Overlap {
            depth,
            normal: a.normals[on_a.edge],
            point_a: on_reference,
            point_b: on_incident,
        }
    } else {
        // B's edge is the reference: work in B's frame, then bring the answer to A's. The
        // normal from A toward B is minus B's outward normal.
        let depth = -on_b.separation;
        let (on_reference, on_incident) = witnesses(b, a, &inverse, on_b, depth, slop);
        AxisTest::Overlap {
            depth,
            normal: -rel.transform_vector(b.normals[on_b.edge]),
            point_a: rel.transform_point(on_incident),
            point_b: rel.transform_point(on_reference),
        }
    }
}

/// The deepest penetration of `incident` (placed by `place`, its frame to the reference's)
/// across `reference`'s edges; the first edge on ties. Ends at the first positive separation
/// (a separating edge).
#[inline]
fn deepest<V: Vector>(
    reference: &CorePolygon<'_, V>,
    incident: &CorePolygon<'_, V>,
    place: &Pose<V>,
) -> Deepest<V::Real> {
    let t = place.translation();
    let mut best = Deepest { separation: -V::Real::INFINITY, edge: 0, vertex: 0 };
    let mut last = None;
    for (edge, (&n, &corner)) in reference.normals.iter().zip(reference.vertices).enumerate() {
        // `min_v n·(R v + t) − n·corner`, the minimum taken in the incident polygon's frame.
        let dir = place.inverse_transform_vector(n);
        let (low, vertex) = last
            .and_then(|from| descend(incident.vertices, dir, from))
            .unwrap_or_else(|| lowest(incident.vertices, dir));
        last = Some(vertex);
        let separation = low + n.dot(t - corner);
        if separation > best.separation {
            best = Deepest { separation, edge, vertex };
            if separation > V::Real::ZERO {
                break;
            }
        }
    }
    best
}

/// The smallest `dir · v` over `vertices`, walking forward (counter-clockwise) from `from`
/// while the next vertex is not higher; `None` when the vertex reached is not a local minimum
/// (its predecessor is lower), which rounding can cause — the caller then scans.
///
/// The reference edges' normals turn counter-clockwise, and so does the incident polygon's
/// lowest vertex along them (rotating calipers, Shamos 1978): each search starts where the
/// last one ended and only moves forward, so all of them together step around the incident
/// polygon about once instead of scanning it once per edge. Along a convex polygon `dir · v`
/// falls, then rises, so a vertex no lower than its neighbours is the minimum (of a side
/// parallel to the reference edge, its last end; equal values also walk over sides of no
/// length, a flat box's). On the way from the last minimum, an edge whose normal lies `φ` short
/// of `−dir` falls by `sin φ` per unit length, `φ` being at most the turn between the two
/// reference edges: after a needle corner (a turn of nearly half a turn) the first edges can be
/// flat enough for rounding to stop the walk at once, near the maximum, which the check of the
/// predecessor catches. At most one lap.
#[inline]
fn descend<V: Vector>(vertices: &[V], dir: V, from: usize) -> Option<(V::Real, usize)> {
    let count = vertices.len();
    let (mut low, mut at) = (dir.dot(vertices[from]), from);
    for _ in 1..count {
        let next = if at + 1 == count { 0 } else { at + 1 };
        let d = dir.dot(vertices[next]);
        if d > low {
            break;
        }
        (low, at) = (d, next);
    }
    let before = if at == 0 { count - 1 } else { at - 1 };
    (dir.dot(vertices[before]) >= low).then_some((low, at))
}

/// The smallest `dir · v` over `vertices` and its first index.
#[inline]
fn lowest<V: Vector>(vertices: &[V], dir: V) -> (V::Real, usize) {
    let mut best = (V::Real::INFINITY, 0);
    for (i, v) in vertices.iter().enumerate() {
        let d = dir.dot(*v);
        if d < best.0 {
            best = (d, i);
        }
    }
    best
}

/// The scale of rounding errors: the distance between the frames plus both polygons' reach.
fn size<V: Vector>(a: &CorePolygon<'_, V>, b: &CorePolygon<'_, V>, rel: &Pose<V>) -> V::Real {
    let reach =
        |p: &CorePolygon<'_, V>| p.vertices.iter().fold(V::Real::ZERO, |m, v| m.max(v.max_abs()));
    rel.translation().max_abs() + reach(a) + reach(b)
}

/// The witness points, in the reference polygon's frame, across `found.edge` of `reference`:
/// on the reference edge, and on `incident` (placed by `place`). Vertices of `incident` within
/// `slop` of the deepest one along the normal count as equally deep.
fn witnesses<V: Vector>(
    reference: &CorePolygon<'_, V>,
    incident: &CorePolygon<'_, V>,
    place: &Pose<V>,
    found: Deepest<V::Real>,
    depth: V::Real,
    slop: V::Real,
) -> (V, V) {
    let n = reference.normals[found.edge];
    let count = incident.vertices.len();
    let at = |k: usize| place.transform_point(incident.vertices[k % count]);
    let deepest = at(found.vertex);
    let (next, previous) = (at(found.vertex + 1), at(found.vertex + count - 1));
    let feature = if n.dot(next - deepest) <= slop {
        Some((deepest, next))
    } else if n.dot(previous - deepest) <= slop {
        Some((previous, deepest))
    } else {
        None
    };
    let edge = reference_edge(reference, found.edge);
    let on_incident = feature.and_then(|(e0, e1)| clipped_centre(e0, e1, edge)).unwrap_or(deepest);
    (on_incident + n * depth, on_incident)
}

/// Edge `i`'s ends.
fn reference_edge<V: Vector>(polygon: &CorePolygon<'_, V>, i: usize) -> (V, V) {
    let next = if i + 1 == polygon.vertices.len() { 0 } else { i + 1 };
    (polygon.vertices[i], polygon.vertices[next])
}

/// The centre of the part of segment `e0 e1` inside the slab of the reference edge `(p, q)`
/// (between the lines through `p` and `q` perpendicular to it), or `None` when none is.
fn clipped_centre<V: Vector>(e0: V, e1: V, (p, q): (V, V)) -> Option<V> {
    let u = q - p;
    let length2 = u.length_squared();
    if !length2.is_positive() {
        return None; // a flat box's zero-length side
    }
    let (t0, t1) = (u.dot(e0 - p) / length2, u.dot(e1 - p) / length2);
    let low = t0.min(t1).max(V::Real::ZERO);
    let high = t0.max(t1).min(V::Real::ONE);
    if low > high || t0 == t1 || !low.is_finite() || !high.is_finite() {
        return None;
    }
    let middle = (low + high) * V::Real::from_f64(0.5);
    Some(e0 + (e1 - e0) * ((middle - t0) / (t1 - t0)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec2;

    #[test]
    fn a_walk_that_stops_short_of_the_minimum_is_refused() {
        let square = [
            DVec2::new(-1.0, -1.0),
            DVec2::new(1.0, -1.0),
            DVec2::new(1.0, 1.0),
            DVec2::new(-1.0, 1.0),
        ];
        let dir = DVec2::new(1.0, 1e-4);
        // From the maximum the walk goes down the far side to the minimum, corner 0 …
        assert_eq!(descend(&square, dir, 2), Some((-1.0001, 0)));
        assert_eq!(descend(&square, dir, 3), Some((-1.0001, 0)));
        // … but from corner 1, on the rising side, it stops at once: not a minimum.
        assert_eq!(descend(&square, dir, 1), None);
        assert_eq!(lowest(&square, dir), (-1.0001, 0));
    }
}
