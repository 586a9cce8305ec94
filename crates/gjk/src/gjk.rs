//! The GJK loop: intersection test, distance and closest points between two posed convex shapes.
//!
//! Gilbert, Johnson & Keerthi (1988) find the point `v` of the Minkowski difference
//! `D = A − B` closest to the origin; `|v|` is the distance between A and B. Each iteration asks
//! the support function for `w = s_D(−v) = s_A(−v) − s_B(v)`, adds `w` to a simplex of at most
//! `d + 1` points of `D`, and replaces `v` by the point of that simplex closest to the origin
//! (the signed-volumes sub-algorithm of [`crate::simplex`]).
//!
//! Stopping rules (van den Bergen 1999; Montanari et al. 2017), checked in this order:
//! * **separating axis** (intersection test only): `v·w > 0` proves the origin is outside `D`;
//! * **duality gap**: `|v|` is an upper bound of the distance and `v·w/|v|` a lower bound, so
//!   `|v|² − v·w ≤ ε |v|²` means `|v|` is within the relative tolerance `ε` of the distance;
//! * **no progress**: `w` is already a vertex, or the new `v` is not shorter than the last one —
//!   rounding has taken over; the best simplex so far is kept;
//! * **contained**: the origin lies in the simplex, or `|v|` is below `ε × size` (touching);
//! * **iteration cap**.
//!
//! Between two cylinder or cone cores (distance goal), once the duality gap is below 1e-2 of
//! `|v|²`, a feature finisher holds the simplex's vertices on the shapes' rim circles and
//! solves for the normal by Newton's method; its answer (true support points) replaces the
//! simplex only when the duality gap, from one more support call along it, passes the test
//! above (`Converged`, the call counted in `iterations`); otherwise the loop goes on.
//!
//! All work happens in A's frame with B's relative pose, so coordinates stay small near the
//! shapes even far from the world origin. Shapes with a margin (balls, capsules, rounded shapes)
//! run on their cores and subtract the margins at the end.

use crate::dispatch::{Kernel, Query};
use crate::finish::{finish, Relative, RimPair, Rims};
use crate::math::{Pose, Real, Vector};
use crate::mpr::MprResult;
pub use crate::pair::Pair;
use crate::polish::{polish, stall_escape, Start};
use crate::sat::PolygonGap;
use crate::shape::Support;
use crate::simplex::{Reduction, Simplex, SupportPoint};
use crate::tolerance;

/// Tuning of a query: tolerance and iteration cap.
///
/// ```
/// use gjk::GjkOptions;
/// let loose = GjkOptions::<f64> { tolerance: 1e-6, ..Default::default() };
/// assert_eq!(loose.max_iterations, 64);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkOptions<R> {
    /// Relative tolerance `ε`: the distance is found within `ε × distance`, and shapes closer than
    /// `ε × size` count as touching (size: the largest support point of the Minkowski difference,
    /// or of either shape measured from its centre, seen by the query). Curved shapes
    /// converge linearly, so a looser tolerance saves iterations there.
    pub tolerance: R,
    /// The most support calls a query may make; the query then reports
    /// [`Termination::IterationCap`] with its best answer.
    pub max_iterations: u32,
}

impl<R: Real> Default for GjkOptions<R> {
    fn default() -> Self {
        Self { tolerance: R::DEFAULT_TOLERANCE, max_iterations: 64 }
    }
}

/// What the query is after: a yes/no answer can stop much earlier than a distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Only whether the shapes intersect: stops at the first separating axis.
    Intersection,
    /// The distance and closest points.
    Distance,
}

/// How the loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The duality gap closed: the distance is within tolerance.
    Converged,
    /// The support point was already a vertex or brought no improvement; the best simplex was
    /// kept. Exact polytopes normally end this way.
    NoProgress,
    /// The origin is inside the simplex or within the touching tolerance of it: the shapes'
    /// cores intersect.
    Contained,
    /// The cores are apart but closer than the sum of the margins (intersection test only).
    MarginOverlap,
    /// A separating axis was found (intersection test only).
    SeparatingAxis,
    /// The iteration cap was reached; the result is the best found.
    IterationCap,
}

/// Everything a GJK query found, in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkResult<V: Vector> {
    /// Whether the shapes touch or overlap (distance within the touching tolerance).
    pub intersecting: bool,
    /// The distance between the shapes (0 when intersecting; an upper bound of it after a
    /// separating-axis exit, where only the sign is certain).
    pub distance: V::Real,
    /// The closest point on A (when intersecting: a point of the cores' overlap region or of the
    /// margins' contact).
    pub point_a: V,
    /// The closest point on B.
    pub point_b: V,
    /// The unit normal from A toward B; zero when the cores overlap (no direction defined).
    pub normal: V,
    /// The number of support calls.
    pub iterations: u32,
    /// How the loop ended.
    pub termination: Termination,
    /// The final simplex, in A's frame (the frame the query ran in).
    pub simplex: Simplex<V>,
    /// The closest point of the cores' Minkowski difference to the origin, in A's frame; its length
    /// is the distance between the cores.
    pub closest: V,
}

/// A warm-start cache for repeated queries of one pair.
///
/// It keeps the vertices of the last final simplex as points of A and of B in their own frames.
/// Those points still belong to the shapes after they move, so the next query rebuilds its first
/// simplex from them and, for a small motion, starts next to the answer.
///
/// One cache belongs to one pair of rigid shapes: the cached points must still be points of the
/// same A and B. Reusing it for other shapes, or after a shape changed its size, can give wrong
/// answers; call [`WarmStart::clear`] then.
///
/// ```
/// use gjk::{Cuboid, GjkOptions, Goal, Pair, Pose, WarmStart};
/// use glam::DVec3;
/// let a = Cuboid::new(DVec3::ONE).unwrap();
/// let mut cache = WarmStart::default();
/// for step in 0..10 {
///     let pose_b = Pose::from_translation(DVec3::new(3.0 + 0.01 * step as f64, 0.5, 0.2)).unwrap();
///     let r = Pair::new(&a, Pose::IDENTITY, &a, pose_b)
///         .gjk(Goal::Distance, &GjkOptions::default(), &mut cache);
///     assert!((r.distance - (1.0 + 0.01 * step as f64)).abs() < 1e-12);
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WarmStart<V> {
    /// Vertex pairs (point of A in A's frame, point of B in B's frame): GJK's seed first, then
    /// (after a converged 3D expansion) the rest of the cap around the answer's face.
    pairs: [(V, V); crate::epa::CAP],
    /// The pairs that seed GJK (at most `DIM + 1`).
    len: u8,
    /// All pairs of the cap a converged 3D expansion left (`0`: none; see
    /// [`WarmStart::cap`]).
    cap: u8,
    /// Whether the last contact query found the cores apart but the shapes in contact (a
    /// distance run answered): the next one skips the intersection probe.
    pub(crate) apart: bool,
    /// A cache for one query only (see [`WarmStart::scratch`]).
    pub(crate) scratch: bool,
    /// Where the last support searches on A and B ended (see [`Support::support_hinted`]).
    hints: [u32; 2],
}

impl<V: Vector> Default for WarmStart<V> {
    fn default() -> Self {
        Self {
            pairs: [(V::ZERO, V::ZERO); crate::epa::CAP],
            len: 0,
            cap: 0,
            apart: false,
            scratch: false,
            hints: [0; 2],
        }
    }
}

impl<V: Vector> WarmStart<V> {
    /// A cold cache that no query reads again (the one-off queries' own): the contact query
    /// skips collecting the expansion's cap for it.
    #[inline]
    pub(crate) fn scratch() -> Self {
        Self { scratch: true, ..Self::default() }
    }

    /// Forgets the cached simplex and support hints: the next query starts cold.
    pub fn clear(&mut self) {
        self.len = 0;
        self.cap = 0;
        self.apart = false;
        self.hints = [0; 2];
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Caches these vertex pairs (point of A in A's frame, point of B in B's frame) in place
    /// of the last simplex, keeping the support hints: the first `seed` (at most `DIM + 1`)
    /// seed GJK; with `cap`, all of them are the cap of a converged 3D expansion (the face's
    /// corners, the vertex behind it, the vertices across its edges) that the next contact
    /// query may expand from directly.
    pub(crate) fn store_points(
        &mut self,
        points: impl Iterator<Item = (V, V)>,
        seed: usize,
        cap: bool,
    ) {
        let mut len = 0;
        for (slot, p) in self.pairs.iter_mut().zip(points) {
            *slot = p;
            len += 1;
        }
        self.len = len.min(seed) as u8;
        self.cap = if cap { len as u8 } else { 0 };
    }

    /// The cap a converged 3D expansion left (see [`WarmStart::store_points`]), or nothing.
    #[inline]
    pub(crate) fn cap(&self) -> &[(V, V)] {
        &self.pairs[..usize::from(self.cap)]
    }

    /// Forgets the cap, keeping GJK's seed.
    #[inline]
    pub(crate) fn drop_cap(&mut self) {
        self.cap = 0;
    }

    fn store(&mut self, simplex: &Simplex<V>) {
        self.len = simplex.len() as u8;
        self.cap = 0;
        for (slot, p) in self.pairs.iter_mut().zip(simplex.points()) {
            *slot = (p.a, p.b_local);
        }
    }
}

/// One GJK iteration, as shown to a [`GjkObserver`]. Coordinates are in A's frame.
#[derive(Clone, Copy, Debug)]
pub struct GjkStep<'s, V: Vector> {
    /// 1 for the first support call.
    pub iteration: u32,
    /// The search direction `−v` the support point was asked for.
    pub direction: V,
    /// The new support point.
    pub support: SupportPoint<V>,
    /// The simplex after adding the support point and reducing it.
    pub simplex: &'s Simplex<V>,
    /// The simplex's point closest to the origin.
    pub closest: V,
}

/// Watches a query iteration by iteration (explain mode, pictures, statistics).
///
/// `()` watches nothing and compiles away.
pub trait GjkObserver<V: Vector> {
    /// Called after each iteration that added a support point.
    fn step(&mut self, step: &GjkStep<'_, V>);
    /// Called once when the loop ends.
    fn end(&mut self, termination: Termination, iterations: u32) {
        let _ = (termination, iterations);
    }
    /// Whether this observer wants to see GJK's iterations. Unwatched queries may answer a
    /// point against a shape with an exact projection instead of iterating (see
    /// [`crate::Core`]); watched ones always run the loop.
    #[inline]
    fn watching(&self) -> bool {
        true
    }
}

impl<V: Vector> GjkObserver<V> for () {
    #[inline(always)]
    fn step(&mut self, _: &GjkStep<'_, V>) {}
    #[inline(always)]
    fn watching(&self) -> bool {
        false
    }
}

impl<'s, V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized> Pair<'s, V, A, B> {
    /// Whether the shapes touch or overlap.
    #[inline]
    pub fn intersects(&self) -> bool {
        self.intersects_inline(&GjkOptions::default())
    }

    /// [`Pair::intersects`] with options (tolerance, iteration cap).
    pub fn intersects_with(&self, options: &GjkOptions<V::Real>) -> bool {
        self.intersects_inline(options)
    }

    /// MPR's verdict on the cores (overlap or a clear separation; `None` near touching or at
    /// its cap) from the kernel's interior points, each core's centre where it has none.
    #[inline(always)]
    fn mpr_verdict(
        &self,
        a: Option<V>,
        b: Option<V>,
        options: &GjkOptions<V::Real>,
    ) -> Option<bool> {
        let a = a.unwrap_or_else(|| self.a.center());
        let b = b.unwrap_or_else(|| self.b.center());
        self.mpr_from(a, b, options.tolerance, options.max_iterations).verdict()
    }

    /// The body of [`Pair::intersects_with`], inlined into [`Pair::intersects`] so that the
    /// default options fold into constants there (the touching rule then costs no branch).
    #[inline]
    fn intersects_inline(&self, options: &GjkOptions<V::Real>) -> bool {
        let kernel = self.kernel(Query::Intersects);
        if let Kernel::Segments(ends_a, ends_b) = kernel {
            // Two segment cores: most pairs are told from `|w|²`, without its root.
            let w = self.segments_gap(ends_a, ends_b);
            return match self.touching_squared(w.length_squared(), options.tolerance) {
                Some(verdict) => verdict,
                None => self.touching(w.length(), options.tolerance),
            };
        }
        // Two polygons: the separating-axis test below decides most pairs for less than the
        // walk to their closest points, whose certificate (a scan of both polygons) the
        // verdict does not need (docs/benchmarks.md, the `poly2d` subsection).
        if !matches!(kernel, Kernel::Polygons(..)) {
            if let Some(core_distance) = self.projected_distance(&kernel) {
                return self.touching(core_distance, options.tolerance);
            }
        }
        if let Some(gap) = self.axis_gap(&kernel) {
            // `gap` bounds the cores' distance from below and is exact when they overlap;
            // in between (apart, but possibly within the margins) GJK decides.
            if gap <= V::Real::ZERO {
                return true;
            }
            let touch = self.tolerance(options.tolerance).distance();
            if gap > tolerance::apart_bound(self.margins(), touch) {
                return false;
            }
        }
        if let Kernel::Mpr { a, b } = kernel {
            // MPR proves overlap or a clear separation; near touching, GJK measures.
            if let Some(verdict) = self.mpr_verdict(a, b, options) {
                return verdict;
            }
        }
        // Only the verdict is wanted: skip the witnesses, normal, world transforms and cache
        // store of a full result.
        self.run_cold(Goal::Intersection, options).0
    }

    /// Minkowski Portal Refinement on the cores (3D; see [`crate::mpr`]): whether
    /// the shapes intersect, when it can be proved without measuring the gap.
    ///
    /// Runs on boxes, polytopes, ellipsoids, cylinders and cones (any margins); other kinds,
    /// and 2D, get [`MprStatus::Unsupported`](crate::mpr::MprStatus::Unsupported) without a
    /// support call. This is the kernel [`Pair::intersects`] runs first for those kinds.
    ///
    /// ```
    /// use gjk::{mpr::MprStatus, Cone, Cylinder, Pair, Pose};
    /// use glam::DVec3;
    /// let cylinder = Cylinder::new(1.0, 0.5)?;
    /// let cone = Cone::new(1.0, 0.5)?;
    /// let at = |x: f64| Pose::from_translation(DVec3::new(x, 0.0, 0.0)).unwrap();
    /// let options = Default::default();
    /// assert_eq!(Pair::new(&cylinder, at(0.0), &cone, at(0.7)).mpr(&options).status, MprStatus::Overlap);
    /// assert_eq!(Pair::new(&cylinder, at(0.0), &cone, at(1.2)).mpr(&options).status, MprStatus::Separated);
    /// # Ok::<(), gjk::ShapeError>(())
    /// ```
    pub fn mpr(&self, options: &GjkOptions<V::Real>) -> MprResult {
        self.mpr_run(options.tolerance, options.max_iterations)
    }

    /// The distance between the shapes (0 when they touch or overlap).
    #[inline]
    pub fn distance(&self) -> V::Real {
        self.distance_inline(&GjkOptions::default())
    }

    /// [`Pair::distance`] with options (tolerance, iteration cap).
    pub fn distance_with(&self, options: &GjkOptions<V::Real>) -> V::Real {
        self.distance_inline(options)
    }

    /// The body of [`Pair::distance_with`], inlined into [`Pair::distance`] (see
    /// [`Pair::intersects_inline`]).
    #[inline(always)]
    fn distance_inline(&self, options: &GjkOptions<V::Real>) -> V::Real {
        let margins = self.margins();
        let kernel = self.kernel(Query::Distance);
        if let Kernel::Segments(ends_a, ends_b) = kernel {
            // Two segment cores: overlapping pairs are told from `|w|²`, without its root.
            let w = self.segments_gap(ends_a, ends_b);
            return match self.touching_squared(w.length_squared(), options.tolerance) {
                Some(true) => V::Real::ZERO,
                Some(false) => w.length() - margins,
                None if self.touching(w.length(), options.tolerance) => V::Real::ZERO,
                None => w.length() - margins,
            };
        }
        if let Some(core_distance) = self.projected_distance(&kernel) {
            let intersecting = self.touching(core_distance, options.tolerance);
            return if intersecting { V::Real::ZERO } else { core_distance - margins };
        }
        if self.overlap_proved(&kernel, options) {
            return V::Real::ZERO;
        }
        let (intersecting, core_distance) = self.run_cold(Goal::Distance, options);
        if intersecting {
            V::Real::ZERO
        } else {
            (core_distance - margins).max(V::Real::ZERO)
        }
    }

    /// Whether the kernel proves the cores overlap without GJK: the separating-axis test's
    /// largest separation is `≤ 0` (box SAT; polygon SAT and segment–box when their closed
    /// forms declined), or MPR finds the origin inside a tetrahedron of support points (a
    /// curved core, 3D). The one overlap rule of [`Pair::distance`] and
    /// [`Pair::closest_points`] (0, intersecting), the same test `intersects` and `contact`
    /// take, so that the four agree on overlapping cores by construction; either proof costs
    /// less than GJK's run to a simplex around the origin. Apart, GJK measures (it has the
    /// witnesses).
    #[inline(always)]
    fn overlap_proved(&self, kernel: &Kernel<'_, V>, options: &GjkOptions<V::Real>) -> bool {
        if let Some(gap) = self.axis_gap(kernel) {
            return gap <= V::Real::ZERO;
        }
        if let Kernel::Mpr { a, b } = *kernel {
            return self.mpr_verdict(a, b, options) == Some(true);
        }
        false
    }

    /// The intersection run of [`Pair::contact`]'s probe: whether the shapes are closer than
    /// `reach`, as if B's margin were grown by `reach`. The run carries the grown margin
    /// itself rather than a wrapper shape around B: a wrapper's type would build the whole
    /// loop, its recovery and its polish once more for every pair of shape types a program
    /// queries (a fifth of the test suite's LLVM IR was such copies; docs/benchmarks.md).
    pub(crate) fn probe(
        &self,
        reach: V::Real,
        options: &GjkOptions<V::Real>,
        warm: &mut WarmStart<V>,
    ) -> Probe<V> {
        let mut run = Run::new(self, Goal::Intersection, options);
        // Summed as `A + (B + reach)`, B's grown margin first, as a grown shape would.
        run.margins = self.a.margin() + (self.b.margin() + reach);
        run.solve(self, warm, &mut ());
        warm.store(&run.simplex);
        Probe {
            intersecting: run.intersecting(run.margins),
            termination: run.termination,
            iterations: run.iterations,
            simplex: run.simplex,
        }
    }

    /// A cold run, without building a public result: whether the shapes intersect, and the
    /// cores' distance `|v|` the loop reached. Only these two leave the function: returning
    /// the whole loop state (the simplex and its support points) by value costs a copy as
    /// large as a few iterations, so it is always inlined.
    #[inline(always)]
    fn run_cold(&self, goal: Goal, options: &GjkOptions<V::Real>) -> (bool, V::Real) {
        let mut run = Run::new(self, goal, options);
        run.solve(self, &mut WarmStart::default(), &mut ());
        (run.intersecting(self.margins()), run.core_distance())
    }

    /// The separation (distance, closest points, normal), or [`Proximity::Intersecting`]. With
    /// options, a warm start and the termination report: [`Pair::gjk`].
    #[inline]
    pub fn closest_points(&self) -> Proximity<V> {
        let options = GjkOptions::default();
        // `distance`'s row of the dispatch table: a projection or closed form where the kernel
        // has one, else its overlap proofs, then GJK.
        let kernel = self.kernel(Query::Distance);
        if let Kernel::Polygons(a, b) = kernel {
            match self.polygon_gap(&a, &b) {
                Some(PolygonGap::Apart(closest)) => {
                    return self.projected_proximity(&closest, closest.w.length(), &options)
                }
                // Overlapping cores: `distance` reads 0 from the same proof.
                Some(PolygonGap::Overlap) => return Proximity::Intersecting,
                None => {}
            }
        } else if kernel.projects() {
            if let Some(closest) = self.projection(&kernel) {
                return self.projected_proximity(&closest.points, closest.distance(), &options);
            }
        } else if self.overlap_proved(&kernel, &options) {
            return Proximity::Intersecting;
        }
        Proximity::from(&self.gjk(Goal::Distance, &options, &mut WarmStart::default()))
    }

    /// [`Pair::closest_points`] from the cores' closest points `closest` (A's frame) that a
    /// projection or closed form found, `core_distance` apart as the kernel measured them
    /// ([`Projected::distance`](crate::pair::Projected::distance), the number `distance` and `intersects` judge): what GJK's
    /// first step ([`Run::project_point`]) and
    /// [`Pair::finish`] make of them, to the bit, without the loop's state and its full
    /// result, whose set-up and copies cost more than the answer (sphere–box in `f64`: 1233
    /// instructions a query through the loop against 239 for `distance`; docs/benchmarks.md,
    /// "Closest points").
    #[inline(always)]
    fn projected_proximity(
        &self,
        closest: &SupportPoint<V>,
        core_distance: V::Real,
        options: &GjkOptions<V::Real>,
    ) -> Proximity<V> {
        if self.touching(core_distance, options.tolerance) {
            return Proximity::Intersecting;
        }
        // A one-vertex simplex's closest point and witnesses, as `Simplex::reduce` and
        // `Simplex::witnesses` compute them (`0 + 1·x`: a negative zero turns positive).
        let v = V::ZERO + closest.w;
        let witnesses = (V::ZERO + closest.a * V::Real::ONE, V::ZERO + closest.b * V::Real::ONE);
        let Some(normal) = (-v).direction() else {
            return Proximity::from(&self.gjk(Goal::Distance, options, &mut WarmStart::default()));
        };
        let (distance, point_a, point_b, normal) =
            self.separation(core_distance, witnesses, Some(normal), true);
        Proximity::Separated(Separation {
            distance,
            point_a,
            point_b,
            normal,
            termination: Termination::Converged,
        })
    }

    /// The full query with options and a warm-start cache (pass a fresh
    /// `WarmStart::default()` for a cold start); the cache is updated for the next call.
    pub fn gjk(
        &self,
        goal: Goal,
        options: &GjkOptions<V::Real>,
        warm: &mut WarmStart<V>,
    ) -> GjkResult<V> {
        self.gjk_observed(goal, options, warm, &mut ())
    }

    /// [`Pair::gjk`], reporting every iteration to `observer`.
    pub fn gjk_observed<O: GjkObserver<V> + ?Sized>(
        &self,
        goal: Goal,
        options: &GjkOptions<V::Real>,
        warm: &mut WarmStart<V>,
        observer: &mut O,
    ) -> GjkResult<V> {
        let mut run = Run::new(self, goal, options);
        run.solve(self, warm, observer);
        warm.store(&run.simplex);
        observer.end(run.termination, run.iterations);
        self.finish(run)
    }

    /// Turns the loop's state (A's frame, cores) into the public result (world, full shapes).
    fn finish(&self, run: Run<V>) -> GjkResult<V> {
        let core_distance = run.core_distance();
        let direction = if run.contained { None } else { run.normal() };
        let measured = run.goal == Goal::Distance && run.termination != Termination::Contained;
        let (distance, point_a, point_b, normal) =
            self.separation(core_distance, run.simplex.witnesses(), direction, measured);
        let intersecting = run.intersecting(self.a.margin() + self.b.margin());
        GjkResult {
            intersecting,
            distance: if intersecting { V::Real::ZERO } else { distance },
            point_a,
            point_b,
            normal,
            iterations: run.iterations,
            termination: run.termination,
            simplex: run.simplex,
            closest: run.v,
        }
    }

    /// The world answer (distance, points on the shapes, normal) from the cores' closest points
    /// `(core_a, core_b)` in A's frame, `core_distance` apart along the unit `direction` from A
    /// toward B (`None`: the cores overlap; then the distance is 0, the points the cores', the
    /// normal zero). A `measured` distance between curved cores has its normal polished.
    #[inline(always)]
    fn separation(
        &self,
        core_distance: V::Real,
        (mut core_a, mut core_b): (V, V),
        mut direction: Option<V>,
        measured: bool,
    ) -> (V::Real, V, V, V) {
        // Two flat cores (polytopes, points, segments) make a polytope difference, where the
        // answer at convergence is exact already: only curved ones are polished.
        let curved = || !(self.a.core().is_flat() && self.b.core().is_flat());
        if let (Some(n), true) = (direction, measured && curved()) {
            // Curved cores: the duality gap closes with the normal good to about √ε; Newton's
            // method makes it exact. The distance stays GJK's (already within ε).
            if let Some(q) = polish(self, n, -core_distance, Start::Loop) {
                (core_a, core_b) = q.witnesses(-core_distance, (core_a, core_b), None::<&Self>);
                direction = Some(q.normal);
            }
        }
        let margins = self.a.margin() + self.b.margin();
        let (distance, point_a, point_b, normal) = match direction {
            Some(n) => {
                let point_a = core_a + n * self.a.margin();
                let point_b = core_b - n * self.b.margin();
                let gap = (core_distance - margins).max(V::Real::ZERO);
                (gap, point_a, point_b, n)
            }
            None => (V::Real::ZERO, core_a, core_b, V::ZERO),
        };
        let world = &self.pose_a;
        let (point_a, point_b) = (world.transform_point(point_a), world.transform_point(point_b));
        (distance, point_a, point_b, world.transform_vector(normal))
    }
}

/// The state of one GJK run, in A's frame, on the cores.
struct Run<V: Vector> {
    simplex: Simplex<V>,
    /// The simplex's closest point to the origin (or the first search guess).
    v: V,
    /// Whether the origin is inside the simplex (or within the touching tolerance).
    contained: bool,
    iterations: u32,
    termination: Termination,
    goal: Goal,
    tolerance: V::Real,
    max_iterations: u32,
    margins: V::Real,
    /// The centres of A and of B, in A's frame.
    centers: (V, V),
    /// The size that rounding is relative to, squared: the largest `|w|²` seen, and the
    /// largest squared distance of a support point of A or B from its shape's centre.
    size2: V::Real,
    /// The pair's touching distance ([`Pair::touch`]).
    touch: V::Real,
    /// The cores' distance as a projection measured it ([`Projected::distance`]), when the
    /// run was that one projection ([`Run::project_point`]): `|v|` is the rotated gap's
    /// length, which differs from it by rounding.
    ///
    /// [`Projected::distance`]: crate::pair::Projected::distance
    projected: Option<V::Real>,
    /// Stalls recovered so far ([`Run::recover`]).
    recoveries: u32,
    /// The generating circles of both cores when both are cylinders or cones and the goal is
    /// the distance: the feature finisher ([`Run::finish_curved`]) may run.
    rims: Option<RimPair<V::Real>>,
    /// The feature finisher's attempts so far.
    finishes: u32,
}

/// What [`Pair::probe`] learns: the verdict and the loop's end, count and final simplex.
pub(crate) struct Probe<V: Vector> {
    pub(crate) intersecting: bool,
    pub(crate) termination: Termination,
    pub(crate) iterations: u32,
    pub(crate) simplex: Simplex<V>,
}

/// A pose with its rotation as a matrix, built once per query: every GJK iteration rotates
/// the search direction into B's frame and B's support point back, and a unit quaternion
/// rotates a 3D vector in about 30 floating-point operations where a matrix takes 15 (in
/// `f64`, glam's quaternion product is scalar code). In 2D the matrix's products are the
/// rotation's own (same results to the bit); in 3D they differ from the quaternion's by
/// rounding. Only in `f64`: glam's `f32` quaternion is SIMD, and its rotation costs fewer
/// instructions than the matrix over scalar `Vec3` columns (hull_32 distance: 1.507e6
/// against 1.491e6 instructions for its 250 pairs).
#[derive(Clone, Copy)]
struct Frame<V: Vector> {
    /// The images of the coordinate axes (zero beyond the dimension); `f64` only.
    columns: [V; 3],
    pose: Pose<V>,
}

/// Whether [`Frame`] rotates by its matrix (`f64`) or by the pose's rotation (`f32`).
#[inline(always)]
const fn by_matrix<V: Vector>() -> bool {
    core::mem::size_of::<V::Real>() == 8
}

impl<V: Vector> Frame<V> {
    #[inline(always)]
    fn new(pose: &Pose<V>) -> Self {
        let column = |i: usize| {
            let used = by_matrix::<V>() && i < V::DIM;
            if used {
                pose.transform_vector(V::axis(i))
            } else {
                V::ZERO
            }
        };
        Self { columns: [column(0), column(1), column(2)], pose: *pose }
    }

    /// `R v`.
    #[inline(always)]
    fn rotate(&self, v: V) -> V {
        if !by_matrix::<V>() {
            return self.pose.transform_vector(v);
        }
        let [c0, c1, c2] = self.columns;
        let r = c0 * v.component(0) + c1 * v.component(1);
        if V::DIM == 3 {
            r + c2 * v.component(2)
        } else {
            r
        }
    }

    /// `Rᵀ v`.
    #[inline(always)]
    fn inverse_rotate(&self, v: V) -> V {
        if !by_matrix::<V>() {
            return self.pose.inverse_transform_vector(v);
        }
        let [c0, c1, c2] = self.columns;
        V::from_components([c0.dot(v), c1.dot(v), c2.dot(v)])
    }

    /// `R p + t`.
    #[inline(always)]
    fn transform_point(&self, p: V) -> V {
        self.rotate(p) + self.pose.translation()
    }

    /// [`Pair::support_hinted`], with B's pose in this frame.
    #[inline(always)]
    fn support<A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
        &self,
        pair: &Pair<'_, V, A, B>,
        dir: V,
        hints: &mut [u32; 2],
    ) -> SupportPoint<V> {
        let a = pair.a.support_hinted(dir, &mut hints[0]);
        let b_local = pair.b.support_hinted(self.inverse_rotate(-dir), &mut hints[1]);
        SupportPoint::new(a, self.transform_point(b_local), b_local)
    }
}

impl<V: Vector> Relative<V> for Frame<V> {
    #[inline(always)]
    fn to_b(&self, d: V) -> V {
        self.inverse_rotate(d)
    }

    #[inline(always)]
    fn rotate_from_b(&self, v: V) -> V {
        self.rotate(v)
    }

    #[inline(always)]
    fn point_from_b(&self, p: V) -> V {
        self.transform_point(p)
    }
}

/// The relative duality gap below which the feature finisher first tries
/// ([`Run::finish_curved`]).
const FINISH_GAP: f64 = 1e-2;

/// At most this many feature-finisher attempts in one run.
const MAX_FINISHES: u32 = 2;

/// At most this many stalls are recovered in one run ([`Run::recover`]).
pub(crate) const MAX_RECOVERIES: u32 = 4;

impl<V: Vector> Run<V> {
    fn new<A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
        pair: &Pair<'_, V, A, B>,
        goal: Goal,
        options: &GjkOptions<V::Real>,
    ) -> Self {
        let tolerance = tolerance::effective(options.tolerance);
        let centers = (pair.a.center(), pair.relative.transform_point(pair.b.center()));
        Self {
            simplex: Simplex::new(),
            v: V::ZERO,
            contained: false,
            iterations: 0,
            termination: Termination::IterationCap,
            goal,
            tolerance,
            max_iterations: options.max_iterations,
            margins: pair.a.margin() + pair.b.margin(),
            centers,
            size2: V::Real::ZERO,
            touch: pair.tolerance_between(centers, tolerance).distance(),
            projected: None,
            recoveries: 0,
            rims: match goal {
                Goal::Distance => Rims::of(&pair.a.core()).zip(Rims::of(&pair.b.core())),
                Goal::Intersection => None,
            },
            finishes: 0,
        }
    }

    /// The unit normal from A toward B of a run that ended apart: `−v`, turned to the final
    /// simplex's hull normal ([`Simplex::hull_normal`]) where that is a rounding-sized turn.
    ///
    /// `v` is orthogonal to the simplex's hull (its weights are interior), but its direction
    /// is only good to about `ε size / |v|`, and a margin then puts its witness that fraction
    /// of itself off the supporting plane. A larger turn than `v`'s rounding allows means the
    /// simplex is not the answer's feature (a stall's sliver), and `−v` stays.
    fn normal(&self) -> Option<V> {
        let n = (-self.v).direction()?;
        let Some(m) = self.simplex.hull_normal(n) else { return Some(n) };
        let turn = V::Real::from_f64(64.0) * V::Real::EPSILON * self.size2.sqrt();
        Some(if (m - n).length() * self.v.length() <= turn { m } else { n })
    }

    /// The touching tolerance (a distance): see [`Pair::touch`].
    fn touch_distance(&self) -> V::Real {
        self.touch
    }

    fn intersecting(&self, margins: V::Real) -> bool {
        self.contained || self.core_distance() <= margins + self.touch_distance()
    }

    /// The cores' distance the run found: the projection's where it was one, else `|v|`.
    fn core_distance(&self) -> V::Real {
        self.projected.unwrap_or_else(|| self.v.length())
    }

    fn see(&mut self, p: &SupportPoint<V>) {
        let (center_a, center_b) = self.centers;
        let radius2 = (p.a - center_a).length_squared().max((p.b - center_b).length_squared());
        self.size2 = self.size2.max(p.w.length_squared()).max(radius2);
    }

    /// When one core is a single point and the other shape projects points exactly (a ball
    /// against a box, say), the answer is that projection: one "support point" pair, no loop.
    fn project_point<A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
        &mut self,
        pair: &Pair<'_, V, A, B>,
    ) -> bool {
        let Some(closest) = pair.projection(&pair.kernel(Query::Distance)) else {
            return false;
        };
        self.see(&closest.points);
        self.simplex.push(closest.points);
        self.v = self.simplex.reduce();
        self.iterations = 1;
        // The projection's own distance, the number `Pair::distance` judges: `|v|` is the
        // rotated gap's. A length, as `Pair::touching` compares it: a square would round
        // differently, and a tiny gap's square underflows to 0.
        let core_distance = closest.distance();
        self.projected = Some(core_distance);
        self.contained = core_distance <= self.touch_distance();
        self.termination =
            if self.contained { Termination::Contained } else { Termination::Converged };
        true
    }

    /// Seeds the simplex from the warm-start cache, or picks the first search direction.
    #[inline(always)]
    fn seed(&mut self, frame: &Frame<V>, warm: &WarmStart<V>) {
        for &(a, b_local) in &warm.pairs[..usize::from(warm.len).min(V::DIM + 1)] {
            let p = SupportPoint::new(a, frame.transform_point(b_local), b_local);
            if !self.simplex.contains(&p) {
                self.see(&p);
                self.simplex.push(p);
            }
        }
        if !self.simplex.is_empty() {
            self.v = self.simplex.reduce();
            self.contained =
                self.simplex.len() == V::DIM + 1 || self.v.length() <= self.touch_distance();
            if self.contained {
                self.termination = Termination::Contained;
            }
            return;
        }
        // Cold start: aim from B's centre toward A's, the likely direction of the gap.
        let guess = self.centers.0 - self.centers.1;
        self.v = if guess.direction().is_some() { guess } else { V::axis(0) };
    }

    fn solve<A: Support<V> + ?Sized, B: Support<V> + ?Sized, O: GjkObserver<V> + ?Sized>(
        &mut self,
        pair: &Pair<'_, V, A, B>,
        warm: &mut WarmStart<V>,
        observer: &mut O,
    ) {
        if !observer.watching() && self.project_point(pair) {
            return;
        }
        self.iterate(pair, warm, observer);
        if self.goal == Goal::Intersection
            && self.termination != Termination::SeparatingAxis
            && !self.intersecting(self.margins)
        {
            self.measure(pair, observer);
        }
    }

    /// An intersection run that ended apart without proving it (converged, stalled or capped
    /// with `|v|` beyond the margins and the touching distance, but no separating axis):
    /// `|v|` only bounds the cores' distance from above, here by a loop that stopped at its
    /// tolerance without the feature finisher, so a pair inside the touching distance could
    /// read as apart where [`Pair::distance`] measures it touching (cones 1.17e-10 apart
    /// against a touching distance of 1.21e-10: `|v|` stopped 1.24e-10 away). The verdict is
    /// then the distance run's, started cold as `distance` and `closest_points` start it, so
    /// that `intersects`, `contact(0)`'s probe and `distance == 0` agree by construction. Only
    /// pairs within the loop's tolerance of touching get here; the iterations add up.
    #[cold]
    #[inline(never)]
    fn measure<A: Support<V> + ?Sized, B: Support<V> + ?Sized, O: GjkObserver<V> + ?Sized>(
        &mut self,
        pair: &Pair<'_, V, A, B>,
        observer: &mut O,
    ) {
        let (spent, margins) = (self.iterations, self.margins);
        let options = GjkOptions { tolerance: self.tolerance, max_iterations: self.max_iterations };
        *self = Run::new(pair, Goal::Distance, &options);
        // A probe's grown margins ([`Pair::probe`]) stay.
        self.margins = margins;
        self.solve(pair, &mut WarmStart::default(), observer);
        self.iterations += spent;
    }

    /// The loop of [`Run::solve`] after the point projection: seeds, then iterates.
    #[inline(always)]
    fn iterate<A: Support<V> + ?Sized, B: Support<V> + ?Sized, O: GjkObserver<V> + ?Sized>(
        &mut self,
        pair: &Pair<'_, V, A, B>,
        warm: &mut WarmStart<V>,
        observer: &mut O,
    ) {
        // B's relative pose with its rotation as a matrix, built once for the support calls.
        let frame = Frame::new(&pair.relative);
        self.seed(&frame, warm);
        if self.contained {
            return;
        }
        while self.iterations < self.max_iterations {
            self.iterations += 1;
            let direction = -self.v;
            let p = frame.support(pair, direction, &mut warm.hints);
            self.see(&p);
            let before = self.v;
            if let Some(end) = self.check_before_adding(&p) {
                if end == Termination::NoProgress && self.recover(pair, &p).is_none() {
                    continue;
                }
                self.termination = end;
                return;
            }
            self.simplex.push(p);
            let reduction = self.simplex.solve();
            if observer.watching() {
                let mut shown = self.simplex;
                shown.commit(&reduction);
                observer.step(&GjkStep {
                    iteration: self.iterations,
                    direction,
                    support: p,
                    simplex: &shown,
                    closest: reduction.closest,
                });
            }
            if let Some(mut end) = self.check_after_adding(&reduction) {
                if end == Termination::NoProgress {
                    match self.recover(pair, &p) {
                        None => continue,
                        Some(after) => end = after,
                    }
                }
                self.termination = end;
                return;
            }
            if self.rims.is_some() && self.finish_due(before, p.w) {
                if let Some(end) = self.finish_curved(pair, &frame, &mut warm.hints, observer) {
                    self.termination = end;
                    return;
                }
            }
        }
        self.termination = Termination::IterationCap;
    }

    /// Whether the feature finisher should try now: the duality gap of the last iteration
    /// (`w` against the `v` it was searched from), relative to `|v|²`, is below
    /// [`FINISH_GAP`] (divided by 100 for each failed attempt), and attempts are left.
    #[inline(always)]
    fn finish_due(&self, v: V, w: V) -> bool {
        if self.finishes >= MAX_FINISHES || self.iterations >= self.max_iterations {
            return false;
        }
        let vv = v.length_squared();
        let mut switch = V::Real::from_f64(FINISH_GAP);
        for _ in 0..self.finishes {
            switch *= V::Real::from_f64(0.01);
        }
        vv - v.dot(w) < switch * vv
    }

    /// The feature finisher ([`crate::finish`]) for cylinders and cones: Newton's method on
    /// the simplex's vertices held on their generating circles, then one support call along
    /// the answer as its certificate. The answer replaces GJK's simplex only when GJK's own
    /// duality-gap test closes on it (`Converged`); otherwise the loop goes on from its own
    /// simplex, and the certificate's support call counts as an iteration either way.
    #[cold]
    fn finish_curved<A: Support<V> + ?Sized, B: Support<V> + ?Sized, O: GjkObserver<V> + ?Sized>(
        &mut self,
        pair: &Pair<'_, V, A, B>,
        frame: &Frame<V>,
        hints: &mut [u32; 2],
        observer: &mut O,
    ) -> Option<Termination> {
        self.finishes += 1;
        let rims = self.rims?;
        let found = finish(self.simplex.points(), rims, self.v, frame)?;
        if found.v.length_squared() > self.v.length_squared() {
            return None;
        }
        self.iterations += 1;
        let direction = -found.v;
        let p = frame.support(pair, direction, hints);
        self.see(&p);
        let gjk_v = self.v;
        self.v = found.v;
        if self.gap_open(p.w) {
            self.v = gjk_v;
            return None;
        }
        self.simplex.replace(&found.points[..found.len], &found.lambdas[..found.len]);
        if observer.watching() {
            observer.step(&GjkStep {
                iteration: self.iterations,
                direction,
                support: p,
                simplex: &self.simplex,
                closest: found.v,
            });
        }
        Some(Termination::Converged)
    }

    /// A stall with the duality gap still open: `w`, the last support point, lies farther
    /// along `−v` than the tolerance allows, yet the simplex could not get closer with it.
    ///
    /// This happens on ruled patches of the Minkowski difference (a cylinder's or a cone's
    /// side near its rim): `−v` leans a little toward one end of the ruling, its support point
    /// is the far rim, and the segment to it offers only `1e-13` of progress, while the
    /// needed point is on the near rim, between the ones the simplex holds (their chord cuts
    /// the rim's curve). GJK reported such pairs apart by up to 1e-6 of their size while they
    /// touched. Newton's polish of the normal ([`polish`]) turns it orthogonal to the ruling,
    /// and its support point lands on the near rim at the right angle: the loop goes on with
    /// it. Where the polish finds no such point, [`Simplex::recombined`] pairs the shapes' points
    /// anew. `None` to go on, else how the loop ends (`NoProgress` when no recovery applies).
    ///
    /// A recovered point is taken where it opens the duality gap along `−v`, or where it lies
    /// closer to the origin than `v` inside the gap's rounding floor. The latter is a stall on
    /// the right distance with the wrong normal: in f32 the floor (`8 ε |v| size`) lets `v`
    /// lean along a ruling by up to about `√(16 ε size / |v|)` (the gap grows with half the
    /// angle's square). A capsule beside an ellipsoid (segment 5.8e-2, cores 7.7e-4 apart)
    /// stalled 1.5e-3 rad off, where the support value grows by the segment's length per
    /// radian: the push by the depth left 62 times the suite's tolerance. A recovered point
    /// whose witnesses are on the shapes (support points, points of a ruling between two, or
    /// such points moved to hand out a remainder where the shapes' support points show room
    /// for the move) is a point of the cores' difference, so its length bounds the distance
    /// too, and its direction is the recovery's normal, across the ruling: the loop restarts
    /// from it alone, and the next support point closes the gap. One whose witnesses may be
    /// off the shapes is not: they would be the answer's (a cylinder's 6.5 times the suite's
    /// tolerance off the cylinder).
    #[cold]
    fn recover<A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
        &mut self,
        pair: &Pair<'_, V, A, B>,
        w: &SupportPoint<V>,
    ) -> Option<Termination> {
        let stalled = Some(Termination::NoProgress);
        if !self.gap_open(w.w) || self.recoveries >= MAX_RECOVERIES {
            return stalled;
        }
        self.recoveries += 1;
        let Some(n) = (-self.v).direction() else { return stalled };
        let vv = self.v.length_squared();
        let usable = |(p, found): &(SupportPoint<V>, bool)| {
            !self.simplex.contains(p)
                && (self.gap_open(p.w) || (*found && p.w.length_squared() < vv))
        };
        let escape = stall_escape(pair, n, -self.v.length(), true).filter(usable);
        let recombined = || self.simplex.recombined(w, vv).map(|p| (p, true)).filter(usable);
        let Some((p, _)) = escape.or_else(recombined) else { return stalled };
        self.see(&p);
        if !self.gap_open(p.w) {
            // Closer than `v` but inside the gap's floor: a nearly flat simplex of points
            // along the ruling would not resolve the few roundings it gains (a triangle with
            // two vertices 1.2e-5 apart kept `v`), so `p` alone replaces it.
            self.simplex.replace(&[p], &[V::Real::ONE]);
            return self.check_after_adding(&self.simplex.solve());
        }
        self.simplex.push(p);
        self.check_after_adding(&self.simplex.solve())
    }

    /// Stopping tests on the new support point `w` before it joins the simplex.
    fn check_before_adding(&mut self, p: &SupportPoint<V>) -> Option<Termination> {
        let vv = self.v.length_squared();
        let vw = self.v.dot(p.w);
        let first = self.simplex.is_empty();
        // Lower bound of the cores' distance: v·w / |v|. Beyond the margins plus twice the
        // touching distance: separated ([`tolerance::apart_bound`]). Within it the run goes on
        // to measure: `|v|`, the distance run's verdict, and this bound straddle the true gap
        // by their roundings (f32 cylinder against a box 2.013e-7 apart, touching distance
        // 2.008e-7: the bound read 2.022e-7, the distance run's `|v|` 1.995e-7).
        if self.goal == Goal::Intersection && vw > V::Real::ZERO {
            let bound = tolerance::apart_bound(self.margins, self.touch_distance());
            if vw * vw > bound * bound * vv {
                return Some(Termination::SeparatingAxis);
            }
        }
        if first {
            return None;
        }
        if self.simplex.contains(p) {
            return Some(Termination::NoProgress);
        }
        // Duality gap, relative to |v|², with a floor of a few rounding units of |v|·size.
        if !self.gap_open(p.w) {
            return Some(Termination::Converged);
        }
        None
    }

    /// Whether the support point `w` lies farther along `−v` than the tolerance allows: the
    /// duality gap `|v|² − v·w`, relative to `|v|²`, with a floor of a few rounding units of
    /// `|v|·size`.
    #[inline(always)]
    fn gap_open(&self, w: V) -> bool {
        let vv = self.v.length_squared();
        let gap = vv - self.v.dot(w);
        let rounding = V::Real::from_f64(8.0) * V::Real::EPSILON * vv.sqrt() * self.size2.sqrt();
        gap > self.tolerance * vv + rounding
    }

    /// Stopping tests on the reduction of the simplex that just gained a vertex: commits it, or
    /// drops that vertex again when it brought no progress (the previous simplex and `v` stay).
    fn check_after_adding(&mut self, reduction: &Reduction<V>) -> Option<Termination> {
        let vv = reduction.closest.length_squared();
        let touch = self.touch_distance();
        let end = if reduction.kept == V::DIM + 1 || within(reduction.closest, touch) {
            Some(Termination::Contained)
        } else if self.goal == Goal::Intersection && vv.sqrt() <= self.margins + touch {
            Some(Termination::MarginOverlap)
        } else if self.simplex.len() > 1 && vv >= self.v.length_squared() {
            self.simplex.pop();
            return Some(Termination::NoProgress);
        } else {
            None
        };
        self.simplex.commit(reduction);
        self.v = reduction.closest;
        self.contained = end == Some(Termination::Contained);
        end
    }
}

/// Whether `|v| ≤ distance`: by squares (no square root) unless `|v|²` is so small that it
/// may have underflowed (a gap of 1e-300 squares to 0, which would pass any test).
#[inline]
fn within<V: Vector>(v: V, distance: V::Real) -> bool {
    let vv = v.length_squared();
    if vv >= V::Real::MIN_POSITIVE / V::Real::EPSILON {
        vv <= distance * distance
    } else {
        v.length() <= distance
    }
}

/// The answer of [`closest_points`]: either the shapes are apart, and how, or they intersect.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Proximity<V: Vector> {
    /// The shapes touch or overlap.
    Intersecting,
    /// The shapes are apart.
    Separated(Separation<V>),
}

/// How two separated shapes are apart, in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Separation<V: Vector> {
    /// The distance between the shapes (`> 0`).
    pub distance: V::Real,
    /// The point of A closest to B.
    pub point_a: V,
    /// The point of B closest to A.
    pub point_b: V,
    /// The unit normal from A toward B: `point_b − point_a = distance × normal`.
    pub normal: V,
    /// How the GJK loop ended ([`Termination::IterationCap`]: the best answer found, not
    /// within tolerance).
    pub termination: Termination,
}

impl<V: Vector> From<&GjkResult<V>> for Proximity<V> {
    fn from(r: &GjkResult<V>) -> Self {
        if r.intersecting {
            Proximity::Intersecting
        } else {
            Proximity::Separated(Separation {
                distance: r.distance,
                point_a: r.point_a,
                point_b: r.point_b,
                normal: r.normal,
                termination: r.termination,
            })
        }
    }
}

/// Whether shape `a` at `pose_a` and shape `b` at `pose_b` touch or overlap.
///
/// ```
/// use gjk::{intersects, Ball, Pose};
/// use glam::DVec3;
/// let ball = Ball::<DVec3>::new(1.0).unwrap();
/// let touching = Pose::from_translation(DVec3::new(2.0, 0.0, 0.0)).unwrap();
/// assert!(intersects(&ball, &Pose::IDENTITY, &ball, &touching));
/// ```
pub fn intersects<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
) -> bool {
    Pair::new(a, *pose_a, b, *pose_b).intersects()
}

/// [`intersects`] with options (tolerance, iteration cap).
///
/// ```
/// use gjk::{intersects_with, Ball, GjkOptions, Pose};
/// use glam::DVec2;
/// let ball = Ball::<DVec2>::new(1.0)?;
/// let near = Pose::from_translation(DVec2::new(2.0 + 1e-9, 0.0))?;
/// let loose = GjkOptions { tolerance: 1e-6, ..Default::default() };
/// assert!(intersects_with(&ball, &Pose::IDENTITY, &ball, &near, &loose)); // within 1e-6 × size
/// # Ok::<(), gjk::ShapeError>(())
/// ```
pub fn intersects_with<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    options: &GjkOptions<V::Real>,
) -> bool {
    Pair::new(a, *pose_a, b, *pose_b).intersects_with(options)
}

/// The distance between shape `a` at `pose_a` and shape `b` at `pose_b` (0 when they touch or
/// overlap).
///
/// ```
/// use gjk::{distance, Cuboid, Pose};
/// use glam::DVec2;
/// let square = Cuboid::new(DVec2::ONE).unwrap();
/// let there = Pose::from_translation(DVec2::new(5.0, 0.0)).unwrap();
/// assert!((distance(&square, &Pose::IDENTITY, &square, &there) - 3.0).abs() < 1e-12);
/// ```
pub fn distance<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
) -> V::Real {
    Pair::new(a, *pose_a, b, *pose_b).distance()
}

/// [`distance`] with options (tolerance, iteration cap).
///
/// ```
/// use gjk::{distance_with, Ball, GjkOptions, Pose};
/// use glam::DVec3;
/// let ball = Ball::<DVec3>::new(1.0)?;
/// let apart = Pose::from_translation(DVec3::new(3.0, 0.0, 0.0))?;
/// let d = distance_with(&ball, &Pose::IDENTITY, &ball, &apart, &GjkOptions::default());
/// assert!((d - 1.0).abs() < 1e-12);
/// # Ok::<(), gjk::ShapeError>(())
/// ```
pub fn distance_with<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    options: &GjkOptions<V::Real>,
) -> V::Real {
    Pair::new(a, *pose_a, b, *pose_b).distance_with(options)
}

/// The closest points of two shapes, or [`Proximity::Intersecting`].
///
/// ```
/// use gjk::{closest_points, Ball, Pose, Proximity};
/// use glam::DVec2;
/// let ball = Ball::<DVec2>::new(1.0).unwrap();
/// let there = Pose::from_translation(DVec2::new(0.0, 3.0)).unwrap();
/// let Proximity::Separated(s) = closest_points(&ball, &Pose::IDENTITY, &ball, &there) else {
///     panic!("the balls are 1 apart")
/// };
/// assert!((s.distance - 1.0).abs() < 1e-12);
/// assert!((s.point_a - DVec2::new(0.0, 1.0)).length() < 1e-12);
/// assert!((s.normal - DVec2::Y).length() < 1e-12);
/// ```
pub fn closest_points<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
) -> Proximity<V> {
    Pair::new(a, *pose_a, b, *pose_b).closest_points()
}

/// [`closest_points`] with options (tolerance, iteration cap); the whole result, with its
/// termination report and iteration count.
///
/// ```
/// use gjk::{closest_points_with, Cuboid, GjkOptions, Pose, Termination};
/// use glam::DVec2;
/// let square = Cuboid::new(DVec2::ONE)?;
/// let apart = Pose::from_translation(DVec2::new(3.0, 0.5))?;
/// let r = closest_points_with(&square, &Pose::IDENTITY, &square, &apart, &GjkOptions::default());
/// assert!(!r.intersecting && (r.distance - 1.0).abs() < 1e-12);
/// assert_ne!(r.termination, Termination::IterationCap);
/// # Ok::<(), gjk::ShapeError>(())
/// ```
pub fn closest_points_with<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    options: &GjkOptions<V::Real>,
) -> GjkResult<V> {
    Pair::new(a, *pose_a, b, *pose_b).gjk(Goal::Distance, options, &mut WarmStart::default())
}
