//! A point or a ball against an ellipse or ellipsoid: the foot of the point on the boundary
//! (`Core::Ellipsoid`'s projection, Eberly's root of the foot's equation), against brute force.
//!
//! The oracle minimises `|p − x|` over the boundary's parametrisation (`x = (r₀ cos θ,
//! r₁ sin θ)` in 2D; `x = (r₀ cos θ sin φ, r₁ sin θ sin φ, r₂ cos φ)` in 3D) on a dense grid, then
//! refines the best cell by pattern search down to 1e-14 rad. Points are drawn inside and
//! outside ellipsoids with axis ratios up to 1:100, in the ellipsoid's frame, at generic
//! positions (the foot is unique there); the ball is A, the ellipsoid B at the origin.
//!
//! Tolerances (f64): distance and depth within 1e-9 of the largest radius, the normal within
//! 1e-6 rad of the oracle foot's outward normal (the gradient `xᵢ/rᵢ²`).

use crate::common;

use gjk::{closest_points, contact, distance, intersects, Ball, Ellipsoid, Point, Pose, Proximity};
use glam::{DVec2, DVec3};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
}

/// The oracle's foot: the boundary point nearest to `p` and its distance.
fn brute_foot(radii: DVec3, p: DVec3, dim: usize) -> (DVec3, f64) {
    let at = |(theta, phi): (f64, f64)| {
        if dim == 2 {
            DVec3::new(radii.x * theta.cos(), radii.y * theta.sin(), 0.0)
        } else {
            DVec3::new(
                radii.x * theta.cos() * phi.sin(),
                radii.y * theta.sin() * phi.sin(),
                radii.z * phi.cos(),
            )
        }
    };
    let cost = |u: (f64, f64)| (at(u) - p).length();
    let (n_theta, n_phi) = if dim == 2 { (20_000, 1) } else { (720, 360) };
    let mut best = ((0.0, std::f64::consts::FRAC_PI_2), f64::INFINITY);
    for i in 0..n_theta {
        for j in 0..n_phi {
            let theta = std::f64::consts::TAU * i as f64 / n_theta as f64;
            let phi = if dim == 2 {
                std::f64::consts::FRAC_PI_2
            } else {
                std::f64::consts::PI * (j as f64 + 0.5) / n_phi as f64
            };
            let c = cost((theta, phi));
            if c < best.1 {
                best = ((theta, phi), c);
            }
        }
    }
    let moves: &[(f64, f64)] = if dim == 2 {
        &[(1.0, 0.0), (-1.0, 0.0)]
    } else {
        &[(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)]
    };
    let step = std::f64::consts::TAU / n_theta as f64;
    let best = common::compass_search(cost, best, step, 1e-14, moves, |u| u);
    (at(best.0), best.1)
}

fn outward_normal(radii: DVec3, x: DVec3, dim: usize) -> DVec3 {
    let g = DVec3::new(x.x / (radii.x * radii.x), x.y / (radii.y * radii.y), 0.0);
    let g = if dim == 3 { g + DVec3::Z * (x.z / (radii.z * radii.z)) } else { g };
    g.normalize()
}

fn angle(a: DVec3, b: DVec3) -> f64 {
    a.cross(b).length().atan2(a.dot(b))
}

fn draw_radii(rng: &mut Rng, dim: usize) -> DVec3 {
    let mut r = || 10f64.powf(rng.range(-1.0, 1.0));
    DVec3::new(r(), r(), if dim == 3 { r() } else { 0.0 })
}

/// A point inside (`scale < 1`) or outside (`scale > 1`) along a random direction.
fn draw_point(rng: &mut Rng, radii: DVec3, dim: usize, scale: f64) -> DVec3 {
    loop {
        let d = DVec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
        let d = if dim == 2 { DVec3::new(d.x, d.y, 0.0) } else { d };
        if d.length() > 0.1 && d.length() <= 1.0 {
            return (d / d.length()) * radii * scale;
        }
    }
}

fn check_2d(seed: u64, cases: usize) {
    let mut rng = Rng(seed);
    for case in 0..cases {
        let radii = draw_radii(&mut rng, 2);
        let size = radii.max_element();
        let scale = if case % 2 == 0 { rng.range(0.05, 0.95) } else { rng.range(1.02, 3.0) };
        let p = draw_point(&mut rng, radii, 2, scale);
        let (foot, gap) = brute_foot(radii, p, 2);
        let ellipse = Ellipsoid::new(DVec2::new(radii.x, radii.y)).unwrap();
        let ball = Point::new(DVec2::ZERO).unwrap();
        let pose_a = Pose::from_translation(p.truncate()).unwrap();
        let here = Pose::IDENTITY;
        let inside = scale < 1.0;
        let expected_normal = outward_normal(radii, foot, 2);
        if inside {
            let c = contact(&ball, &pose_a, &ellipse, &here, 0.0).expect("inside");
            assert!(
                (c.depth - gap).abs() <= 1e-9 * size,
                "case {case}: depth {} vs {gap}",
                c.depth
            );
            // The ball (A) leaves through the foot: A toward B is minus the outward normal.
            let a = angle(-c.normal.extend(0.0), expected_normal);
            assert!(a < 1e-6, "case {case}: normal {:?} {a} rad off", c.normal);
            assert!(intersects(&ball, &pose_a, &ellipse, &here));
        } else {
            let d = distance(&ball, &pose_a, &ellipse, &here);
            assert!((d - gap).abs() <= 1e-9 * size, "case {case}: distance {d} vs {gap}");
            let Proximity::Separated(s) = closest_points(&ball, &pose_a, &ellipse, &here) else {
                panic!("case {case}: apart by {gap}");
            };
            assert!((s.point_b.extend(0.0) - foot).length() <= 1e-7 * size, "case {case}: {s:?}");
            let a = angle(-s.normal.extend(0.0), expected_normal);
            assert!(a < 1e-6, "case {case}: normal {:?} {a} rad off", s.normal);
        }
    }
}

fn check_3d(seed: u64, cases: usize) {
    let mut rng = Rng(seed);
    for case in 0..cases {
        let radii = draw_radii(&mut rng, 3);
        let size = radii.max_element();
        let scale = if case % 2 == 0 { rng.range(0.05, 0.95) } else { rng.range(1.02, 3.0) };
        let p = draw_point(&mut rng, radii, 3, scale);
        let (foot, gap) = brute_foot(radii, p, 3);
        let ellipsoid = Ellipsoid::new(radii).unwrap();
        let radius = 0.25 * size;
        let ball = Ball::<DVec3>::new(radius).unwrap();
        let pose_a = Pose::from_translation(p).unwrap();
        let here = Pose::IDENTITY;
        let expected_normal = outward_normal(radii, foot, 3);
        // Signed: the core's gap minus the ball's radius (negative: overlap of the surfaces).
        let c = contact(&ball, &pose_a, &ellipsoid, &here, f64::INFINITY).unwrap();
        let expected_depth = if scale < 1.0 { gap + radius } else { radius - gap };
        assert!(
            (c.depth - expected_depth).abs() <= 1e-9 * size,
            "case {case}: depth {} vs {expected_depth}",
            c.depth
        );
        let a = angle(-c.normal, expected_normal);
        assert!(a < 1e-6, "case {case}: normal {:?} {a} rad off {expected_normal:?}", c.normal);
        assert!((c.point_b - foot).length() <= 1e-7 * size, "case {case}: {c:?} vs foot {foot:?}");
    }
}

#[test]
fn point_against_ellipses_matches_brute_force() {
    check_2d(1, 200);
}

#[test]
fn ball_against_ellipsoids_matches_brute_force() {
    check_3d(2, 40);
}

/// Points on the minor axis' plane of symmetry, where the foot leaves the plane (two feet tie:
/// only the depth is unique), the centre, and points on the boundary.
#[test]
fn points_on_planes_of_symmetry_get_the_exact_depth() {
    let radii = DVec2::new(3.0, 1.0);
    let ellipse = Ellipsoid::new(radii).unwrap();
    let point = Point::new(DVec2::ZERO).unwrap();
    for (x, expected) in [(0.0, 1.0), (1.0, 1.0 * (1.0 - 1.0 / 8.0f64).sqrt()), (2.9, 0.1)] {
        let (foot, gap) = brute_foot(radii.extend(0.0), DVec3::new(x, 0.0, 0.0), 2);
        let pose = Pose::from_translation(DVec2::new(x, 0.0)).unwrap();
        let c = contact(&point, &pose, &ellipse, &Pose::IDENTITY, 0.0).unwrap();
        assert!((c.depth - gap).abs() < 1e-12, "x {x}: {} vs {gap} (foot {foot:?})", c.depth);
        if x < 2.0 {
            assert!(
                (c.depth - expected).abs() < 1e-9,
                "x {x}: {} vs closed form {expected}",
                c.depth
            );
        }
    }
}

/// A point next to the centre, off the planes of symmetry by 1e-18 of the size: the root of
/// the foot's equation lies `rᵢ yᵢ` from the pole `t = −r_min²`, which rounds away, and the
/// foot came out infinite (the long property run found it at 1e-307, with a point 1e-323 from
/// the centre). The nearest boundary point is the end of the minor axis: depth `r_min − |p_z|`.
#[test]
fn points_next_to_the_centre_get_the_minor_axis_end() {
    let point = Point::new(DVec3::ZERO).unwrap();
    for scale in [1.0, 1e-300, 1e-307] {
        let radii = DVec3::new(3.0, 2.0, 1.0) * scale;
        let ellipsoid = Ellipsoid::new(radii).unwrap();
        let p = DVec3::new(1e-18, 2e-18, 1e-18) * scale;
        let pose = Pose::from_translation(p).unwrap();
        let c = contact(&point, &pose, &ellipsoid, &Pose::IDENTITY, 0.0).unwrap();
        assert!(c.depth.is_finite() && c.point_b.is_finite(), "scale {scale}: {c:?}");
        assert!((c.depth - scale).abs() <= 1e-12 * scale, "scale {scale}: {c:?}");
        assert!((c.point_b - DVec3::Z * scale).length() <= 1e-12 * scale, "scale {scale}: {c:?}");
        assert!(angle(-c.normal, DVec3::Z) < 1e-9, "scale {scale}: {c:?}");
    }
}

/// The foot of `p` on the ellipsoid (`p` in the first octant, off every plane of symmetry):
/// the root of `F(t) = Σ (rᵢ pᵢ / (t + rᵢ²))² − 1` on `(−r_min², r_max |p|]` (`F ≤ 0` at the
/// right end: each term is at most `(pᵢ / |p|)²`), by plain bisection in `t` on f64 (`F`
/// decreases there), then `qᵢ = rᵢ² pᵢ / (t + rᵢ²)`. Returns the foot and the outward normal
/// there.
fn foot_by_bisection(radii: DVec3, p: DVec3, dim: usize) -> (DVec3, DVec3) {
    let r = &radii.to_array()[..dim];
    let p = &p.to_array()[..dim];
    let f = |t: f64| r.iter().zip(p).map(|(r, p)| (r * p / (t + r * r)).powi(2)).sum::<f64>() - 1.0;
    let r_min = r.iter().fold(f64::INFINITY, |m, r| m.min(*r));
    let r_max = r.iter().fold(0.0f64, |m, r| m.max(*r));
    let length = p.iter().map(|x| x * x).sum::<f64>().sqrt();
    let (mut lo, mut hi) = (-r_min * r_min, r_max * length);
    for _ in 0..2000 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let t = 0.5 * (lo + hi);
    let mut foot = DVec3::ZERO;
    let mut gradient = DVec3::ZERO;
    for i in 0..dim {
        foot[i] = r[i] * r[i] * p[i] / (t + r[i] * r[i]);
        gradient[i] = p[i] / (t + r[i] * r[i]);
    }
    (foot, gradient.normalize())
}

/// f32 points deep in an ellipse or ellipsoid, `10^U(−6, −2) × r_min` off the plane across the
/// minor axis (the plane the medial axis lies in), against the foot found by bisection in f64
/// on the same (f32) numbers.
///
/// The long property run found such a point in f32 (radii 3.4e-6 and 1.43e-6, the point
/// 5e-11 off the major axis): its normal came out 2.4e-4 rad off, its depth 2.4e-9 too deep
/// (1.8e-3 of the depth). The foot's equation was solved for its Lagrange multiplier `t`, whose
/// root sits `s ≈ r_min y_min / q_min` above the pole `−r_min²`: `t + r_min²` then keeps only
/// the last bits of `s`, and the foot's minor coordinate `r_min² y_min / s` and the normal
/// follow `s`'s relative error (here 1.8e-3). The root is now solved for `s` itself.
#[test]
fn f32_points_deep_next_to_the_major_axis_get_the_foot() {
    use glam::{Vec2, Vec3};
    let mut rng = Rng(33);
    // The property run's scene, in the ellipse's frame.
    let mut cases = vec![(
        DVec3::new(3.408_331_6e-6_f32 as f64, 1.433_454_5e-6_f32 as f64, 0.0),
        DVec3::new(8.727_074_6e-7_f32 as f64, -5.093_170_3e-11_f32 as f64, 0.0),
        2,
    )];
    for case in 0..400 {
        let dim = 2 + case % 2;
        let scale = 10f64.powf(rng.range(-6.0, 6.0));
        let radii = (draw_radii(&mut rng, dim) * scale).to_array().map(|r| r as f32 as f64);
        let radii = DVec3::from_array(radii);
        let r_min = radii.to_array()[..dim].iter().fold(f64::INFINITY, |m, r| m.min(*r));
        let minor = (0..dim).find(|&i| radii[i] == r_min).unwrap();
        // Inside the medial axis' region of the plane across the minor axis (|xᵢ| below
        // 0.8 (rᵢ² − r_min²)/rᵢ), where the foot is unique and well conditioned on either side.
        let mut p = DVec3::ZERO;
        for i in 0..dim {
            let reach = (radii[i] * radii[i] - r_min * r_min) / radii[i];
            p[i] = rng.range(-0.8, 0.8) * reach / (dim as f64 - 1.0).sqrt();
        }
        p[minor] = r_min * 10f64.powf(rng.range(-6.0, -2.0)) * rng.range(-1.0, 1.0).signum();
        cases.push((radii, p.to_array().map(|x| x as f32 as f64).into(), dim));
    }
    for (case, (radii, p, dim)) in cases.into_iter().enumerate() {
        // The oracle in the first octant, signs restored (the ellipsoid is symmetric).
        let sign = p.signum();
        let (foot, normal) = foot_by_bisection(radii, p.abs(), dim);
        let (foot, normal) = (foot * sign, normal * sign);
        let depth = (foot - p).length();
        let size = radii.max_element();
        let (c_depth, c_normal) = if dim == 2 {
            let ellipse = Ellipsoid::new(Vec2::new(radii.x as f32, radii.y as f32)).unwrap();
            let point = Point::new(Vec2::ZERO).unwrap();
            let pose = Pose::from_translation(Vec2::new(p.x as f32, p.y as f32)).unwrap();
            let c = contact(&point, &pose, &ellipse, &Pose::IDENTITY, 0.0).expect("inside");
            (c.depth as f64, DVec3::new(c.normal.x as f64, c.normal.y as f64, 0.0))
        } else {
            let ellipsoid = Ellipsoid::new(radii.as_vec3()).unwrap();
            let point = Point::new(Vec3::ZERO).unwrap();
            let pose = Pose::from_translation(p.as_vec3()).unwrap();
            let c = contact(&point, &pose, &ellipsoid, &Pose::IDENTITY, 0.0).expect("inside");
            (c.depth as f64, c.normal.as_dvec3())
        };
        // The point (A) leaves through the foot: A toward B is minus the outward normal.
        let a = angle(-c_normal, normal);
        assert!(
            a < 1e-5,
            "case {case}: normal {c_normal:?} {a:e} rad off {normal:?} (p {p:?}, radii {radii:?})"
        );
        assert!(
            (c_depth - depth).abs() <= 1e-6 * size,
            "case {case}: depth {c_depth:e} vs {depth:e} (p {p:?}, radii {radii:?})"
        );
    }
}

/// A point 6.7e-15 outside a thin ellipse (radii 5.9e-5 and 1.0e-6) next to the end of its
/// major axis, in f64: the gap is 6.7e-15 (the foot by bisection on `t`, above).
///
/// Solved for `s = t + r_min²` (see `f32_points_deep_next_to_the_major_axis_get_the_foot`),
/// Newton's iteration reached the root where `F(s)` is rounding noise (5e-20, positive) and its
/// step rounded to nothing; that was taken for a stall and bisection restarted from the far
/// end of the bracket, 1e3 times the root away, and the iteration cap ended it half way back:
/// the distance came out 1.1e-10 (found by the long property run, a rigid motion of a scene
/// whose original placement measured 0). A step that rounds to nothing now ends the iteration.
#[test]
fn point_just_outside_a_thin_ellipse_tip_gets_the_foot() {
    let radii = DVec2::new(5.876139915625061e-5, 1.0186946648470975e-6);
    let p = DVec2::new(-5.876102581390503e-5, -3.6313647949210565e-9);
    let (foot, _) = foot_by_bisection(radii.extend(0.0), p.abs().extend(0.0), 2);
    let foot = foot.truncate() * p.signum();
    let gap = (p - foot).length();
    assert!(gap < 1e-14, "the oracle's gap {gap:e}");
    let ellipse = Ellipsoid::new(radii).unwrap();
    let point = Point::new(DVec2::ZERO).unwrap();
    let pose = Pose::from_translation(p).unwrap();
    let c = contact(&point, &pose, &ellipse, &Pose::IDENTITY, f64::INFINITY).unwrap();
    assert!((c.depth + gap).abs() <= 1e-12 * radii.x, "depth {:e} vs −{gap:e}", c.depth);
    assert!((c.point_b - foot).length() <= 1e-12 * radii.x, "{c:?} vs foot {foot:?}");
    let d = distance(&point, &pose, &ellipse, &Pose::IDENTITY);
    assert!(d <= gap + 1e-12 * radii.x, "distance {d:e} vs {gap:e}");
}
