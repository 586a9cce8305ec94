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
//! stages of a query (the polytope of EPA, the steps of a cast) can add their own kinds of event
//! to the same story.
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

/// Something that happened during a traced query.
///
/// Marked non-exhaustive: later stages (EPA polytope snapshots, cast steps) will add kinds.
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
            TraceEvent::GjkEnd { .. } => None,
        })
    }

    /// How the last recorded GJK loop ended, and after how many support calls (`None` while it
    /// runs or when nothing was recorded).
    pub fn end(&self) -> Option<(Termination, u32)> {
        self.events.iter().rev().find_map(|e| match *e {
            TraceEvent::GjkEnd { termination, iterations } => Some((termination, iterations)),
            TraceEvent::Gjk(_) => None,
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
}
