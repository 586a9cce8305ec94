//! A shape's supporting feature along a direction: the face, edge or vertex that a contact
//! manifold clips ([`crate::manifold`]).
//!
//! One trait method, [`Support::feature`](super::Support::feature), answers it. Its default
//! derives the feature from the shape's [`Core`], so every shape that already tells its core
//! (boxes, small polygons, segments, capsules, points, balls, and the rounded and posed
//! versions of them) has its faces for free; a general core answers its support point alone
//! (a curved shape touches at one point). Shapes whose faces the core cannot tell (3D hulls,
//! cylinders, triangles) override the method.
//!
//! Feature ids: every vertex carries an id that names it on its shape, the same from frame to
//! frame (a box corner's id is its octant, a hull vertex its index), and the feature carries
//! the id of its face (a box face `2 axis + (side > 0)`, a polygon edge its index). The
//! manifold combines them into the ids of its points.

use super::cores::Core;
use crate::geometry::{cross, unit};
use crate::math::{Real, Vector};

/// The most vertices a [`Feature`] holds. Larger faces (big coplanar hull faces) are given by
/// one of their triangles.
pub const FEATURE_CAPACITY: usize = 16;

/// A shape's supporting feature along a direction, in the shape's local frame: a face (a
/// convex polygon of at least three vertices, 3D), an edge (two vertices: a 2D polygon's edge,
/// or a segment), or a single vertex (a corner, or the touching point of a curved surface).
///
/// Fixed storage of [`FEATURE_CAPACITY`] vertices: no allocation.
///
/// ```
/// use gjk::{Cuboid, Support};
/// use glam::DVec3;
/// let top = Cuboid::new(DVec3::new(1.0, 2.0, 3.0))?.feature(DVec3::new(0.1, 0.2, 1.0));
/// assert_eq!(top.vertices().len(), 4);
/// assert!(top.vertices().iter().all(|v| v.z == 3.0));
/// assert_eq!(top.normal(), DVec3::Z);
/// # Ok::<(), gjk::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Feature<V: Vector> {
    vertices: [V; FEATURE_CAPACITY],
    ids: [u32; FEATURE_CAPACITY],
    len: usize,
    normal: V,
    id: u32,
}

impl<V: Vector> Feature<V> {
    /// The single vertex `p` with id `id` (no face normal).
    #[inline]
    pub fn point(p: V, id: u32) -> Self {
        let mut f = Self::empty(id);
        f.push(p, id);
        f
    }

    /// The segment `a b` (vertex ids `ids`, feature id `id`). In 2D a segment is a face: its
    /// normal is the perpendicular on the side of `dir`; in 3D it has none. A segment of
    /// zero length is the point `a`.
    #[inline]
    pub fn segment(a: V, b: V, ids: [u32; 2], id: u32, dir: V) -> Self {
        if a == b {
            return Self::point(a, ids[0]);
        }
        let mut f = Self::empty(id);
        f.push(a, ids[0]);
        f.push(b, ids[1]);
        if V::DIM == 2 {
            let perp = V::from_components([
                a.component(1) - b.component(1),
                b.component(0) - a.component(0),
                V::Real::ZERO,
            ]);
            let perp = if perp.dot(dir) < V::Real::ZERO { -perp } else { perp };
            f.normal = unit(perp).unwrap_or(V::ZERO);
        }
        f
    }

    /// The edge `a b` of a 2D polygon (vertex ids `ids`, feature id `id`) with its outward
    /// unit `normal`, known already: no perpendicular to compute.
    #[inline]
    pub(crate) fn edge([a, b]: [V; 2], ids: [u32; 2], normal: V, id: u32) -> Self {
        let mut f = Self::empty(id);
        f.push(a, ids[0]);
        f.push(b, ids[1]);
        f.normal = normal;
        f
    }

    /// The face with `vertices` (ids `ids`, in order around the face, either way), outward
    /// unit `normal` and id `id`. `None` when there are more than [`FEATURE_CAPACITY`]
    /// vertices, the two slices differ in length, or there are fewer than two.
    pub fn face(vertices: &[V], ids: &[u32], normal: V, id: u32) -> Option<Self> {
        let n = vertices.len();
        if n > FEATURE_CAPACITY || ids.len() != n || n < 2 {
            return None;
        }
        let mut f = Self::empty(id);
        for (&v, &i) in vertices.iter().zip(ids) {
            f.push(v, i);
        }
        f.normal = normal;
        Some(f)
    }

    /// The face whose vertices are `all[i]` for `i` in `indices` (their ids), with outward
    /// unit `normal` and id `id`: [`Feature::face`] of the gathered vertices, written straight
    /// into the feature (no buffer to gather them in first, no `Option` to copy it out of).
    /// Where [`Feature::face`] answers `None`, or an index is out of range: the single vertex
    /// `fallback()` (id 0).
    #[inline(always)]
    pub(crate) fn gathered_or(
        all: &[V],
        indices: &[u32],
        normal: V,
        id: u32,
        fallback: impl FnOnce() -> V,
    ) -> Self {
        let n = indices.len();
        if !(2..=FEATURE_CAPACITY).contains(&n) || indices.iter().any(|&i| i as usize >= all.len())
        {
            return Self::point(fallback(), 0);
        }
        let mut f = Self::empty(id);
        for (k, &i) in indices.iter().enumerate() {
            f.vertices[k] = all[i as usize];
            f.ids[k] = i;
        }
        f.len = n;
        f.normal = normal;
        f
    }

    /// No vertices yet.
    #[inline]
    fn empty(id: u32) -> Self {
        Self {
            vertices: [V::ZERO; FEATURE_CAPACITY],
            ids: [0; FEATURE_CAPACITY],
            len: 0,
            normal: V::ZERO,
            id,
        }
    }

    /// Appends a vertex (callers stay within the capacity).
    #[inline]
    fn push(&mut self, p: V, id: u32) {
        self.vertices[self.len] = p;
        self.ids[self.len] = id;
        self.len += 1;
    }

    /// The vertices, in order around the face.
    #[inline]
    pub fn vertices(&self) -> &[V] {
        &self.vertices[..self.len]
    }

    /// Each vertex's id on its shape.
    #[inline]
    pub fn ids(&self) -> &[u32] {
        &self.ids[..self.len]
    }

    /// The id of the feature on its shape (a face's index, a box face `2 axis + (side > 0)`).
    #[inline]
    pub fn id(&self) -> u32 {
        self.id
    }

    /// The face's outward unit normal, or zero for a feature that is not a face (a point; a
    /// segment in 3D).
    #[inline]
    pub fn normal(&self) -> V {
        self.normal
    }

    /// Whether the feature is a face: a 2D edge, or a 3D polygon (its normal is not zero).
    #[inline]
    pub fn is_face(&self) -> bool {
        self.normal != V::ZERO
    }

    /// The feature moved by `place` (points) and `turn` (directions): a pose.
    #[inline]
    pub fn mapped(mut self, place: impl Fn(V) -> V, turn: impl Fn(V) -> V) -> Self {
        for v in &mut self.vertices[..self.len] {
            *v = place(*v);
        }
        self.normal = turn(self.normal);
        self
    }

    /// [`Feature::mapped`] in place: no copy of the vertex storage.
    #[inline]
    pub(crate) fn map(&mut self, place: impl Fn(V) -> V, turn: impl Fn(V) -> V) {
        for v in &mut self.vertices[..self.len] {
            *v = place(*v);
        }
        self.normal = turn(self.normal);
    }

    /// [`Feature::of_core`], or the single vertex `fallback()` (id 0) for a core that has no
    /// feature: the default [`Support::feature`](super::Support::feature). Each arm returns
    /// its feature directly, without the copy out of an `Option`.
    #[inline]
    pub(crate) fn of_core_or(core: Core<'_, V>, dir: V, fallback: impl FnOnce() -> V) -> Self {
        match core {
            Core::Point(p) => Self::point(p, 0),
            Core::Segment([a, b]) => Self::segment(a, b, [0, 1], 0, dir),
            Core::Box(h) => box_face(h, dir),
            Core::Polygon(p) if p.vertices.len() >= 2 && p.normals.len() == p.vertices.len() => {
                polygon_edge(p.vertices, p.normals, dir)
            }
            _ => Self::point(fallback(), 0),
        }
    }

    /// The feature of a core along `dir`, or `None` for [`Core::General`] (the caller then
    /// takes its support point).
    ///
    /// * a point: itself;
    /// * a segment: the whole segment (the manifold drops an end that is too far away);
    /// * a box: the face whose axis has the largest `|dirᵢ|` (ties: the first axis);
    /// * a 2D polygon: the edge whose normal has the largest dot product with `dir`.
    pub fn of_core(core: Core<'_, V>, dir: V) -> Option<Self> {
        match core {
            Core::Point(p) => Some(Self::point(p, 0)),
            Core::Segment([a, b]) => Some(Self::segment(a, b, [0, 1], 0, dir)),
            Core::Box(h) => Some(box_face(h, dir)),
            Core::Polygon(p) if p.vertices.len() >= 2 && p.normals.len() == p.vertices.len() => {
                Some(polygon_edge(p.vertices, p.normals, dir))
            }
            _ => None,
        }
    }
}

/// The edge of a polygon (`vertices`, at least two, and one normal each) whose normal has the
/// largest dot product with `dir`.
#[inline]
fn polygon_edge<V: Vector>(vertices: &[V], normals: &[V], dir: V) -> Feature<V> {
    let i = crate::geometry::argmax_dot(normals, dir);
    let j = if i + 1 == vertices.len() { 0 } else { i + 1 };
    let (a, b, ids) = (vertices[i], vertices[j], [i as u32, j as u32]);
    let mut f = if a == b {
        Feature::point(a, ids[0])
    } else {
        Feature::edge([a, b], ids, normals[i], i as u32)
    };
    f.normal = normals[i];
    f
}

/// The face of the box `[−h, h]` most aligned with `dir`. Corner ids are octants (bit `i` set
/// when coordinate `i` is positive); the face id is `2 axis + (side > 0)`.
fn box_face<V: Vector>(h: V, dir: V) -> Feature<V> {
    let mut axis = 0;
    for i in 1..V::DIM {
        if dir.component(i).abs() > dir.component(axis).abs() {
            axis = i;
        }
    }
    let positive = dir.component(axis) >= V::Real::ZERO;
    let side = if positive { V::Real::ONE } else { -V::Real::ONE };
    let mut f = Feature::empty(2 * axis as u32 + positive as u32);
    f.normal = V::axis(axis) * side;
    // The other axes' sign patterns, in order around the face: (+, +), (−, +), (−, −), (+, −)
    // in 3D, (+), (−) in 2D. Each corner is placed by a match on the axis, not through an
    // array indexed at run time.
    let (j, k) = ((axis + 1) % V::DIM, (axis + 2) % V::DIM);
    let (along, hj, hk) = (side * h.component(axis), h.component(j), h.component(k));
    let bit = (positive as u32) << axis;
    let zero = V::Real::ZERO;
    let place = |x: V::Real, y: V::Real, z: V::Real| match (V::DIM, axis) {
        (2, 0) => V::from_components([x, y, zero]),
        (2, _) => V::from_components([y, x, zero]),
        (_, 0) => V::from_components([x, y, z]),
        (_, 1) => V::from_components([z, x, y]),
        _ => V::from_components([y, z, x]),
    };
    if V::DIM == 2 {
        f.push(place(along, hj, zero), bit | 1 << j);
        f.push(place(along, -hj, zero), bit);
    } else {
        let (bj, bk) = (1 << j, 1 << k);
        f.push(place(along, hj, hk), bit | bj | bk);
        f.push(place(along, -hj, hk), bit | bk);
        f.push(place(along, -hj, -hk), bit);
        f.push(place(along, hj, -hk), bit | bj);
    }
    f
}

/// The outward normal of the plane through the face `vertices` (Newell's method: the sum of
/// the edges' cross products, robust to nearly collinear corners), oriented along `dir`.
pub(crate) fn polygon_normal<V: Vector>(vertices: &[V], dir: V) -> Option<V> {
    let mut sum = V::ZERO;
    let first = *vertices.first()?;
    for w in vertices.windows(2) {
        sum = sum + cross(w[0] - first, w[1] - first);
    }
    let n = unit(sum)?;
    Some(if n.dot(dir) < V::Real::ZERO { -n } else { n })
}
