//! Contact: penetration depth, normal and witness points — or the gap — in one query.
//!
//! A physics engine's narrow phase wants, for each pair the broad phase hands it, either
//! "no contact" or a contact: how deep, along which normal, at which points. The query:
//! 1. **early out** (prediction distance `δ`): a GJK intersection test on A against B inflated by
//!    `δ` stops at the first separating axis — pairs farther apart than `δ` cost little.
//!    Skipped, with step 2's loop, when the cores' closest points have a closed form (two
//!    segment cores, as capsule against capsule: [`Core::Segment`]; a segment core and a box
//!    core, as capsule against box) and are apart;
//! 2. **GJK distance** on the cores (warm-started by step 1): if the cores are apart, the answer
//!    is GJK's: `depth = margins − core distance`, normal and points from the cores' closest
//!    points pushed out by the margins. Balls, capsules and rounded shapes therefore answer
//!    shallow penetrations without EPA;
//! 3. **EPA** ([`crate::epa`]) when the cores overlap; the margins are added to its depth and
//!    the witness points pushed out along the normal.
//!
//! # Point cores: no iteration
//! When one shape's core is a single point ([`Core::Point`]: a ball, a point) and the other
//! shape's core projects points exactly ([`Core::closest_point`]), the query
//! is one projection instead of steps 1–2: the gap between the point and its projection gives
//! the separation, exactly as GJK would. When the point lies in the other core (a ball's centre
//! inside a box) and that core knows the way out ([`Core::nearest_boundary`]: boxes, small 2D
//! polygons, points), step 3 is replaced as well: the depth is the margins
//! plus the point's distance to the nearest boundary of the core, along that boundary's
//! outward normal. The
//! point is measured in the other shape's frame, where that answer is exact (a box's face
//! distance is one subtraction, its normal an axis), and the result rotated to the world. Such
//! answers report one GJK iteration, `epa: None`, and leave the warm-start cache untouched.
//! Segment cores (segments and capsules: a segment has no interior in 3D) still run EPA when the point lies on their core. A's point is tried first, then B's.
//!
//! Coincident point cores (ball against ball, the centres equal once seen in B's frame) have
//! no defined normal; the answer then takes B's local `−x` axis (A's point leaves B's point
//! core along B's `+x`, see [`Core::nearest_boundary`]), with the
//! sum of the radii as the depth. Centres apart by any representable gap take the normal along
//! that gap, as GJK would (the touching tolerance is relative to the cores' size, which is the
//! gap itself for two points).
//!
//! # Two boxes, two polygons, a segment and a box: the separating-axis test
//! When both cores are boxes ([`Core::Box`]: cuboids, rounded cuboids) the query runs
//! no GJK and no EPA: the Minkowski difference of two boxes has its face normals among 15 axes
//! (6 in 2D), so the smallest overlap over them is the exact depth of the cores, and the
//! touching features give the witness points (module `sat`). The same holds in 2D for two
//! convex polygons ([`Core::Polygon`]: small polytopes, rounded ones), or a box and a
//! polygon, over both polygons' edge normals; and for a segment core against a box core
//! (capsule against box, [`Core::Segment`] and [`Core::Box`]), over the box's face normals and
//! the segment's direction crossed with the box's axes (2D: the segment's normal), in the
//! box's frame. Cores apart by more than the
//! prediction distance plus the margins return no contact at the first separating axis; cores
//! apart but within reach run the GJK steps above, which measure the gap. Such answers report
//! 0 GJK iterations, `epa: None`, and leave the warm-start cache untouched.
//!
//! A segment core and a box core apart have exact closest points too (the minimum of the
//! segment's squared distance to the box, a convex piecewise quadratic in its parameter): the
//! query measures that distance first and answers from it, as for two segments (1 GJK
//! iteration, no contact beyond reach); only cores within the touching distance take the
//! separating-axis test (overlapping) or GJK and EPA (apart by a rounding-sized gap).
//!
//! # Convention
//! One signed quantity: `depth > 0` is a penetration, `depth ≤ 0` a gap of `−depth`. In both
//! cases the normal is the unit vector from A toward B, `point_a` and `point_b` lie on the
//! surfaces of A and B (world coordinates), and
//! `point_a − point_b = depth × normal`.
//! Translating B by `depth × normal` brings the shapes into touching contact: further along
//! the normal they are apart, less far they overlap.

use crate::dispatch::{Kernel, Query};
use crate::epa::{
    penetration_facet, penetration_from_cap, Cap, EpaOptions, EpaTermination, Penetration, Vertex,
    CAP,
};
use crate::geometry::unit;
use crate::gjk::{GjkOptions, Goal, Termination, WarmStart};
use crate::math::{length_beyond, Pose, Real, Vector};
use crate::pair::Pair;
use crate::polish::{polish, Start};
use crate::sat::{
    box_pair, polygon_pair, segment_box, segment_box_closest, with_polygons, AxisTest,
};
use crate::shape::{offset_from_core, Core, Support};
use crate::simplex::Simplex;
use crate::tolerance::apart_bound;

/// How two shapes touch, overlap or nearly touch, in world coordinates.
///
/// `point_a − point_b = depth × normal`; see the [module docs](mod@crate::contact) for the
/// convention.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact<V: Vector> {
    /// The penetration depth (`> 0`), or minus the distance between the shapes (`≤ 0`).
    pub depth: V::Real,
    /// The unit normal from A toward B: moving B by `depth × normal` makes the shapes touch.
    pub normal: V,
    /// The point of A deepest inside B (or closest to B when apart), on A's surface.
    pub point_a: V,
    /// The point of B deepest inside A (or closest to A when apart), on B's surface.
    pub point_b: V,
    /// How the answer was obtained: whether a loop stopped short of its tolerance.
    pub status: ContactStatus,
}

/// How a [`Contact`] was obtained.
///
/// ```
/// use gjk::{contact, Ball, ContactStatus, Cuboid, Pose};
/// use glam::DVec3;
/// let (cube, ball) = (Cuboid::new(DVec3::ONE)?, Ball::new(0.5)?);
/// let near = Pose::from_translation(DVec3::new(1.25, 0.0, 0.0))?;
/// let c = contact(&cube, &Pose::IDENTITY, &ball, &near, 0.0).unwrap();
/// assert_eq!(c.status, ContactStatus::Exact); // a ball against a box: one projection
/// assert!(c.status.is_accurate());
/// # Ok::<(), gjk::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContactStatus {
    /// A closed form or the separating-axis test: exact up to rounding.
    Exact,
    /// The cores are apart (or touch) and GJK measured their gap; how it ended.
    Gjk(Termination),
    /// The cores overlap and EPA measured the overlap; how it ended.
    Epa(EpaTermination),
}

impl ContactStatus {
    /// Whether the answer is within the query's tolerance: no loop hit its iteration cap or
    /// gave up on rounding. (GJK's [`Termination::NoProgress`] is the normal end on polytopes,
    /// where the answer is exact.)
    pub fn is_accurate(&self) -> bool {
        match self {
            ContactStatus::Exact => true,
            ContactStatus::Gjk(t) => *t != Termination::IterationCap,
            ContactStatus::Epa(t) => matches!(t, EpaTermination::Converged | EpaTermination::Flat),
        }
    }
}

impl<V: Vector> Contact<V> {
    /// Whether the shapes overlap (`depth > 0`).
    pub fn is_penetrating(&self) -> bool {
        self.depth > V::Real::ZERO
    }

    /// The signed distance `−depth`: the gap when apart, minus the depth when overlapping.
    pub fn signed_distance(&self) -> V::Real {
        -self.depth
    }
}

/// Tuning of a contact query.
///
/// ```
/// use gjk::ContactOptions;
/// let narrow_phase = ContactOptions::<f32> { prediction: 0.02, ..Default::default() };
/// assert_eq!(narrow_phase.epa.max_iterations, 1024);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactOptions<R> {
    /// Report contacts up to this gap (`≥ 0`; negative or NaN counts as 0, `INFINITY` always
    /// reports the separation). Pairs farther apart return no contact after the cheap GJK
    /// intersection test.
    pub prediction: R,
    /// Options of the GJK runs.
    pub gjk: GjkOptions<R>,
    /// Options of the expansion (only when the cores overlap).
    pub epa: EpaOptions<R>,
}

impl<R: Real> Default for ContactOptions<R> {
    fn default() -> Self {
        Self { prediction: R::ZERO, gjk: GjkOptions::default(), epa: EpaOptions::default() }
    }
}

/// Everything a contact query found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactResult<V: Vector> {
    /// The contact, or `None` when the shapes are farther apart than the prediction distance.
    pub contact: Option<Contact<V>>,
    /// How the last GJK run ended.
    pub gjk_termination: Termination,
    /// Support calls of the GJK runs together (1 for a closed-form answer, a segment and a box
    /// apart included; 0 for the separating-axis tests: two boxes, two polygons, a segment and
    /// a box overlapping).
    pub gjk_iterations: u32,
    /// How the expansion ended, or `None` when GJK alone answered (the cores are apart) or the
    /// answer was analytic (a point core, two segment cores, two box cores, a segment core
    /// and a box core: see the
    /// [module docs](mod@crate::contact)).
    pub epa: Option<EpaTermination>,
    /// Support points the expansion added (not counting the completion of a lower-dimensional
    /// GJK simplex).
    pub epa_iterations: u32,
}

impl<V: Vector> ContactResult<V> {
    /// A result that ran no expansion.
    #[inline]
    fn unexpanded(
        contact: Option<Contact<V>>,
        gjk_termination: Termination,
        gjk_iterations: u32,
    ) -> Self {
        Self { contact, gjk_termination, gjk_iterations, epa: None, epa_iterations: 0 }
    }
}

impl<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized> Pair<'_, V, A, B> {
    /// The contact (penetration or gap up to `prediction`) with default options, or `None`.
    ///
    /// ```
    /// use gjk::{Cuboid, Pair, Pose};
    /// use glam::Vec2;
    /// let square = Cuboid::new(Vec2::ONE).unwrap();
    /// let pair = Pair::new(&square, Pose::IDENTITY, &square,
    ///     Pose::from_translation(Vec2::new(0.0, 1.75)).unwrap());
    /// let c = pair.contact(0.0).unwrap();
    /// assert!((c.depth - 0.25).abs() < 1e-5 && (c.normal - Vec2::Y).length() < 1e-5);
    /// ```
    #[inline]
    pub fn contact(&self, prediction: V::Real) -> Option<Contact<V>> {
        let options = ContactOptions { prediction, ..ContactOptions::default() };
        // The closed forms first, inlined here: the general query's warm-start cache and
        // whole result are built only when no kernel answers (measured in
        // docs/benchmarks.md, "Capsule–capsule").
        if let Some(result) = self.shortcut(&options) {
            return result.contact;
        }
        self.general_contact(&options, &mut WarmStart::scratch()).contact
    }

    /// The dispatch table's closed-form answer for this pair (a projection, two segments, box
    /// or polygon SAT), or `None` to run GJK and EPA.
    #[inline(always)]
    fn shortcut(&self, options: &ContactOptions<V::Real>) -> Option<ContactResult<V>> {
        // NaN and negative predictions count as 0 (`max` would keep a NaN).
        let prediction =
            if options.prediction > V::Real::ZERO { options.prediction } else { V::Real::ZERO };
        let kernel = self.kernel(Query::Contact);
        match kernel {
            Kernel::PointOnB { .. } | Kernel::PointOnA { .. } => {
                self.point_contact(&kernel, options, prediction)
            }
            Kernel::Segments(..) => self.projected_contact(&kernel, options, prediction),
            Kernel::Boxes(a, b) => self.box_contact(a, b, options, prediction),
            Kernel::Polygons(a, b) => self.polygon_contact(&a, &b, options, prediction),
            Kernel::SegmentBox { ends, half, box_is_a } => {
                self.segment_box_contact(ends, half, box_is_a, options, prediction)
            }
            Kernel::Mpr { .. } | Kernel::Gjk => None,
        }
    }

    /// The full contact query with options and a warm-start cache (shared with [`Pair::gjk`]:
    /// pass the same cache every frame for a coherent pair). Allocation-free, unless the
    /// expansion in 3D outgrows its stack storage (more than 68 support points: deep overlaps of
    /// big hulls, or curved shapes that run to the cap) and moves to the heap.
    ///
    /// ```
    /// use gjk::{Capsule, ContactOptions, Pair, Pose, WarmStart};
    /// use glam::DVec3;
    /// let capsule = Capsule::new(DVec3::new(-1.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 0.0), 0.5)?;
    /// let options = ContactOptions { prediction: 0.1, ..Default::default() };
    /// let mut cache = WarmStart::default();
    /// for (height, expected) in [(0.8, Some(0.2)), (1.05, Some(-0.05)), (1.2, None)] {
    ///     let pose_b = Pose::from_translation(DVec3::new(0.3, height, 0.0))?;
    ///     let r = Pair::new(&capsule, Pose::IDENTITY, &capsule, pose_b)
    ///         .contact_with(&options, &mut cache);
    ///     assert_eq!(r.epa, None); // the cores stay apart: GJK alone answers
    ///     match (r.contact, expected) {
    ///         (Some(c), Some(depth)) => assert!((c.depth - depth).abs() < 1e-12),
    ///         (None, None) => {}
    ///         other => panic!("{other:?}"),
    ///     }
    /// }
    /// # Ok::<(), gjk::ShapeError>(())
    /// ```
    pub fn contact_with(
        &self,
        options: &ContactOptions<V::Real>,
        warm: &mut WarmStart<V>,
    ) -> ContactResult<V> {
        if let Some(result) = self.shortcut(options) {
            return result;
        }
        self.general_contact(options, warm)
    }

    /// [`Pair::contact_with`] by GJK and EPA, when no closed form answers.
    fn general_contact(
        &self,
        options: &ContactOptions<V::Real>,
        warm: &mut WarmStart<V>,
    ) -> ContactResult<V> {
        // NaN and negative predictions count as 0 (`max` would keep a NaN).
        let prediction =
            if options.prediction > V::Real::ZERO { options.prediction } else { V::Real::ZERO };
        if let Some(result) = self.expanded_from_cap(options, warm) {
            return result;
        }
        let mut gjk_iterations = 0;
        // The intersection probe settles pairs apart by more than the prediction cheaply (a
        // separating axis); a pair whose cores were apart but within reach last time most
        // likely still is, and needs the distance run anyway.
        if prediction.is_finite() && !warm.apart {
            let r = self.probe(prediction, &options.gjk, warm);
            if !r.intersecting {
                return ContactResult::unexpanded(None, r.termination, r.iterations);
            }
            gjk_iterations = r.iterations;
            // The probe ran on the same cores (inflating B only grows its margin): when it
            // found them overlapping, a distance run would end the same way, so EPA starts
            // from the probe's simplex.
            if r.termination == Termination::Contained {
                return self.expanded(&r.simplex, options, r.termination, gjk_iterations, warm);
            }
        }
        let r = self.gjk(Goal::Distance, &options.gjk, warm);
        let mut result =
            ContactResult::unexpanded(None, r.termination, gjk_iterations + r.iterations);
        let margins = self.margins();
        if r.termination != Termination::Contained && r.normal != V::ZERO {
            let depth = margins - r.closest.length();
            // Touching within GJK's tolerance is a contact, as for `intersects`.
            let touching = r.intersecting || -depth <= prediction;
            warm.apart = touching;
            if touching {
                result.contact = Some(Contact {
                    depth,
                    normal: r.normal,
                    point_a: r.point_a,
                    point_b: r.point_b,
                    status: ContactStatus::Gjk(r.termination),
                });
            }
            return result;
        }
        warm.apart = false;
        self.expanded(&r.simplex, options, r.termination, result.gjk_iterations, warm)
    }

    /// The witness points of cores that EPA finds apart (`depth < 0`: GJK stopped on a
    /// simplex within its tolerance of the origin, and the expansion's nearest facet has the
    /// origin outside) or touching when it stopped short (its witnesses are then chosen again
    /// on the faces across the normal, which at a cylinder's rim can be a tolerance's multiple
    /// off the shape: 3.7e-4 above a cap, 17 tolerances): GJK's own closest points, each put
    /// on its shape's supporting plane of `normal` (one support call), then moved by halves of
    /// what is left so that `a − b = depth × normal`.
    ///
    /// The facet's barycentric combination is the wrong place there. Its corners' points of A
    /// and B can lie far apart while their differences nearly meet (a segment's two ends
    /// against nearly one point of a cone's rim: a sliver of the difference as long as the
    /// segment), so a rounding-sized error of the weights moves the witnesses along the
    /// segment by many tolerances, off the contact. GJK's simplex is the distance problem's own
    /// answer, a convex combination of support points within the tolerance of each other (or
    /// around the origin: then in both cores, whose overlap is no deeper than the tolerance),
    /// so both points lie on the cores to within it.
    #[cold]
    fn touching_witnesses(&self, simplex: &Simplex<V>, normal: V, depth: V::Real) -> (V, V) {
        let (a, b) = simplex.witnesses();
        let s = self.support(normal);
        let (a, b) = (a + normal * normal.dot(s.a - a), b + normal * normal.dot(s.b - b));
        let r = (a - b - normal * depth) * V::Real::HALF;
        (a - r, b + r)
    }

    /// The contact found by EPA from the cap around last query's face that `warm` holds (see
    /// [`WarmStart::store_points`]), when the polytope of those points (at the new pose)
    /// holds the origin: the cores overlap, and GJK is not needed to show it. `None` when
    /// there is no cap or its polytope does not hold the origin (the query then runs GJK).
    #[inline]
    fn expanded_from_cap(
        &self,
        options: &ContactOptions<V::Real>,
        warm: &mut WarmStart<V>,
    ) -> Option<ContactResult<V>> {
        let stored = warm.cap();
        if V::DIM != 3 || stored.is_empty() {
            return None;
        }
        let rel = self.relative_pose();
        let mut points = [Vertex { w: V::ZERO, a: V::ZERO }; CAP];
        for (p, &(a, b_local)) in points.iter_mut().zip(stored) {
            // B's point placed as `Pair::support_hinted` places it.
            *p = Vertex { w: a - rel.transform_point(b_local), a };
        }
        let Some((p, cap)) = penetration_from_cap(self, &points[..stored.len()], &options.epa)
        else {
            warm.drop_cap();
            return None;
        };
        Some(self.settled(p, cap, None, options, (Termination::Contained, 0), warm))
    }

    /// The contact found by EPA from `simplex`, a GJK simplex that holds the origin (the
    /// cores overlap). A converged expansion leaves in `warm` the support points around its
    /// answer's facet (the difference's face nearest the origin): the face's corners, the
    /// vertex farthest behind it and, in 3D, the vertices across its edges (in 2D the point of
    /// `simplex` farthest behind the face). For a coherent pair the next query then expands
    /// from those points at the new pose ([`Pair::expanded_from_cap`]), whose polytope
    /// usually still holds the origin and has last frame's face nearest it, or else seeds GJK
    /// with the face and the point behind it, a tetrahedron that often still holds the origin.
    /// The answer does not depend on where the expansion starts (any polytope of support
    /// points around the origin converges to the nearest face), only its step count.
    fn expanded(
        &self,
        simplex: &Simplex<V>,
        options: &ContactOptions<V::Real>,
        gjk_termination: Termination,
        gjk_iterations: u32,
        warm: &mut WarmStart<V>,
    ) -> ContactResult<V> {
        let (p, cap) = penetration_facet(self, simplex, &options.epa, !warm.scratch);
        let gjk = (gjk_termination, gjk_iterations);
        self.settled(p, cap, Some(simplex), options, gjk, warm)
    }

    /// The contact of an expansion's answer `p`: its cap stored in `warm` (with the point of
    /// GJK's `simplex` farthest behind the face when the cap has none: 2D), the normal
    /// polished for curved cores, the witnesses of a touching answer taken from `simplex`
    /// (`None`: the expansion started from last query's cap, without GJK).
    fn settled(
        &self,
        mut p: Penetration<V>,
        cap: Option<Cap<V>>,
        simplex: Option<&Simplex<V>>,
        options: &ContactOptions<V::Real>,
        (gjk_termination, gjk_iterations): (Termination, u32),
        warm: &mut WarmStart<V>,
    ) -> ContactResult<V> {
        let simplex_points = simplex.map_or(&[][..], |s| s.points());
        match cap {
            Some(cap) => {
                let rel = self.relative_pose();
                let face = &cap.points()[..cap.face];
                let behind = (cap.len == cap.face)
                    .then(|| {
                        let from_gjk = simplex_points.iter();
                        from_gjk.filter(|q| face.iter().all(|v| v.w != q.w)).min_by(|q, r| {
                            let (dq, dr) = (p.normal.dot(q.w), p.normal.dot(r.w));
                            dq.partial_cmp(&dr).unwrap_or(core::cmp::Ordering::Equal)
                        })
                    })
                    .flatten()
                    .map(|q| (q.a, q.b_local));
                let points =
                    cap.points().iter().map(|v| (v.a, rel.inverse_transform_point(v.a - v.w)));
                warm.store_points(points.chain(behind), V::DIM + 1, cap.len > cap.face);
            }
            None => warm.drop_cap(),
        }
        // Curved cores: EPA's normal is good to about √ε; Newton's method makes it exact. Two
        // flat cores make a polytope difference, where the converged answer is exact already
        // and the polish would cost a few support calls to answer "no step helped". An
        // expansion that stopped short (rounding, the cap) has the best upper bound it found,
        // and its witnesses come from a facet that is not the answer's feature: the polish
        // starts from that normal too (it keeps only a stationary normal whose support value
        // is no larger, so the depth stays an upper bound).
        let curved = || !(self.a().core().is_flat() && self.b().core().is_flat());
        let mut polished = false;
        if p.termination != EpaTermination::Flat && curved() {
            // A converged depth is the expansion's lower bound (its facet), which tells a
            // polytope's face; a stopped one is an upper bound, which tells nothing.
            let converged = p.termination == EpaTermination::Converged;
            let bound = if converged { p.depth } else { -V::Real::INFINITY };
            if let Some(q) = polish(self, p.normal, bound, Start::Expansion) {
                // A stopped expansion's witnesses come from a facet that is not the answer's
                // feature: only a converged one's can stand in for the polished points.
                let (a, b) = if converged {
                    q.witnesses(q.depth, (p.point_a, p.point_b), Some(self))
                } else {
                    q.support.witnesses_apart(q.normal * q.depth)
                };
                (p.normal, p.depth, p.point_a, p.point_b) = (q.normal, q.depth, a, b);
                polished = true;
            }
        }
        // Cores apart within the tolerance, or an expansion that stopped short at a touching
        // depth: GJK's closest points are the better witnesses (see `touching_witnesses`).
        let stopped_touching = || {
            p.termination != EpaTermination::Converged
                && p.depth <= self.tolerance(options.gjk.tolerance).distance()
        };
        if let Some(simplex) = simplex.filter(|_| !polished) {
            if p.depth < V::Real::ZERO || stopped_touching() {
                (p.point_a, p.point_b) = self.touching_witnesses(simplex, p.normal, p.depth);
            }
        }
        let mut contact = self.contact_of_cores(p.normal, p.point_a, p.point_b, p.depth);
        contact.status = ContactStatus::Epa(p.termination);
        ContactResult {
            contact: Some(contact),
            gjk_termination,
            gjk_iterations,
            epa: Some(p.termination),
            epa_iterations: p.iterations,
        }
    }
}

impl<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized> Pair<'_, V, A, B> {
    /// The answer from one exact projection of the cores (two segment cores, as capsule
    /// against capsule: [`Core::Segment`]) when they are apart — GJK's answer without
    /// its loop or the early-out test; `None` to run the general query (cores touching, or no
    /// projection).
    #[inline]
    fn projected_contact(
        &self,
        kernel: &Kernel<'_, V>,
        options: &ContactOptions<V::Real>,
        prediction: V::Real,
    ) -> Option<ContactResult<V>> {
        let projected = self.projection(kernel)?;
        let p = projected.points;
        let margins = self.margins();
        // The exact touching distance costs a rotation and a square root; an upper bound of it
        // (`Pair::touch_bound`) settles most pairs: beyond the prediction plus the bound, no
        // contact (without the normal or the witnesses, three more rotations); beyond the bound
        // alone, the cores do not touch. Most pairs beyond it are told from `|w|²`, without
        // the square root that ends the kernel's dependency chain.
        let bound = self.touch_bound(options.gjk.tolerance);
        let out_of_reach = margins + (prediction + bound);
        if length_beyond(projected.gap.length_squared(), out_of_reach) {
            return Some(ContactResult::unexpanded(None, Termination::Converged, 1));
        }
        let core_distance = projected.distance();
        if core_distance > out_of_reach {
            return Some(ContactResult::unexpanded(None, Termination::Converged, 1));
        }
        let touch = || self.tolerance(options.gjk.tolerance).distance();
        if core_distance <= bound && core_distance <= touch() {
            return None;
        }
        // From A toward B: b − a = −w.
        let normal = unit(-p.w)?;
        let contact = self.contact_along(normal, p.a, -core_distance);
        let reach = || prediction + touch();
        Some(analytic(
            contact,
            Some(core_distance),
            margins,
            prediction,
            reach,
            Termination::Converged,
        ))
    }

    /// The answer of the separating-axis test for two box cores (half extents `a`, `b`); see
    /// [`Pair::axis_contact`].
    #[inline]
    fn box_contact(
        &self,
        a: V,
        b: V,
        options: &ContactOptions<V::Real>,
        prediction: V::Real,
    ) -> Option<ContactResult<V>> {
        let test = box_pair(a, b, self.relative_pose());
        let touch = || self.tolerance(options.gjk.tolerance).distance();
        self.axis_contact(test, touch, prediction)
    }

    /// The answer of the separating-axis test for two polygon cores in 2D (or a box against a
    /// polygon); see [`Pair::axis_contact`].
    #[inline]
    fn polygon_contact(
        &self,
        a: &Core<'_, V>,
        b: &Core<'_, V>,
        options: &ContactOptions<V::Real>,
        prediction: V::Real,
    ) -> Option<ContactResult<V>> {
        let test = with_polygons(a, b, |a, b| polygon_pair(a, b, self.relative_pose()))?;
        let touch = || self.tolerance(options.gjk.tolerance).distance();
        if let AxisTest::Apart { gap } = test {
            // Apart within reach (a lower bound proves no contact only beyond `apart_bound`):
            // the exact closest points answer (GJK and EPA for cores within the touching
            // distance, as for two segments).
            if gap <= prediction + apart_bound(self.margins(), touch()) {
                let kernel = Kernel::Polygons(*a, *b);
                return self.projected_contact(&kernel, options, prediction);
            }
        }
        self.axis_contact(test, touch, prediction)
    }

    /// A segment core against a box core, in the box's frame (where the box's faces are
    /// coordinates), taken to A's frame: the cores' exact closest points
    /// ([`segment_box_closest`]) when they are apart beyond the touching distance (as for two
    /// segments, [`Pair::projected_contact`]), the separating-axis test's depth, normal and
    /// witnesses when they overlap (see [`Pair::axis_contact`]); `None` (GJK and EPA) for
    /// cores apart within the touching distance, or numbers the kernels decline.
    #[inline]
    fn segment_box_contact(
        &self,
        ends: [V; 2],
        half: V,
        box_is_a: bool,
        options: &ContactOptions<V::Real>,
        prediction: V::Real,
    ) -> Option<ContactResult<V>> {
        let in_box = self.segment_in_box(ends, box_is_a);
        let closest = segment_box_closest(in_box, half)?;
        let core_distance = closest.gap().length();
        let margins = self.margins();
        // Beyond the prediction plus the touching distance's bound: no contact, found without
        // the normal or the witnesses (see `Pair::projected_contact`).
        let bound = self.touch_bound(options.gjk.tolerance);
        if core_distance > margins + (prediction + bound) {
            return Some(ContactResult::unexpanded(None, Termination::Converged, 1));
        }
        let touch = || self.tolerance(options.gjk.tolerance).distance();
        if core_distance > bound || core_distance > touch() {
            let p = self.segment_box_support(&closest, ends, box_is_a);
            // From A toward B: b − a = −w.
            let normal = unit(-p.w)?;
            let contact = self.contact_along(normal, p.a, -core_distance);
            let reach = || prediction + touch();
            let termination = Termination::Converged;
            return Some(analytic(
                contact,
                Some(core_distance),
                margins,
                prediction,
                reach,
                termination,
            ));
        }
        // Touching or overlapping cores: the depth by the separating-axis test. Its answer
        // has the box as A, in the box's frame: B's frame when the box is B.
        let test = match segment_box(in_box, half)? {
            AxisTest::Overlap { depth, normal, point_a, point_b } if !box_is_a => {
                let rel = self.relative_pose();
                AxisTest::Overlap {
                    depth,
                    normal: -rel.transform_vector(normal),
                    point_a: rel.transform_point(point_b),
                    point_b: rel.transform_point(point_a),
                }
            }
            test => test,
        };
        self.axis_contact(test, touch, prediction)
    }

    /// A separating-axis test's answer as a contact: the exact contact when the cores overlap,
    /// no contact when they are farther apart than the prediction distance; `None` (run the
    /// general query) when the cores are apart but possibly within reach, where the distance
    /// needs GJK. `touch` is GJK's touching distance for these cores.
    #[inline]
    fn axis_contact(
        &self,
        test: AxisTest<V>,
        touch: impl FnOnce() -> V::Real,
        prediction: V::Real,
    ) -> Option<ContactResult<V>> {
        let (contact, termination) = match test {
            AxisTest::Apart { gap } => {
                // `gap` is a lower bound of the cores' distance: it proves no contact only
                // beyond the prediction and `apart_bound` (twice GJK's touching distance,
                // relative to the same size: centres' distance and extents); nearer, the
                // shapes may count as touching where GJK measures them: GJK decides.
                let reach = prediction + apart_bound(self.margins(), touch());
                if gap <= reach {
                    return None;
                }
                (None, Termination::SeparatingAxis)
            }
            AxisTest::Overlap { depth, normal, point_a, point_b } => {
                let contact = self.contact_of_cores(normal, point_a, point_b, depth);
                (Some(contact), Termination::Contained)
            }
        };
        Some(ContactResult::unexpanded(contact, termination, 0))
    }

    /// The contact whose cores' witness points (A's frame) are `core_a` and `core_b`, overlapping
    /// by `core_depth` along `normal` (from A toward B): the margins push the points out to the
    /// surfaces and add to the depth; the result is in world coordinates, with an
    /// [exact](ContactStatus::Exact) status (the EPA path sets its own).
    #[inline(always)]
    pub(crate) fn contact_of_cores(
        &self,
        normal: V,
        core_a: V,
        core_b: V,
        core_depth: V::Real,
    ) -> Contact<V> {
        let (margin_a, margin_b) = (self.a().margin(), self.b().margin());
        let pose = self.pose_a();
        Contact {
            depth: core_depth + margin_a + margin_b,
            normal: pose.transform_vector(normal),
            point_a: pose.transform_point(core_a + normal * margin_a),
            point_b: pose.transform_point(core_b - normal * margin_b),
            status: ContactStatus::Exact,
        }
    }

    /// [`Pair::contact_of_cores`] when the cores' witness points differ by `−core_depth ×
    /// normal` (up to rounding), as the closed forms' do: a point core and its projection or
    /// exit point, two segments' or a segment and a box's closest points. B's point is then
    /// A's moved back by the contact's depth: one rotation fewer, and
    /// `point_a − point_b = depth × normal` up to one rounding.
    #[inline(always)]
    fn contact_along(&self, normal: V, core_a: V, core_depth: V::Real) -> Contact<V> {
        let margin_a = self.a().margin();
        let depth = core_depth + margin_a + self.b().margin();
        let pose = self.pose_a();
        let normal = pose.transform_vector(normal);
        let point_a = pose.transform_point(core_a) + normal * margin_a;
        Contact {
            depth,
            normal,
            point_a,
            point_b: point_a - normal * depth,
            status: ContactStatus::Exact,
        }
    }
}

/// The result of a query answered without iterating: one "GJK iteration", no expansion; the
/// contact kept when the cores overlap or are at most `margins + reach` apart (`reach`: the
/// prediction distance plus GJK's touching distance), compared in the form
/// [`Pair::intersects`] uses, so that shapes it calls touching have a contact.
#[inline]
///
/// `reach` is computed only for a gap beyond `margins + prediction` (within it, the gap is kept
/// whatever the touching distance: `margins + reach` rounds to at least `margins + prediction`).
fn analytic<V: Vector>(
    contact: Contact<V>,
    core_distance: Option<V::Real>,
    margins: V::Real,
    prediction: V::Real,
    reach: impl FnOnce() -> V::Real,
    termination: Termination,
) -> ContactResult<V> {
    let kept = core_distance.is_none_or(|d| d <= margins + prediction || d <= margins + reach());
    ContactResult::unexpanded(kept.then_some(contact), termination, 1)
}

/// A point against a shape's core, in that shape's frame: see [`against_point`].
struct PointAgainst<V: Vector> {
    /// The depth of the point in the core: `> 0` inside, minus the distance when outside.
    depth: V::Real,
    /// The unit normal out of the core, toward the point when outside.
    normal: V,
    /// The point of the core's boundary nearest to the point (the closest point when outside).
    boundary: V,
    /// Whether the point lies in the core (or within the touching tolerance of it).
    inside: bool,
}

/// Point `p` (in `shape`'s frame) against `shape`'s core: the projection when `p` is outside,
/// the nearest boundary point when inside; `None` when the shape can compute neither.
///
/// "Inside" is GJK's touching rule: a gap of at most the pair's touching distance `touch`
/// ([`Pair::touch`]), as for [`Pair::intersects`]. A shorter gap's direction would be rounding
/// noise (a segment's projection carries the rounding of the segment's length); the core's own
/// boundary answer decides there.
///
/// `touch` is computed only when the gap is at most `bound`, an upper bound of it; `Some(None)`
/// when `p` is farther than `far` from the core (an upper bound of the contact's reach, at
/// least `bound`): no contact, found without the touching distance or the normal.
#[inline]
fn against_point<V: Vector>(
    core: &Core<'_, V>,
    p: V,
    touch: impl FnOnce() -> V::Real,
    bound: V::Real,
    far: V::Real,
) -> Option<Option<PointAgainst<V>>> {
    let (closest, gap) = offset_from_core(core, p)?;
    // A length, not a square: a tiny gap's square underflows to 0.
    let distance = gap.length();
    if distance > far {
        return Some(None);
    }
    if distance > bound || distance > touch() {
        if let Some(normal) = unit(gap) {
            return Some(Some(PointAgainst {
                depth: -distance,
                normal,
                boundary: closest,
                inside: false,
            }));
        }
    }
    let exit = core.nearest_boundary(p)?;
    Some(Some(PointAgainst {
        depth: exit.depth,
        normal: exit.normal,
        boundary: exit.point,
        inside: true,
    }))
}

impl<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized> Pair<'_, V, A, B> {
    /// The analytic answer when a core is a single point (see the
    /// [module docs](mod@crate::contact)), or `None` to run the general query.
    #[inline]
    fn point_contact(
        &self,
        kernel: &Kernel<'_, V>,
        options: &ContactOptions<V::Real>,
        prediction: V::Real,
    ) -> Option<ContactResult<V>> {
        let rel = self.relative_pose();
        let margins = self.margins();
        // The touching distance's bound, and farther than `far` no contact (see
        // `Pair::projected_contact`).
        let bound = self.touch_bound(options.gjk.tolerance);
        let far = margins + (prediction + bound);
        let touch = || self.tolerance(options.gjk.tolerance).distance();
        let apart = || Some(ContactResult::unexpanded(None, Termination::Converged, 1));
        // In A's frame: the normal from A toward B, A's point on its core, the cores' depth.
        let (normal, core_a, hit) = match *kernel {
            Kernel::PointOnB { a, b } => {
                // A's point against B, measured in B's frame: B's outward normal points from B
                // toward A.
                let Some(hit) =
                    against_point(&b, rel.inverse_transform_point(a), touch, bound, far)?
                else {
                    return apart();
                };
                (-rel.transform_vector(hit.normal), a, hit)
            }
            Kernel::PointOnA { a, b: b_local } => {
                let b = rel.transform_point(b_local);
                let Some(hit) = against_point(&a, b, touch, bound, far)? else {
                    return apart();
                };
                (hit.normal, hit.boundary, hit)
            }
            _ => return None,
        };
        let contact = self.contact_along(normal, core_a, hit.depth);
        let termination = if hit.inside { Termination::Contained } else { Termination::Converged };
        let core_distance = (!hit.inside).then_some(-hit.depth);
        let reach = || prediction + touch();
        Some(analytic(contact, core_distance, margins, prediction, reach, termination))
    }
}

/// The contact of shape `a` at `pose_a` and shape `b` at `pose_b`: their penetration, or their
/// gap when it is at most `prediction`; `None` when they are farther apart.
///
/// `depth > 0` is a penetration and `depth ≤ 0` a gap of `−depth`; the normal points from A
/// toward B; `point_a − point_b = depth × normal` (points on the surfaces, world coordinates).
///
/// ```
/// use gjk::{contact, Cuboid, Pose};
/// use glam::DVec3;
/// let cube = Cuboid::new(DVec3::ONE)?;
/// let here = Pose::IDENTITY;
/// let overlapping = Pose::from_translation(DVec3::new(0.0, 0.0, 1.5))?;
/// let c = contact(&cube, &here, &cube, &overlapping, 0.0).unwrap();
/// assert!((c.depth - 0.5).abs() < 1e-12);                  // 0.5 deep …
/// assert!((c.normal - DVec3::Z).length() < 1e-12);         // … along +z, from A toward B
/// assert!((c.point_a.z - 1.0).abs() < 1e-12 && (c.point_b.z - 0.5).abs() < 1e-12);
///
/// let apart = Pose::from_translation(DVec3::new(0.0, 0.0, 2.25))?;
/// assert!(contact(&cube, &here, &cube, &apart, 0.0).is_none());
/// let near = contact(&cube, &here, &cube, &apart, 0.5).unwrap(); // within the prediction
/// assert!((near.depth + 0.25).abs() < 1e-12);               // a gap of 0.25
/// # Ok::<(), gjk::ShapeError>(())
/// ```
pub fn contact<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    prediction: V::Real,
) -> Option<Contact<V>> {
    Pair::new(a, *pose_a, b, *pose_b).contact(prediction)
}

/// [`contact()`] with options (prediction distance, GJK and EPA tuning); the whole result, with
/// how GJK and EPA ended.
///
/// ```
/// use gjk::{contact_with, ContactOptions, Cuboid, Pose};
/// use glam::DVec3;
/// let cube = Cuboid::new(DVec3::ONE)?;
/// let over = Pose::from_translation(DVec3::new(0.0, 0.0, 1.5))?;
/// let r = contact_with(&cube, &Pose::IDENTITY, &cube, &over, &ContactOptions::default());
/// let c = r.contact.unwrap();
/// assert!((c.depth - 0.5).abs() < 1e-12 && c.status.is_accurate());
/// # Ok::<(), gjk::ShapeError>(())
/// ```
pub fn contact_with<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    options: &ContactOptions<V::Real>,
) -> ContactResult<V> {
    Pair::new(a, *pose_a, b, *pose_b).contact_with(options, &mut WarmStart::scratch())
}
