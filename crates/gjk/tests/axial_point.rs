//! A point or a ball against a cylinder or a cone: the projection of `Core::Cylinder` and
//! `Core::Cone` (clamping in the meridian half plane), against brute force in 3D.
//!
//! The oracle minimises `|p − x|` over each patch of the boundary (the side, the caps or the
//! base, each parametrised by an angle about the axis and a parameter in `[0, 1]`) on a dense
//! grid, then refines the best cell by pattern search down to 1e-13; the nearest patch's
//! point is the foot. Points are drawn inside and outside, at generic positions, with
//! heights and radii from 0.1 to 10 (ratios up to 1:100).
//!
//! Tolerances (f64): distance and depth within 1e-9 of the size, the foot within 1e-7 of the
//! size, the normal within 1e-6 rad of the direction between the point and the oracle's
//! foot.

use crate::common;

use common::Rng;
use gjk::{closest_points, contact, distance, Ball, Cone, Cylinder, Point, Pose, Proximity};
use glam::DVec3;
use std::f64::consts::TAU;

/// A patch of the boundary: `(θ, t) ∈ [0, 2π) × [0, 1] → x`.
type Patch<'a> = &'a dyn Fn(f64, f64) -> DVec3;

/// The point of `patch` nearest to `p`, and its distance.
fn nearest_on(patch: Patch<'_>, p: DVec3) -> (DVec3, f64) {
    let cost = |(theta, t): (f64, f64)| (patch(theta, t.clamp(0.0, 1.0)) - p).length();
    let (n_theta, n_t) = (720, 200);
    let mut best = ((0.0, 0.0), f64::INFINITY);
    for i in 0..n_theta {
        for j in 0..=n_t {
            let u = (TAU * f64::from(i) / f64::from(n_theta), f64::from(j) / f64::from(n_t));
            let c = cost(u);
            if c < best.1 {
                best = (u, c);
            }
        }
    }
    let moves = [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)];
    let step = TAU / f64::from(n_theta);
    let clamp = |(theta, t): (f64, f64)| (theta, t.clamp(0.0, 1.0));
    let best = common::compass_search(cost, best, step, 1e-13, &moves, clamp);
    (patch(best.0 .0, best.0 .1), best.1)
}

/// The nearest of the patches' nearest points, and whether another patch ties with it at a
/// different point (inside, equally near two faces: the foot is not unique).
fn brute_foot(patches: &[Patch<'_>], p: DVec3, size: f64) -> (DVec3, f64, bool) {
    let feet: Vec<(DVec3, f64)> = patches.iter().map(|patch| nearest_on(*patch, p)).collect();
    let best =
        feet.iter()
            .copied()
            .fold((DVec3::ZERO, f64::INFINITY), |b, f| if f.1 < b.1 { f } else { b });
    let tie = feet
        .iter()
        .any(|f| (f.1 - best.1).abs() < 1e-6 * size && (f.0 - best.0).length() > 1e-6 * size);
    (best.0, best.1, tie)
}

fn angle(a: DVec3, b: DVec3) -> f64 {
    a.cross(b).length().atan2(a.dot(b))
}

/// Checks a ball (and a bare point) at `p` against the core at the origin.
fn check(
    case: usize,
    shape: &dyn gjk::Support<DVec3>,
    inside: bool,
    p: DVec3,
    patches: &[Patch<'_>],
    size: f64,
) {
    let (foot, gap, tie) = brute_foot(patches, p, size);
    if tie {
        return;
    }
    let outward = if inside { foot - p } else { p - foot }.normalize();
    let radius = 0.25 * size;
    let ball = Ball::<DVec3>::new(radius).unwrap();
    let pose = Pose::from_translation(p).unwrap();
    let here = Pose::IDENTITY;
    let c = contact(&ball, &pose, shape, &here, f64::INFINITY).unwrap();
    let expected_depth = if inside { gap + radius } else { radius - gap };
    assert!(
        (c.depth - expected_depth).abs() <= 1e-9 * size,
        "case {case}: depth {} vs {expected_depth}",
        c.depth
    );
    let a = angle(-c.normal, outward);
    assert!(a < 1e-6, "case {case}: normal {:?} is {a} rad off {outward:?}", c.normal);
    assert!((c.point_b - foot).length() <= 1e-7 * size, "case {case}: {c:?} vs foot {foot:?}");
    if !inside {
        let point = Point::new(DVec3::ZERO).unwrap();
        let d = distance(&point, &pose, shape, &here);
        assert!((d - gap).abs() <= 1e-9 * size, "case {case}: distance {d} vs {gap}");
        let Proximity::Separated(s) = closest_points(&point, &pose, shape, &here) else {
            panic!("case {case}: apart by {gap}");
        };
        assert!((s.point_b - foot).length() <= 1e-7 * size, "case {case}: {s:?} vs foot {foot:?}");
    }
}

/// A point in the box around the shape, inside or outside as asked (by rejection).
fn draw(rng: &mut Rng, reach: DVec3, inside: &dyn Fn(DVec3) -> bool, want_inside: bool) -> DVec3 {
    loop {
        let p =
            DVec3::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)) * reach;
        if inside(p) == want_inside {
            return p;
        }
    }
}

#[test]
fn points_and_balls_against_cylinders_match_brute_force() {
    let mut rng = Rng::new(3);
    for case in 0..60 {
        let (h, r) = (10f64.powf(rng.range(-1.0, 1.0)), 10f64.powf(rng.range(-1.0, 1.0)));
        let cylinder = Cylinder::new(h, r).unwrap();
        let side =
            |theta: f64, t: f64| DVec3::new(r * theta.cos(), -h + 2.0 * h * t, r * theta.sin());
        let top = |theta: f64, t: f64| DVec3::new(r * t * theta.cos(), h, r * t * theta.sin());
        let bottom = |theta: f64, t: f64| DVec3::new(r * t * theta.cos(), -h, r * t * theta.sin());
        let contains = |p: DVec3| p.x.hypot(p.z) <= r && p.y.abs() <= h;
        let want_inside = case % 2 == 0;
        let p = draw(&mut rng, DVec3::new(r, h, r), &contains, want_inside);
        check(case, &cylinder, want_inside, p, &[&side, &top, &bottom], h.max(r));
    }
}

#[test]
fn points_and_balls_against_cones_match_brute_force() {
    let mut rng = Rng::new(4);
    for case in 0..60 {
        let (h, r) = (10f64.powf(rng.range(-1.0, 1.0)), 10f64.powf(rng.range(-1.0, 1.0)));
        let cone = Cone::new(h, r).unwrap();
        let side = |theta: f64, t: f64| {
            DVec3::new(r * (1.0 - t) * theta.cos(), -h + 2.0 * h * t, r * (1.0 - t) * theta.sin())
        };
        let base = |theta: f64, t: f64| DVec3::new(r * t * theta.cos(), -h, r * t * theta.sin());
        let contains = |p: DVec3| p.y >= -h && p.x.hypot(p.z) <= r * (h - p.y) / (2.0 * h);
        let want_inside = case % 2 == 0;
        let p = draw(&mut rng, DVec3::new(r, h, r), &contains, want_inside);
        check(case, &cone, want_inside, p, &[&side, &base], h.max(r));
    }
}

/// Points on the axis, where the way across is any direction: the depth is still exact, and
/// the answer deterministic.
#[test]
fn points_on_the_axis_get_the_exact_depth() {
    let point = Point::new(DVec3::ZERO).unwrap();
    let cylinder = Cylinder::new(2.0, 1.0).unwrap();
    let cone = Cone::new(1.0, 1.0).unwrap();
    // Cylinder: the side is 1 away, the caps 2 − |y|. Cone (apex (0, 1), base at −1, radius 1):
    // the side's line is (2ρ + y − 1) / √5 away, the base y + 1.
    for (shape, y, expected) in [
        (&cylinder as &dyn gjk::Support<DVec3>, 0.0, 1.0),
        (&cylinder, 1.5, 0.5),
        (&cone, -0.9, 0.1),
        (&cone, 0.5, 0.5 / 5f64.sqrt()),
    ] {
        let pose = Pose::from_translation(DVec3::new(0.0, y, 0.0)).unwrap();
        let c = contact(&point, &pose, shape, &Pose::IDENTITY, 0.0).unwrap();
        assert!((c.depth - expected).abs() < 1e-12, "y {y}: {c:?} vs {expected}");
        let again = contact(&point, &pose, shape, &Pose::IDENTITY, 0.0).unwrap();
        assert_eq!(c, again);
    }
}
