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

/// A subnormal direction must normalise to a unit vector, not NaN. `Vector::direction` scaled by
/// `1/max|xᵢ|`, which overflows to infinity for a subnormal maximum and turns the zero
/// coordinates into `0 × ∞ = NaN`; `full_support` of any shape with a margin then returned NaN.
/// Fixed by dividing by the maximum instead.
#[test]
fn subnormal_direction_normalises_without_nan() {
    use gjk::{full_support, Ball, Vector};
    use glam::DVec3;
    let d = DVec3::new(0.0, -5e-324, 0.0);
    assert_eq!(Vector::direction(d), Some(DVec3::new(0.0, -1.0, 0.0)));
    let ball = Ball::<DVec3>::new(2.0).unwrap();
    assert_eq!(full_support(&ball, d), DVec3::new(0.0, -2.0, 0.0));
}

/// A polytope whose points lie near the largest float must have a finite centre. The centre was
/// the sum of the points divided by their number, and the sum overflowed to infinity; the
/// touching tolerance (relative to the support points' distances from the centre) then became
/// infinite. Fixed by summing `pᵢ / n`.
#[test]
fn polytope_center_near_float_max_is_finite() {
    use gjk::{Polytope, Support};
    use glam::{DVec3, Vec2};
    let hull = Polytope::new(vec![DVec3::splat(1.5e308), DVec3::splat(1.7e308)]).unwrap();
    assert!(hull.center().is_finite());
    assert!((hull.center().x - 1.6e308).abs() < 1e293);
    let f32_hull = Polytope::new(vec![Vec2::splat(3e38), Vec2::new(3e38, -3e38)]).unwrap();
    assert_eq!(f32_hull.center(), Vec2::new(3e38, 0.0));
}

/// An ellipsoid with very unequal (valid) radii must have a finite support point. With radii
/// (1e-300, 1, 1e300) and the direction (1e-300, 0, 0), `R d` was (1e-300, 0, 0), its squared
/// length underflowed to 0, and the support became 0/0 = NaN. Fixed by rescaling `R d` by its
/// largest coordinate before taking its length.
#[test]
fn ellipsoid_support_with_extreme_radii_is_finite() {
    use gjk::{Ellipsoid, Support};
    use glam::DVec3;
    let e = Ellipsoid::new(DVec3::new(1e-300, 1.0, 1e300)).unwrap();
    assert_eq!(e.support(DVec3::new(1e-300, 0.0, 0.0)), DVec3::new(1e-300, 0.0, 0.0));
    assert_eq!(e.support(DVec3::new(0.0, 0.0, -1.0)), DVec3::new(0.0, 0.0, -1e300));
    let p = e.support(DVec3::new(1.0, 1.0, 1.0));
    assert!(p.is_finite() && (p.z - 1e300).abs() < 1e285, "{p:?}");
}
