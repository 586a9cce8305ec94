//! Named regression tests: each is the smallest case of a core bug this suite found, kept so the
//! bug stays fixed. The fix is described in the commit that added the test.

use gjk::{GjkOptions, Goal, Pair, Polytope, Pose, WarmStart};
use glam::DVec2;

/// Touching within tolerance must count as intersecting even when the very first support points
/// meet at the contact. The touching tolerance is relative to the shapes' size, but the query
/// measured "size" as the largest `|w| = |a − b|` seen — here `|w| = 1e-14`, so the tolerance
/// shrank to ~1e-24: `intersects()` reported a separating axis and `distance()` a 1e-14 gap
/// between two unit triangles sharing a vertex (up to rounding). Fixed by also measuring the
/// support points' distances from their shapes' centres.
#[test]
fn touching_vertex_seen_first_still_intersects() {
    let a =
        Polytope::new(vec![DVec2::ZERO, DVec2::new(-1.0, 1.0), DVec2::new(-1.0, -1.0)]).unwrap();
    let b =
        Polytope::new(vec![DVec2::new(1e-14, 0.0), DVec2::new(1.0, 1.0), DVec2::new(1.0, -1.0)])
            .unwrap();
    let pair = Pair::new(&a, Pose::IDENTITY, &b, Pose::IDENTITY);
    assert!(pair.intersects(), "a 1e-14 gap between unit shapes is touching");
    assert_eq!(pair.distance(), 0.0);
    let r = pair.gjk(Goal::Distance, &GjkOptions::default(), &mut WarmStart::default());
    assert!(r.intersecting, "{r:?}");
}
