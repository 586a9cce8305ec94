//! The point-projection shortcut: a ball (or point) against a shape that projects points
//! exactly skips the GJK loop. Checked against the analytic answer and against the full loop
//! (forced by a watching observer), on random poses.

use gjk::{
    Ball, Capsule, Cuboid, GjkObserver, GjkOptions, GjkStep, Goal, Pair, Pose, Support, WarmStart,
};
use gjk_testkit::SplitMix64 as Rng;
use glam::{DQuat, DVec3};

/// Watches (and so forces the full GJK loop) without recording anything.
struct Watch;
impl GjkObserver<DVec3> for Watch {
    fn step(&mut self, _: &GjkStep<'_, DVec3>) {}
}

/// The draws of these tests, on the shared SplitMix64.
trait Draw {
    /// A number in `[−1, 1]` from all 64 bits.
    fn signed(&mut self) -> f64;
    /// A point in the cube `[−scale, scale]³`.
    fn vec(&mut self, scale: f64) -> DVec3;
    /// A random rigid pose.
    fn pose(&mut self) -> Pose<DVec3>;
}

impl Draw for Rng {
    fn signed(&mut self) -> f64 {
        self.next_u64() as f64 / u64::MAX as f64 * 2.0 - 1.0
    }
    fn vec(&mut self, scale: f64) -> DVec3 {
        DVec3::new(self.signed(), self.signed(), self.signed()) * scale
    }
    fn pose(&mut self) -> Pose<DVec3> {
        let q = DQuat::from_xyzw(self.signed(), self.signed(), self.signed(), self.signed());
        Pose::new(q, self.vec(3.0)).unwrap()
    }
}

/// Distance from `p` to the box `[−h, h]` (0 inside), computed per axis.
fn box_distance(h: DVec3, p: DVec3) -> f64 {
    let outside = (p.abs() - h).max(DVec3::ZERO);
    outside.length()
}

#[test]
fn ball_against_box_uses_one_projection_and_matches_the_analytic_distance() {
    let mut rng = Rng::new(7);
    let cube = Cuboid::new(DVec3::new(0.8, 0.5, 0.3)).unwrap();
    let ball = Ball::<DVec3>::new(0.4).unwrap();
    let options = GjkOptions::default();
    for case in 0..2000 {
        let (pose_ball, pose_box) = (rng.pose(), rng.pose());
        for (a, pa, b, pb) in [
            (&ball as &dyn Support<DVec3>, pose_ball, &cube as &dyn Support<DVec3>, pose_box),
            (&cube, pose_box, &ball, pose_ball),
        ] {
            let pair = Pair::new(a, pa, b, pb);
            let fast = pair.gjk(Goal::Distance, &options, &mut WarmStart::default());
            let looped =
                pair.gjk_observed(Goal::Distance, &options, &mut WarmStart::default(), &mut Watch);
            let centre = pose_box.inverse_transform_point(pose_ball.translation());
            let exact = (box_distance(cube.half_extents(), centre) - 0.4).max(0.0);
            assert_eq!(fast.iterations, 1, "case {case}: the shortcut was not taken");
            assert!((fast.distance - exact).abs() < 1e-12, "case {case}: {fast:?} vs {exact}");
            assert!((looped.distance - exact).abs() < 1e-9, "case {case}: loop {looped:?}");
            assert_eq!(fast.intersecting, exact == 0.0, "case {case}");
            if !fast.intersecting {
                let gap = fast.point_b - fast.point_a;
                assert!((gap - fast.normal * fast.distance).length() < 1e-12, "case {case}");
            }
        }
    }
}

#[test]
fn ball_against_capsule_matches_the_segment_distance() {
    let mut rng = Rng::new(11);
    let ball = Ball::<DVec3>::new(0.25).unwrap();
    for case in 0..2000 {
        let (p, q) = (rng.vec(1.0), rng.vec(1.0));
        let capsule = Capsule::new(p, q, 0.3).unwrap();
        let centre = rng.vec(2.0);
        let pose = Pose::from_translation(centre).unwrap();
        // Independent: the closest point of the segment by dense sampling, refined.
        let mut best = f64::INFINITY;
        for i in 0..=20_000 {
            let t = i as f64 / 20_000.0;
            best = best.min((p + (q - p) * t - centre).length());
        }
        let exact = (best - 0.55).max(0.0);
        let d = gjk::distance(&ball, &pose, &capsule, &Pose::IDENTITY);
        // Sampling at 1/20000 of a segment up to 2√3 long bounds the oracle's error by ~1e-8.
        assert!((d - exact).abs() < 2e-8, "case {case}: {d} vs {exact}");
    }
}
