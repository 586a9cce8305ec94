//! Fuzzes the 2D queries on arbitrary point sets (polygons, segments, points), discs, boxes and
//! rounded polygons under arbitrary poses: no panic, no NaN, and the answers consistent with
//! each other (`intersects` ⇔ distance 0 ⇔ `contact` depth ≥ 0, up to the touching band). The
//! 2D shortcuts — disc against polygon, the polygon and box–polygon separating-axis tests —
//! are checked against the general GJK and EPA path on the same shapes.
//!
//! Run: `cargo fuzz run queries_2d` (from this folder; needs cargo-fuzz).

#![no_main]

use gjk::{Ball, Cuboid, Polytope, Pose, Rounded, Support};
use glam::DVec2;
use libfuzzer_sys::fuzz_target;

mod common;

use common::{band, Numbers};

impl Numbers<'_> {
    fn vec(&mut self) -> Option<DVec2> {
        Some(DVec2::new(self.next()?, self.next()?))
    }
    fn pose(&mut self) -> Option<Pose<DVec2>> {
        Pose::<DVec2>::from_angle_translation(self.next()?, self.vec()?).ok()
    }
    fn polygon(&mut self) -> Option<Polytope<DVec2>> {
        let n = 1 + (self.byte()? % 12) as usize;
        let points: Option<Vec<DVec2>> = (0..n).map(|_| self.vec()).collect();
        Polytope::new(points?).ok()
    }
    fn shape(&mut self) -> Option<Box<dyn Support<DVec2>>> {
        Some(match self.byte()? % 4 {
            0 => Box::new(Ball::new(self.next()?.abs()).ok()?),
            1 => Box::new(Cuboid::new(self.vec()?.abs()).ok()?),
            2 => Box::new(self.polygon()?),
            _ => Box::new(Rounded::new(self.polygon()?, self.next()?.abs()).ok()?),
        })
    }
}

/// The same shape answering support queries only (with its margin), so queries on it take the
/// general GJK and EPA path.
struct General<'a>(&'a dyn Support<DVec2>);

impl Support<DVec2> for General<'_> {
    fn support(&self, dir: DVec2) -> DVec2 {
        self.0.support(dir)
    }
    fn margin(&self) -> f64 {
        self.0.margin()
    }
    fn center(&self) -> DVec2 {
        self.0.center()
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
    let contact = gjk::contact(a, &pose_a, b, &pose_b, 0.0);
    if let Some(c) = contact {
        assert!(c.depth.is_finite() && c.point_a.is_finite() && c.point_b.is_finite());
        assert!(c.normal.is_finite() && (c.normal.length() - 1.0).abs() < 1e-6, "{c:?}");
    }
    // Clear verdicts must agree; inside the touching band either answer is allowed.
    let band = band(a, pose_a.translation(), b, pose_b.translation());
    if d > band {
        assert!(!hit, "intersects() but distance {d}");
    }
    // The shortcuts against the general path: same verdict outside the band, same depth.
    let (general_a, general_b) = (General(a), General(b));
    let slow = gjk::contact(&general_a, &pose_a, &general_b, &pose_b, 0.0);
    match (contact, slow) {
        (Some(f), Some(s)) => {
            assert!((f.depth - s.depth).abs() <= band, "depth {f:?} vs general {s:?}");
        }
        (Some(c), None) | (None, Some(c)) => {
            assert!(c.depth.abs() <= band, "verdicts differ: {c:?}");
        }
        _ => {}
    }
});
