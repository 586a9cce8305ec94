//! Time of impact under rotation and translation: conservative advancement.
//!
//! # The problem
//! Each shape moves rigidly with a constant linear velocity `v` and a constant angular
//! velocity `ω` about its position (the translation of its pose): at time `t` its pose is
//!
//! ```text
//! R(t) = exp(t ω) R₀        (2D: the angle θ₀ + ω t)
//! p(t) = p₀ + t v
//! ```
//!
//! ([`Motion::pose_at`]). The **time of impact** is the first `t ∈ [0, max_toi]` at which the
//! shapes come within the target separation `σ` (the *linear slop*, [`ToiOptions::linear_slop`]):
//! physics engines keep a small gap so that the next step's contact is found before the shapes
//! overlap.
//!
//! # The algorithm: conservative advancement along separating axes
//! Mirtich, "Impulse-based dynamic simulation of rigid body systems" (PhD thesis, 1996), §2.3,
//! with the per-axis rate of Zhang, Redon, Lee & Kim (2007) and an arc bound of our own for
//! longer steps.
//!
//! At the current time `t` the GJK distance query ([`Pair::gjk`], warm-started from the
//! previous step) gives the distance `d` and the unit normal `n` from A toward B. Fix `n`.
//! For any later time `t'` the **slab** between the shapes along `n`,
//!
//! ```text
//! s(t') = n·(p_B − p_A) − h_A(n) − h_B(−n),    h_S(u) = max_{x ∈ S(t')} u·(x − p_S),
//! ```
//!
//! bounds their distance from below (a positive `s` is an empty slab of width `s` between
//! them). The loop measures `s(t)` itself (one support call per shape), so nothing rests on how
//! well GJK converged. A shape's support value along `n` changes, by the envelope theorem,
//! at the rate `(n × ω)·(x* − p)` where `x*` is the support point; a margin's support point
//! lies along `n` itself, so only the core counts, and `|x* − p| ≤ r`, the core's **reach**
//! (largest distance from the centre, [`reach`]). Hence for every `t' ≥ t`
//!
//! ```text
//! s(t') ≥ s(t) − (t' − t) μ,    μ = n·(v_A − v_B) + |n × ω_A| r_A + |n × ω_B| r_B
//! ```
//!
//! (2D: `|ω|` for `|n × ω|`). With `σ` the slop:
//! * `d ≤ σ`: a **hit** at `t`;
//! * `μ ≤ 0`: the slab never narrows: **no hit**, ever;
//! * otherwise the step `Δt = (s(t) − σ/2)/μ` is safe: the slab stays `σ/2` wide.
//!
//! `μ` takes the worst turning at every instant, so for tumbling shapes that step is short.
//! A longer one is certified by the **arc bound**: over `[t, t + Δ]`, seen from A, the
//! direction `n` turns along a circular arc by the angle `Θ = |ω_A| Δ` (at most a quarter
//! turn). The arc lies in the triangle of its ends `u₀`, `u₁` and the apex
//! `u_m = a + (m − a)/cos(Θ/2)` where their tangents meet (`m` the arc's midpoint, `a` the part
//! of `n` along `ω_A`), and `h_A` is convex, so `max over the arc ≤ max(h_A(u₀), h_A(u₁),
//! h_A(u_m))`: three support calls bound A's support value over the whole interval, to within
//! `O(r Θ²)`. The same for B; the offset `n·(p_B − p_A)` is affine in time, so its least value
//! is at an end. The ends and apex come from Rodrigues' formula in each shape's frame, set up
//! once per step, so an evaluation costs one `sin_cos` and two support calls per turning shape.
//! The longest certified step (up to the remaining interval or a quarter turn) is the root of
//! the bound's excess over `σ/2`: a safeguarded Newton search from the certified side, with the
//! bound's exact slope (the support points are the support functions' gradients), falling
//! back to regula falsi (the Illinois variant) once an evaluation falls short, at most
//! [`MAX_REFINEMENTS`] evaluations, stopping once the certified slab is within `σ/4` of the
//! goal (about 2.5 evaluations per step on tumbling boxes, against 4.2 for regula falsi from
//! the quarter turn alone). Without turning `μ` is the exact closing speed along `n` and the
//! first step is already exact.
//!
//! When GJK's normal is unusable (zero), Mirtich's direction-free bound
//! `d(t') ≥ d_low − (t' − t)(|v_A − v_B| + |ω_A| R_A + |ω_B| R_B)` (`d_low` GJK's certified lower
//! bound of the distance, `R` the full reach) gives the step; the loop takes the longer of the
//! two safe steps.
//!
//! # Guarantee
//! Every step is conservative: on `[t, t + Δt]` the shapes stay at least `σ/2` apart, so they
//! are at least `σ/2` apart at every time before the reported `toi`, and a **miss is reported
//! only when a bound proves that they never come within `σ/2` in `[0, max_toi]`**. A pair that
//! touches in the interval is therefore never missed. This rests on the reach being a true
//! upper bound (it is the smaller of two bounds that hold for any correct [`Support`]
//! implementation, rounded up) and on the support function being exact; floating-point
//! rounding of the slab is subtracted before each step, and the default `σ` is far above it.
//! The loop never advances on a bound it cannot trust: it reports a hit instead (early, never
//! late).
//!
//! At a hit the shapes are between `σ/2` (less rounding) and `σ` apart. Pure translation takes
//! one or two steps; tumbling shapes a few more (about six on random tumbling pairs). A pair
//! that slides past at a few slops' distance while turning is the slow case: every fixed axis
//! closes faster than the distance does, and the steps stay short. Every loop is bounded by
//! [`ToiOptions::max_iterations`] (and the refinements); at the cap the result says so
//! ([`CastStatus::IterationCap`]) and `toi` is still a lower bound. Nothing allocates.
//!
//! # Semantics
//! * **Initial overlap**: shapes that touch or overlap at `t = 0` give
//!   [`CastStatus::InitiallyOverlapping`], `toi = 0`, and the penetration query's normal and
//!   points ([`Pair::contact_with`]), with `distance = −depth`. Shapes apart but within `σ` at
//!   `t = 0` give a [`CastStatus::Hit`] at `toi = 0`.
//! * **Pure translation** (`ω = 0`): the same question as [`crate::shape_cast`] with a target
//!   distance; `μ` is then the exact closing speed along `n`.
//! * Non-finite velocities, a negative or NaN `max_toi`, or a rotation angle `|ω| max_toi` that
//!   is not finite give [`CastStatus::InvalidInput`].

use crate::cast::CastStatus;
use crate::contact::ContactOptions;
use crate::epa::EpaOptions;
use crate::gjk::{GjkOptions, GjkResult, Goal, Termination, WarmStart};
use crate::math::{Pose, Real, Rotation, Vector};
use crate::pair::Pair;
use crate::shape::{full_support, Support};

/// How a shape moves: a start pose, a constant linear velocity and a constant angular velocity
/// about the shape's position (its pose's translation).
///
/// ```
/// use gjk::{Motion, Pose, Vector};
/// use glam::DVec2;
/// use core::f64::consts::FRAC_PI_2;
/// // A bar along x at the origin, spinning a quarter turn per unit time, drifting up.
/// let spin = Motion::new(Pose::IDENTITY, DVec2::new(0.0, 1.0), FRAC_PI_2);
/// let pose = spin.pose_at(1.0);
/// assert!((pose.translation() - DVec2::new(0.0, 1.0)).length() < 1e-12);
/// assert!((pose.transform_vector(DVec2::X) - DVec2::Y).length() < 1e-12); // turned by 90°
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion<V: Vector> {
    /// The pose at `t = 0`.
    pub start: Pose<V>,
    /// The linear velocity of the shape's position (world coordinates, units per unit time).
    pub linear: V,
    /// The angular velocity about the shape's position, in radians per unit time: a scalar in
    /// 2D (counter-clockwise), a rotation vector (axis × rate) in 3D, world coordinates.
    pub angular: V::Angular,
}

impl<V: Vector> Motion<V> {
    /// The motion from `start` with `linear` and `angular` velocity.
    #[inline]
    pub fn new(start: Pose<V>, linear: V, angular: V::Angular) -> Self {
        Self { start, linear, angular }
    }

    /// A shape that stays at `pose`.
    #[inline]
    pub fn stationary(pose: Pose<V>) -> Self {
        Self::new(pose, V::ZERO, V::Angular::default())
    }

    /// A shape that translates with `linear` velocity without turning.
    #[inline]
    pub fn translating(start: Pose<V>, linear: V) -> Self {
        Self::new(start, linear, V::Angular::default())
    }

    /// The pose at time `t`: rotation `exp(t ω) R₀`, translation `p₀ + t v`.
    #[inline]
    pub fn pose_at(&self, t: V::Real) -> Pose<V> {
        let rotation = V::spin(self.angular, t).compose(&self.start.rotation());
        Pose::from_rotation_translation(rotation, self.start.translation() + self.linear * t)
    }

    /// Whether the velocities are finite and the rotation angle over `[0, max_toi]` is too.
    fn is_valid(&self, max_toi: V::Real) -> bool {
        let rate = V::spin_rate(self.angular);
        let angle_finite = rate == V::Real::ZERO || (rate * max_toi).is_finite();
        self.linear.is_finite() && rate.is_finite() && angle_finite
    }
}

/// Tuning of a time-of-impact query.
///
/// ```
/// use gjk::ToiOptions;
/// let ccd = ToiOptions::<f32> { linear_slop: Some(0.005), ..Default::default() };
/// assert_eq!(ccd.max_iterations, 64);
/// assert_eq!(ToiOptions::<f64>::default().linear_slop, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToiOptions<R> {
    /// The target separation `σ`: the query reports the first time the shapes come within
    /// `σ` (they are then at least `σ/2` apart). `None` (the default):
    /// [`ToiOptions::RELATIVE_SLOP`] times the smaller reach of the two shapes (the larger,
    /// if the smaller is 0). A value that is not positive, or smaller than GJK's touching
    /// tolerance allows, is raised to four times that tolerance (see [`ToiResult::linear_slop`]).
    pub linear_slop: Option<R>,
    /// The most distance queries (advancement steps); the query then reports
    /// [`CastStatus::IterationCap`] with a conservative `toi`.
    pub max_iterations: u32,
    /// Options of the GJK distance query run at each step.
    pub gjk: GjkOptions<R>,
}

impl<R: Real> ToiOptions<R> {
    /// The default slop as a fraction of the smaller shape's reach: 1/1000.
    pub const RELATIVE_SLOP: f64 = 1e-3;
}

impl<R: Real> Default for ToiOptions<R> {
    fn default() -> Self {
        Self { linear_slop: None, max_iterations: 64, gjk: GjkOptions::default() }
    }
}

/// Everything a time-of-impact query found, in world coordinates.
///
/// Points, normal and distance are those at time `toi` for [`CastStatus::Hit`],
/// [`CastStatus::InitiallyOverlapping`] and [`CastStatus::IterationCap`]; they are zero for
/// [`CastStatus::NoHit`] and [`CastStatus::InvalidInput`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToiResult<V: Vector> {
    /// How the query ended.
    pub status: CastStatus,
    /// The time of impact: 0 for an initial overlap, a conservative lower bound at the
    /// iteration cap (the shapes are at least `σ/2` apart before it), `max_toi` for no hit.
    pub toi: V::Real,
    /// The closest point of A at time `toi` (for an initial overlap: A's deepest point).
    pub point_a: V,
    /// The closest point of B at time `toi` (for an initial overlap: B's deepest point).
    pub point_b: V,
    /// The unit normal from A toward B at time `toi`; for an initial overlap the penetration
    /// normal (zero when undefined).
    pub normal: V,
    /// The distance of the shapes at time `toi`: within `[σ/2, σ]` for a hit (less rounding),
    /// minus the penetration depth for an initial overlap.
    pub distance: V::Real,
    /// The target separation `σ` in force (see [`ToiOptions::linear_slop`]).
    pub linear_slop: V::Real,
    /// The number of advancement steps (each one GJK distance query).
    pub iterations: u32,
    /// The support calls of all GJK runs together.
    pub gjk_iterations: u32,
}

impl<V: Vector> ToiResult<V> {
    /// Whether the shapes come within the slop in `[0, max_toi]` (a hit or an initial overlap).
    pub fn is_hit(&self) -> bool {
        matches!(self.status, CastStatus::Hit | CastStatus::InitiallyOverlapping)
    }

    fn without_contact(status: CastStatus, toi: V::Real, slop: V::Real) -> Self {
        Self {
            status,
            toi,
            point_a: V::ZERO,
            point_b: V::ZERO,
            normal: V::ZERO,
            distance: V::Real::ZERO,
            linear_slop: slop,
            iterations: 0,
            gjk_iterations: 0,
        }
    }
}

/// The largest distance of a point of `shape` (margin included) from its local origin, the
/// centre it turns about: an upper bound, the smaller of two that any correct support
/// function gives.
///
/// * The core lies in the box spanned by its support points along `± each axis`; the box's
///   corner farthest from the origin bounds every point's distance.
/// * The core lies in the ball of radius [`Support::extent`] about [`Support::center`].
///
/// Rounded up by a few units in the last place: the bound must not be short.
///
/// ```
/// use gjk::{reach, Ball, Cuboid};
/// use glam::DVec3;
/// let cube = Cuboid::new(DVec3::new(1.0, 2.0, 2.0))?;
/// assert!((reach(&cube) - 3.0).abs() < 1e-12);          // the corner (1, 2, 2)
/// assert!((reach(&Ball::<DVec3>::new(0.5)?) - 0.5).abs() < 1e-12);
/// # Ok::<(), gjk::ShapeError>(())
/// ```
pub fn reach<V: Vector, S: Support<V> + ?Sized>(shape: &S) -> V::Real {
    core_reach(shape) + shape.margin() * round_up::<V::Real>()
}

/// [`reach`] of the core alone (without the margin).
fn core_reach<V: Vector, S: Support<V> + ?Sized>(shape: &S) -> V::Real {
    let mut far = [V::Real::ZERO; 3];
    for (i, slot) in far.iter_mut().enumerate().take(V::DIM) {
        let high = shape.support(V::axis(i)).component(i);
        let low = shape.support(-V::axis(i)).component(i);
        *slot = high.abs().max(low.abs());
    }
    let corner = V::from_components(far).length();
    let ball = shape.center().length() + shape.extent();
    let core = if ball < corner { ball } else { corner };
    core * round_up::<V::Real>()
}

/// `1 + 8 ulp`: rounds a computed bound up past its own rounding.
fn round_up<R: Real>() -> R {
    R::ONE + R::from_f64(8.0) * R::EPSILON
}

/// A shape's support value along a world direction, and that direction in the shape's frame.
#[derive(Clone, Copy, Debug)]
struct Extent<V: Vector> {
    /// `h(u) = max_{x ∈ shape} u·(x − p)` (margin included).
    value: V::Real,
    /// `u` in the shape's frame.
    local: V,
    /// The support point along `u` (shape's frame, margin included): the gradient of `h`.
    point: V,
}

impl<V: Vector> Extent<V> {
    /// The extent of `shape` at `pose` along the world direction `dir`.
    #[inline]
    fn of<S: Support<V> + ?Sized>(shape: &S, pose: &Pose<V>, dir: V) -> Self {
        Self::local(shape, pose.inverse_transform_vector(dir))
    }

    /// The extent of `shape` along `local`, a direction in its own frame.
    #[inline]
    fn local<S: Support<V> + ?Sized>(shape: &S, local: V) -> Self {
        let point = full_support(shape, local);
        Self { value: point.dot(local), local, point }
    }
}

/// The separation of the two shapes along a fixed world direction `n` at one time, in parts.
#[derive(Clone, Copy, Debug)]
struct Slab<V: Vector> {
    /// `n·(p_B − p_A)`: how far apart the positions are along `n`.
    offset: V::Real,
    /// A's extent along `n`.
    a: Extent<V>,
    /// B's extent along `−n`.
    b: Extent<V>,
}

impl<V: Vector> Slab<V> {
    /// The width of the empty slab between the shapes along `n` (negative when their
    /// projections overlap): a lower bound of their distance.
    fn width(&self) -> V::Real {
        self.offset - self.a.value - self.b.value
    }
}

/// How a shape's extent along a fixed world direction changes while it turns, in the shape's
/// own frame.
///
/// Over `[t, t + Δ]` the shape turns by `θ = |ω| Δ` about the unit axis `k`, so the direction
/// `n`, seen from the shape, turns the other way: from `u₀` (at `t`) along
///
/// ```text
/// u(θ) = a + (u₀ − a) cos θ − c sin θ,    a = (k·n) k,  c = k × n   (in the frame at t)
/// ```
///
/// (Rodrigues' formula). The tangents at `u₀` and `u(θ)` meet at `u₀ − c tan(θ/2)`, the apex of
/// the arc bound ([`Arc::max_extent`]). Computed once per step: each evaluation of the bound
/// is then one `sin_cos` and two support calls per turning shape, no rotation of poses.
#[derive(Clone, Copy, Debug)]
struct Arc<V: Vector> {
    /// `|ω|`; 0 when the shape does not turn.
    rate: V::Real,
    /// `a`: the part of the direction along the spin axis, in the shape's frame at `t`.
    axial: V,
    /// `c = k × n` in the shape's frame at `t` (zero when `n` lies along the axis).
    tangent: V,
}

impl<V: Vector> Arc<V> {
    /// The arc of the world direction `dir` for a shape at `pose` turning by `motion`.
    #[inline]
    fn new(motion: &Motion<V>, pose: &Pose<V>, dir: V) -> Self {
        let rate = V::spin_rate(motion.angular);
        if !rate.is_positive() {
            return Self { rate: V::Real::ZERO, axial: V::ZERO, tangent: V::ZERO };
        }
        Self {
            rate,
            axial: pose.inverse_transform_vector(V::along_spin_axis(motion.angular, dir)),
            tangent: pose.inverse_transform_vector(V::spin_tangent(motion.angular, dir)),
        }
    }

    /// The largest extent of `shape` along the direction over `[t, t + dt]` (a turn of at
    /// most a quarter), given the extent `start` at `t`, and the rate at which that bound
    /// grows with `dt` (the search's Newton steps use it).
    ///
    /// The arc lies in the triangle of its two ends and the apex where their tangents meet,
    /// and a support function is convex: its largest value on the triangle is at a corner.
    /// For `θ ≤ π/2`, `tan(θ/2) = sin θ / (1 + cos θ)` divides by at least 1. The rates: a
    /// support function's gradient is its support point (envelope theorem), the end moves by
    /// `u′(θ) = −(u₀ − a) sin θ − c cos θ`, the apex by `−c / (1 + cos θ)`, per radian.
    #[inline]
    fn max_extent<S: Support<V> + ?Sized>(
        &self,
        shape: &S,
        start: &Extent<V>,
        dt: V::Real,
    ) -> Bound<V::Real> {
        if !self.rate.is_positive() {
            return Bound { value: start.value, slope: V::Real::ZERO };
        }
        let (sin, cos) = (self.rate * dt).sin_cos();
        let radial = start.local - self.axial;
        let end = Extent::local(shape, self.axial + radial * cos - self.tangent * sin);
        let apex = Extent::local(shape, start.local - self.tangent * (sin / (V::Real::ONE + cos)));
        let mut best = Bound { value: start.value, slope: V::Real::ZERO };
        if end.value > best.value {
            let turning = -(radial * sin + self.tangent * cos);
            best = Bound { value: end.value, slope: self.rate * end.point.dot(turning) };
        }
        if apex.value > best.value {
            let slope = -self.rate * apex.point.dot(self.tangent) / (V::Real::ONE + cos);
            best = Bound { value: apex.value, slope };
        }
        best
    }

    /// The rate at which [`Arc::max_extent`] grows at `dt = 0`: the end's, when it grows.
    #[inline]
    fn start_slope(&self, start: &Extent<V>) -> V::Real {
        let slope = -self.rate * start.point.dot(self.tangent);
        if slope.is_positive() {
            slope
        } else {
            V::Real::ZERO
        }
    }
}

/// A bound's value at one step length and its rate of change with the step length there.
#[derive(Clone, Copy, Debug)]
struct Bound<R> {
    value: R,
    slope: R,
}

/// Where a step starts: the time, the slab along the step's normal then, and how each
/// shape's extent along it turns.
struct Start<V: Vector> {
    t: V::Real,
    slab: Slab<V>,
    arcs: (Arc<V>, Arc<V>),
}

/// The fixed inputs of one query.
struct Setup<'m, V: Vector> {
    motion_a: &'m Motion<V>,
    motion_b: &'m Motion<V>,
    /// The reaches of A and B (margin included): every point's distance from its centre.
    reach: (V::Real, V::Real),
    /// The reaches of the cores: a margin's support point lies along the normal, so only the
    /// core's turning moves support values (see the module docs).
    core_reach: (V::Real, V::Real),
    /// `p_B(0) − p_A(0)`, subtracted once so that offsets along `n` keep their precision.
    start_offset: V,
    /// `v_B − v_A`.
    relative_velocity: V,
    slop: V::Real,
    max_toi: V::Real,
    /// `|v_A − v_B| + |ω_A| r_A + |ω_B| r_B`: the fastest the distance can shrink.
    speed_bound: V::Real,
    /// `|ω_A| r_A + |ω_B| r_B` (cores): how fast an error in the turning angle moves points.
    turn_speed: V::Real,
    /// The longest time in which neither shape turns by more than a quarter turn (infinite
    /// when neither turns): the arc bound's validity.
    quarter_turn: V::Real,
}

/// What one step decided.
enum Step<R> {
    /// Advance to this time.
    Advance(R),
    /// The shapes are within the slop (or cannot safely get closer): a hit now.
    Hit,
    /// They stay apart for the rest of the interval.
    Miss,
}

/// How far a step along one axis may go.
enum Stretch<R> {
    /// This much: the slab stays at least `σ/2` wide until then.
    By(R),
    /// To `max_toi` and beyond: no hit.
    Beyond,
}

/// The most bound evaluations when looking for the longest certified step along one axis.
pub const MAX_REFINEMENTS: u32 = 8;

impl<V: Vector> Setup<'_, V> {
    /// The poses at time `t`.
    #[inline]
    fn poses(&self, t: V::Real) -> (Pose<V>, Pose<V>) {
        (self.motion_a.pose_at(t), self.motion_b.pose_at(t))
    }

    /// The slab along `n` at time `t`, with the shapes at `poses` (those at `t`).
    fn slab<A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
        &self,
        (a, b): (&A, &B),
        n: V,
        t: V::Real,
        (pose_a, pose_b): &(Pose<V>, Pose<V>),
    ) -> Slab<V> {
        Slab {
            offset: n.dot(self.start_offset + self.relative_velocity * t),
            a: Extent::of(a, pose_a, n),
            b: Extent::of(b, pose_b, -n),
        }
    }

    /// The rounding of a slab width at time `t`: a few units in the last place of the
    /// coordinates involved, and of the turning angles `|ω| t` (whose rounding turns the
    /// shapes by a few units in the last place of the angle).
    fn rounding(&self, t: V::Real) -> V::Real {
        let offset = self.start_offset.abs_sum() + (self.relative_velocity * t).abs_sum();
        let angles = self.turn_speed * t * V::Real::from_f64(0.25);
        V::Real::from_f64(32.0) * V::Real::EPSILON * (offset + self.reach.0 + self.reach.1 + angles)
    }

    /// The closing-speed bound `μ` along the fixed normal `n`: `n·(v_A − v_B)` plus what the
    /// cores' turning can add.
    fn rate_along(&self, n: V) -> V::Real {
        -n.dot(self.relative_velocity)
            + V::spin_rate_along(self.motion_a.angular, n) * self.core_reach.0
            + V::spin_rate_along(self.motion_b.angular, n) * self.core_reach.1
    }

    /// One advancement step at time `t`, from the distance query `r` there.
    fn step<A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
        &self,
        shapes: (&A, &B),
        pair: &Pair<'_, V, A, B>,
        poses: &(Pose<V>, Pose<V>),
        r: &GjkResult<V>,
        t: V::Real,
        tolerance: V::Real,
    ) -> Step<V::Real> {
        let goal = self.slop * V::Real::HALF;
        if r.distance <= self.slop {
            return Step::Hit;
        }
        let rounding = self.rounding(t);
        let mut advance = V::Real::ZERO;
        if r.normal != V::ZERO {
            // Along GJK's normal: the slab is measured, not taken from GJK.
            let slab = self.slab(shapes, r.normal, t, poses);
            let gap = slab.width() - rounding - goal;
            if gap.is_positive() {
                let rate = self.rate_along(r.normal);
                if !rate.is_positive() {
                    return Step::Miss; // the slab never narrows
                }
                let arcs = (
                    Arc::new(self.motion_a, &poses.0, r.normal),
                    Arc::new(self.motion_b, &poses.1, -r.normal),
                );
                let start = Start { t, slab, arcs };
                match self.stretch(shapes, r.normal, &start, gap / rate) {
                    Stretch::By(dt) => advance = dt,
                    Stretch::Beyond => return Step::Miss,
                }
            }
        }
        // Direction-free: GJK's lower bound of the distance (its duality gap closed).
        if matches!(r.termination, Termination::Converged | Termination::NoProgress) {
            let touch = pair.tolerance(tolerance).distance();
            let low = r.distance - tolerance * r.distance - touch - rounding;
            let gap = low - goal;
            if gap.is_positive() {
                if !self.speed_bound.is_positive() {
                    return Step::Miss; // nothing moves
                }
                advance = advance.max(gap / self.speed_bound);
            }
        }
        if !advance.is_positive() {
            // Within σ plus GJK's tolerance of touching, or no bound to trust: stop here,
            // early rather than late.
            return Step::Hit;
        }
        let next = t + advance;
        if !next.is_finite() || next > self.max_toi {
            return Step::Miss;
        }
        Step::Advance(next)
    }

    /// The longest step from `t` along the fixed normal `n` that the arc bound certifies,
    /// at least `safe` (certified by the closing-speed bound `rate`).
    ///
    /// Without turning the slab's width is affine in time and `safe` is already exact. With
    /// turning, the step first tries the whole remaining interval (at most a quarter turn),
    /// then searches between by regula falsi (see the module docs).
    fn stretch<A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
        &self,
        shapes: (&A, &B),
        n: V,
        start: &Start<V>,
        safe: V::Real,
    ) -> Stretch<V::Real> {
        let t = start.t;
        let remaining = self.max_toi - t;
        let turning = self.quarter_turn.is_finite();
        if !turning || !remaining.is_finite() {
            return if safe >= remaining { Stretch::Beyond } else { Stretch::By(safe) };
        }
        if safe >= remaining {
            return Stretch::Beyond;
        }
        let reach_end = remaining <= self.quarter_turn;
        let far = remaining.min(self.quarter_turn);
        if safe >= far {
            return Stretch::By(safe); // the arc bound could not go further
        }
        let goal = self.slop * V::Real::HALF;
        // A safeguarded Newton search for the root of the bound's excess over the goal,
        // `f(Δ) = bound(Δ) − σ/2`: every step length with `f ≥ 0` is certified. The bound is
        // usually convex in `Δ` (a turning vertex's extent is a sinusoid, concave, and it is
        // subtracted), so Newton's steps from the certified side undershoot and converge from
        // there; when one overshoots (a vertex change), the root is bracketed and the search
        // goes on by regula falsi (Illinois) between. It stops once a certified point is
        // within `σ/4` of the goal (the next distance query then finds the shapes within the
        // slop), after at most [`MAX_REFINEMENTS`] evaluations.
        let (mut lo, mut f_lo) = (V::Real::ZERO, start.slab.width() - self.rounding(t) - goal);
        let (a_start, b_start) = (&start.slab.a, &start.slab.b);
        let mut slope_lo = n.dot(self.relative_velocity).min(V::Real::ZERO)
            - start.arcs.0.start_slope(a_start)
            - start.arcs.1.start_slope(b_start);
        // `hi`: the end of the search, `far` until an evaluation falls short (`bracketed`,
        // with the excess `f_hi < 0` there).
        let (mut hi, mut f_hi, mut bracketed) = (far, V::Real::ZERO, false);
        let mut side = 0i8;
        for _ in 0..MAX_REFINEMENTS {
            let newton = if slope_lo < V::Real::ZERO { lo - f_lo / slope_lo } else { hi };
            let mut guess = if !bracketed {
                newton.min(hi)
            } else if newton > lo && newton < hi && side >= 0 {
                newton
            } else {
                (lo * f_hi - hi * f_lo) / (f_hi - f_lo)
            };
            if !(guess > lo && guess <= hi) || (bracketed && guess >= hi) {
                guess = (lo + hi) * V::Real::HALF;
            }
            let bound = self.lower_bound(shapes, n, start, guess);
            let f = bound.value - goal;
            if f >= V::Real::ZERO {
                if guess >= far {
                    return if reach_end { Stretch::Beyond } else { Stretch::By(far) };
                }
                lo = guess;
                f_lo = f;
                slope_lo = bound.slope;
                if f <= goal * V::Real::HALF {
                    break;
                }
                if side > 0 && bracketed {
                    f_hi *= V::Real::HALF;
                }
                side = 1;
            } else {
                hi = guess;
                f_hi = f;
                bracketed = true;
                if side < 0 {
                    f_lo *= V::Real::HALF;
                }
                side = -1;
            }
        }
        Stretch::By(lo.max(safe))
    }

    /// A lower bound of the slab's width along `n` over `[t, t + dt]`, by the arc bound
    /// (module docs), less rounding, and its rate of change with `dt` (the rounding's
    /// growth aside).
    fn lower_bound<A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
        &self,
        (a, b): (&A, &B),
        n: V,
        start: &Start<V>,
        dt: V::Real,
    ) -> Bound<V::Real> {
        let Start { t, slab, arcs } = start;
        let end_time = *t + dt;
        let end_offset = n.dot(self.start_offset + self.relative_velocity * end_time);
        let turned_a = arcs.0.max_extent(a, &slab.a, dt);
        let turned_b = arcs.1.max_extent(b, &slab.b, dt);
        let (offset, offset_slope) = if end_offset < slab.offset {
            (end_offset, n.dot(self.relative_velocity))
        } else {
            (slab.offset, V::Real::ZERO)
        };
        Bound {
            value: offset - turned_a.value - turned_b.value - self.rounding(end_time),
            slope: offset_slope - turned_a.slope - turned_b.slope,
        }
    }
}

/// The first time in `[0, max_toi]` at which shape `a` moving by `motion_a` and shape `b`
/// moving by `motion_b` come within the default linear slop; see [`time_of_impact_with`] and
/// the [module docs](mod@crate::toi).
///
/// ```
/// use gjk::{time_of_impact, CastStatus, Cuboid, Motion, Pose};
/// use glam::DVec2;
/// // A thin bar of length 4 spinning half a turn per unit time, its tip passing through a
/// // small box: one discrete step of 1 would see the bar before and after, never touching.
/// let bar = Cuboid::new(DVec2::new(2.0, 0.05))?;
/// let post = Cuboid::new(DVec2::new(0.1, 0.1))?;
/// let spinning = Motion::new(Pose::IDENTITY, DVec2::ZERO, core::f64::consts::PI);
/// let fixed = Motion::stationary(Pose::from_translation(DVec2::new(0.0, 1.5))?);
/// let r = time_of_impact(&bar, &spinning, &post, &fixed, 1.0);
/// assert_eq!(r.status, CastStatus::Hit);
/// assert!(r.toi > 0.4 && r.toi < 0.5);            // before the bar is upright (t = 0.5)
/// assert!(r.distance <= r.linear_slop);
/// # Ok::<(), gjk::ShapeError>(())
/// ```
pub fn time_of_impact<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    motion_a: &Motion<V>,
    b: &B,
    motion_b: &Motion<V>,
    max_toi: V::Real,
) -> ToiResult<V> {
    time_of_impact_with(a, motion_a, b, motion_b, max_toi, &ToiOptions::default())
}

/// [`time_of_impact`] with options (linear slop, step cap, GJK options).
///
/// ```
/// use gjk::{time_of_impact_with, Ball, CastStatus, Motion, Pose, ToiOptions};
/// use glam::DVec3;
/// let ball = Ball::<DVec3>::new(0.5)?;
/// let left = Motion::translating(Pose::from_translation(DVec3::new(-2.0, 0.0, 0.0))?, DVec3::X);
/// let right = Motion::stationary(Pose::from_translation(DVec3::new(2.0, 0.0, 0.0))?);
/// let options = ToiOptions { linear_slop: Some(0.01), ..Default::default() };
/// let r = time_of_impact_with(&ball, &left, &ball, &right, 10.0, &options);
/// assert_eq!(r.status, CastStatus::Hit);
/// // The gap of 3 closes at speed 1: within the slop between t = 2.99 and 2.995.
/// assert!(r.toi >= 2.99 - 1e-9 && r.toi <= 2.995 + 1e-9);
/// assert!((r.normal - DVec3::X).length() < 1e-9);
/// # Ok::<(), gjk::ShapeError>(())
/// ```
pub fn time_of_impact_with<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    motion_a: &Motion<V>,
    b: &B,
    motion_b: &Motion<V>,
    max_toi: V::Real,
    options: &ToiOptions<V::Real>,
) -> ToiResult<V> {
    let zero = V::Real::ZERO;
    let valid_limit = max_toi >= zero; // false for NaN too
    if !valid_limit || !motion_a.is_valid(max_toi) || !motion_b.is_valid(max_toi) {
        return ToiResult::without_contact(CastStatus::InvalidInput, zero, zero);
    }
    let core_reach = (core_reach(a), core_reach(b));
    let up = round_up::<V::Real>();
    let reach = (core_reach.0 + a.margin() * up, core_reach.1 + b.margin() * up);
    let (rate_a, rate_b) = (V::spin_rate(motion_a.angular), V::spin_rate(motion_b.angular));
    let relative_velocity = motion_b.linear - motion_a.linear;
    let fastest = rate_a.max(rate_b);
    let quarter = V::Real::from_f64(core::f64::consts::FRAC_PI_2);
    let mut setup = Setup {
        motion_a,
        motion_b,
        reach,
        core_reach,
        start_offset: motion_b.start.translation() - motion_a.start.translation(),
        relative_velocity,
        slop: zero,
        max_toi,
        speed_bound: relative_velocity.length() + rate_a * reach.0 + rate_b * reach.1,
        turn_speed: rate_a * core_reach.0 + rate_b * core_reach.1,
        quarter_turn: if fastest.is_positive() { quarter / fastest } else { V::Real::INFINITY },
    };
    setup.slop = slop(&Pair::new(a, motion_a.start, b, motion_b.start), &setup, options);
    advance((a, b), &setup, options)
}

/// The target separation `σ` (see [`ToiOptions::linear_slop`]): the caller's, or a fraction
/// of the smaller reach, but at least four times what the pair's measurements can resolve (so
/// that `σ/2` exceeds the rounding every step subtracts).
fn slop<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    start: &Pair<'_, V, A, B>,
    setup: &Setup<V>,
    options: &ToiOptions<V::Real>,
) -> V::Real {
    let tolerance = crate::tolerance::effective(options.gjk.tolerance);
    let resolution = start.tolerance(tolerance).distance() + setup.rounding(V::Real::ZERO);
    let floor = V::Real::from_f64(4.0) * resolution;
    let wanted = options.linear_slop.unwrap_or_else(|| {
        let (a, b) = setup.reach;
        let (small, large) = if a < b { (a, b) } else { (b, a) };
        let size = if small.is_positive() { small } else { large };
        V::Real::from_f64(ToiOptions::<V::Real>::RELATIVE_SLOP) * size
    });
    if wanted > floor && wanted.is_finite() {
        wanted
    } else {
        floor
    }
}

/// The advancement loop (see the [module docs](mod@crate::toi)).
fn advance<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    (a, b): (&A, &B),
    setup: &Setup<V>,
    options: &ToiOptions<V::Real>,
) -> ToiResult<V> {
    let zero = V::Real::ZERO;
    let tolerance = crate::tolerance::effective(options.gjk.tolerance);
    let mut warm = WarmStart::default();
    let mut t = zero;
    let mut iterations = 0;
    let mut gjk_iterations = 0;
    loop {
        let poses = setup.poses(t);
        let pair = Pair::new(a, poses.0, b, poses.1);
        let r = pair.gjk(Goal::Distance, &options.gjk, &mut warm);
        iterations += 1;
        gjk_iterations += r.iterations;
        let found = |status| ToiResult {
            status,
            toi: t,
            point_a: r.point_a,
            point_b: r.point_b,
            normal: r.normal,
            distance: r.distance,
            linear_slop: setup.slop,
            iterations,
            gjk_iterations,
        };
        if !r.distance.is_finite() || !r.point_a.is_finite() || !r.point_b.is_finite() {
            // The motion left the range of floating point (poses beyond it).
            let mut result = ToiResult::without_contact(CastStatus::InvalidInput, t, setup.slop);
            result.iterations = iterations;
            return result;
        }
        if r.intersecting && t == zero {
            return initial_overlap(&pair, options, &mut warm, found(CastStatus::Hit));
        }
        if r.intersecting {
            // Only rounding can bring the shapes from σ/2 apart to touching in one step.
            return found(CastStatus::Hit);
        }
        match setup.step((a, b), &pair, &poses, &r, t, tolerance) {
            Step::Hit => return found(CastStatus::Hit),
            Step::Miss => {
                let mut result =
                    ToiResult::without_contact(CastStatus::NoHit, setup.max_toi, setup.slop);
                result.iterations = iterations;
                result.gjk_iterations = gjk_iterations;
                return result;
            }
            Step::Advance(next) => {
                if iterations >= options.max_iterations || next <= t {
                    // The cap, or a step below the resolution of `t`: `t` stays a lower bound.
                    return found(CastStatus::IterationCap);
                }
                t = next;
            }
        }
    }
}

/// The answer when the shapes touch or overlap at `t = 0`: the penetration query's normal,
/// points and depth.
fn initial_overlap<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    pair: &Pair<'_, V, A, B>,
    options: &ToiOptions<V::Real>,
    warm: &mut WarmStart<V>,
    mut result: ToiResult<V>,
) -> ToiResult<V> {
    let contact_options = ContactOptions {
        prediction: V::Real::ZERO,
        gjk: options.gjk,
        epa: EpaOptions { tolerance: options.gjk.tolerance, ..EpaOptions::default() },
    };
    let found = pair.contact_with(&contact_options, warm);
    result.status = CastStatus::InitiallyOverlapping;
    result.gjk_iterations += found.gjk_iterations + found.epa_iterations;
    match found.contact {
        Some(c) => {
            result.point_a = c.point_a;
            result.point_b = c.point_b;
            result.normal = c.normal;
            result.distance = -c.depth.max(V::Real::ZERO);
        }
        None => result.normal = V::ZERO,
    }
    result
}
