//! Fuzzes every query on arbitrary point sets, balls and boxes under arbitrary poses: no panic,
//! no NaN, every loop bounded, and the answers consistent with each other
//! (`intersects` ⇔ distance 0 ⇔ `contact` depth ≥ 0 up to the touching tolerance).
//!
//! Run: `cargo fuzz run queries` (from this folder; needs cargo-fuzz).

#![no_main]

use gjk::{Ball, Cuboid, Polytope, Pose, Support};
use glam::{DQuat, DVec3};
use libfuzzer_sys::fuzz_target;

mod common;

use common::{band, Numbers};

impl Numbers<'_> {
    fn vec(&mut self) -> Option<DVec3> {
        Some(DVec3::new(self.next()?, self.next()?, self.next()?))
    }
    fn pose(&mut self) -> Option<Pose<DVec3>> {
        let q = DQuat::from_xyzw(self.next()?, self.next()?, self.next()?, self.next()?);
        Pose::new(q, self.vec()?).ok()
    }
    fn shape(&mut self) -> Option<Box<dyn Support<DVec3>>> {
        Some(match self.byte()? % 3 {
            0 => Box::new(Ball::new(self.next()?.abs()).ok()?),
            1 => Box::new(Cuboid::new(self.vec()?.abs()).ok()?),
            _ => {
                let n = 1 + (self.byte()? % 12) as usize;
                let points: Option<Vec<DVec3>> = (0..n).map(|_| self.vec()).collect();
                Box::new(Polytope::new(points?).ok()?)
            }
        })
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Numbers(data);
    let (Some(a), Some(b), Some(pose_a), Some(pose_b)) =
        (input.shape(), input.shape(), input.pose(), input.pose())
    else {
        return;
    };
    let (a, b) = (&*a, &*b);
    let hit = gjk::intersects(a, &pose_a, b, &pose_b);
    let d = gjk::distance(a, &pose_a, b, &pose_b);
    assert!(d.is_finite() && d >= 0.0, "distance {d}");
    if let gjk::Proximity::Separated(s) = gjk::closest_points(a, &pose_a, b, &pose_b) {
        assert!(s.point_a.is_finite() && s.point_b.is_finite() && s.normal.is_finite());
        assert!((s.normal.length() - 1.0).abs() < 1e-6, "normal {:?}", s.normal);
    }
    if let Some(c) = gjk::contact(a, &pose_a, b, &pose_b, 0.0) {
        assert!(c.depth.is_finite() && c.point_a.is_finite() && c.point_b.is_finite());
        assert!(c.normal.is_finite());
    }
    // Clear verdicts must agree (inside the touching band either answer is allowed).
    if d > band(a, pose_a.translation(), b, pose_b.translation()) {
        assert!(!hit, "intersects() but distance {d}");
    }
    if let Some(origin) = input.vec() {
        let dir = input.vec().unwrap_or(DVec3::X);
        if let Some(r) = gjk::ray_cast(a, &pose_a, &gjk::Ray::new(origin, dir), 10.0) {
            assert!(r.toi.is_finite() && r.toi >= 0.0 && r.point.is_finite());
        }
        let s = gjk::shape_cast(a, &pose_a, dir, b, &pose_b, -dir, 10.0);
        assert!(s.toi.is_finite() && s.point_a.is_finite() && s.normal.is_finite());
    }
});
