//! Recording a query step by step: explain mode, pictures, teaching.
//!
//! [`Trace`] is a [`GjkObserver`] that keeps every iteration of a GJK run — the search direction,
//! the support points on A and B and their difference, the simplex after reduction with its
//! barycentric coordinates, the closest point — and how the run ended. It is opt-in: the GJK loop
//! takes `&mut impl GjkObserver`, and the plain queries pass `()`, which compiles away, so a query
//! that is not traced pays nothing.
//!
//! Only support points that joined the simplex are recorded as iterations: the loop's last
//! support call may be refused before that (the duality gap closed, or the point was already a
//! vertex), so [`Trace::end`] — the number of support calls — can exceed the number of recorded
//! iterations by one. Support is deterministic, so that last point can be recomputed from the
//! last recorded closest point (`d = −v`) when it needs showing.
//!
//! The record is a list of [`TraceEvent`]s rather than a list of GJK iterations so that later
//! stages of a query add their own kinds of event to the same story: a trace is also an
//! [`EpaObserver`], and [`crate::epa::penetration_observed`] records each expansion step
//! ([`EpaIteration`]: the polytope's faces, the closest one, the support point, the bounds)
//! and the answer.
//!
//! ```
//! use gjk::{Cuboid, GjkOptions, Goal, Pair, Pose, Termination, Trace, WarmStart};
//! use glam::DVec2;
//!
//! let square = Cuboid::new(DVec2::ONE)?;
//! let there = Pose::from_translation(DVec2::new(3.0, 0.5))?;
//! let mut trace = Trace::new();
//! let result = Pair::new(&square, Pose::IDENTITY, &square, there).gjk_observed(
//!     Goal::Distance,
//!     &GjkOptions::default(),
//!     &mut WarmStart::default(),
//!     &mut trace,
//! );
//! // The squares are 1 apart; the last support call proved it and was not added.
//! assert!((result.distance - 1.0).abs() < 1e-12);
//! assert!(trace.iterations().count() as u32 <= result.iterations);
//! assert_eq!(trace.end(), Some((result.termination, result.iterations)));
//! let first = trace.iterations().next().unwrap();
//! assert_eq!(first.support.w, first.support.a - first.support.b);
//! # Ok::<(), gjk::ShapeError>(())
//! ```

use alloc::vec::Vec;

use crate::epa::{EpaDecision, EpaFace, EpaObserver, EpaStep, Penetration};
use crate::gjk::{GjkObserver, GjkStep, Termination};
use crate::math::Vector;
use crate::simplex::{Simplex, SupportPoint};

/// One recorded GJK iteration. Coordinates are in A's frame (the frame the query runs in).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkIteration<V: Vector> {
    /// 1 for the first support call.
    pub iteration: u32,
    /// The search direction `d = −v` that the support point was asked for.
    pub direction: V,
    /// The new support point: `a = s_A(d)`, `b = s_B(−d)` and `w = a − b`.
    pub support: SupportPoint<V>,
    /// The simplex after the new point joined and the sub-algorithm reduced it: its vertices
    /// ([`Simplex::points`]) and the barycentric coordinates `λ` of its point closest to the
    /// origin ([`Simplex::barycentric`]).
    pub simplex: Simplex<V>,
    /// The simplex's point closest to the origin, `v = Σ λᵢ wᵢ` (zero when the simplex holds the
    /// origin).
    pub closest: V,
}

/// One recorded EPA iteration ([`EpaStep`] with the polytope copied). Coordinates are in A's
/// frame.
#[derive(Clone, Debug, PartialEq)]
pub struct EpaIteration<V: Vector> {
    /// 1 for the first support point searched.
    pub iteration: u32,
    /// The polytope's faces (triangles in 3D, edges in 2D) when the support point was searched.
    pub faces: Vec<EpaFace<V>>,
    /// The face closest to the origin, whose normal the support point was asked for.
    pub closest: EpaFace<V>,
    /// The support point of A's core along the normal.
    pub a: V,
    /// The support point of B's core along the opposite direction.
    pub b: V,
    /// `w = a − b`.
    pub w: V,
    /// The lower bound of the depth (the closest face's distance).
    pub lower: V::Real,
    /// This direction's upper bound `n·w`.
    pub bound: V::Real,
    /// The smallest upper bound so far.
    pub upper: V::Real,
    /// What the iteration decided.
    pub decision: EpaDecision,
}

/// Something that happened during a traced query.
///
/// Marked non-exhaustive: later stages (cast steps) may add kinds.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum TraceEvent<V: Vector> {
    /// A GJK iteration added a support point.
    Gjk(GjkIteration<V>),
    /// The GJK loop ended: how, and after how many support calls.
    GjkEnd {
        /// Why the loop stopped.
        termination: Termination,
        /// The number of support calls.
        iterations: u32,
    },
    /// An EPA iteration searched a support point.
    Epa(EpaIteration<V>),
    /// The expansion ended with this answer (its termination and iteration count included).
    EpaEnd(Penetration<V>),
}

/// A recording of a query, iteration by iteration (see the [module docs](self)).
///
/// One trace can record several queries in a row; [`Trace::clear`] forgets them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace<V: Vector> {
    events: Vec<TraceEvent<V>>,
}

impl<V: Vector> Trace<V> {
    /// An empty trace.
    pub fn new() -> Self {
        Self { events: Vec::new() }
    }

    /// Everything recorded, in order.
    pub fn events(&self) -> &[TraceEvent<V>] {
        &self.events
    }

    /// The recorded GJK iterations, in order.
    pub fn iterations(&self) -> impl Iterator<Item = &GjkIteration<V>> + '_ {
        self.events.iter().filter_map(|e| match e {
            TraceEvent::Gjk(step) => Some(step),
            _ => None,
        })
    }

    /// The recorded EPA iterations, in order.
    pub fn epa_iterations(&self) -> impl Iterator<Item = &EpaIteration<V>> + '_ {
        self.events.iter().filter_map(|e| match e {
            TraceEvent::Epa(step) => Some(step),
            _ => None,
        })
    }

    /// The answer of the last recorded expansion (`None` while it runs or when none was
    /// recorded).
    pub fn epa_end(&self) -> Option<&Penetration<V>> {
        self.events.iter().rev().find_map(|e| match e {
            TraceEvent::EpaEnd(p) => Some(p),
            _ => None,
        })
    }

    /// How the last recorded GJK loop ended, and after how many support calls (`None` while it
    /// runs or when nothing was recorded).
    pub fn end(&self) -> Option<(Termination, u32)> {
        self.events.iter().rev().find_map(|e| match *e {
            TraceEvent::GjkEnd { termination, iterations } => Some((termination, iterations)),
            _ => None,
        })
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// Forgets everything recorded (the storage is kept for the next query).
    pub fn clear(&mut self) {
        self.events.clear();
    }
}

impl<V: Vector> GjkObserver<V> for Trace<V> {
    fn step(&mut self, step: &GjkStep<'_, V>) {
        self.events.push(TraceEvent::Gjk(GjkIteration {
            iteration: step.iteration,
            direction: step.direction,
            support: step.support,
            simplex: *step.simplex,
            closest: step.closest,
        }));
    }

    fn end(&mut self, termination: Termination, iterations: u32) {
        self.events.push(TraceEvent::GjkEnd { termination, iterations });
    }
}

impl<V: Vector> EpaObserver<V> for Trace<V> {
    fn step(&mut self, step: &EpaStep<'_, V>) {
        self.events.push(TraceEvent::Epa(EpaIteration {
            iteration: step.iteration,
            faces: step.faces(),
            closest: step.closest(),
            a: step.a,
            b: step.b,
            w: step.w,
            lower: step.lower,
            bound: step.bound,
            upper: step.upper,
            decision: step.decision,
        }));
    }

    fn end(&mut self, penetration: &Penetration<V>) {
        self.events.push(TraceEvent::EpaEnd(*penetration));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gjk::{GjkOptions, Goal, Pair, WarmStart};
    use crate::math::Pose;
    use crate::shape::{Ball, Polytope};
    use glam::{DVec2, DVec3};

    #[test]
    fn records_each_iteration_with_consistent_geometry() {
        let a = Polytope::new(vec![
            DVec3::new(0.0, 0.0, 0.0),
            DVec3::new(1.0, 0.0, 0.0),
            DVec3::new(0.0, 1.0, 0.0),
            DVec3::new(0.0, 0.0, 1.0),
        ])
        .unwrap();
        let b = Ball::<DVec3>::new(0.5).unwrap();
        let pose_b = Pose::from_translation(DVec3::new(2.0, 1.5, 1.0)).unwrap();
        let mut trace = Trace::new();
        let r = Pair::new(&a, Pose::IDENTITY, &b, pose_b).gjk_observed(
            Goal::Distance,
            &GjkOptions::default(),
            &mut WarmStart::default(),
            &mut trace,
        );
        let steps: Vec<_> = trace.iterations().copied().collect();
        assert!(!steps.is_empty());
        assert_eq!(trace.end(), Some((r.termination, r.iterations)));
        for (k, s) in steps.iter().enumerate() {
            assert_eq!(s.iteration as usize, k + 1);
            // The support point is a − b and a is A's farthest point along d (brute force).
            assert_eq!(s.support.w, s.support.a - s.support.b);
            let best = a.points().iter().map(|p| p.dot(s.direction)).fold(f64::MIN, f64::max);
            assert_eq!(s.support.a.dot(s.direction), best);
            // λ sum to one and reproduce the closest point.
            let lambdas = s.simplex.barycentric();
            assert!((lambdas.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            let combo = s
                .simplex
                .points()
                .iter()
                .zip(lambdas)
                .fold(DVec3::ZERO, |acc, (p, &l)| acc + p.w * l);
            assert!((combo - s.closest).length() < 1e-12);
        }
        // The last recorded closest point is the cores' separation: distance + the ball's radius.
        assert!((steps.last().unwrap().closest.length() - (r.distance + 0.5)).abs() < 1e-9);
    }

    #[test]
    fn clear_and_reuse() {
        let a = Ball::<DVec2>::new(1.0).unwrap();
        let there = Pose::from_translation(DVec2::new(0.5, 0.0)).unwrap();
        let mut trace = Trace::new();
        let pair = Pair::new(&a, Pose::IDENTITY, &a, there);
        let options = GjkOptions::default();
        pair.gjk_observed(Goal::Intersection, &options, &mut WarmStart::default(), &mut trace);
        let first = trace.events().len();
        pair.gjk_observed(Goal::Intersection, &options, &mut WarmStart::default(), &mut trace);
        assert_eq!(trace.events().len(), 2 * first);
        trace.clear();
        assert!(trace.is_empty());
        assert_eq!(trace.end(), None);
    }

    /// The depth of the polytopes `a` and `b` (A's frame) by brute force: the Minkowski
    /// difference is the hull of all vertex differences, and with the origin inside, the depth
    /// is the smallest offset of its faces' planes. (`None` when the origin is outside or
    /// within `margin` of the boundary, where "inside" hangs on rounding.)
    fn brute_depth<V: Vector<Real = f64>>(a: &[V], b: &[V], margin: f64) -> Option<f64> {
        let differences: Vec<V> = a.iter().flat_map(|&p| b.iter().map(move |&q| p - q)).collect();
        let hull = crate::Hull::new(&differences).unwrap();
        let depth = hull.faces().map(|f| f.offset).fold(f64::INFINITY, f64::min);
        (hull.dimension() == V::DIM && depth > margin).then_some(depth)
    }

    /// Checks a recorded expansion against the brute-force `depth` (relative tolerance `tol`):
    /// every step brackets it, the lower bound never falls, each step's closest face is the
    /// nearest of its recorded faces, and the last step's face is the answer.
    fn check_steps<V: Vector<Real = f64>>(trace: &Trace<V>, depth: f64, tol: f64) -> usize {
        let p = *trace.epa_end().expect("an answer");
        assert_eq!(p.termination, crate::EpaTermination::Converged, "{p:?}");
        assert!((p.depth - depth).abs() <= tol * depth, "{} vs {depth}", p.depth);
        let steps: Vec<_> = trace.epa_iterations().collect();
        assert_eq!(steps.len() as u32, p.iterations);
        let (mut lower, mut best) = (f64::NEG_INFINITY, f64::INFINITY);
        for (k, s) in steps.iter().enumerate() {
            assert_eq!(s.iteration as usize, k + 1);
            // The upper bound is the smallest support value of the steps so far.
            best = best.min(s.bound);
            assert_eq!(s.upper, best);
            assert!(s.lower <= depth * (1.0 + tol) && s.upper >= depth * (1.0 - tol), "{s:?}");
            assert!(s.lower >= lower - tol * depth, "the lower bound fell: {s:?}");
            lower = s.lower;
            assert_eq!(s.w, s.a - s.b);
            assert!((s.bound - s.closest.normal.dot(s.w)).abs() <= tol * depth);
            // The closest face is the nearest recorded face, and every face's plane passes
            // through its corners.
            let nearest = s.faces.iter().map(|f| f.distance).fold(f64::INFINITY, f64::min);
            assert_eq!(nearest, s.closest.distance);
            assert!(s.faces.contains(&s.closest));
            for f in &s.faces {
                for &c in f.corners() {
                    assert!((f.normal.dot(c) - f.distance).abs() <= 1e-9 * (1.0 + c.length()));
                }
            }
            let decision =
                if k + 1 == steps.len() { EpaDecision::Converged } else { EpaDecision::Grow };
            assert_eq!(s.decision, decision);
        }
        let last = steps.last().unwrap();
        assert_eq!((last.closest.normal, last.lower), (p.normal, p.depth));
        steps.len()
    }

    #[test]
    fn records_epa_steps_that_bracket_the_brute_force_depth() {
        use crate::epa::penetration_observed;
        use crate::test_rng::{Draw, Rng};
        use crate::EpaOptions;
        let mut rng = Rng::new(18);
        let (mut checked, mut steps) = (0, 0);
        for case in 0..200 {
            // 3D: two hulls of 4 to 12 points; 2D: two polygons (their projections).
            let cloud = |rng: &mut Rng, n: usize| -> Vec<DVec3> {
                (0..n).map(|_| rng.in_cube() * DVec3::new(1.5, 1.0, 0.7)).collect()
            };
            let (na, nb) = (4 + rng.below(9), 4 + rng.below(9));
            let (a3, b3) = (cloud(&mut rng, na), cloud(&mut rng, nb));
            let offset = rng.in_cube() * 1.2;
            let b3: Vec<DVec3> = b3.iter().map(|&p| p + offset).collect();
            if case % 2 == 0 {
                let Some(depth) = brute_depth(&a3, &b3, 1e-3) else { continue };
                let (a, b) = (Polytope::new(a3).unwrap(), Polytope::new(b3).unwrap());
                let pair = Pair::new(&a, Pose::IDENTITY, &b, Pose::IDENTITY);
                let gjk =
                    pair.gjk(Goal::Distance, &GjkOptions::default(), &mut WarmStart::default());
                let mut trace = Trace::new();
                let options = EpaOptions::default();
                let p = penetration_observed(&pair, gjk.simplex.points(), &options, &mut trace);
                // The hook changes nothing: the unobserved expansion gives the same answer.
                assert_eq!(p, crate::epa::penetration(&pair, &gjk.simplex, &options));
                steps += check_steps(&trace, depth, 1e-9);
            } else {
                let flat = |ps: &[DVec3]| ps.iter().map(|p| p.truncate()).collect::<Vec<DVec2>>();
                let (a2, b2) = (flat(&a3), flat(&b3));
                let Some(depth) = brute_depth(&a2, &b2, 1e-3) else { continue };
                let (a, b) = (Polytope::new(a2).unwrap(), Polytope::new(b2).unwrap());
                let pair = Pair::new(&a, Pose::IDENTITY, &b, Pose::IDENTITY);
                let gjk =
                    pair.gjk(Goal::Distance, &GjkOptions::default(), &mut WarmStart::default());
                let mut trace = Trace::new();
                let options = EpaOptions::default();
                let p = penetration_observed(&pair, gjk.simplex.points(), &options, &mut trace);
                assert_eq!(p, crate::epa::penetration(&pair, &gjk.simplex, &options));
                steps += check_steps(&trace, depth, 1e-9);
            }
            checked += 1;
        }
        assert!(checked > 80 && steps > 3 * checked, "{checked} pairs, {steps} steps");
    }
}
