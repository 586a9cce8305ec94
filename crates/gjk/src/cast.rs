//! Ray casts and shape casts: the first time of impact under linear motion.
//!
//! # The problem
//! Shape A moves by `t·v_A` and shape B by `t·v_B` (translation only). They touch at time `t`
//! exactly when the origin lies in `A − (B + t·(v_B − v_A))`, that is when `t·d ∈ C` with
//! `C = A − B` (the Minkowski difference of the shapes at rest) and `d = v_B − v_A`. The time
//! of impact is where the **ray** `x(t) = t·d` from the origin first enters `C`. A ray cast is
//! the special case where B is a single point (the ray's origin) moving along the ray.
//!
//! # The algorithm: GJK ray cast
//! van den Bergen, "Ray casting against general convex objects with application to continuous
//! collision detection" (2004), run on the cores with the margins as a distance target:
//! shapes are `core ⊕ ball(margin)`, so they touch exactly when their cores are
//! `σ = margin_A + margin_B` apart (plus an optional target gap). The loop keeps the current
//! ray point `x = λ·d̂` (`λ` = distance travelled along the unit direction `d̂`) and a GJK simplex
//! of support points `pᵢ` of the cores' difference `C`, shifted by the ray point: `wᵢ = pᵢ − x`.
//! Let `u` be the simplex's point closest to the origin (so `x + u` approximates the point of `C`
//! nearest to `x`) and `n = u/|u|`. Each iteration asks for the support point `p = s_C(−u)`:
//!
//! * every point `y ∈ C` satisfies `n·y ≥ n·p`, so the distance from `x` to `C` is at least
//!   `n·(p − x)`. If that lower bound exceeds `σ`, the ray can safely **advance** to where it
//!   reaches `σ`: `λ += (n·(p − x) − σ) / (n·d̂)`. If `n·d̂ ≤ 0` the ray never gets closer to
//!   the plane: **no hit**. If `λ` passes the limit: no hit within `max_toi`;
//! * `p` joins the simplex (all vertices re-shifted by the new `x` after an advance) and the
//!   signed-volumes sub-algorithm ([`crate::simplex`]) gives the new `u`;
//! * the cast **hits** when `|u| ≤ σ + δ`: the cores are within the tolerance `δ` of the
//!   target distance at `x`.
//!
//! Two guards keep it exact in floating point: a support point whose plane already touches the
//! simplex (duality gap closed) is not added — it would only flatten the simplex, whose
//! signed volumes then lose their sign — and when the simplex is a facet, `u` is recomputed
//! from the facet's normal (edge products), whose direction stays precise as `|u| → 0`.
//! A stall (no progress at a fixed ray point with the cores still apart by more than the
//! tolerance: an edge or vertex against a cylinder's or cone's rim, where `−u` leans toward
//! the far end of a ruling of `C`) is recovered as in GJK, by Newton's polish of the normal at
//! the ray point (Newton's method on the support function, as `contact` polishes the normals of
//! curved shapes), a few times at most.
//!
//! `λ` only grows, and only up to a plane that keeps the cores at least `σ` apart, so it is a
//! **conservative** time of impact at every step: the shapes are apart (by at least the target
//! gap) for every earlier time. The simplex keeps its vertices across advances — they are still
//! points of `C` — so, unlike conservative advancement (Mirtich 1996), which runs a whole GJK
//! distance query per step, the ray cast makes one support call per iteration and converges
//! in about as many iterations as one distance query. That is why it is used here.
//!
//! The tolerance `δ` is relative: `ε` times the size of the current simplex (the local size of
//! `C` near the ray point) plus a few rounding units of the coordinates involved. At grazing
//! incidence the time of impact is ill-conditioned (a distance error `δ` is a time error
//! `δ / (n·d)`), but the shapes at the reported time are still within `δ` of touching.
//!
//! # Closed forms
//! A ray cast against a primitive (ball, point, segment, capsule, box, rounded box, polygon,
//! small 3D hull, triangle, ellipsoid, cylinder, cone; posed by the cast's pose) skips the loop
//! below: the dispatch table's ray-cast column ([`crate::dispatch`]) names a closed form for
//! the shape's core and margin, which answers in the shape's frame with the same meaning (time
//! of impact, outward normal, initial overlap within the same touching distance) and reports
//! 0 iterations. The GJK ray cast answers for general shapes (user shapes, Minkowski sums,
//! rounded curved shapes) and where a closed form declines.
//!
//! # Semantics
//! * **Initial overlap**: when the shapes already touch or overlap at `t = 0` (distance within
//!   the target plus tolerance), a shape cast reports [`CastStatus::InitiallyOverlapping`] with
//!   `toi = 0` and the normal and points of the penetration query ([`contact`](mod@crate::contact)) — whatever
//!   the motion: compare the normal with `v_B − v_A` to tell whether they are separating. A ray
//!   starting inside a shape hits at `toi = 0` (solid shapes, the default) or, with
//!   [`RayCastOptions::solid`] off, where it leaves the shape.
//! * **Margins**: handled exactly as core + radius (see above); a ball is a point core and its
//!   cast converges in one or two iterations.
//! * **Normal** at impact: along the cores' closest points when they end apart (margins, a
//!   target gap) — accurate to the tolerance; otherwise the normal of the last plane the ray
//!   advanced to, a supporting plane through the hit point — exact on flat faces, within about
//!   `√ε` on curved cores (ellipsoids, cylinders, cones).
//! * **Cost**: polytopes and margin shapes (balls, capsules, rounded boxes) converge in a few
//!   iterations; a curved core hit at zero target distance is the touching case of GJK, which
//!   converges linearly (tens of iterations at the `f64` default tolerance): a looser tolerance
//!   or a small target distance makes it cheap. The time stays conservative at any cap.
//! * **Units**: velocities and ray directions need not be unit: `toi` is in units of them (the
//!   contact happens after moving by `toi·velocity`).
//! * Every loop is bounded by [`ShapeCastOptions::max_iterations`]; non-finite velocities,
//!   ray origins or directions, and a negative or NaN `max_toi`, give
//!   [`CastStatus::InvalidInput`]. Nothing allocates.

use crate::contact::ContactOptions;
use crate::dispatch::{self, RayKernel};
use crate::epa::EpaOptions;
use crate::gjk::{GjkOptions, WarmStart, MAX_RECOVERIES};
use crate::math::{Pose, Real, Rotation, Vector};
use crate::pair::Pair;
use crate::polish::stall_escape;
use crate::ray::{self, LocalRay, RayAnswer};
use crate::shape::{full_support, Support};
use crate::simplex::{Simplex, SupportPoint};

/// How a cast ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastStatus {
    /// The shapes first touch at `toi` (within tolerance), with the contact point(s) and normal
    /// at that time.
    Hit,
    /// The shapes already touch or overlap at `t = 0` (a ray starts inside the shape): `toi = 0`.
    InitiallyOverlapping,
    /// The shapes do not touch for any `t` in `[0, max_toi]`.
    NoHit,
    /// The iteration cap was reached. `toi` is a conservative lower bound: the shapes are apart
    /// for every earlier time (they may or may not touch later). Points and normal are the
    /// current estimates.
    IterationCap,
    /// A velocity, ray origin or direction is not finite, or `max_toi` is negative or NaN.
    /// Nothing was computed.
    InvalidInput,
}

/// Tuning of a shape cast.
///
/// ```
/// use gjk::ShapeCastOptions;
/// let ccd = ShapeCastOptions::<f32> { target_distance: 0.01, ..Default::default() };
/// assert_eq!(ccd.max_iterations, 128);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeCastOptions<R> {
    /// Relative tolerance `ε`: at the reported time the shapes are within `ε` times the local
    /// size of their Minkowski difference (plus rounding) of the target distance.
    pub tolerance: R,
    /// The most support calls the cast may make; it then reports [`CastStatus::IterationCap`].
    pub max_iterations: u32,
    /// Stop when the shapes come this close instead of touching (continuous collision
    /// detection often keeps a small gap). Negative or NaN counts as 0.
    pub target_distance: R,
}

impl<R: Real> Default for ShapeCastOptions<R> {
    fn default() -> Self {
        Self { tolerance: R::DEFAULT_TOLERANCE, max_iterations: 128, target_distance: R::ZERO }
    }
}

/// Tuning of a ray cast.
///
/// ```
/// use gjk::RayCastOptions;
/// let hollow = RayCastOptions::<f64> { solid: false, ..Default::default() };
/// assert!(RayCastOptions::<f64>::default().solid);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayCastOptions<R> {
    /// Relative tolerance `ε`, as in [`ShapeCastOptions::tolerance`].
    pub tolerance: R,
    /// The most support calls per cast (a hollow cast from inside makes two casts).
    pub max_iterations: u32,
    /// Whether shapes are solid (default): a ray starting inside hits at `toi = 0` with a zero
    /// normal. When `false`, a ray starting inside hits where it leaves the shape, with the
    /// outward normal there.
    pub solid: bool,
}

impl<R: Real> Default for RayCastOptions<R> {
    fn default() -> Self {
        Self { tolerance: R::DEFAULT_TOLERANCE, max_iterations: 128, solid: true }
    }
}

/// Everything a shape cast found, in world coordinates.
///
/// Points and normal are meaningful for [`CastStatus::Hit`], [`CastStatus::InitiallyOverlapping`]
/// and [`CastStatus::IterationCap`]; they are zero otherwise.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeCastResult<V: Vector> {
    /// How the cast ended.
    pub status: CastStatus,
    /// The time of impact: the shapes touch after moving by `toi × velocity`. 0 for an initial
    /// overlap, the conservative lower bound at the iteration cap, `max_toi` for no hit.
    pub toi: V::Real,
    /// The contact point on A at time `toi` (A moved by `toi·velocity_a`).
    pub point_a: V,
    /// The contact point on B at time `toi` (B moved by `toi·velocity_b`). With a target
    /// distance `τ`, `point_b − point_a = τ × normal`; otherwise the two coincide.
    pub point_b: V,
    /// The unit contact normal from A toward B at time `toi`. For an initial overlap: the
    /// penetration normal (zero when undefined).
    pub normal: V,
    /// The number of support calls.
    pub iterations: u32,
}

impl<V: Vector> ShapeCastResult<V> {
    /// Whether the shapes touch within `[0, max_toi]` (a hit or an initial overlap).
    pub fn is_hit(&self) -> bool {
        matches!(self.status, CastStatus::Hit | CastStatus::InitiallyOverlapping)
    }

    fn without_contact(status: CastStatus, toi: V::Real, iterations: u32) -> Self {
        Self { status, toi, point_a: V::ZERO, point_b: V::ZERO, normal: V::ZERO, iterations }
    }
}

/// Where a ray hits a shape, in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit<V: Vector> {
    /// The ray parameter of the hit: `point = origin + toi × direction` (in units of the
    /// direction, which need not be unit).
    pub toi: V::Real,
    /// The hit point, on the ray.
    pub point: V,
    /// The unit outward normal of the shape at the hit point; zero when a ray starting inside a
    /// solid shape hits at `toi = 0`.
    pub normal: V,
}

/// Everything a ray cast found, in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayCastResult<V: Vector> {
    /// How the cast ended. [`CastStatus::InitiallyOverlapping`]: the origin is inside (or on)
    /// the shape — a solid hit at `toi = 0`, or, for a hollow cast, the exit point.
    pub status: CastStatus,
    /// The hit (for [`CastStatus::Hit`] and [`CastStatus::InitiallyOverlapping`]; the
    /// conservative estimate at the iteration cap; zero otherwise).
    pub hit: RayHit<V>,
    /// The number of support calls: 0 when a closed form answered (see the
    /// [module docs](mod@crate::cast)).
    pub iterations: u32,
}

impl<V: Vector> RayCastResult<V> {
    /// The hit, if the ray hits within `max_toi` (or starts inside).
    pub fn hit(&self) -> Option<RayHit<V>> {
        matches!(self.status, CastStatus::Hit | CastStatus::InitiallyOverlapping)
            .then_some(self.hit)
    }

    fn without_hit(status: CastStatus, toi: V::Real, iterations: u32) -> Self {
        Self { status, hit: RayHit { toi, point: V::ZERO, normal: V::ZERO }, iterations }
    }
}

/// The ray's origin seen as a shape: a single point at the origin of its own frame.
struct RayOrigin;

impl<V: Vector> Support<V> for RayOrigin {
    #[inline]
    fn extent(&self) -> V::Real {
        V::Real::ZERO
    }
    #[inline]
    fn support(&self, _dir: V) -> V {
        V::ZERO
    }
}

/// How the sweep loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SweepEnd {
    /// The cores came within the target distance (plus tolerance).
    Touch,
    /// A plane keeps them apart beyond the limit.
    Miss,
    /// The iteration cap.
    Cap,
}

/// The state of the GJK ray cast, in A's frame, on the cores.
///
/// B's support points are kept where B is at the current ray point: `bᵢ = R b_localᵢ + o` with
/// `o` = B's relative translation plus `x`. All of a vertex's rounding then comes from
/// coordinates near the contact, and moving `o` shifts every vertex by the same amount: the
/// simplex's shape (hence the search direction) stays exact even when B starts far away.
struct Sweep<V: Vector> {
    /// Vertices `wᵢ = aᵢ − bᵢ` with B moved to the ray point.
    simplex: Simplex<V>,
    /// The simplex's point closest to the origin (before the first reduction: a guess).
    u: V,
    /// Distance travelled along the unit direction: the ray point is `x = λ·d̂`.
    lambda: V::Real,
    /// B's translation in A's frame at the ray point: `o = t_rel + x`.
    offset: V,
    /// The unit normal of the last advancing plane, from the ray point toward `C`.
    plane_normal: V,
    /// The touching tolerance `δ` at the end.
    touch: V::Real,
    iterations: u32,
    /// Stalls recovered so far ([`Sweep::recover`]).
    recoveries: u32,
    end: SweepEnd,
}

/// The fixed inputs of a sweep.
struct SweepSetup<V: Vector> {
    /// Unit direction of the relative motion in A's frame (zero when there is no motion).
    direction: V,
    /// The most distance the ray may travel along `direction`.
    limit: V::Real,
    /// The target distance between the cores: margins plus the target gap.
    sigma: V::Real,
    tolerance: V::Real,
    max_iterations: u32,
    /// A bound on the two poses' translations' coordinates: the relative pose, hence every
    /// ray point, carries their rounding (`ε` times this), which the cores' coordinates in
    /// A's frame do not show when the scene is far from the world's origin.
    world: V::Real,
}

/// A support point of `A − B` at the current ray point, with B's point rotated (not yet
/// translated) kept for re-translation after an advance.
struct Probe<V> {
    a: V,
    b_rotated: V,
    b_local: V,
}

impl<V: Vector> Probe<V> {
    fn at(&self, offset: V) -> SupportPoint<V> {
        SupportPoint::new(self.a, self.b_rotated + offset, self.b_local)
    }
}

impl<V: Vector> Sweep<V> {
    /// `ε × local size + rounding`: how close to `σ` the cores must come to count as touching.
    fn touch_distance(&self, setup: &SweepSetup<V>) -> V::Real {
        let mut local = setup.sigma;
        let mut coordinates = self.lambda.max(self.offset.max_abs()).max(setup.world);
        for p in self.simplex.points() {
            local = local.max(p.w.length());
            coordinates = coordinates.max(p.a.max_abs()).max(p.b.max_abs());
        }
        let rounding = V::Real::from_f64(16.0) * V::Real::EPSILON;
        (setup.tolerance + rounding) * local + rounding * coordinates
    }

    /// Moves the ray point to `lambda`: B's vertices follow.
    fn advance_to<A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
        &mut self,
        pair: &Pair<'_, V, A, B>,
        setup: &SweepSetup<V>,
        lambda: V::Real,
    ) {
        self.lambda = lambda;
        self.offset = pair.relative_pose().translation() + setup.direction * lambda;
        // The weights stay: a stall restores this simplex and stops (`Sweep::run`), and its
        // witnesses were then a combination with no weights, the origin of A's frame: both
        // points of a hit at A's position (an ellipsoid against a rounded cylinder, f64). After
        // a real advance the loop reduces the simplex again anyway.
        let (relative, offset) = (pair.relative_pose(), self.offset);
        self.simplex.map_points(|p| {
            SupportPoint::new(p.a, relative.transform_vector(p.b_local) + offset, p.b_local)
        });
    }

    /// Whether the cores are within the target distance: stores the tolerance used.
    fn touching(&mut self, setup: &SweepSetup<V>) -> bool {
        self.touch = self.touch_distance(setup);
        self.simplex.len() == V::DIM + 1 || self.u.length() <= setup.sigma + self.touch
    }

    fn stop(mut self, end: SweepEnd) -> Self {
        self.end = end;
        self
    }

    /// Runs the GJK ray cast (see the module docs).
    fn run<A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
        pair: &Pair<'_, V, A, B>,
        setup: &SweepSetup<V>,
    ) -> Self {
        let mut sweep = Sweep {
            simplex: Simplex::new(),
            u: first_guess(pair, setup.direction),
            lambda: V::Real::ZERO,
            offset: pair.relative_pose().translation(),
            plane_normal: V::ZERO,
            touch: V::Real::ZERO,
            iterations: 0,
            recoveries: 0,
            end: SweepEnd::Cap,
        };
        let mut hints = [0u32; 2];
        while sweep.iterations < setup.max_iterations {
            sweep.iterations += 1;
            let Some(n) = sweep.u.direction() else {
                return sweep.stop(SweepEnd::Touch);
            };
            let probe = support(pair, -sweep.u, &mut hints);
            // Lower bound of the cores' distance at the ray point: n·(a − b).
            let gap = n.dot(probe.at(sweep.offset).w);
            // Duality gap closed: the simplex already reaches C's boundary plane along n, so
            // the new point adds nothing (and would only flatten the simplex).
            let touch = sweep.touch_distance(setup);
            let redundant = !sweep.simplex.is_empty() && sweep.u.length() - gap <= touch;
            // Whether the ray point moves by more than the tolerance (a step within rounding
            // is still taken, but does not count as progress).
            let mut advanced = false;
            if gap > setup.sigma {
                let approach = n.dot(setup.direction);
                if !approach.is_positive() {
                    return sweep.stop(SweepEnd::Miss);
                }
                let next = sweep.lambda + (gap - setup.sigma) / approach;
                let within_limit = next <= setup.limit; // false for NaN too
                if !within_limit {
                    return sweep.stop(SweepEnd::Miss);
                }
                sweep.advance_to(pair, setup, next);
                sweep.plane_normal = n;
                advanced = gap - setup.sigma > touch;
            }
            let p = probe.at(sweep.offset);
            let previous = (sweep.simplex, sweep.u);
            if redundant || sweep.simplex.contains(&p) {
                if !advanced {
                    // Nothing new at this ray point: GJK has converged here, and its lower bound
                    // is within σ (no advance) — the cores touch up to the tolerance. A step
                    // within rounding may still have moved the ray point and rebuilt the
                    // simplex: its barycentric coordinates (hence the witness points) are
                    // those of the current ray point only after a reduction.
                    let closest = sweep.simplex.reduce();
                    sweep.u = refine(&sweep.simplex, closest);
                    sweep.touch = sweep.touch_distance(setup);
                    return sweep.stop(SweepEnd::Touch);
                }
            } else {
                sweep.simplex.push(p);
            }
            let closest = sweep.simplex.reduce();
            sweep.u = refine(&sweep.simplex, closest);
            if sweep.touching(setup) {
                return sweep.stop(SweepEnd::Touch);
            }
            let stalled = !advanced
                && !previous.0.is_empty()
                && sweep.u.length_squared() >= previous.1.length_squared();
            if stalled {
                // The closest point no longer improves at a fixed ray point: rounding, or a
                // ruled patch of `C` (see `recover`).
                (sweep.simplex, sweep.u) = previous;
                let recovered = !sweep.touching(setup) && sweep.recover(pair, &p);
                if !recovered || sweep.touching(setup) {
                    return sweep.stop(SweepEnd::Touch);
                }
            }
        }
        sweep.touch = sweep.touch_distance(setup);
        sweep.stop(SweepEnd::Cap)
    }

    /// The contact normal from A toward B, in A's frame: along the closest points when the
    /// cores are clearly apart (margins, target gap) and the duality gap along them is closed,
    /// else the last advancing plane's.
    ///
    /// A stall can end the loop with `u` not converged: a hull vertex at a cylinder's rim (f32)
    /// left `|u|` at 1e-6, above twice the touching distance, while the support point along
    /// `−u` lay 4.4e-6 beyond the ray point; that normal let the hull's vertex stick through
    /// the contact plane. The advancing plane supports `C` by construction, so it is the
    /// answer whenever `−u` is not confirmed by one more support call.
    fn normal<A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
        &self,
        pair: &Pair<'_, V, A, B>,
    ) -> V {
        let plane = -self.plane_normal;
        let twice_touch = self.touch + self.touch;
        let length = self.u.length();
        if length <= twice_touch {
            return plane;
        }
        let Some(n) = self.u.direction() else { return plane };
        let gap = n.dot(support(pair, -self.u, &mut [0; 2]).at(self.offset).w);
        if length - gap <= twice_touch {
            -n
        } else {
            plane
        }
    }

    /// A stall at a fixed ray point with the cores still farther apart than the tolerance:
    /// the case of GJK's stall recovery (`Run::recover`, a polytope's edge or vertex against a
    /// cylinder's rim, where `−u` leans toward the ruling's far end). Newton's polish of the
    /// normal at the ray point finds the support point on the near end; where it finds none,
    /// the stalled support point `stalled`'s points are paired anew with the simplex's
    /// ([`Simplex::recombined`]). The point joins the simplex when it brings `u` closer.
    /// `true` when it did (the loop goes on), `false` to stop.
    #[cold]
    fn recover<A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
        &mut self,
        pair: &Pair<'_, V, A, B>,
        stalled: &SupportPoint<V>,
    ) -> bool {
        if self.recoveries >= MAX_RECOVERIES {
            return false;
        }
        self.recoveries += 1;
        let rotation = pair.relative_pose().rotation();
        let here =
            Pair { relative: Pose::from_rotation_translation(rotation, self.offset), ..*pair };
        let Some(n) = (-self.u).direction() else { return false };
        let escape = stall_escape(&here, n, -self.u.length(), false)
            .map(|(p, _)| p)
            .filter(|p| !self.simplex.contains(p));
        let recombined = || self.simplex.recombined(stalled, self.u.length_squared());
        let Some(p) = escape.or_else(recombined) else { return false };
        let previous = (self.simplex, self.u);
        self.simplex.push(p);
        let closest = self.simplex.reduce();
        self.u = refine(&self.simplex, closest);
        if self.u.length_squared() < previous.1.length_squared() {
            return true;
        }
        (self.simplex, self.u) = previous;
        false
    }
}

/// The closest point `u` recomputed from the facet's normal when the simplex is a facet (a
/// segment in 2D, a triangle in 3D) with `u` inside it.
///
/// Near the hit `|u|` is tiny next to the vertices, and `u = Σ λᵢ wᵢ` carries rounding of the
/// vertices' size, so its direction degrades as `|u|` shrinks (badly in `f32`). The facet's
/// normal ([`Simplex::hull_normal`]) keeps full relative precision; `u = (n·w₀) n`.
fn refine<V: Vector>(simplex: &Simplex<V>, u: V) -> V {
    if simplex.len() != V::DIM {
        return u;
    }
    let Some(n) = simplex.hull_normal(u) else { return u };
    let height = n.dot(simplex.points()[0].w);
    if height.is_positive() {
        n * height
    } else {
        u
    }
}

/// The support point of the cores' difference along `dir`, B's point rotated into A's frame.
#[inline]
fn support<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    pair: &Pair<'_, V, A, B>,
    dir: V,
    hints: &mut [u32; 2],
) -> Probe<V> {
    let a = pair.a().support_hinted(dir, &mut hints[0]);
    let relative = pair.relative_pose();
    let b_local = pair.b().support_hinted(relative.inverse_transform_vector(-dir), &mut hints[1]);
    Probe { a, b_rotated: relative.transform_vector(b_local), b_local }
}

/// The first search direction: from the ray point toward `C`'s centre (from B's centre toward
/// A's), else against the motion, else any axis.
fn first_guess<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    pair: &Pair<'_, V, A, B>,
    direction: V,
) -> V {
    let centre = pair.a().center() - pair.relative_pose().transform_point(pair.b().center());
    if centre.direction().is_some() {
        centre
    } else if direction.direction().is_some() {
        direction
    } else {
        V::axis(0)
    }
}

impl<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized> Pair<'_, V, A, B> {
    /// The first time of impact when A moves by `t·velocity_a` and B by `t·velocity_b`
    /// (world velocities, no rotation), `t ∈ [0, max_toi]`, with default options.
    ///
    /// ```
    /// use gjk::{Ball, CastStatus, Pair, Pose};
    /// use glam::DVec2;
    /// let ball = Ball::<DVec2>::new(1.0).unwrap();
    /// let pair = Pair::new(&ball, Pose::IDENTITY, &ball,
    ///     Pose::from_translation(DVec2::new(10.0, 0.0)).unwrap());
    /// let r = pair.shape_cast(DVec2::new(1.0, 0.0), DVec2::new(-1.0, 0.0), 10.0);
    /// assert_eq!(r.status, CastStatus::Hit);
    /// assert!((r.toi - 4.0).abs() < 1e-12); // each moved 4: the gap of 8 closed
    /// ```
    pub fn shape_cast(&self, velocity_a: V, velocity_b: V, max_toi: V::Real) -> ShapeCastResult<V> {
        self.shape_cast_with(velocity_a, velocity_b, max_toi, &ShapeCastOptions::default())
    }

    /// The shape cast with options (tolerance, iteration cap, target distance); see the
    /// [module docs](mod@crate::cast) for the algorithm and the semantics.
    ///
    /// ```
    /// use gjk::{CastStatus, Cuboid, Pair, Pose, ShapeCastOptions};
    /// use glam::DVec3;
    /// let cube = Cuboid::new(DVec3::ONE).unwrap();
    /// let pair = Pair::new(&cube, Pose::IDENTITY, &cube,
    ///     Pose::from_translation(DVec3::new(0.0, 0.0, 5.0)).unwrap());
    /// let keep_gap = ShapeCastOptions { target_distance: 0.5, ..Default::default() };
    /// let r = pair.shape_cast_with(DVec3::ZERO, DVec3::new(0.0, 0.0, -2.0), 10.0, &keep_gap);
    /// assert_eq!(r.status, CastStatus::Hit);
    /// assert!((r.toi - 1.25).abs() < 1e-12);             // moved 2.5 of the 3 apart
    /// assert!((r.normal - DVec3::Z).length() < 1e-12);   // from A toward B
    /// assert!((r.point_b.z - r.point_a.z - 0.5).abs() < 1e-12);
    /// ```
    pub fn shape_cast_with(
        &self,
        velocity_a: V,
        velocity_b: V,
        max_toi: V::Real,
        options: &ShapeCastOptions<V::Real>,
    ) -> ShapeCastResult<V> {
        let relative = velocity_b - velocity_a;
        if !velocity_a.is_finite() || !velocity_b.is_finite() || !relative.is_finite() {
            return ShapeCastResult::without_contact(CastStatus::InvalidInput, V::Real::ZERO, 0);
        }
        let valid_limit = max_toi >= V::Real::ZERO; // false for NaN too
        if !valid_limit {
            return ShapeCastResult::without_contact(CastStatus::InvalidInput, V::Real::ZERO, 0);
        }
        let target = options.target_distance.max(V::Real::ZERO);
        let target = if target.is_finite() { target } else { V::Real::ZERO };
        let local = self.pose_a().inverse_transform_vector(relative);
        let direction = local.direction().unwrap_or(V::ZERO);
        let speed = direction.dot(local);
        let limit = if speed.is_positive() { max_toi * speed } else { V::Real::ZERO };
        let tolerance =
            if options.tolerance > V::Real::ZERO { options.tolerance } else { V::Real::EPSILON };
        let setup = SweepSetup {
            direction,
            limit,
            sigma: self.a().margin() + self.b().margin() + target,
            tolerance,
            max_iterations: options.max_iterations,
            // B's translation is A's plus the relative one rotated: at most this far out.
            world: self.pose_a().translation().max_abs()
                + self.relative_pose().translation().length(),
        };
        let sweep = Sweep::run(self, &setup);
        let iterations = sweep.iterations;
        match sweep.end {
            SweepEnd::Miss => {
                ShapeCastResult::without_contact(CastStatus::NoHit, max_toi, iterations)
            }
            SweepEnd::Touch if sweep.lambda == V::Real::ZERO => {
                self.initial_overlap(&sweep, tolerance, options.max_iterations)
            }
            SweepEnd::Touch | SweepEnd::Cap => {
                let toi = (sweep.lambda / speed).min(max_toi);
                let status = if sweep.end == SweepEnd::Touch {
                    CastStatus::Hit
                } else {
                    CastStatus::IterationCap
                };
                if !toi.is_finite() {
                    return ShapeCastResult::without_contact(
                        CastStatus::NoHit,
                        max_toi,
                        iterations,
                    );
                }
                self.contact_at(&sweep, status, toi, velocity_a, target)
            }
        }
    }

    /// The result at a time of impact: witness points of the sweep's simplex, moved to `toi`.
    fn contact_at(
        &self,
        sweep: &Sweep<V>,
        status: CastStatus,
        toi: V::Real,
        velocity_a: V,
        target: V::Real,
    ) -> ShapeCastResult<V> {
        let normal = sweep.normal(self);
        let (core_a, core_b) = sweep.simplex.witnesses();
        // With a margin or gap, the cores are σ apart: each point lies its margin from its
        // core's witness, toward the other's, so that it stays within its shape (a point is
        // in a rounded shape when it is within the margin of the core), and the two meet up
        // to the cores' distance's excess over σ (the touching distance). Along the normal
        // instead, a normal that is the advancing plane's (good to about √ε on curved cores)
        // puts a margin's point `margin × angle` beside the other's, and their midpoint half
        // that off the sharper shape: past a box's edge or a cone's rim by 2.4 τ.
        let (margin_a, margin_b) = (self.a().margin(), self.b().margin());
        let along = (core_b - core_a).direction().unwrap_or(normal);
        let point_a = core_a + along * margin_a;
        let point_b = core_b - along * margin_b;
        // Split the gap between them so that point_b − point_a = target × normal exactly.
        let midpoint = (point_a + point_b) * V::Real::from_f64(0.5);
        let half_gap = normal * (target * V::Real::from_f64(0.5));
        let (point_a, point_b) = if normal == V::ZERO {
            (point_a, point_b)
        } else {
            (midpoint - half_gap, midpoint + half_gap)
        };
        let moved = |p: V| self.pose_a().transform_point(p) + velocity_a * toi;
        ShapeCastResult {
            status,
            toi,
            point_a: moved(point_a),
            point_b: moved(point_b),
            normal: self.pose_a().transform_vector(normal),
            iterations: sweep.iterations,
        }
    }

    /// The result when the shapes touch at `t = 0`: normal and points of the contact query.
    fn initial_overlap(
        &self,
        sweep: &Sweep<V>,
        tolerance: V::Real,
        max_iterations: u32,
    ) -> ShapeCastResult<V> {
        let gjk = GjkOptions { tolerance, max_iterations };
        let options = ContactOptions {
            prediction: V::Real::INFINITY,
            gjk,
            epa: EpaOptions { tolerance, max_iterations },
        };
        let found = self.contact_with(&options, &mut WarmStart::scratch());
        let mut result = ShapeCastResult::without_contact(
            CastStatus::InitiallyOverlapping,
            V::Real::ZERO,
            sweep.iterations,
        );
        if let Some(c) = found.contact {
            result.point_a = c.point_a;
            result.point_b = c.point_b;
            result.normal = c.normal;
        }
        result
    }
}

/// The first time of impact of shape `a` moving from `pose_a` with velocity `velocity_a` and
/// shape `b` moving from `pose_b` with velocity `velocity_b` (translation only), within
/// `[0, max_toi]`; see [`Pair::shape_cast_with`] for options and the [module docs](mod@crate::cast)
/// for the semantics. Velocities need not be unit: `toi` is in units of them.
///
/// ```
/// use gjk::{shape_cast, Ball, CastStatus, Cuboid, Pose};
/// use glam::DVec3;
/// let ball = Ball::<DVec3>::new(0.5).unwrap();
/// let wall = Cuboid::new(DVec3::new(0.1, 5.0, 5.0)).unwrap();
/// let start = Pose::from_translation(DVec3::new(-3.0, 0.0, 0.0)).unwrap();
/// let r = shape_cast(&ball, &start, DVec3::new(10.0, 0.0, 0.0),
///                    &wall, &Pose::IDENTITY, DVec3::ZERO, 1.0);
/// assert_eq!(r.status, CastStatus::Hit);
/// assert!((r.toi - 0.24).abs() < 1e-12);               // the ball travels 2.4 in 0.24 s
/// assert!((r.normal - DVec3::X).length() < 1e-12);     // from the ball toward the wall
/// assert!((r.point_a - DVec3::new(-0.1, 0.0, 0.0)).length() < 1e-12);
///
/// let slow = shape_cast(&ball, &start, DVec3::new(1.0, 0.0, 0.0),
///                       &wall, &Pose::IDENTITY, DVec3::ZERO, 1.0);
/// assert_eq!(slow.status, CastStatus::NoHit);          // only 2.4 of travel needed, 1 made
/// ```
pub fn shape_cast<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    velocity_a: V,
    b: &B,
    pose_b: &Pose<V>,
    velocity_b: V,
    max_toi: V::Real,
) -> ShapeCastResult<V> {
    Pair::new(a, *pose_a, b, *pose_b).shape_cast(velocity_a, velocity_b, max_toi)
}

/// [`shape_cast`] with options (tolerance, iteration cap, target distance); see the
/// [module docs](mod@crate::cast).
///
/// ```
/// use gjk::{shape_cast_with, Ball, CastStatus, Pose, ShapeCastOptions};
/// use glam::DVec2;
/// let ball = Ball::<DVec2>::new(1.0)?;
/// let apart = Pose::from_translation(DVec2::new(5.0, 0.0))?;
/// // Stop 0.5 short of touching: the gap of 3 closes to 0.5 at t = 2.5 / 2.
/// let options = ShapeCastOptions { target_distance: 0.5, ..Default::default() };
/// let r = shape_cast_with(&ball, &Pose::IDENTITY, DVec2::X, &ball, &apart, -DVec2::X, 10.0, &options);
/// assert_eq!(r.status, CastStatus::Hit);
/// assert!((r.toi - 1.25).abs() < 1e-9);
/// # Ok::<(), gjk::ShapeError>(())
/// ```
#[allow(clippy::too_many_arguments)]
pub fn shape_cast_with<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    velocity_a: V,
    b: &B,
    pose_b: &Pose<V>,
    velocity_b: V,
    max_toi: V::Real,
    options: &ShapeCastOptions<V::Real>,
) -> ShapeCastResult<V> {
    Pair::new(a, *pose_a, b, *pose_b).shape_cast_with(velocity_a, velocity_b, max_toi, options)
}

/// A ray: the points `origin + t·direction` for `t ≥ 0` (world coordinates).
///
/// `direction` need not be unit: times of impact are in units of it.
///
/// ```
/// use gjk::Ray;
/// use glam::Vec2;
/// let ray = Ray::new(Vec2::new(-5.0, 0.5), Vec2::new(2.0, 0.0));
/// assert_eq!(ray.point_at(1.5), Vec2::new(-2.0, 0.5));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray<V> {
    /// Where the ray starts.
    pub origin: V,
    /// The direction of travel (any length; not zero for a cast to move).
    pub direction: V,
}

impl<V: Vector> Ray<V> {
    /// The ray from `origin` along `direction`.
    #[inline]
    pub const fn new(origin: V, direction: V) -> Self {
        Self { origin, direction }
    }

    /// The point at time `t`: `origin + t·direction`.
    #[inline]
    pub fn point_at(&self, t: V::Real) -> V {
        self.origin + self.direction * t
    }
}

/// Where `ray`, for `t ∈ [0, max_toi]`, first hits `shape` at `pose`.
///
/// A ray starting inside the shape hits at `toi = 0` with a zero normal (solid shapes; see
/// [`ray_cast_with`] for hollow casts and the termination report). `None`: no hit, invalid
/// input or the iteration cap.
///
/// ```
/// use gjk::{ray_cast, Cuboid, Pose, Ray};
/// use glam::Vec2;
/// let square = Cuboid::new(Vec2::ONE).unwrap();
/// let ray = Ray::new(Vec2::new(-5.0, 0.5), Vec2::new(2.0, 0.0));
/// let hit = ray_cast(&square, &Pose::IDENTITY, &ray, 10.0).unwrap();
/// assert!((hit.toi - 2.0).abs() < 1e-5);                 // 2 × (2, 0) = 4 to the left side
/// assert!((hit.point - Vec2::new(-1.0, 0.5)).length() < 1e-5);
/// assert!((hit.normal - Vec2::new(-1.0, 0.0)).length() < 1e-5);
/// ```
#[inline]
pub fn ray_cast<V: Vector, S: Support<V> + ?Sized>(
    shape: &S,
    pose: &Pose<V>,
    ray: &Ray<V>,
    max_toi: V::Real,
) -> Option<RayHit<V>> {
    ray_cast_with(shape, pose, ray, max_toi, &RayCastOptions::default()).hit()
}

/// [`ray_cast`] with options (tolerance, iteration cap, solid or hollow) and a report of how
/// the cast ended.
///
/// A hollow cast (`solid: false`) from inside the shape finds the exit point: it casts back
/// from a point beyond the shape along the ray, and reports the exit with
/// [`CastStatus::InitiallyOverlapping`] and the outward normal there.
///
/// ```
/// use gjk::{ray_cast_with, Ball, CastStatus, Pose, Ray, RayCastOptions};
/// use glam::DVec3;
/// let ball = Ball::<DVec3>::new(2.0).unwrap();
/// let hollow = RayCastOptions { solid: false, ..Default::default() };
/// let r = ray_cast_with(&ball, &Pose::IDENTITY, &Ray::new(DVec3::ZERO, DVec3::Y), 10.0, &hollow);
/// assert_eq!(r.status, CastStatus::InitiallyOverlapping);
/// let exit = r.hit().unwrap();
/// assert!((exit.toi - 2.0).abs() < 1e-12 && (exit.normal - DVec3::Y).length() < 1e-12);
/// ```
#[inline]
pub fn ray_cast_with<V: Vector, S: Support<V> + ?Sized>(
    shape: &S,
    pose: &Pose<V>,
    ray: &Ray<V>,
    max_toi: V::Real,
    options: &RayCastOptions<V::Real>,
) -> RayCastResult<V> {
    let entry = cast_ray(shape, pose, ray, max_toi, options);
    if options.solid || entry.status != CastStatus::InitiallyOverlapping {
        return entry;
    }
    exit_ray(shape, pose, ray.origin, ray.direction, max_toi, options, entry.iterations)
}

/// The solid ray cast: a point at `origin` moving along `direction` cast against the shape.
///
/// Always inlined, with the GJK ray cast out of line: the closed forms' path stays small (no
/// frame for the GJK state, no spills around it), and the default options fold into it. The
/// GJK ray cast takes the ray by reference and the two options it uses as numbers: a 3D ray by
/// value, or the options as a struct, were copied to the stack on every cast, ahead of the
/// branch.
#[inline(always)]
fn cast_ray<V: Vector, S: Support<V> + ?Sized>(
    shape: &S,
    pose: &Pose<V>,
    ray: &Ray<V>,
    max_toi: V::Real,
    options: &RayCastOptions<V::Real>,
) -> RayCastResult<V> {
    let Ray { origin, direction } = *ray;
    if let Some(answer) = closed_form_ray(shape, pose, origin, direction, max_toi, options) {
        return answer;
    }
    // The shape behind a `dyn` reference: the general cast below is built once per vector
    // type, not once per shape type (with the GJK loop, EPA and the polish it brings along).
    gjk_ray(&shape, pose, ray, max_toi, options.tolerance, options.max_iterations)
}

/// The solid ray cast on the support function: the point `origin` cast against the shape.
#[inline(never)]
fn gjk_ray<V: Vector>(
    shape: &dyn Support<V>,
    pose: &Pose<V>,
    &Ray { origin, direction }: &Ray<V>,
    max_toi: V::Real,
    tolerance: V::Real,
    max_iterations: u32,
) -> RayCastResult<V> {
    if !origin.is_finite() {
        return RayCastResult::without_hit(CastStatus::InvalidInput, V::Real::ZERO, 0);
    }
    let Ok(origin_pose) = Pose::from_translation(origin) else {
        return RayCastResult::without_hit(CastStatus::InvalidInput, V::Real::ZERO, 0);
    };
    let cast_options =
        ShapeCastOptions { tolerance, max_iterations, target_distance: V::Real::ZERO };
    let r = Pair::new(shape, *pose, &RayOrigin, origin_pose).shape_cast_with(
        V::ZERO,
        direction,
        max_toi,
        &cast_options,
    );
    match r.status {
        CastStatus::Hit | CastStatus::IterationCap => RayCastResult {
            status: r.status,
            hit: RayHit { toi: r.toi, point: origin + direction * r.toi, normal: r.normal },
            iterations: r.iterations,
        },
        CastStatus::InitiallyOverlapping => RayCastResult {
            status: r.status,
            hit: RayHit { toi: V::Real::ZERO, point: origin, normal: V::ZERO },
            iterations: r.iterations,
        },
        CastStatus::NoHit | CastStatus::InvalidInput => {
            RayCastResult::without_hit(r.status, r.toi, r.iterations)
        }
    }
}

/// The ray cast in closed form, when the dispatch table has a kernel for the shape's core and
/// margin ([`crate::dispatch`]) and the kernel answers; `None`: the GJK ray cast answers.
///
/// A ball's or capsule's kernel runs in world coordinates: its centre or ends go out (one or
/// two rotations; a ball's centre is usually the pose's translation, no rotation at all),
/// where the other kernels take the ray's origin and direction in and the normal back out
/// (three). The touching distance is the GJK ray cast's (the tolerance times the shape's
/// size, plus rounding of the coordinates relative to the shape's frame), so that both call
/// the same origins inside.
#[inline(always)]
fn closed_form_ray<V: Vector, S: Support<V> + ?Sized>(
    shape: &S,
    pose: &Pose<V>,
    origin: V,
    direction: V,
    max_toi: V::Real,
    options: &RayCastOptions<V::Real>,
) -> Option<RayCastResult<V>> {
    let kernel = dispatch::ray_kernel(shape.core(), shape.margin());
    let size = shape.extent() + shape.margin();
    // The kernels that carry no borrowed data run on `V::Packed` (glam's SIMD `Vec3A` for
    // `Vec3`: the same arithmetic in the same order, in fewer instructions), the others on `V`.
    let packed = match kernel {
        RayKernel::Gjk => return None,
        RayKernel::Ball { center, radius } => {
            RayKernel::Ball { center: center.to_packed(), radius }
        }
        RayKernel::Capsule { ends: [a, b], radius } => {
            RayKernel::Capsule { ends: [a.to_packed(), b.to_packed()], radius }
        }
        RayKernel::Box { half_extents, radius } => {
            RayKernel::Box { half_extents: half_extents.to_packed(), radius }
        }
        RayKernel::Ellipsoid(radii) => RayKernel::Ellipsoid(radii.to_packed()),
        RayKernel::Triangle([a, b, c]) => {
            RayKernel::Triangle([a.to_packed(), b.to_packed(), c.to_packed()])
        }
        RayKernel::Cylinder { half_height, radius } => RayKernel::Cylinder { half_height, radius },
        RayKernel::Cone { half_height, radius } => RayKernel::Cone { half_height, radius },
        kernel => {
            return closed_form_kernel(kernel, size, pose, origin, direction, max_toi, options)
        }
    };
    let r = closed_form_kernel(
        packed,
        size,
        &pose.to_packed(),
        origin.to_packed(),
        direction.to_packed(),
        max_toi,
        options,
    )?;
    let RayHit { toi, point, normal } = r.hit;
    Some(RayCastResult {
        status: r.status,
        hit: RayHit { toi, point: V::from_packed(point), normal: V::from_packed(normal) },
        iterations: r.iterations,
    })
}

/// [`closed_form_ray`] for the kernel `kernel` (not [`RayKernel::Gjk`]) of a shape of size
/// `size` (extent plus margin).
#[inline(always)]
fn closed_form_kernel<V: Vector>(
    kernel: RayKernel<'_, V>,
    size: V::Real,
    pose: &Pose<V>,
    origin: V,
    direction: V,
    max_toi: V::Real,
    options: &RayCastOptions<V::Real>,
) -> Option<RayCastResult<V>> {
    let (kernel, world) = ray::in_world(kernel, pose);
    let relative = origin - pose.translation();
    // Where it is cheaper (`f64`), the rotation as a matrix, built once for the three products
    // (the origin and direction in, the normal out), instead of three quaternion rotations.
    let matrix = !world && V::ROTATE_BY_MATRIX;
    let columns = if matrix { pose.rotation().columns() } else { [V::ZERO; 3] };
    let (o, d) = if world {
        (origin, direction)
    } else if matrix {
        let into =
            |v: V| V::from_components([columns[0].dot(v), columns[1].dot(v), columns[2].dot(v)]);
        (into(relative), into(direction))
    } else {
        (pose.rotation().inverse_rotate(relative), pose.inverse_transform_vector(direction))
    };
    // The origin relative to the shape, in the kernel's axes (a world-frame kernel's: up to
    // the rotation).
    let from_shape = if world { relative } else { o };
    // The kernels take the direction as it is (times of impact come out in its units) when
    // its squared length is safely representable; otherwise its unit vector and the speed.
    let length2 = d.length_squared();
    let plain = length2 > V::Real::from_f64(1e-30) && length2 < V::Real::from_f64(1e30);
    // The usual ray, told by numbers the kernels need anyway: a plain direction, an origin
    // whose squared distance is finite, a limit of at least 0 (each test false for NaN).
    // Anything else takes the careful path.
    let usual =
        plain && from_shape.length_squared() < V::Real::INFINITY && max_toi >= V::Real::ZERO;
    let (unit, speed, limit) = if usual {
        (d, V::Real::ONE, max_toi)
    } else {
        // One test for both vectors (`x·0` is 0 for finite `x`, NaN otherwise).
        let zeros = origin * V::Real::ZERO + direction * V::Real::ZERO;
        let valid_limit = max_toi >= V::Real::ZERO; // false for NaN too
        if zeros.dot(V::splat(V::Real::ONE)) != V::Real::ZERO || !valid_limit {
            return Some(RayCastResult::without_hit(CastStatus::InvalidInput, V::Real::ZERO, 0));
        }
        if plain {
            (d, V::Real::ONE, max_toi)
        } else {
            match d.direction() {
                Some(unit) => {
                    let speed = unit.dot(d);
                    (unit, speed, max_toi * speed)
                }
                // A ray that does not move: only its origin can touch (limit 0).
                None => (V::axis(0), V::Real::ZERO, V::Real::ZERO),
            }
        }
    };
    let tolerance =
        if options.tolerance > V::Real::ZERO { options.tolerance } else { V::Real::EPSILON };
    let rounding = V::Real::from_f64(16.0) * V::Real::EPSILON;
    // The origin's coordinates in the shape's frame (for a world-frame kernel, up to the
    // rotation: a maximum within √3 of the local one).
    let coordinates = from_shape.max_abs() + size;
    let touch = (tolerance + rounding) * size + rounding * coordinates;
    let dd = if plain { length2 } else { unit.length_squared() };
    let ray = LocalRay { origin: o, dir: unit, limit, touch, dd };
    let inside = RayCastResult {
        status: CastStatus::InitiallyOverlapping,
        hit: RayHit { toi: V::Real::ZERO, point: origin, normal: V::ZERO },
        iterations: 0,
    };
    match ray::cast(&kernel, &ray)? {
        RayAnswer::Inside => Some(inside),
        RayAnswer::Miss => Some(RayCastResult::without_hit(CastStatus::NoHit, max_toi, 0)),
        // On the surface at the start: touching at t = 0, an initial overlap as in GJK.
        RayAnswer::Hit { t, .. } if !t.is_positive() => Some(inside),
        RayAnswer::Hit { t, normal } => {
            // A plain direction's `t` is the time of impact, finite and within the limit.
            let toi = if plain { t } else { (t / speed).min(max_toi) };
            if !plain && !toi.is_finite() {
                return Some(RayCastResult::without_hit(CastStatus::NoHit, max_toi, 0));
            }
            let normal = if world {
                normal
            } else if !matrix {
                pose.transform_vector(normal)
            } else {
                let [x, y, z] = columns;
                let n = x * normal.component(0) + y * normal.component(1);
                let n = if V::DIM == 3 { n + z * normal.component(2) } else { n };
                // A face normal's zero components are `−0` here whenever the kernel's are
                // (`0 · −0 + −0 = −0`); the quaternion rotation gave `+0`. Adding `+0` turns
                // `−0` into `+0` (and nothing else), so a box face's normal still prints as
                // `[-1.0, 0.0, 0.0]`, not `[-1.0, -0.0, -0.0]` (the README's CLI example).
                n + V::ZERO
            };
            Some(RayCastResult {
                status: CastStatus::Hit,
                hit: RayHit { toi, point: origin + direction * toi, normal },
                iterations: 0,
            })
        }
    }
}

/// The hollow cast from inside: cast back from beyond the shape along the ray.
#[inline(never)]
fn exit_ray<V: Vector, S: Support<V> + ?Sized>(
    shape: &S,
    pose: &Pose<V>,
    origin: V,
    direction: V,
    max_toi: V::Real,
    options: &RayCastOptions<V::Real>,
    iterations: u32,
) -> RayCastResult<V> {
    let inside = RayCastResult {
        status: CastStatus::InitiallyOverlapping,
        hit: RayHit { toi: V::Real::ZERO, point: origin, normal: V::ZERO },
        iterations,
    };
    let Some(unit) = direction.direction() else {
        return inside; // a ray that does not move never leaves
    };
    let speed = unit.dot(direction);
    // Support values of the whole shape along ±unit: the far point s' = origin + L·unit with
    // L = (far side − origin) + width lies beyond the shape (or on it, if flat).
    let local_unit = pose.inverse_transform_vector(unit);
    let local_origin = pose.inverse_transform_point(origin);
    let far = full_support(shape, local_unit).dot(local_unit);
    let near = full_support(shape, -local_unit).dot(local_unit);
    let width = (far - near).max(V::Real::ZERO);
    let travel = (far - local_origin.dot(local_unit)).max(V::Real::ZERO) + width;
    let start = origin + unit * travel;
    let back = cast_ray(shape, pose, &Ray::new(start, -unit), travel, options);
    let iterations = iterations + back.iterations;
    let exit_distance = match back.status {
        CastStatus::Hit | CastStatus::IterationCap => travel - back.hit.toi,
        CastStatus::InitiallyOverlapping => travel,
        // Rounding: the origin was only within tolerance of the surface; it is the exit.
        CastStatus::NoHit | CastStatus::InvalidInput => {
            return RayCastResult { iterations, ..inside }
        }
    };
    let toi = exit_distance.max(V::Real::ZERO) / speed;
    if toi > max_toi {
        return RayCastResult::without_hit(CastStatus::NoHit, max_toi, iterations);
    }
    let status = if back.status == CastStatus::IterationCap {
        CastStatus::IterationCap
    } else {
        CastStatus::InitiallyOverlapping
    };
    RayCastResult {
        status,
        hit: RayHit { toi, point: origin + direction * toi, normal: back.hit.normal },
        iterations,
    }
}
