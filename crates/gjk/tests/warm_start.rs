//! Warm starting on coherent motion: a pair moving and turning by small steps, queried every
//! step with a reused [`WarmStart`] and, for comparison, cold.
//!
//! Sequences (300 steps each, some passing through contact): 3D polytopes of 24 points, 3D
//! boxes, 2D polygons of 12 points (through their support function alone), a capsule and a
//! polytope, a ball and a polytope, and (reported, held to a weaker bound) an ellipsoid and a
//! box. A capsule and a box is answered in closed form (one iteration, cold or warm), which
//! the test checks. Requirements: on every polytope-like
//! sequence the warm mean iteration count of the distance query is at most half the cold mean,
//! and so is the mean over all distance sequences (printed); the intersection test (whose cold
//! run often stops at its first support point) and the ellipsoid must not get slower; warm
//! answers equal cold answers (distance within 1e-9 of the size, same intersection verdict
//! outside the touching band).

use crate::common;

use common::{to_d, Draw, Rng, SupportOnly, TestVector};
use gjk::{
    Ball, Capsule, Cuboid, Ellipsoid, GjkOptions, GjkResult, Goal, Pair, Polytope, Support,
    WarmStart,
};
use glam::{DQuat, DVec2, DVec3};

const STEPS: usize = 300;

struct Counts {
    cold: u64,
    warm: u64,
    steps: u64,
    intersecting: u64,
}

impl Counts {
    fn means(&self) -> (f64, f64) {
        (self.cold as f64 / self.steps as f64, self.warm as f64 / self.steps as f64)
    }
}

/// Runs `STEPS` queries of `a` at a fixed pose against `b` moving along a smooth path (a slow
/// orbit plus a slow spin), for `goal`; returns the iteration counts.
fn run<V: TestVector>(
    name: &str,
    a: &dyn Support<V>,
    b: &dyn Support<V>,
    radius: f64,
    goal: Goal,
) -> Counts {
    let dim = V::DIM;
    let options = GjkOptions::default();
    let mut warm = WarmStart::default();
    let mut counts = Counts { cold: 0, warm: 0, steps: 0, intersecting: 0 };
    let pose_a = V::pose(DQuat::from_rotation_z(0.3), DVec3::new(1.0, -2.0, 0.0));
    let axis = if dim == 3 { DVec3::new(0.3, 1.0, 0.2).normalize() } else { DVec3::Z };
    for step in 0..STEPS {
        let t = step as f64 * 0.01;
        // The distance between the centres swings through `radius` (contact) and back.
        let reach = radius * (1.0 + 0.35 * (3.0 * t).sin());
        let dir = DVec3::new(t.cos(), t.sin(), if dim == 3 { 0.3 * (2.0 * t).sin() } else { 0.0 })
            .normalize();
        let pose_b = V::pose(
            DQuat::from_axis_angle(axis, 2.0 * t),
            to_d(pose_a.translation()) + dir * reach,
        );
        let pair = Pair::new(a, pose_a, b, pose_b);
        let cold: GjkResult<V> = pair.gjk(goal, &options, &mut WarmStart::default());
        let hot: GjkResult<V> = pair.gjk(goal, &options, &mut warm);
        counts.cold += u64::from(cold.iterations);
        counts.warm += u64::from(hot.iterations);
        counts.steps += 1;
        counts.intersecting += u64::from(cold.intersecting);
        let size = 2.0 * radius;
        let context = format!("{name} step {step}: cold {cold:?}\nwarm {hot:?}");
        if goal == Goal::Distance {
            let (dc, dw) = (gjk::Real::to_f64(cold.distance), gjk::Real::to_f64(hot.distance));
            assert!((dc - dw).abs() <= V::DISTANCE_TOLERANCE * size, "{context}");
            // The verdicts may differ only within the touching band.
            if cold.intersecting != hot.intersecting {
                assert!(dc.max(dw) <= 0.5 * V::DISTANCE_TOLERANCE * size, "{context}");
            }
        } else {
            // An intersection test's distance is only a bound; compare the verdicts against a
            // full distance query instead.
            let exact = gjk::Real::to_f64(pair.distance());
            if exact > 0.5 * V::DISTANCE_TOLERANCE * size {
                assert!(!hot.intersecting && !cold.intersecting, "{context}");
            } else if exact == 0.0 {
                assert!(hot.intersecting && cold.intersecting, "{context}");
            }
        }
    }
    let (cold, warm) = counts.means();
    eprintln!(
        "[{name}, {goal:?}] {} steps ({} intersecting): mean iterations cold {cold:.2}, warm {warm:.2} \
         (ratio {:.2})",
        counts.steps,
        counts.intersecting,
        warm / cold
    );
    counts
}

fn cloud(rng: &mut Rng, dim: usize, n: usize) -> Vec<DVec3> {
    (0..n).map(|_| rng.direction(dim) * rng.range(0.6, 1.0)).collect()
}

fn polytope<V: TestVector>(points: &[DVec3]) -> Polytope<V> {
    Polytope::new(points.iter().map(|&p| common::from_d::<V>(p)).collect()).unwrap()
}

fn assert_halved(name: &str, counts: &Counts) {
    let (cold, warm) = counts.means();
    assert!(
        warm <= 0.5 * cold,
        "{name}: warm start must at least halve the mean iterations (cold {cold:.2}, warm {warm:.2})"
    );
}

#[test]
fn warm_start_halves_iterations_on_coherent_motion() {
    let mut rng = Rng::new(0xC0FFEE);
    let mut total = Counts { cold: 0, warm: 0, steps: 0, intersecting: 0 };
    let mut add = |name: &str, goal: Goal, c: Counts, must_halve: bool| {
        let (cold, warm) = c.means();
        assert!(warm <= cold, "{name}: warm {warm:.2} > cold {cold:.2}");
        if goal == Goal::Intersection {
            // The cold intersection test often stops at the first support point already (a
            // separating axis), so there is little to halve; counted in no total.
            return;
        }
        if must_halve {
            assert_halved(name, &c);
        }
        total.cold += c.cold;
        total.warm += c.warm;
        total.steps += c.steps;
        total.intersecting += c.intersecting;
    };
    for goal in [Goal::Distance, Goal::Intersection] {
        let (pa, pb) = (cloud(&mut rng, 3, 24), cloud(&mut rng, 3, 24));
        let (a, b) = (polytope::<DVec3>(&pa), polytope::<DVec3>(&pb));
        add(
            "3D polytopes 24 vs 24",
            goal,
            run::<DVec3>("3D polytopes 24 vs 24", &a, &b, 2.0, goal),
            true,
        );

        let (a, b) = (
            Cuboid::new(DVec3::new(1.0, 0.5, 0.7)).unwrap(),
            Cuboid::new(DVec3::new(0.4, 0.8, 0.6)).unwrap(),
        );
        add("3D boxes", goal, run::<DVec3>("3D boxes", &a, &b, 1.6, goal), true);

        let (pa, pb) = (cloud(&mut rng, 2, 12), cloud(&mut rng, 2, 12));
        let (a, b) = (polytope::<DVec2>(&pa), polytope::<DVec2>(&pb));
        // Two polygons apart have closed-form closest points (the walk round their Minkowski
        // difference, one "iteration"): through their support function alone, GJK's warm
        // start is what this sequence measures.
        let (a, b) = (SupportOnly(&a), SupportOnly(&b));
        add(
            "2D polygons 12 vs 12",
            goal,
            run::<DVec2>("2D polygons 12 vs 12", &a, &b, 2.0, goal),
            true,
        );

        let capsule =
            Capsule::new(DVec3::new(0.0, -0.8, 0.0), DVec3::new(0.0, 0.8, 0.0), 0.3).unwrap();
        let boxed = Cuboid::new(DVec3::splat(0.6)).unwrap();
        // A capsule against a box has closed-form closest points (the segment–box distance):
        // one "iteration" cold or warm, nothing for the cache to halve.
        let c = run::<DVec3>("capsule vs box", &capsule, &boxed, 1.5, goal);
        assert_eq!(c.means(), (1.0, 1.0), "capsule vs box: the closed form answers");
        let hull = polytope::<DVec3>(&cloud(&mut rng, 3, 24));
        add(
            "capsule vs polytope",
            goal,
            run::<DVec3>("capsule vs polytope", &capsule, &hull, 1.6, goal),
            true,
        );

        let ball = Ball::<DVec3>::new(0.7).unwrap();
        let hull = polytope::<DVec3>(&cloud(&mut rng, 3, 24));
        add(
            "ball vs polytope",
            goal,
            run::<DVec3>("ball vs polytope", &ball, &hull, 1.6, goal),
            true,
        );

        // Smooth shapes converge linearly, warm or cold: only required not to get worse.
        let ellipsoid = Ellipsoid::new(DVec3::new(1.0, 0.5, 0.3)).unwrap();
        let c = run::<DVec3>("ellipsoid vs box", &ellipsoid, &boxed, 1.5, goal);
        add("ellipsoid vs box", goal, c, false);
    }
    let (cold, warm) = total.means();
    eprintln!(
        "[all sequences] {} steps ({} intersecting): mean iterations cold {cold:.2}, warm {warm:.2}",
        total.steps, total.intersecting
    );
    assert!(warm <= 0.5 * cold, "overall: cold {cold:.2}, warm {warm:.2}");
}
