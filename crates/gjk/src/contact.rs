//! Contact: penetration depth, normal and witness points — or the gap — in one query.
//!
//! A physics engine's narrow phase wants, for each pair the broad phase hands it, either
//! "no contact" or a contact: how deep, along which normal, at which points. The query:
//! 1. **early out** (prediction distance `δ`): a GJK intersection test on A against B inflated by
//!    `δ` stops at the first separating axis — pairs farther apart than `δ` cost little;
//! 2. **GJK distance** on the cores (warm-started by step 1): if the cores are apart, the answer
//!    is GJK's: `depth = margins − core distance`, normal and points from the cores' closest
//!    points pushed out by the margins. Balls, capsules and rounded shapes therefore answer
//!    shallow penetrations without EPA;
//! 3. **EPA** ([`crate::epa`]) when the cores overlap; the margins are added to its depth and
//!    the witness points pushed out along the normal.
//!
//! # Convention
//! One signed quantity: `depth > 0` is a penetration, `depth ≤ 0` a gap of `−depth`. In both
//! cases the normal is the unit vector from A toward B, `point_a` and `point_b` lie on the
//! surfaces of A and B (world coordinates), and
//! `point_a − point_b = depth × normal`.
//! Translating B by `depth × normal` brings the shapes into touching contact: further along
//! the normal they are apart, less far they overlap.

use crate::epa::{penetration, EpaOptions, EpaTermination};
use crate::gjk::{GjkOptions, Goal, Pair, Termination, WarmStart};
use crate::math::{Pose, Real, Vector};
use crate::shape::Support;

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
/// assert_eq!(narrow_phase.epa.max_iterations, 64);
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
    /// Support calls of the GJK runs together.
    pub gjk_iterations: u32,
    /// How the expansion ended, or `None` when GJK alone answered (the cores are apart).
    pub epa: Option<EpaTermination>,
    /// Support points the expansion added (not counting the completion of a lower-dimensional
    /// GJK simplex).
    pub epa_iterations: u32,
}

/// B with its margin grown by the prediction distance: the intersection test on it answers
/// "closer than the prediction distance?".
struct Inflated<'s, S: ?Sized, R> {
    shape: &'s S,
    extra: R,
}

impl<V: Vector, S: Support<V> + ?Sized> Support<V> for Inflated<'_, S, V::Real> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.shape.support(dir)
    }
    #[inline]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        self.shape.support_hinted(dir, hint)
    }
    #[inline]
    fn margin(&self) -> V::Real {
        self.shape.margin() + self.extra
    }
    #[inline]
    fn center(&self) -> V {
        self.shape.center()
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
    pub fn contact(&self, prediction: V::Real) -> Option<Contact<V>> {
        let options = ContactOptions { prediction, ..ContactOptions::default() };
        self.contact_with(&options, &mut WarmStart::default()).contact
    }

    /// The full contact query with options and a warm-start cache (shared with [`Pair::gjk`]:
    /// pass the same cache every frame for a coherent pair). Allocation-free.
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
        let prediction = options.prediction.max(V::Real::ZERO);
        let mut gjk_iterations = 0;
        if prediction.is_finite() {
            let inflated = Inflated { shape: self.b(), extra: prediction };
            let probe = Pair::new(self.a(), Pose::IDENTITY, &inflated, *self.relative_pose());
            let r = probe.gjk(Goal::Intersection, &options.gjk, warm);
            if !r.intersecting {
                return ContactResult {
                    contact: None,
                    gjk_termination: r.termination,
                    gjk_iterations: r.iterations,
                    epa: None,
                    epa_iterations: 0,
                };
            }
            gjk_iterations = r.iterations;
        }
        let r = self.gjk(Goal::Distance, &options.gjk, warm);
        let mut result = ContactResult {
            contact: None,
            gjk_termination: r.termination,
            gjk_iterations: gjk_iterations + r.iterations,
            epa: None,
            epa_iterations: 0,
        };
        let margins = self.a().margin() + self.b().margin();
        if r.termination != Termination::Contained && r.normal != V::ZERO {
            let depth = margins - r.closest.length();
            if -depth <= prediction {
                result.contact = Some(Contact {
                    depth,
                    normal: r.normal,
                    point_a: r.point_a,
                    point_b: r.point_b,
                });
            }
            return result;
        }
        let p = penetration(self, &r.simplex, &options.epa);
        result.epa = Some(p.termination);
        result.epa_iterations = p.iterations;
        let normal = p.normal;
        let contact = Contact {
            depth: p.depth + margins,
            normal: self.pose_a().transform_vector(normal),
            point_a: self.pose_a().transform_point(p.point_a + normal * self.a().margin()),
            point_b: self.pose_a().transform_point(p.point_b - normal * self.b().margin()),
        };
        result.contact = Some(contact);
        result
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
