//! Contact manifolds: the patch where two shapes touch, as up to 2 points (2D) or 4 (3D) under
//! one normal, each with a feature id that a solver can warm-start its impulses by.
//!
//! ```
//! use gjk::{manifold, Cuboid, ManifoldOptions, ManifoldStatus, Pose};
//! use glam::DVec3;
//! let table = Cuboid::new(DVec3::new(2.0, 0.5, 2.0))?;
//! let crate_box = Cuboid::new(DVec3::splat(0.5))?;
//! // The crate rests on the table, sunk 0.01 into it.
//! let on_top = Pose::from_translation(DVec3::new(0.3, 0.99, -0.2))?;
//! let m = manifold(&table, &Pose::IDENTITY, &crate_box, &on_top, &ManifoldOptions::default());
//! assert_eq!(m.status, ManifoldStatus::Clipped { reference_is_a: true });
//! assert_eq!(m.points().len(), 4); // the crate's four bottom corners
//! assert!((m.normal - DVec3::Y).length() < 1e-12);
//! for p in m.points() {
//!     assert!((p.depth - 0.01).abs() < 1e-12);
//!     assert!((p.point_a.y - 0.5).abs() < 1e-12); // on the table's top
//! }
//! # Ok::<(), gjk::ShapeError>(())
//! ```
//!
//! # How
//! 1. **One contact query** ([`contact_with`](crate::contact_with)): its normal `n` (box SAT,
//!    polygon SAT, GJK or EPA, by the [dispatch table](crate::dispatch)) decides everything
//!    after; no second collision query runs. Apart beyond the prediction distance: no points.
//!    [`Pair::manifold_with`] warm-starts it from the caller's [`WarmStart`] (a pair followed
//!    from frame to frame); [`manifold()`] starts it cold.
//! 2. **Features**: A's supporting feature along `n` and B's along `−n`
//!    ([`Support::feature`]), both in A's frame. Either one a single point (a ball, a curved
//!    surface, a corner): the contact's own point is the manifold ([`ManifoldStatus::SinglePoint`]).
//! 3. **Reference and incident**: a *face* (a 2D edge, a 3D polygon) beats a feature that is
//!    not one (a 3D segment). Between two faces, Box2D's rule: the reference is the face whose
//!    plane separates the cores more (the better axis of the separating-axis test, measured
//!    with one support call of the other shape), A unless B's is better by `1e-4` of the pair's
//!    size — a hair that keeps faces equal up to rounding (two boxes stacked face to face) from
//!    swapping, and the ids with them, from frame to frame. Between two segments (capsules), the
//!    one more square to `n`. The reference must lie along the normal
//!    ([`ManifoldOptions::min_alignment`]) and separate nearly as well as the contact's normal
//!    (within two hairs): otherwise (edge against edge in 3D, or a face that is close in angle
//!    to an edge–edge normal but overlaps more along its own) no face carries the contact, and
//!    the contact's point is the manifold ([`ManifoldStatus::Tilted`]). The incident feature is
//!    the other shape's feature along minus the reference face's normal.
//! 4. **Clipping**: the incident feature is clipped by the reference's side planes (each
//!    edge of a reference polygon, with the normal `edge × face normal`; the two end planes of
//!    a reference edge or segment): Sutherland–Hodgman for a polygon, the two-parameter
//!    clip for a segment, a containment test for a point. A point within a small tolerance of
//!    a side plane (relative to the pair's size) counts as inside, so that a vertex lying on the
//!    plane (a box exactly the size of the one under it) keeps its id.
//! 5. **Depth and points**: each clipped point `q` (on the incident core) is measured from the
//!    reference: a face's plane (`s = (q − r₀)·m`, the point on the reference is `q − s m`), a
//!    segment's nearest point (`s` = the distance, signed by `m`). With the margins `ra + rb`
//!    (balls, capsules, rounded shapes: the core's patch pushed out by the radii) the depth is
//!    `ra + rb − s`; points with `−depth >` the prediction distance are dropped. The
//!    manifold's normal is the reference face's normal, turned to point from A to B
//!    (`point_a − point_b = depth × normal` for every point of a face's patch), or the
//!    contact's normal when the reference is a segment (a capsule's points are then each
//!    measured along its own direction from the segment, which may differ from the normal by
//!    a little: 1.8e-3 of the size was seen). Nothing left: the contact's point
//!    ([`ManifoldStatus::Degenerate`]).
//!
//!    **Two boxes (3D)** take steps 2 to 5 in closed form: the box separating-axis test
//!    already holds every face's separation (its overlap along the face axes), so the
//!    reference rule and the tests above are comparisons of its numbers; the incident face is
//!    clipped in the reference box's frame, where the side planes are coordinates (a slab
//!    clip). The choices, ids and points are the general path's (a unit test checks it on
//!    thousands of random pairs); a choice within rounding of its threshold, or a flat
//!    reference face, goes to the general path.
//! 6. **Reduction** (more than 4 points in 3D, more than 2 in 2D, which clipping an edge
//!    cannot give): the deepest point; the point farthest from it; the point spanning the
//!    largest triangle with those two (areas measured about the normal); the point that adds
//!    the most area to that triangle (the largest area outside one of its edges). The deepest
//!    point keeps the solver's main support; the others span the patch, so a box stays stable
//!    on it. Ties go to the first point in clipping order, so the choice is deterministic.
//!
//! # Feature ids
//! A point's [`ContactId`] names a feature of A and one of B, each a `u32` whose top two bits
//! tell the kind ([`FEATURE_VERTEX`], [`FEATURE_EDGE`], [`FEATURE_FACE`]) and whose rest is
//! the index the shape's [`Feature`] gave (a vertex's id, a face's id, or for an edge
//! `face id × 256 + k`, edge `k` of that face). An incident vertex inside the reference face
//! is (reference face, incident vertex); an incident edge cut by a reference side is
//! (reference side, incident edge); a corner of the reference face inside the incident one is
//! (reference vertex, incident face); a single point is (A's feature, B's feature). Ids say
//! A's feature first whichever shape is the reference. Small motions keep the features and
//! the reference, hence the ids.
//!
//! # Faces of the shapes
//! One trait method, [`Support::feature`], with a default derived from [`Support::core`]:
//! boxes (faces), 2D polygons (edges), segments and capsules (the segment), points and balls
//! (a point) need nothing more; 3D hulls (their triangles merged by plane), cylinders (a cap as
//! an inscribed octagon, [`crate::shape::CAP_CORNERS`], or a side segment), cones (the base
//! octagon or a side segment) and triangles override it. Other curved shapes (ellipsoids,
//! Minkowski sums) answer their support
//! point: one contact point. Adding faces to a shape is that one method.

use crate::contact::{Contact, ContactOptions, ContactStatus};
use crate::dispatch::{Kernel, Query};
use crate::epa::{EpaOptions, EpaTermination};
use crate::geometry::{cross, unit};
use crate::gjk::{GjkOptions, Termination, WarmStart};
use crate::math::{Pose, Real, Vector};
use crate::pair::Pair;
use crate::sat::{box_axes, BoxAxes};
use crate::shape::{closest_on_segment, Feature, Support, FEATURE_CAPACITY};
use crate::tolerance::effective;

/// The kind bits of a vertex's feature id (see [`ContactId`]).
pub const FEATURE_VERTEX: u32 = 0;
/// The kind bits of an edge's feature id.
pub const FEATURE_EDGE: u32 = 1 << 30;
/// The kind bits of a face's feature id.
pub const FEATURE_FACE: u32 = 2 << 30;
/// How much better (a fraction of the pair's size) B's face must separate than A's to be the
/// reference: a hair, so that faces equally good by rounding do not swap from frame to frame.
const SWITCH: f64 = 1e-4;
/// The index bits of a feature id.
const INDEX: u32 = (1 << 30) - 1;

/// The most points of a manifold: 2 in 2D, 4 in 3D.
pub const MAX_MANIFOLD_POINTS: usize = 4;

/// Which features of A and B made a manifold point (see the [module docs](self)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ContactId {
    /// A's feature: kind bits ([`FEATURE_VERTEX`], [`FEATURE_EDGE`], [`FEATURE_FACE`]) and index.
    pub a: u32,
    /// B's feature.
    pub b: u32,
}

impl ContactId {
    /// Both ids in one number, A's in the high half: a key for a solver's cache.
    pub fn key(&self) -> u64 {
        (self.a as u64) << 32 | self.b as u64
    }
}

/// One point of a [`ManifoldResult`], world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ManifoldPoint<V: Vector> {
    /// The point on A's surface.
    pub point_a: V,
    /// The point on B's surface.
    pub point_b: V,
    /// `> 0`: penetration depth; `< 0`: a gap (speculative contact, within the prediction).
    pub depth: V::Real,
    /// Which features made the point, the same from frame to frame.
    pub id: ContactId,
}

/// How a manifold was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ManifoldStatus {
    /// The shapes are farther apart than the prediction distance: no points.
    Apart,
    /// The incident feature clipped against the reference face (A's or B's).
    Clipped {
        /// Whether A's feature was the reference.
        reference_is_a: bool,
    },
    /// A feature is a single point (a ball, a curved surface, a corner): the contact's point.
    SinglePoint,
    /// No face is aligned with the normal within [`ManifoldOptions::min_alignment`] (edge
    /// against edge): the contact's point.
    Tilted,
    /// Clipping kept no point (flat or rounding-level features): the contact's point.
    Degenerate,
}

/// Tuning of a manifold query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ManifoldOptions<R> {
    /// Report points up to this gap (speculative contacts, negative depth; `≥ 0`).
    pub prediction: R,
    /// The least cosine between the reference face's normal and the contact normal for the
    /// face to carry the patch (default `0.99`, about 8°); below it, one point.
    pub min_alignment: R,
    /// Options of the GJK runs of the contact query.
    pub gjk: GjkOptions<R>,
    /// Options of its expansion.
    pub epa: EpaOptions<R>,
}

impl<R: Real> Default for ManifoldOptions<R> {
    fn default() -> Self {
        Self {
            prediction: R::ZERO,
            min_alignment: R::from_f64(0.99),
            gjk: GjkOptions::default(),
            epa: EpaOptions::default(),
        }
    }
}

/// A contact manifold: one normal and up to [`MAX_MANIFOLD_POINTS`] points (2 in 2D),
/// stored without allocation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ManifoldResult<V: Vector> {
    /// The unit normal from A toward B (zero when [`ManifoldStatus::Apart`]).
    pub normal: V,
    /// How the points were found.
    pub status: ManifoldStatus,
    /// How the contact query that gave the normal ended (`None` when apart).
    pub contact_status: Option<ContactStatus>,
    points: [ManifoldPoint<V>; MAX_MANIFOLD_POINTS],
    /// A byte, not a `usize`: a collision world keeps one manifold per candidate pair, and a
    /// byte keeps the result's alignment that of `V`.
    len: u8,
}

impl<V: Vector> ManifoldResult<V> {
    /// The points (none when apart).
    pub fn points(&self) -> &[ManifoldPoint<V>] {
        &self.points[..usize::from(self.len)]
    }

    /// The deepest point (the first of equals; `None` when there are none): the contact's
    /// depth, up to the clipping's rounding.
    pub fn deepest(&self) -> Option<&ManifoldPoint<V>> {
        self.points().iter().reduce(|best, p| if p.depth > best.depth { p } else { best })
    }

    /// The greatest depth of the points (`None` when there are none).
    pub fn max_depth(&self) -> Option<V::Real> {
        self.points().iter().map(|p| p.depth).reduce(|a, b| a.max(b))
    }

    /// The answer for shapes farther apart than the prediction: no points, a zero normal.
    pub(crate) fn apart() -> Self {
        Self::empty(ManifoldStatus::Apart, None)
    }

    fn empty(status: ManifoldStatus, contact_status: Option<ContactStatus>) -> Self {
        let zero = ManifoldPoint {
            point_a: V::ZERO,
            point_b: V::ZERO,
            depth: V::Real::ZERO,
            id: ContactId::default(),
        };
        Self {
            normal: V::ZERO,
            status,
            contact_status,
            points: [zero; MAX_MANIFOLD_POINTS],
            len: 0,
        }
    }

    fn push(&mut self, p: ManifoldPoint<V>) {
        if usize::from(self.len) < MAX_MANIFOLD_POINTS {
            self.points[usize::from(self.len)] = p;
            self.len += 1;
        }
    }
}

/// The contact manifold of A and B (see the [module docs](self)): [`Pair::manifold_with`]
/// with a fresh warm-start cache.
pub fn manifold<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    options: &ManifoldOptions<V::Real>,
) -> ManifoldResult<V> {
    let mut scratch = None;
    Pair::new(a, *pose_a, b, *pose_b)
        .manifold_cached(options, || scratch.insert(WarmStart::scratch()))
}

impl<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized> Pair<'_, V, A, B> {
    /// The contact manifold of the pair (see the [module docs](self)), warm-started by the
    /// caller's cache: the one contact query behind the manifold
    /// ([`Pair::contact_with`]) reads `warm` and leaves its simplex and support hints there
    /// for the next frame, so a pair tracked from frame to frame (a collision world's) keeps
    /// converging in an iteration or two. The clipping after it needs no cache.
    ///
    /// ```
    /// use gjk::{Cuboid, ManifoldOptions, Pair, Pose, WarmStart};
    /// use glam::DVec3;
    /// let table = Cuboid::new(DVec3::new(2.0, 0.5, 2.0))?;
    /// let crate_box = Cuboid::new(DVec3::splat(0.5))?;
    /// let options = ManifoldOptions::default();
    /// let mut warm = WarmStart::default();
    /// // The crate slides along the table, sunk 0.01 into it; one cache for every frame.
    /// for frame in 0..3 {
    ///     let x = 0.1 * frame as f64;
    ///     let on_top = Pose::from_translation(DVec3::new(x, 0.99, 0.0))?;
    ///     let pair = Pair::new(&table, Pose::IDENTITY, &crate_box, on_top);
    ///     let m = pair.manifold_with(&options, &mut warm);
    ///     assert_eq!(m.points().len(), 4);
    ///     assert!((m.max_depth().unwrap() - 0.01).abs() < 1e-12);
    /// }
    /// # Ok::<(), gjk::ShapeError>(())
    /// ```
    pub fn manifold_with(
        &self,
        options: &ManifoldOptions<V::Real>,
        warm: &mut WarmStart<V>,
    ) -> ManifoldResult<V> {
        self.manifold_cached(options, || warm)
    }

    /// [`Pair::manifold_with`] with the cache made only when the query needs one (`cache`):
    /// box pairs in closed form never do, and a one-off query's cache need not be built
    /// for them.
    #[inline(always)]
    fn manifold_cached<'w>(
        &self,
        options: &ManifoldOptions<V::Real>,
        cache: impl FnOnce() -> &'w mut WarmStart<V>,
    ) -> ManifoldResult<V>
    where
        V: 'w,
    {
        let prediction =
            if options.prediction > V::Real::ZERO { options.prediction } else { V::Real::ZERO };
        if let Kernel::Boxes(half_a, half_b) = self.kernel(Query::Contact) {
            if let Some(m) = self.box_manifold(half_a, half_b, options, prediction) {
                return m;
            }
        }
        let contact_options = ContactOptions { prediction, gjk: options.gjk, epa: options.epa };
        let found = self.contact_with(&contact_options, cache());
        let Some(contact) = found.contact else {
            return ManifoldResult::apart();
        };
        clipped(self, &contact, || (contact.point_a, contact.point_b), options, prediction, true)
    }

    /// Two box cores: the contact query's own separating-axis test ([`Pair::contact_with`]
    /// takes the same path and gets the same normal and depth), without the witness points it
    /// would clip for and the manifold would throw away (they are computed only when the
    /// manifold falls back to one point), and without the edge axes when the faces already
    /// put the boxes out of reach. `None` when the boxes are apart but within reach (GJK
    /// decides, as in the contact query).
    #[inline]
    fn box_manifold(
        &self,
        half_a: V,
        half_b: V,
        options: &ManifoldOptions<V::Real>,
        prediction: V::Real,
    ) -> Option<ManifoldResult<V>> {
        let reach = prediction + self.margins() + self.tolerance(options.gjk.tolerance).distance();
        let axes = box_axes(half_a, half_b, self.relative_pose(), reach);
        if let Some(gap) = axes.gap() {
            return (gap > reach).then(ManifoldResult::apart);
        }
        let (depth, normal) = axes.overlap();
        if V::DIM == 3 {
            let found = self.box_faces(&axes, (depth, normal), half_a, half_b, options, prediction);
            if let Some(m) = found {
                return Some(m);
            }
        }
        let placeholder = V::ZERO;
        let contact = self.contact_of_cores(normal, placeholder, placeholder, depth);
        let witnesses = || {
            let (point_a, point_b) = axes.witnesses_along(depth, normal);
            let c = self.contact_of_cores(normal, point_a, point_b, depth);
            (c.point_a, c.point_b)
        };
        Some(clipped(self, &contact, witnesses, options, prediction, true))
    }
}

impl<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized> Pair<'_, V, A, B> {
    /// Steps 2 to 6 of the [module docs](self) for two overlapping 3D box cores, in closed
    /// form: the same choices as [`clipped`] (the same faces, reference, incident face, ids
    /// and points, up to rounding), read off the separating-axis test instead of computed
    /// again. The faces' separations are the test's overlaps along the face axes (no support
    /// calls); the reference face's side planes are its box's own axes, so the incident face
    /// is clipped in the reference box's frame by coordinates (a slab clip), and a box face's
    /// corners and ids are placed directly (ids are octants, as [`Support::feature`] gives
    /// them). `None` where a choice is within rounding of its threshold (the reference
    /// switch, the alignment, the separation test) or a side of the reference face has no
    /// length: the general path decides there, so both paths always agree.
    #[inline]
    fn box_faces(
        &self,
        axes: &BoxAxes<V>,
        (depth, n): (V::Real, V),
        half_a: V,
        half_b: V,
        options: &ManifoldOptions<V::Real>,
        prediction: V::Real,
    ) -> Option<ManifoldResult<V>> {
        let [over_a, over_b] = *axes.face_overlaps();
        let r = axes.rotation();
        let u = axes.axes_of_b();
        let rule = self.tolerance(options.gjk.tolerance);
        let size = rule.size();
        let hair = size * V::Real::from_f64(SWITCH);
        let slack = size * V::Real::EPSILON * V::Real::from_f64(64.0);
        // The two paths compute the faces' separations and cosines with different roundings:
        // a choice this close to its threshold goes to the general path.
        let band = slack;
        let cosine_band = slack_cosine::<V::Real>();
        // A's face along n and B's along −n: the axes most aligned (first of equals).
        let along_b = [n.dot(u[0]), n.dot(u[1]), n.dot(u[2])];
        let ia = most_aligned([n.component(0), n.component(1), n.component(2)]);
        let jb = most_aligned(along_b);
        let positive_a = n.component(ia) >= V::Real::ZERO;
        let positive_b = -along_b[jb] >= V::Real::ZERO;
        let face_a = 2 * ia as u32 + positive_a as u32;
        let face_b = 2 * jb as u32 + positive_b as u32;
        // Box2D's rule, as in `clipped`: B's face when it separates better by a hair.
        let switch = over_a[ia] - over_b[jb] - hair;
        if switch.abs() <= band || !switch.is_finite() {
            return None;
        }
        let reference_is_a = switch <= V::Real::ZERO;
        let (overlap, cosine) = if reference_is_a {
            (over_a[ia], n.component(ia).abs())
        } else {
            (over_b[jb], along_b[jb].abs())
        };
        // The face must lie along the normal and separate nearly as well as it does.
        let alignment = cosine - options.min_alignment;
        let separation = depth + hair + hair - overlap;
        if alignment.abs() <= cosine_band || separation.abs() <= band {
            return None;
        }
        let contact_status = Some(ContactStatus::Exact);
        if alignment < V::Real::ZERO || separation < V::Real::ZERO {
            let (point_a, point_b) = axes.witnesses_along(depth, n);
            let c = self.contact_of_cores(n, point_a, point_b, depth);
            let mut m = ManifoldResult::empty(ManifoldStatus::Tilted, contact_status);
            m.normal = c.normal;
            let id = ContactId { a: FEATURE_FACE | face_a, b: FEATURE_FACE | face_b };
            let (point_a, point_b, depth) = (c.point_a, c.point_b, c.depth);
            m.push(ManifoldPoint { point_a, point_b, depth, id });
            return Some(m);
        }
        let t = axes.centre_of_b();
        // The reference frame: the reference box's own, its axes taken in the order
        // `(j, k, axis)` (a cyclic turn: a rotation) where `axis` is the reference face's, so
        // that the side planes and the face's plane are fixed coordinates. The incident box's
        // axes and centre there, and its face facing the reference face (against the
        // reference face's normal).
        let (reference, incident) = if reference_is_a {
            let k = most_aligned(r[ia]);
            let outward = if positive_a { V::Real::ONE } else { -V::Real::ONE };
            let facing = -outward * r[ia][k] >= V::Real::ZERO;
            ((ia, positive_a, half_a), (k, facing, half_b))
        } else {
            let column = [r[0][jb], r[1][jb], r[2][jb]];
            let k = most_aligned(column);
            let outward = if positive_b { V::Real::ONE } else { -V::Real::ONE };
            let facing = -outward * column[k] >= V::Real::ZERO;
            ((jb, positive_b, half_b), (k, facing, half_a))
        };
        let (axis, positive, half) = reference;
        let (j, k) = ((axis + 1) % 3, (axis + 2) % 3);
        let (hj, hk, h) = (half.component(j), half.component(k), half.component(axis));
        if !(hj > V::Real::ZERO && hk > V::Real::ZERO) {
            return None;
        }
        let local = |c: [V::Real; 3]| [c[j], c[k], c[axis]];
        let frame = if reference_is_a {
            let coords = |v: V| local([v.component(0), v.component(1), v.component(2)]);
            BoxFrame { axes: [coords(u[0]), coords(u[1]), coords(u[2])], centre: coords(t) }
        } else {
            // A in B's frame: its axes are the rows of `r`, its centre `−Rᵀ t`.
            let axes = [0, 1, 2].map(|i| local(r[i]));
            BoxFrame { axes, centre: local([0, 1, 2].map(|j| -(t.dot(u[j])))) }
        };
        let mut polygon = frame.face::<V, SMALL_CLIP>(incident.0, incident.1, incident.2);
        let face = 2 * axis as u32 + positive as u32;
        let bit = (positive as u32) << axis;
        // Sides in the order of the reference face's edges (see `sides`): `x_k = hk`,
        // `x_j = −hj`, `x_k = −hk`, `x_j = hj` (local `y`, `x`, `y`, `x`); the corners after
        // each, in the order of `Support::feature`'s face.
        let corners = [bit | 1 << j | 1 << k, bit | 1 << k, bit, bit | 1 << j];
        clip_by(
            &mut polygon,
            FEATURE_FACE | face,
            4,
            |s, p| match s {
                0 => p.component(1) - hk - slack,
                1 => -p.component(0) - hj - slack,
                2 => -p.component(1) - hk - slack,
                _ => p.component(0) - hj - slack,
            },
            |s| FEATURE_EDGE | ((face << 8 | s as u32) & INDEX),
            |a, b| {
                if (a + 1) % 4 == b {
                    FEATURE_VERTEX | corners[b]
                } else if (b + 1) % 4 == a {
                    FEATURE_VERTEX | corners[a]
                } else {
                    FEATURE_FACE | face
                }
            },
        );
        // Measure from the reference plane `x_axis = ±h` (local `z`): separation and foot.
        let outward = if positive { V::Real::ONE } else { -V::Real::ONE };
        let margins = self.margins();
        let mut depths = [V::Real::ZERO; SMALL_CLIP];
        let mut count = 0;
        for q in 0..polygon.len {
            let v = polygon.vertices[q];
            let depth = margins - (outward * v.p.component(2) - h);
            if -depth <= prediction + slack {
                polygon.vertices[count] = v;
                depths[count] = depth;
                count += 1;
            }
        }
        if count == 0 {
            return None;
        }
        // The manifold's normal, A toward B, in the local frame.
        let m = V::axis(2) * outward;
        let normal = if reference_is_a { m } else { -m };
        let mut chosen = [0usize; MAX_MANIFOLD_POINTS];
        let kept = reduce(&polygon.vertices[..count], &depths[..count], normal, &mut chosen);
        let status = ManifoldStatus::Clipped { reference_is_a };
        let mut out = ManifoldResult::empty(status, contact_status);
        // Back from local coordinates to the reference box's, then to A's.
        let back = |p: V| {
            let mut c = [V::Real::ZERO; 3];
            (c[j], c[k], c[axis]) = (p.component(0), p.component(1), p.component(2));
            V::from_components(c)
        };
        // B's local axes in A's frame: a point of B's frame in A's is `t + Σ uᵢ xᵢ`, cheaper
        // than turning it by the pose's quaternion.
        let (uj, uk, ua) = (u[j], u[k], u[axis]);
        let to_a = |p: V| {
            if reference_is_a {
                back(p)
            } else {
                t + uj * p.component(0) + uk * p.component(1) + ua * p.component(2)
            }
        };
        let m_a = if reference_is_a { V::axis(axis) * outward } else { ua * outward };
        let normal_a = if reference_is_a { m_a } else { -m_a };
        let pose_a = &self.pose_a;
        out.normal = pose_a.transform_vector(normal_a);
        let (margin_a, margin_b) = (self.a.margin(), self.b.margin());
        for &i in &chosen[..kept] {
            let v = &polygon.vertices[i];
            let s = outward * v.p.component(2) - h;
            let (on_incident, on_reference) = (to_a(v.p), to_a(v.p - m * s));
            let (core_a, core_b, id) = if reference_is_a {
                (on_reference, on_incident, ContactId { a: v.reference, b: v.incident })
            } else {
                (on_incident, on_reference, ContactId { a: v.incident, b: v.reference })
            };
            out.push(ManifoldPoint {
                point_a: pose_a.transform_point(core_a + normal_a * margin_a),
                point_b: pose_a.transform_point(core_b - normal_a * margin_b),
                depth: depths[i],
                id,
            });
        }
        Some(out)
    }
}

/// The index of the largest `|c|` (the first of equals), as [`Support::feature`] picks a
/// box's face.
#[inline(always)]
fn most_aligned<R: Real>(c: [R; 3]) -> usize {
    let mut best = 0;
    for i in 1..3 {
        if c[i].abs() > c[best].abs() {
            best = i;
        }
    }
    best
}

/// A box seen from another box's frame (3D): its axes and centre there, as numbers.
struct BoxFrame<R> {
    axes: [[R; 3]; 3],
    centre: [R; 3],
}

impl<R: Real> BoxFrame<R> {
    /// The box's face along axis `k`, on the positive side or not, of half extents `half`,
    /// as the polygon to clip: corners and ids as [`Support::feature`] gives a box's face
    /// (`(+, +), (−, +), (−, −), (+, −)` in the two other axes; corner ids are octants).
    #[inline(always)]
    fn face<V: Vector<Real = R>, const N: usize>(
        &self,
        k: usize,
        positive: bool,
        half: V,
    ) -> Polygon<V, N> {
        let (j, l) = ((k + 1) % 3, (k + 2) % 3);
        let axis = |i: usize, scale: R| V::from_components(self.axes[i]) * scale;
        let side = if positive { half.component(k) } else { -half.component(k) };
        let centre = V::from_components(self.centre) + axis(k, side);
        let (wj, wl) = (axis(j, half.component(j)), axis(l, half.component(l)));
        let face = 2 * k as u32 + positive as u32;
        let bit = (positive as u32) << k;
        let (bj, bl) = (1 << j, 1 << l);
        let corners = [
            (centre + wj + wl, bit | bj | bl),
            (centre - wj + wl, bit | bl),
            (centre - wj - wl, bit),
            (centre + wj - wl, bit | bj),
        ];
        let blank = ClipVertex { p: V::ZERO, reference: 0, incident: 0, next: Along::Side(0) };
        let mut polygon =
            Polygon { vertices: [blank; N], len: 4, open: false, face: FEATURE_FACE | face };
        for (e, &(p, id)) in corners.iter().enumerate() {
            polygon.vertices[e] = ClipVertex {
                p,
                reference: 0,
                incident: FEATURE_VERTEX | id,
                next: Along::Incident(FEATURE_EDGE | ((face << 8 | e as u32) & INDEX)),
            };
        }
        polygon
    }
}

/// Steps 2 to 6 of the [module docs](self): the features along the contact's normal, clipped.
/// `contact`'s witness points are not read: `witnesses` gives them (world coordinates), called
/// only when the manifold is the contact's single point.
fn clipped<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    pair: &Pair<'_, V, A, B>,
    contact: &Contact<V>,
    witnesses: impl Fn() -> (V, V),
    options: &ManifoldOptions<V::Real>,
    prediction: V::Real,
    bound_gaps: bool,
) -> ManifoldResult<V> {
    let (a, b, pose_a) = (pair.a, pair.b, &pair.pose_a);
    let single = |status, fa: &Feature<V>, fb: &Feature<V>| {
        let mut m = ManifoldResult::empty(status, Some(contact.status));
        m.normal = contact.normal;
        let id = ContactId { a: whole(fa), b: whole(fb) };
        let (point_a, point_b) = witnesses();
        m.push(ManifoldPoint { point_a, point_b, depth: contact.depth, id });
        m
    };
    // A's frame from here on.
    let rel = *pair.relative_pose();
    let n = pose_a.inverse_transform_vector(contact.normal);
    let fa = a.feature(n);
    let mut fb = b.feature(rel.inverse_transform_vector(-n));
    fb.map(|p| rel.transform_point(p), |v| rel.transform_vector(v));
    if fa.vertices().len() < 2 || fb.vertices().len() < 2 {
        return single(ManifoldStatus::SinglePoint, &fa, &fb);
    }
    let rule = pair.tolerance(options.gjk.tolerance);
    let margins = a.margin() + b.margin();
    let slack = rule.size() * V::Real::EPSILON * V::Real::from_f64(64.0);
    let (ma, mb) = (face_normal(&fa, n), face_normal(&fb, -n));
    let (aligned_a, aligned_b) =
        (ma.dot(n) >= options.min_alignment, mb.dot(-n) >= options.min_alignment);
    let hair = rule.size() * V::Real::from_f64(SWITCH);
    // The face must also be (nearly) as good a separating axis as the contact's normal: a
    // face close in angle to an edge–edge normal can still overlap much more along its own.
    let core_gap = margins - contact.depth;
    let floor = core_gap - hair - hair;
    let separates = |gap: V::Real| gap >= floor;
    // Each face's gap (how far the other core lies beyond the face's plane) is measured with
    // one support call, and only where bounds that cost next to nothing do not decide the
    // rule (see `known_gap`); the decisions are those of the measured gaps.
    let support_b = |d: V| rel.transform_point(b.support(rel.inverse_transform_vector(d)));
    let gap_a = || (support_b(-ma) - fa.vertices()[0]).dot(ma);
    let gap_b = || (a.support(-mb) - fb.vertices()[0]).dot(mb);
    // An upper bound of a face's measured gap: the least over the other feature's vertices
    // (the gap is the least over all the other core's points), plus the rounding slack.
    let beyond = |face: &Feature<V>, other: &Feature<V>, m: V| {
        let r0 = face.vertices()[0];
        other.vertices().iter().fold(V::Real::INFINITY, |u, &v| u.min((v - r0).dot(m))) + slack
    };
    // Box2D's rule on measured gaps: the face whose plane separates the cores more (the better
    // axis of the separating-axis test), A unless B's is better by a hair of the pair's size.
    let by_gaps = |ga: V::Real, gb: V::Real| {
        if gb <= ga + hair {
            (aligned_a && separates(ga)).then_some(true)
        } else {
            (aligned_b && separates(gb)).then_some(false)
        }
    };
    let known = || {
        let accuracy = known_gap(pair, contact, options, margins, rule.size())? + slack;
        // A face along the contact's normal `d` (up to rounding: SAT and EPA normals are face
        // normals): its gap lies in `[core_gap − e, core_gap + accuracy]`, with `e` under a hair.
        let near = move |m: V, d: V| {
            let e = (m - d).length() * rule.size() + accuracy;
            (e + accuracy < hair).then_some(e)
        };
        Some((accuracy, near))
    };
    // Which face is the reference; `None` when none can carry the patch (it does not lie
    // along the normal, or separates the cores much less than the contact's normal does):
    // the manifold is then the contact's point, whichever the reference would have been.
    let choice = match (fa.is_face(), fb.is_face()) {
        (true, false) | (false, true) => {
            let (aligned, face, other, m, d, gap) = if fa.is_face() {
                (aligned_a, &fa, &fb, ma, n, &gap_a as &dyn Fn() -> V::Real)
            } else {
                (aligned_b, &fb, &fa, mb, -n, &gap_b as &dyn Fn() -> V::Real)
            };
            let separating = || match bound_gaps.then(known).flatten() {
                Some((_, near)) if near(m, d).is_some() => true,
                _ if bound_gaps && beyond(face, other, m) < floor => false,
                _ => separates(gap()),
            };
            (aligned && separating()).then_some(fa.is_face())
        }
        // Neither face lies along the normal: one point, whichever the reference.
        (true, true) if !aligned_a && !aligned_b => None,
        (true, true) if !bound_gaps => by_gaps(gap_a(), gap_b()),
        (true, true) => {
            let known = known();
            let near =
                |m: V, d: V| known.and_then(|(accuracy, near)| Some((near(m, d)?, accuracy)));
            if near(ma, n).is_some() {
                // A's face along the normal: no face separates more than it (within a hair),
                // so it is the reference, and it separates as well as the normal.
                aligned_a.then_some(true)
            } else if let Some((e, accuracy)) = near(mb, -n) {
                // B's face along the normal: the reference unless A's separates within a hair
                // of it, which the bound of A's gap mostly rules out.
                if beyond(&fa, &fb, ma) + hair < core_gap - e {
                    aligned_b.then_some(false)
                } else {
                    let ga = gap_a();
                    if core_gap + accuracy <= ga + hair {
                        (aligned_a && separates(ga)).then_some(true)
                    } else if core_gap - e > ga + hair {
                        aligned_b.then_some(false)
                    } else {
                        by_gaps(ga, gap_b())
                    }
                }
            } else {
                // Neither along the normal (an edge–edge contact): measured, unless no face
                // that lies along the normal within the alignment can separate as well as it.
                let hopeless = |aligned: bool, face: &Feature<V>, other: &Feature<V>, m: V| {
                    !aligned || beyond(face, other, m) < floor
                };
                if hopeless(aligned_a, &fa, &fb, ma) && hopeless(aligned_b, &fb, &fa, mb) {
                    None
                } else {
                    by_gaps(gap_a(), gap_b())
                }
            }
        }
        (false, false) => {
            let reference_is_a = mb.dot(-n) <= ma.dot(n) + slack;
            (if reference_is_a { aligned_a } else { aligned_b }).then_some(reference_is_a)
        }
    };
    let Some(reference_is_a) = choice else {
        return single(ManifoldStatus::Tilted, &fa, &fb);
    };
    let (reference, m) = if reference_is_a { (&fa, ma) } else { (&fb, mb) };
    // The incident feature faces the reference face: the other shape's feature along −m.
    // When the reference face lies along the normal (the usual case: SAT and EPA normals are
    // face normals) that is the feature already at hand.
    let square = V::Real::ONE - slack_cosine::<V::Real>();
    let turned;
    let incident = if !reference.is_face() || m.dot(if reference_is_a { n } else { -n }) >= square {
        if reference_is_a {
            &fb
        } else {
            &fa
        }
    } else {
        turned = if reference_is_a {
            let mut f = b.feature(rel.inverse_transform_vector(-m));
            f.map(|p| rel.transform_point(p), |v| rel.transform_vector(v));
            f
        } else {
            a.feature(-m)
        };
        &turned
    };
    // The manifold normal, A toward B, in A's frame.
    let normal = if reference.is_face() == reference_is_a { m } else { -m };
    let normal = if reference.is_face() { normal } else { n };
    let patch = Patch {
        incident,
        reference,
        m,
        normal,
        slack,
        margins,
        prediction,
        reference_is_a,
        margin_a: a.margin(),
        margin_b: b.margin(),
        pose_a,
        status: contact.status,
    };
    // Clipping a polygon of `i` vertices by `r` side planes leaves at most `i + r` vertices:
    // small buffers for small features (boxes: 4 + 4), the full ones otherwise.
    let found = if incident.vertices().len() + reference.vertices().len() <= SMALL_CLIP {
        patch.clip::<SMALL_CLIP>()
    } else {
        patch.clip::<{ 2 * FEATURE_CAPACITY }>()
    };
    found.unwrap_or_else(|| single(ManifoldStatus::Degenerate, &fa, &fb))
}

/// How far the gap of a face whose normal `m` is the contact's normal `n` up to rounding can
/// be from the contact's own gap `margins − depth`, beyond `|m − n| × size`; `None` when the
/// contact is not known to be that accurate.
///
/// The gap along a direction `d` (how far apart the cores are along it; minus their overlap)
/// is `−h(d)`, with `h` the support function of the cores' Minkowski difference. An accurate
/// contact's normal is the direction of the largest gap, and its gap is that largest gap,
/// within the query's tolerance: the separating-axis tests try every face normal and edge
/// pair, so their overlap is the least (`Exact`); a converged GJK run bounds the distance
/// from both sides within `tolerance × |v|` plus rounding; an expansion that converged on
/// two flat cores (a polytope difference: no polish moves its answer) has its facet's
/// distance between the depth and the support value along the facet's normal, within
/// `tolerance × depth` plus its rounding units of `size`. Every face's gap is then at most
/// the contact's plus that error, and the gap along `m` differs from the gap along `n` by
/// at most `|m − n|` times the largest point of the difference, which `size` bounds (the
/// centres' distance plus both extents). Twice the stopping rules' bounds, and rounding
/// units of the margins (the depth carries them), cover the rounding of the gaps.
fn known_gap<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    pair: &Pair<'_, V, A, B>,
    contact: &Contact<V>,
    options: &ManifoldOptions<V::Real>,
    margins: V::Real,
    size: V::Real,
) -> Option<V::Real> {
    let accurate = match contact.status {
        ContactStatus::Exact | ContactStatus::Gjk(Termination::Converged) => true,
        ContactStatus::Epa(EpaTermination::Converged) => {
            pair.a.core().is_flat() && pair.b.core().is_flat()
        }
        _ => false,
    };
    if !accurate {
        return None;
    }
    let tolerance = effective(options.gjk.tolerance).max(effective(options.epa.tolerance));
    let rounding = V::Real::from_f64(64.0) * V::Real::EPSILON;
    let margins = V::Real::from_f64(4.0) * V::Real::EPSILON * margins.abs();
    Some(V::Real::TWO * (tolerance + rounding) * size + margins)
}

/// The capacity of the small clipping buffers: a box face against a box face.
const SMALL_CLIP: usize = 8;

/// Steps 4 to 6 of the [module docs](self), once the reference and incident features are
/// chosen (A's frame).
struct Patch<'f, V: Vector> {
    incident: &'f Feature<V>,
    reference: &'f Feature<V>,
    /// The reference's outward normal.
    m: V,
    /// The manifold's normal, A toward B.
    normal: V,
    slack: V::Real,
    margins: V::Real,
    prediction: V::Real,
    reference_is_a: bool,
    margin_a: V::Real,
    margin_b: V::Real,
    pose_a: &'f Pose<V>,
    status: ContactStatus,
}

impl<V: Vector> Patch<'_, V> {
    /// The clipped, measured and reduced points, with buffers of `N` vertices (at least the
    /// incident's vertices plus the reference's); `None` when no point is left.
    #[inline]
    fn clip<const N: usize>(&self) -> Option<ManifoldResult<V>> {
        let (reference, m, slack) = (self.reference, self.m, self.slack);
        let mut clipped = Polygon::<V, N>::start(self.incident);
        clip(&mut clipped, reference, m, slack);
        // Keep the points within the prediction, in place, with their depths.
        // The points' feet on the reference too, for the points kept.
        let mut depths = [V::Real::ZERO; N];
        let mut feet = [V::ZERO; N];
        let mut count = 0;
        for k in 0..clipped.len {
            let v = clipped.vertices[k];
            let (foot, separation) = measure(reference, m, v.p);
            let depth = self.margins - separation;
            if -depth <= self.prediction + slack {
                clipped.vertices[count] = v;
                depths[count] = depth;
                feet[count] = foot;
                count += 1;
            }
        }
        if count == 0 {
            return None;
        }
        let mut chosen = [0usize; MAX_MANIFOLD_POINTS];
        let kept = reduce(&clipped.vertices[..count], &depths[..count], self.normal, &mut chosen);
        let reference_is_a = self.reference_is_a;
        let mut out =
            ManifoldResult::empty(ManifoldStatus::Clipped { reference_is_a }, Some(self.status));
        let (normal, pose_a) = (self.normal, self.pose_a);
        out.normal = pose_a.transform_vector(normal);
        for &i in &chosen[..kept] {
            let v = &clipped.vertices[i];
            let on_reference = feet[i];
            let (core_a, core_b, id) = if reference_is_a {
                (on_reference, v.p, ContactId { a: v.reference, b: v.incident })
            } else {
                (v.p, on_reference, ContactId { a: v.incident, b: v.reference })
            };
            out.push(ManifoldPoint {
                point_a: pose_a.transform_point(core_a + normal * self.margin_a),
                point_b: pose_a.transform_point(core_b - normal * self.margin_b),
                depth: depths[i],
                id,
            });
        }
        Some(out)
    }
}

/// How far below 1 the cosine of two directions equal up to rounding may fall.
#[inline]
fn slack_cosine<R: Real>() -> R {
    R::EPSILON * R::from_f64(64.0)
}

/// The id of a whole feature: its vertex for a point, its face otherwise.
fn whole<V: Vector>(f: &Feature<V>) -> u32 {
    match f.ids() {
        [only] => FEATURE_VERTEX | (only & INDEX),
        _ => FEATURE_FACE | (f.id() & INDEX),
    }
}

/// The outward normal of a feature facing `dir`: a face's own, or for a segment the part of
/// `dir` across it (a segment "faces" every direction around it).
fn face_normal<V: Vector>(f: &Feature<V>, dir: V) -> V {
    if f.is_face() {
        return f.normal();
    }
    let d = unit(dir).unwrap_or(V::axis(0));
    if let [p, q] = *f.vertices() {
        if let Some(t) = unit(q - p) {
            return unit(d - t * t.dot(d)).unwrap_or(d);
        }
    }
    d
}

/// Where the reference surface is under `q`, and `q`'s signed separation from it.
fn measure<V: Vector>(reference: &Feature<V>, m: V, q: V) -> (V, V::Real) {
    let r = reference.vertices();
    if reference.is_face() {
        let s = (q - r[0]).dot(m);
        return (q - m * s, s);
    }
    let on = closest_on_segment(r[0], r[1], q);
    let gap = (q - on).length();
    (on, if (q - on).dot(m) < V::Real::ZERO { -gap } else { gap })
}

/// What the edge from a clipped vertex to the next lies on.
#[derive(Clone, Copy, Debug)]
enum Along {
    /// The incident feature's edge with this feature id.
    Incident(u32),
    /// The reference's side plane `k`.
    Side(u32),
}

/// A vertex of the clipped polygon, with its feature ids and what its outgoing edge lies on.
#[derive(Clone, Copy, Debug)]
struct ClipVertex<V> {
    p: V,
    reference: u32,
    incident: u32,
    next: Along,
}

/// The polygon being clipped (a closed polygon, or an open segment, or a point).
struct Polygon<V, const N: usize> {
    vertices: [ClipVertex<V>; N],
    len: usize,
    /// A segment: its edge does not close back.
    open: bool,
    /// The incident face's feature id.
    face: u32,
}

impl<V: Vector, const N: usize> Polygon<V, N> {
    /// The incident feature, every vertex inside the reference face so far.
    fn start(incident: &Feature<V>) -> Self {
        let blank = ClipVertex { p: V::ZERO, reference: 0, incident: 0, next: Along::Side(0) };
        let mut polygon = Self {
            vertices: [blank; N],
            len: 0,
            open: incident.vertices().len() == 2,
            face: FEATURE_FACE | (incident.id() & INDEX),
        };
        let edge_ids = |k: usize| match incident.vertices().len() {
            2 => FEATURE_FACE | (incident.id() & INDEX),
            _ => FEATURE_EDGE | ((incident.id() << 8 | k as u32) & INDEX),
        };
        for (k, (&p, &id)) in incident.vertices().iter().zip(incident.ids()).enumerate() {
            polygon.vertices[k] = ClipVertex {
                p,
                reference: 0,
                incident: FEATURE_VERTEX | (id & INDEX),
                next: Along::Incident(edge_ids(k)),
            };
        }
        polygon.len = incident.vertices().len();
        polygon
    }
}

/// The side planes of the reference feature: `(point, outward unit normal)` pairs, and the
/// feature id of each side and of the corner after it.
/// `N`: at least the reference's number of vertices.
fn sides<V: Vector, const N: usize>(reference: &Feature<V>, m: V) -> ([(V, V, u32); N], usize) {
    let r = reference.vertices();
    let ids = reference.ids();
    let mut planes = [(V::ZERO, V::ZERO, 0u32); N];
    if r.len() == 2 {
        // An edge or segment: its two end planes; cutting one there is at that end vertex.
        let Some(t) = unit(r[1] - r[0]) else { return (planes, 0) };
        planes[0] = (r[0], -t, FEATURE_VERTEX | (ids[0] & INDEX));
        planes[1] = (r[1], t, FEATURE_VERTEX | (ids[1] & INDEX));
        return (planes, 2);
    }
    let weight = V::Real::ONE / V::Real::from_f64(r.len() as f64);
    let mean = r.iter().fold(V::ZERO, |sum, &p| sum + p * weight);
    let mut count = 0;
    for k in 0..r.len() {
        let next = r[(k + 1) % r.len()];
        let Some(out) = unit(cross(next - r[k], m)) else { continue };
        let out = if (mean - r[k]).dot(out) > V::Real::ZERO { -out } else { out };
        let id = FEATURE_EDGE | ((reference.id() << 8 | k as u32) & INDEX);
        planes[count] = (r[k], out, id);
        count += 1;
    }
    (planes, count)
}

/// Clips `polygon` by the reference's side planes (Sutherland–Hodgman; a segment's ends move
/// along it; a point is kept or dropped). Within `slack` outside a plane counts as inside.
/// Surviving original vertices get the reference face's id.
fn clip<V: Vector, const N: usize>(
    polygon: &mut Polygon<V, N>,
    reference: &Feature<V>,
    m: V,
    slack: V::Real,
) {
    let face = FEATURE_FACE | (reference.id() & INDEX);
    let (planes, count) = sides::<V, N>(reference, m);
    let planes = &planes[..count];
    clip_by(
        polygon,
        face,
        count,
        |k, p| (p - planes[k].0).dot(planes[k].1) - slack,
        |k| planes[k].2,
        |a, b| corner(reference, planes, a, b),
    );
}

/// [`clip`] by `count` side planes given by their signed distance `distance(k, p)` (already
/// less the slack: `≤ 0` is inside), their ids `side(k)` and the ids of the reference corner
/// where two of them meet, `corner(a, b)`. `face`: the reference face's id.
#[inline(always)]
fn clip_by<V: Vector, const N: usize>(
    polygon: &mut Polygon<V, N>,
    face: u32,
    count: usize,
    distance: impl Fn(usize, V) -> V::Real,
    side: impl Fn(usize) -> u32,
    corner: impl Fn(usize, usize) -> u32,
) {
    for v in &mut polygon.vertices[..polygon.len] {
        v.reference = face;
    }
    // Two buffers in turn (the polygon's and this one): each plane reads one and writes the
    // other, so no pass copies the polygon back.
    let mut scratch = [polygon.vertices[0]; N];
    let mut in_scratch = false;
    let incident_face = polygon.face;
    for k in 0..count {
        let side_id = side(k);
        let n = polygon.len;
        let distance = |p: V| distance(k, p);
        let cut = |from: &ClipVertex<V>, to: &ClipVertex<V>, d0: V::Real, d1: V::Real| {
            let p = from.p + (to.p - from.p) * (d0 / (d0 - d1));
            let (reference_id, incident_id) = match from.next {
                Along::Incident(edge) => (side_id, edge),
                Along::Side(previous) => (corner(previous as usize, k), incident_face),
            };
            (p, reference_id, incident_id)
        };
        if n == 0 {
            break;
        }
        let (source, target) = if in_scratch {
            (&mut scratch, &mut polygon.vertices)
        } else {
            (&mut polygon.vertices, &mut scratch)
        };
        if n == 1 {
            polygon.len = usize::from(distance(source[0].p) <= V::Real::ZERO);
            continue;
        }
        if polygon.open {
            let (start, end) = (source[0], source[n - 1]);
            let (d0, d1) = (distance(start.p), distance(end.p));
            match (d0 <= V::Real::ZERO, d1 <= V::Real::ZERO) {
                (true, true) => {}
                (false, false) => polygon.len = 0,
                (false, true) => {
                    let (p, reference, incident) = cut(&start, &end, d0, d1);
                    source[0] = ClipVertex { p, reference, incident, next: start.next };
                }
                (true, false) => {
                    let (p, reference, incident) = cut(&start, &end, d0, d1);
                    source[n - 1] = ClipVertex { p, reference, incident, next: end.next };
                }
            }
            continue;
        }
        let mut len = 0;
        // Edge by edge from the last vertex round, so each vertex's distance is computed once;
        // the closing edge (last vertex to first) comes first here and is emitted last, so
        // the output is in Sutherland–Hodgman's order from the first edge.
        let mut from = source[n - 1];
        let mut d0 = distance(from.p);
        let mut closing = None;
        for (e, to) in source[..n].iter().enumerate() {
            let d1 = distance(to.p);
            let inside = d0 <= V::Real::ZERO;
            let crossing = (inside != (d1 <= V::Real::ZERO)).then(|| {
                let (p, reference, incident) = cut(&from, to, d0, d1);
                // Leaving, the edge after the cut runs along this side; entering, along the
                // edge it cut.
                let next = if inside { Along::Side(k as u32) } else { from.next };
                ClipVertex { p, reference, incident, next }
            });
            if e == 0 {
                closing = Some((inside, from, crossing));
            } else {
                if inside {
                    target[len] = from;
                    len += 1;
                }
                if let Some(v) = crossing {
                    target[len] = v;
                    len += 1;
                }
            }
            from = *to;
            d0 = d1;
        }
        if let Some((inside, last, crossing)) = closing {
            if inside {
                target[len] = last;
                len += 1;
            }
            if let Some(v) = crossing {
                target[len] = v;
                len += 1;
            }
        }
        polygon.len = len;
        in_scratch = !in_scratch;
    }
    if in_scratch {
        polygon.vertices[..polygon.len].copy_from_slice(&scratch[..polygon.len]);
    }
}

/// The id of the reference corner where sides `a` and `b` meet (the vertex shared by the two
/// edges), or the reference face when they are not neighbours.
fn corner<V: Vector>(reference: &Feature<V>, planes: &[(V, V, u32)], a: usize, b: usize) -> u32 {
    let n = planes.len();
    let ids = reference.ids();
    if reference.vertices().len() != n || n < 3 {
        return FEATURE_FACE | (reference.id() & INDEX);
    }
    if (a + 1) % n == b {
        FEATURE_VERTEX | (ids[b] & INDEX)
    } else if (b + 1) % n == a {
        FEATURE_VERTEX | (ids[a] & INDEX)
    } else {
        FEATURE_FACE | (reference.id() & INDEX)
    }
}

/// Picks at most [`MAX_MANIFOLD_POINTS`] of the candidates (2 in 2D) by the rule of the
/// [module docs](self); returns how many, their indices in `chosen`.
fn reduce<V: Vector>(
    candidates: &[ClipVertex<V>],
    depths: &[V::Real],
    normal: V,
    chosen: &mut [usize; MAX_MANIFOLD_POINTS],
) -> usize {
    let limit = if V::DIM == 2 { 2 } else { MAX_MANIFOLD_POINTS };
    if candidates.len() <= limit {
        for (i, c) in chosen.iter_mut().enumerate().take(candidates.len()) {
            *c = i;
        }
        return candidates.len();
    }
    let at = |i: usize| candidates[i].p;
    let best_by = |score: &dyn Fn(usize) -> V::Real| {
        (0..candidates.len()).fold((0, -V::Real::INFINITY), |best, i| {
            let s = score(i);
            if s > best.1 {
                (i, s)
            } else {
                best
            }
        })
    };
    let first = best_by(&|i| depths[i]).0;
    let second = best_by(&|i| (at(i) - at(first)).length_squared()).0;
    chosen[0] = first;
    chosen[1] = second;
    if limit == 2 {
        return 2;
    }
    let area = |o: V, p: V, q: V| cross(p - o, q - o).dot(normal);
    let (third, _) = best_by(&|i| area(at(first), at(second), at(i)).abs());
    let (p0, p1, p2) = (at(first), at(second), at(third));
    // Orient the triangle counter-clockwise about the normal, then take the point farthest
    // outside one of its edges.
    let (p1, p2) = if area(p0, p1, p2) < V::Real::ZERO { (p2, p1) } else { (p1, p2) };
    let (fourth, added) = best_by(&|i| {
        let q = at(i);
        -area(p0, p1, q).min(area(p1, p2, q)).min(area(p2, p0, q))
    });
    chosen[2] = third;
    if added > V::Real::ZERO && third != first && third != second {
        chosen[3] = fourth;
        4
    } else {
        3
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Cuboid, Rounded};
    use crate::test_rng::{Draw, Rng};
    use glam::{DQuat, DVec3, Quat, Vec3};

    /// The general path for two box cores (the box SAT's contact with its witness points,
    /// then [`clipped`]: features, reference, side planes from the faces' edges), against
    /// which the closed form [`Pair::box_faces`] is checked.
    fn general<V: Vector, A: Support<V>, B: Support<V>>(
        pair: &Pair<'_, V, A, B>,
        options: &ManifoldOptions<V::Real>,
    ) -> Option<ManifoldResult<V>> {
        let contact = pair.contact_with(
            &ContactOptions { prediction: options.prediction, gjk: options.gjk, epa: options.epa },
            &mut WarmStart::default(),
        );
        let contact = contact.contact?;
        let w = || (contact.point_a, contact.point_b);
        Some(clipped(pair, &contact, w, options, options.prediction, true))
    }

    /// The closed form, where it answers.
    fn fast<V: Vector, A: Support<V>, B: Support<V>>(
        pair: &Pair<'_, V, A, B>,
        options: &ManifoldOptions<V::Real>,
    ) -> Option<ManifoldResult<V>> {
        let Kernel::Boxes(half_a, half_b) = pair.kernel(Query::Contact) else { return None };
        let reach = options.prediction + pair.margins();
        let axes = box_axes(half_a, half_b, pair.relative_pose(), reach);
        if axes.gap().is_some() {
            return None;
        }
        pair.box_faces(&axes, axes.overlap(), half_a, half_b, options, options.prediction)
    }

    /// The points in the order of their ids: the reduction's order among points that tie
    /// (the two corners off the diagonal of a parallelogram patch span equal triangles with
    /// it) falls to rounding.
    fn sorted<V: Vector>(m: &ManifoldResult<V>) -> Vec<ManifoldPoint<V>> {
        let mut points = m.points().to_vec();
        points.sort_by_key(|p| p.id);
        points
    }

    /// Both paths' manifolds: the same status, normal, points (by their ids) and, within
    /// `tol`, places and depths.
    fn same(fast: &ManifoldResult<DVec3>, general: &ManifoldResult<DVec3>, tol: f64, what: &str) {
        assert_eq!(fast.status, general.status, "{what}");
        assert_eq!(fast.contact_status, general.contact_status, "{what}");
        assert!(
            (fast.normal - general.normal).length() <= tol,
            "{what}: normals {fast:?} {general:?}"
        );
        let (f, g) = (sorted(fast), sorted(general));
        let ids = |m: &[ManifoldPoint<DVec3>]| m.iter().map(|p| p.id).collect::<Vec<_>>();
        assert_eq!(ids(&f), ids(&g), "{what}: {fast:?}\n{general:?}");
        for (p, q) in f.iter().zip(&g) {
            assert!((p.point_a - q.point_a).length() <= tol, "{what}: {p:?} {q:?}");
            assert!((p.point_b - q.point_b).length() <= tol, "{what}: {p:?} {q:?}");
            assert!((p.depth - q.depth).abs() <= tol, "{what}: {p:?} {q:?}");
        }
    }

    /// Random boxes (tilted every way, and stacked nearly face to face, each over a range of
    /// depths), plain and rounded, f64: the closed form answers most of the pairs that
    /// overlap, and answers them as the general path does.
    #[test]
    fn the_box_closed_form_agrees_with_the_general_path() {
        let mut rng = Rng::new(0xB0C5_F00D);
        let (mut answered, mut overlapping) = (0, 0);
        let mut statuses = [0usize; 3];
        for case in 0..6000 {
            let half = |rng: &mut Rng| {
                DVec3::new(rng.range(0.1, 2.0), rng.range(0.1, 2.0), rng.range(0.1, 2.0))
            };
            let (ha, hb) = (half(&mut rng), half(&mut rng));
            let qa = DQuat::from_array(rng.rotation3());
            let ta = rng.in_cube() * 5.0;
            let (qb, tb) = if case % 2 == 0 {
                let q = DQuat::from_array(rng.rotation3());
                (q, ta + rng.on_sphere() * rng.range(0.0, 1.3 * (ha + hb).length()))
            } else {
                // B on one of A's faces, turned a little (never exactly: the reduction's ties
                // among equally deep corners fall to rounding), sunk by up to a tenth.
                let axis = rng.below(3);
                let sign = if rng.chance(0.5) { 1.0 } else { -1.0 };
                let tilt = DQuat::from_axis_angle(rng.on_sphere(), rng.range(1e-6, 0.2));
                let q = qa * tilt * DQuat::from_rotation_z(rng.angle());
                let mut offset = rng.in_cube() * (ha + hb);
                let normal = DVec3::AXES[axis] * sign;
                let sink = rng.range(-0.05, 0.1);
                let height = ha[axis] + hb.dot(q.conjugate() * qa * normal).abs();
                offset[axis] = sign * (height - sink);
                (q, ta + qa * offset)
            };
            let (pa, pb) =
                (Pose::from_rotation_translation(qa, ta), Pose::from_rotation_translation(qb, tb));
            let options = ManifoldOptions {
                prediction: if case % 3 == 0 { 0.05 } else { 0.0 },
                ..Default::default()
            };
            let size = ha.length() + hb.length() + ta.length();
            let what = format!("case {case}");
            let (a, b) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
            if case % 5 == 0 {
                let (ra, rb) = (Rounded::new(a, 0.1).unwrap(), Rounded::new(b, 0.05).unwrap());
                let pair = Pair::new(&ra, pa, &rb, pb);
                if let Some(f) = fast(&pair, &options) {
                    same(&f, &general(&pair, &options).unwrap(), 1e-9 * size, &what);
                }
                continue;
            }
            let pair = Pair::new(&a, pa, &b, pb);
            let Some(g) = general(&pair, &options) else { continue };
            if pair
                .contact_with(&ContactOptions::default(), &mut WarmStart::default())
                .contact
                .is_none()
            {
                continue;
            }
            overlapping += 1;
            if let Some(f) = fast(&pair, &options) {
                answered += 1;
                same(&f, &g, 1e-9 * size, &what);
                statuses[match f.status {
                    ManifoldStatus::Clipped { reference_is_a: true } => 0,
                    ManifoldStatus::Clipped { reference_is_a: false } => 1,
                    _ => 2,
                }] += 1;
            }
        }
        assert!(answered * 100 >= overlapping * 95, "{answered} of {overlapping}");
        assert!(statuses.iter().all(|&s| s > 300), "{statuses:?}");
    }

    /// The reference rule decided from bounds of the faces' gaps (most manifolds measure no
    /// gap) gives the manifold of the rule on measured gaps, to the bit: random hull pairs
    /// (EPA's and GJK's contacts), boxes (SAT) and capsules on boxes, f64 and f32, with and
    /// without a prediction distance.
    #[test]
    fn bounded_gaps_decide_as_measured_gaps() {
        use crate::shape::{Capsule, Polytope};
        fn check<V: Vector, A: Support<V>, B: Support<V>>(
            a: &A,
            b: &B,
            pa: Pose<V>,
            pb: Pose<V>,
            prediction: f64,
            seen: &mut [usize; 3],
        ) {
            let pair = Pair::new(a, pa, b, pb);
            let options =
                ManifoldOptions { prediction: V::Real::from_f64(prediction), ..Default::default() };
            let contact = pair.contact_with(
                &ContactOptions {
                    prediction: options.prediction,
                    gjk: options.gjk,
                    epa: options.epa,
                },
                &mut WarmStart::default(),
            );
            let Some(contact) = contact.contact else { return };
            let w = || (contact.point_a, contact.point_b);
            let bounded = clipped(&pair, &contact, w, &options, options.prediction, true);
            let measured = clipped(&pair, &contact, w, &options, options.prediction, false);
            assert_eq!(bounded, measured);
            seen[match bounded.status {
                ManifoldStatus::Clipped { reference_is_a: true } => 0,
                ManifoldStatus::Clipped { reference_is_a: false } => 1,
                _ => 2,
            }] += 1;
        }
        let mut rng = Rng::new(0x6A95_B0DD);
        let mut seen = [0usize; 3];
        for case in 0..3000 {
            let cloud = |rng: &mut Rng, n: usize| -> Vec<DVec3> {
                (0..n).map(|_| rng.in_cube() * DVec3::new(1.0, 0.6, 0.8)).collect()
            };
            let (ca, cb) = (cloud(&mut rng, 6 + case % 30), cloud(&mut rng, 6 + case % 17));
            let qa = DQuat::from_array(rng.rotation3());
            let qb = DQuat::from_array(rng.rotation3());
            let ta = rng.in_cube();
            let tb = ta + rng.on_sphere() * rng.range(0.0, 1.6);
            let (pa, pb) =
                (Pose::from_rotation_translation(qa, ta), Pose::from_rotation_translation(qb, tb));
            let prediction = if case % 3 == 0 { 0.05 } else { 0.0 };
            match case % 4 {
                0 | 1 => {
                    let (a, b) = (Polytope::new(ca).unwrap(), Polytope::new(cb).unwrap());
                    check(&a, &b, pa, pb, prediction, &mut seen);
                }
                2 => {
                    let to32 = |c: Vec<DVec3>| c.iter().map(|p| p.as_vec3()).collect::<Vec<_>>();
                    let (a, b) =
                        (Polytope::new(to32(ca)).unwrap(), Polytope::new(to32(cb)).unwrap());
                    let pose = |q: DQuat, t: DVec3| {
                        Pose::from_rotation_translation(q.as_quat(), t.as_vec3())
                    };
                    check(&a, &b, pose(qa, ta), pose(qb, tb), prediction, &mut seen);
                }
                _ => {
                    let a = Cuboid::new(DVec3::new(0.8, 0.3, 0.6)).unwrap();
                    let b = Cuboid::new(DVec3::new(0.4, 0.5, 0.2)).unwrap();
                    check(&a, &b, pa, pb, prediction, &mut seen);
                    let c =
                        Capsule::new(DVec3::new(0.0, -0.5, 0.0), DVec3::new(0.0, 0.5, 0.0), 0.2)
                            .unwrap();
                    check(&c, &a, pa, pb, prediction, &mut seen);
                    check(&a, &Polytope::new(cb).unwrap(), pa, pb, prediction, &mut seen);
                }
            }
        }
        assert!(seen.iter().all(|&s| s > 200), "{seen:?}");
    }

    /// The same in f32, with f32's rounding.
    #[test]
    fn the_box_closed_form_agrees_with_the_general_path_in_f32() {
        let mut rng = Rng::new(0xB0C5_0F32);
        let mut answered = 0;
        for _ in 0..2000 {
            let half = |rng: &mut Rng| {
                Vec3::new(
                    rng.range(0.1, 2.0) as f32,
                    rng.range(0.1, 2.0) as f32,
                    rng.range(0.1, 2.0) as f32,
                )
            };
            let (ha, hb) = (half(&mut rng), half(&mut rng));
            let rotation = |rng: &mut Rng| Quat::from_array(rng.rotation3().map(|x| x as f32));
            let ta = rng.in_cube().as_vec3() * 5.0;
            let tb =
                ta + rng.on_sphere().as_vec3() * (rng.range(0.0, 1.2) as f32 * (ha + hb).length());
            let pa = Pose::from_rotation_translation(rotation(&mut rng), ta);
            let pb = Pose::from_rotation_translation(rotation(&mut rng), tb);
            let (a, b) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
            let pair = Pair::new(&a, pa, &b, pb);
            let options = ManifoldOptions::default();
            let Some(f) = fast(&pair, &options) else { continue };
            let g = general(&pair, &options).unwrap();
            answered += 1;
            assert_eq!(f.status, g.status);
            let (fs, gs) = (sorted(&f), sorted(&g));
            let ids = |m: &[ManifoldPoint<Vec3>]| m.iter().map(|p| p.id).collect::<Vec<_>>();
            assert_eq!(ids(&fs), ids(&gs), "{f:?}\n{g:?}");
            let tol = 1e-4 * (ha.length() + hb.length() + ta.length());
            for (p, q) in fs.iter().zip(&gs) {
                assert!(
                    (p.point_a - q.point_a).length() <= tol && (p.depth - q.depth).abs() <= tol
                );
            }
        }
        assert!(answered > 500, "{answered}");
    }
}
