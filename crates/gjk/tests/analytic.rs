//! Curved shapes against answers known in closed form (or by a 1D root find / minimisation
//! written here), under random poses, in f64 and f32:
//!
//! * ball–ball: `|c₂ − c₁| − r₁ − r₂` (400 pairs per precision and dimension, plus exact
//!   touching);
//! * capsule–capsule: segment–segment distance (endpoint-to-segment distances and the interior
//!   stationary point) minus the radii (400 pairs per precision and dimension);
//! * ball–cuboid: `|max(|c| − h, 0)| − r` in the box's frame (400 per precision and dimension);
//! * ellipse/ellipsoid vs point: the closest point `xᵢ = rᵢ² pᵢ / (rᵢ² + t)` with `t` found by
//!   bisection (checked against a dense 1D minimisation over the ellipse's angle), and vs a line
//!   / plane at support distance `c − √(Σ rᵢ² nᵢ²)` (200 each per precision and dimension);
//! * cylinder and cone vs point and ball (3D): the distance in the meridian half-plane to the
//!   rectangle / triangle the solid of revolution sweeps (200 each per precision).
//!
//! Tolerances: distances within 1e-9 (f64) / 1e-4 (f32) of the shapes' size; closest points on
//! their shapes within the same tolerance and `distance` apart along the unit normal.

use crate::common;

use common::{case_count, from_d, point_to_hull, to_d, to_local, Draw, Rng, TestVector};
use gjk::{
    Ball, Capsule, Cone, Cuboid, Cylinder, Ellipsoid, GjkOptions, Goal, Pair, Point, Pose, Real,
    Segment, Support, Termination, Vector3, WarmStart,
};
use glam::{DVec2, DVec3, Vec2, Vec3};

// ---------------------------------------------------------------------------------------------
// Independent geometry
// ---------------------------------------------------------------------------------------------

/// The parameter `t ∈ [0, 1]` of the point of segment `a + t (b − a)` closest to `p`.
fn segment_parameter(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    let e = b - a;
    let ee = e.dot(e);
    if ee == 0.0 {
        0.0
    } else {
        ((p - a).dot(e) / ee).clamp(0.0, 1.0)
    }
}

fn point_segment_distance(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    (a + (b - a) * segment_parameter(p, a, b) - p).length()
}

/// The distance between segments `p₀p₁` and `q₀q₁`: the smallest of the four endpoint-to-
/// segment distances and, when the segments are not parallel, of the interior stationary point
/// of `|p(s) − q(t)|²` if it lies in `[0, 1]²` (solved by Cramer's rule).
fn segment_segment_distance(p0: DVec3, p1: DVec3, q0: DVec3, q1: DVec3) -> f64 {
    let mut best = point_segment_distance(p0, q0, q1)
        .min(point_segment_distance(p1, q0, q1))
        .min(point_segment_distance(q0, p0, p1))
        .min(point_segment_distance(q1, p0, p1));
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, b, c, d, e) = (d1.dot(d1), d1.dot(d2), d2.dot(d2), d1.dot(r), d2.dot(r));
    let det = a * c - b * b;
    if det > 1e-12 * a * c {
        let s = (b * e - c * d) / det;
        let t = (a * e - b * d) / det;
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
            best = best.min((p0 + d1 * s - (q0 + d2 * t)).length());
        }
    }
    best
}

/// The distance from `p` to the solid ellipsoid `Σ (xᵢ/rᵢ)² ≤ 1` (0 inside).
///
/// The closest point is `xᵢ = rᵢ² pᵢ / (rᵢ² + t)` for the `t > 0` with `Σ (xᵢ/rᵢ)² = 1`
/// (Lagrange condition); the left side decreases in `t`, so bisection finds it.
fn point_ellipsoid_distance(p: DVec3, radii: DVec3, dim: usize) -> f64 {
    let level = |t: f64| {
        (0..dim).map(|i| (radii[i] * p[i] / (radii[i] * radii[i] + t)).powi(2)).sum::<f64>()
    };
    if level(0.0) <= 1.0 {
        return 0.0;
    }
    let (mut lo, mut hi) = (0.0, p.length() * radii.max_element() + 1.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if level(mid) > 1.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let t = 0.5 * (lo + hi);
    let mut x = DVec3::ZERO;
    for i in 0..dim {
        x[i] = radii[i] * radii[i] * p[i] / (radii[i] * radii[i] + t);
    }
    (p - x).length()
}

/// The distance from `p` to the ellipse boundary `(a cos θ, b sin θ)` by dense sampling of θ
/// and golden-section refinement (for points outside it equals the distance to the solid).
fn point_ellipse_distance_dense(p: DVec2, a: f64, b: f64) -> f64 {
    let f = |th: f64| (DVec2::new(a * th.cos(), b * th.sin()) - p).length();
    let n = 20_000;
    let step = std::f64::consts::TAU / n as f64;
    let best = (0..n).map(|i| i as f64 * step).min_by(|x, y| f(*x).total_cmp(&f(*y))).unwrap();
    let (mut lo, mut hi) = (best - step, best + step);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..200 {
        let (m1, m2) = (hi - g * (hi - lo), lo + g * (hi - lo));
        if f(m1) < f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    f(0.5 * (lo + hi))
}

/// The distance from a local point to a solid of revolution about `y`, whose meridian section
/// (in `(ρ, y)`, `ρ ≥ 0`) is the convex polygon `section`: the closest point lies in the point's
/// own meridian half-plane.
fn revolution_distance(p: DVec3, section: &[DVec3]) -> f64 {
    let rho = (p.x * p.x + p.z * p.z).sqrt();
    point_to_hull(DVec3::new(rho, p.y, 0.0), section, 2)
}

/// How deep a local point lies inside the cylinder or cone of half height `h` and radius `r`
/// (negative outside): the distance to the nearest non-axis edge of the meridian section.
fn revolution_depth(p: DVec3, h: f64, r: f64, cone: bool) -> f64 {
    let rho = (p.x * p.x + p.z * p.z).sqrt();
    if cone {
        // Base y = −h; slanted side through (0, h) and (r, −h), inward normal (−2h, −r)/|·|.
        let slant = (r * (h - p.y) - 2.0 * h * rho) / (4.0 * h * h + r * r).sqrt();
        (p.y + h).min(slant)
    } else {
        (r - rho).min(h - p.y.abs())
    }
}

// ---------------------------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------------------------

/// A posed shape with its exact distance function (local frame, 0 inside).
struct Solid<'s, V: TestVector> {
    shape: &'s dyn Support<V>,
    pose: Pose<V>,
    distance: &'s dyn Fn(DVec3) -> f64,
}

#[derive(Default)]
struct Worst {
    cases: usize,
    distance: f64,
    points: f64,
    iterations: u32,
}

impl Worst {
    fn report(&self, name: &str) {
        eprintln!(
            "[{name}] cases {}; worst distance error {:.3e} of tolerance; worst point error \
             {:.3e} of tolerance; most iterations {}",
            self.cases, self.distance, self.points, self.iterations
        );
    }
}

/// Checks the library's answer for `a`, `b` against `signed`, the exact signed separation (the
/// distance when apart; minus a lower bound of the penetration depth when overlapping),
/// relative to `size`: the shapes must be reported intersecting when touching within 1e-2 of
/// the tolerance or overlapping deeper than the tolerance, separated when farther apart than
/// half the tolerance, and the distance must be within the tolerance of `max(signed, 0)`.
fn check<V: TestVector>(
    label: &str,
    a: &Solid<V>,
    b: &Solid<V>,
    signed: f64,
    size: f64,
    worst: &mut Worst,
) {
    let tol = V::DISTANCE_TOLERANCE * size;
    let expected = signed.max(0.0);
    let eps = <V::Real as gjk::Real>::EPSILON;
    let rounding = 64.0
        * to_f64(eps)
        * to_d(a.pose.translation()).length().max(to_d(b.pose.translation()).length());
    let pair = Pair::new(a.shape, a.pose, b.shape, b.pose);
    let r = pair.gjk(Goal::Distance, &GjkOptions::default(), &mut WarmStart::default());
    let quick = pair.intersects();
    let d = to_f64(r.distance);
    let context = format!(
        "{label} [{}]: expected {expected:e}, got {d:e} (intersecting {}, intersects() {quick}, \
         {:?} after {} iterations)",
        V::NAME,
        r.intersecting,
        r.termination,
        r.iterations
    );
    worst.cases += 1;
    worst.iterations = worst.iterations.max(r.iterations);
    assert!(
        d.is_finite()
            && to_d(r.point_a).is_finite()
            && to_d(r.point_b).is_finite()
            && to_d(r.normal).is_finite(),
        "{context}"
    );
    assert_ne!(r.termination, Termination::IterationCap, "{context}");
    let error = (d - expected).abs();
    worst.distance = worst.distance.max(error / tol);
    assert!(error <= tol, "distance error {error:e} > {tol:e}: {context}");
    if signed.abs() <= 1e-2 * tol || signed < -tol {
        assert!(r.intersecting && quick, "must intersect: {context}");
        return;
    }
    if signed > 0.5 * tol {
        assert!(!r.intersecting && !quick, "must be separated: {context}");
    }
    if r.intersecting {
        return;
    }
    let pa = to_local(&a.pose, to_d(r.point_a));
    let pb = to_local(&b.pose, to_d(r.point_b));
    let n = to_d(r.normal);
    let off = [
        (a.distance)(pa),
        (b.distance)(pb),
        (to_d(r.point_b) - to_d(r.point_a) - n * d).length(),
        (n.length() - 1.0).abs() * size,
    ];
    let point_error = off.iter().copied().fold(0.0, f64::max) / (tol + rounding);
    worst.points = worst.points.max(point_error);
    assert!(point_error <= 1.0, "closest points off by {off:?} (tolerance {tol:e}): {context}");
}

/// `x` rounded to `V`'s scalar.
fn real<V: TestVector>(x: f64) -> V::Real {
    Real::from_f64(x)
}

fn to_f64<R: Real>(x: R) -> f64 {
    x.to_f64()
}

fn random_pose<V: TestVector>(rng: &mut Rng, spread: f64) -> Pose<V> {
    V::pose(rng.rotation(V::DIM), rng.in_cube(V::DIM, spread))
}

// ---------------------------------------------------------------------------------------------
// Families
// ---------------------------------------------------------------------------------------------

fn balls<V: TestVector>(seed: u64) {
    let mut rng = Rng::new(seed);
    let mut worst = Worst::default();
    for case in 0..case_count(400) {
        let (r1, r2) = (rng.range(0.1, 2.0), rng.range(0.1, 2.0));
        let (a, b) =
            (Ball::<V>::new(real::<V>(r1)).unwrap(), Ball::<V>::new(real::<V>(r2)).unwrap());
        let (r1, r2) = (to_f64(a.radius()), to_f64(b.radius()));
        let pose_a = random_pose::<V>(&mut rng, 3.0);
        let offset = rng.direction(V::DIM) * rng.range(0.0, 2.0 * (r1 + r2));
        let pose_b = V::pose(rng.rotation(V::DIM), to_d(pose_a.translation()) + offset);
        let centers = (to_d(pose_b.translation()) - to_d(pose_a.translation())).length();
        let expected = centers - r1 - r2;
        let da = move |p: DVec3| (p.length() - r1).max(0.0);
        let db = move |p: DVec3| (p.length() - r2).max(0.0);
        check(
            &format!("ball–ball {case}"),
            &Solid { shape: &a, pose: pose_a, distance: &da },
            &Solid { shape: &b, pose: pose_b, distance: &db },
            expected,
            r1 + r2 + centers,
            &mut worst,
        );
    }
    // Exact touching: radii 1 and 2, centres 3 apart along an axis.
    let (a, b) = (Ball::<V>::new(real::<V>(1.0)).unwrap(), Ball::<V>::new(real::<V>(2.0)).unwrap());
    for axis in 0..V::DIM {
        let pose_b = V::pose(glam::DQuat::IDENTITY, axis_vector(axis) * 3.0);
        let pair = Pair::new(&a, Pose::IDENTITY, &b, pose_b);
        assert!(pair.intersects(), "touching balls along axis {axis}");
        assert_eq!(to_f64(pair.distance()), 0.0);
    }
    worst.report(&format!("{} ball–ball", V::NAME));
}

fn axis_vector(i: usize) -> DVec3 {
    [DVec3::X, DVec3::Y, DVec3::Z][i]
}

fn capsules<V: TestVector>(seed: u64) {
    let mut rng = Rng::new(seed);
    let mut worst = Worst::default();
    let dim = V::DIM;
    for case in 0..case_count(400) {
        let ends = |rng: &mut Rng| {
            let (p, q) = (rng.in_cube(dim, 1.0), rng.in_cube(dim, 1.0));
            (to_d(from_d::<V>(p)), to_d(from_d::<V>(q)))
        };
        let ((a0, a1), (b0, b1)) = (ends(&mut rng), ends(&mut rng));
        // Sometimes parallel segments, a classic degenerate case.
        let (b0, b1) = if rng.chance(0.2) {
            (b0, to_d(from_d::<V>(b0 + (a1 - a0) * rng.range(0.3, 2.0))))
        } else {
            (b0, b1)
        };
        let (ra, rb) = (rng.range(0.0, 0.5), rng.range(0.0, 0.5));
        let a = Capsule::new(from_d::<V>(a0), from_d::<V>(a1), real::<V>(ra)).unwrap();
        let b = Capsule::new(from_d::<V>(b0), from_d::<V>(b1), real::<V>(rb)).unwrap();
        let (ra, rb) = (to_f64(a.radius()), to_f64(b.radius()));
        let pose_a = random_pose::<V>(&mut rng, 3.0);
        let offset = rng.direction(dim) * rng.range(0.0, 3.0);
        let pose_b = V::pose(rng.rotation(dim), to_d(pose_a.translation()) + offset);
        // B's segment in A's frame.
        let (b0w, b1w) =
            (common::b_in_a(&pose_a, &pose_b, b0), common::b_in_a(&pose_a, &pose_b, b1));
        let expected = segment_segment_distance(a0, a1, b0w, b1w) - ra - rb;
        let da = move |p: DVec3| (point_segment_distance(p, a0, a1) - ra).max(0.0);
        let db = move |p: DVec3| (point_segment_distance(p, b0, b1) - rb).max(0.0);
        let size = 4.0 + offset.length();
        check(
            &format!("capsule–capsule {case}"),
            &Solid { shape: &a, pose: pose_a, distance: &da },
            &Solid { shape: &b, pose: pose_b, distance: &db },
            expected,
            size,
            &mut worst,
        );
    }
    worst.report(&format!("{} capsule–capsule", V::NAME));
}

fn balls_and_boxes<V: TestVector>(seed: u64) {
    let mut rng = Rng::new(seed);
    let mut worst = Worst::default();
    let dim = V::DIM;
    for case in 0..case_count(400) {
        let half = to_d(from_d::<V>(rng.in_cube(dim, 1.0).abs() + DVec3::splat(0.05)));
        let half = if dim == 2 { DVec3::new(half.x, half.y, 0.0) } else { half };
        let boxed = Cuboid::new(from_d::<V>(half)).unwrap();
        let radius = to_f64(real::<V>(rng.range(0.05, 1.0)));
        let ball = Ball::<V>::new(real::<V>(radius)).unwrap();
        let pose_box = random_pose::<V>(&mut rng, 3.0);
        let local_center = rng.in_cube(dim, 2.5);
        let world_center = to_d(pose_box.translation()) + V::rotation_of(&pose_box) * local_center;
        let pose_ball = V::pose(rng.rotation(dim), world_center);
        let c = to_local(&pose_box, to_d(pose_ball.translation()));
        let outside = (c.abs() - half).max(DVec3::ZERO);
        let depth = (half - c.abs()).min_element();
        let expected = if depth > 0.0 { -radius - depth } else { outside.length() - radius };
        let dbox = move |p: DVec3| (p.abs() - half).max(DVec3::ZERO).length();
        let dball = move |p: DVec3| (p.length() - radius).max(0.0);
        check(
            &format!("ball–cuboid {case}"),
            &Solid { shape: &ball, pose: pose_ball, distance: &dball },
            &Solid { shape: &boxed, pose: pose_box, distance: &dbox },
            expected,
            4.0 + radius,
            &mut worst,
        );
    }
    worst.report(&format!("{} ball–cuboid", V::NAME));
}

fn ellipsoids<V: TestVector>(seed: u64, thinnest: f64) {
    let mut rng = Rng::new(seed);
    let dim = V::DIM;
    let (mut vs_point, mut vs_plane) = (Worst::default(), Worst::default());
    for case in 0..case_count(200) {
        let mut radii = to_d(from_d::<V>(DVec3::new(
            rng.range(thinnest, 2.0),
            rng.range(thinnest, 2.0),
            rng.range(thinnest, 2.0),
        )));
        if dim == 2 {
            radii.z = 0.0;
        }
        let ellipse = Ellipsoid::new(from_d::<V>(radii)).unwrap();
        let pose_e = random_pose::<V>(&mut rng, 3.0);
        let inside_e = move |p: DVec3| point_ellipsoid_distance(p, radii, dim);
        // Against a point outside or inside.
        let local = rng.direction(dim) * rng.range(0.5, 4.0) * radii.max_element();
        let world = to_d(pose_e.translation()) + V::rotation_of(&pose_e) * local;
        let point = Point::new(from_d::<V>(world)).unwrap();
        let at = to_d(point.position());
        let local_at = to_local(&pose_e, at);
        let norm = (0..dim).map(|i| (local_at[i] / radii[i]).powi(2)).sum::<f64>().sqrt();
        // Inside: the ball of radius (1 − |R⁻¹p|)·r_min about p lies in the ellipsoid.
        let depth = (1.0 - norm) * (0..dim).map(|i| radii[i]).fold(f64::INFINITY, f64::min);
        let expected =
            if norm < 1.0 { -depth } else { point_ellipsoid_distance(local_at, radii, dim) };
        let dpoint = move |p: DVec3| (p - at).length();
        check(
            &format!("ellipsoid–point {case}"),
            &Solid { shape: &ellipse, pose: pose_e, distance: &inside_e },
            &Solid { shape: &point, pose: Pose::IDENTITY, distance: &dpoint },
            expected,
            2.0 * radii.max_element() + (at - to_d(pose_e.translation())).length(),
            &mut vs_point,
        );
        // Against a line (2D: long segment) / plane (3D: a large thin box) with unit normal n at
        // offset c from the ellipse's centre: distance c − h(n), h(n) = √(Σ rᵢ² nᵢ²).
        let n = rng.direction(dim);
        let h = (0..dim).map(|i| (radii[i] * n[i]).powi(2)).sum::<f64>().sqrt();
        let c = h + rng.range(-0.2, 1.0) * radii.max_element();
        // The line (2D) or slab of thickness 0.02 (3D) covers n·x ∈ [c, c + thick]: either
        // beyond the ellipse (c > h), before it (c + thick < −h), or across it.
        let thick = if dim == 2 { 0.0 } else { 2.0 * to_f64(real::<V>(0.01)) };
        let expected = (c - h).max(-h - c - thick);
        // Long enough to hold the contact (the ellipse's extent along the line is at most its
        // largest radius). Not much longer: the line belongs to the shapes' size, and f32's
        // accuracy degrades as ε·L²/d for a segment of length L at distance d (a long thin
        // Minkowski difference: the direction of v is only known to ε·L/d).
        let far = 4.0 * radii.max_element();
        type Plane<V> = (Box<dyn Support<V>>, Pose<V>, Box<dyn Fn(DVec3) -> f64>);
        let (plane, plane_pose, plane_distance): Plane<V> = if dim == 2 {
            // A long segment along the line, in the ellipse's frame.
            let t = DVec3::new(-n.y, n.x, 0.0) * far;
            let (p, q) = (to_d(from_d::<V>(n * c + t)), to_d(from_d::<V>(n * c - t)));
            let line = Segment::new(from_d::<V>(p), from_d::<V>(q)).unwrap();
            (Box::new(line), pose_e, Box::new(move |x: DVec3| point_segment_distance(x, p, q)))
        } else {
            // A slab |x| ≤ (0.01, far, far) turned so its x axis is n, its near face at c.
            let half = to_d(from_d::<V>(DVec3::new(0.01, far, far)));
            let turn = glam::DQuat::from_rotation_arc(DVec3::X, n);
            let center = common::to_world::<V>(&pose_e, n * (c + half.x));
            let slab = Cuboid::new(from_d::<V>(half)).unwrap();
            let slab_pose = V::pose(V::rotation_of(&pose_e) * turn, center);
            (
                Box::new(slab),
                slab_pose,
                Box::new(move |x: DVec3| (x.abs() - half).max(DVec3::ZERO).length()),
            )
        };
        check(
            &format!("ellipsoid–line/plane {case} (radii {radii:?}, normal {n:?}, offset {c})"),
            &Solid { shape: &ellipse, pose: pose_e, distance: &inside_e },
            &Solid { shape: &*plane, pose: plane_pose, distance: &*plane_distance },
            expected,
            2.0 * far + c,
            &mut vs_plane,
        );
    }
    vs_point.report(&format!("{} ellipsoid–point, radii ≥ {thinnest}", V::NAME));
    vs_plane.report(&format!("{} ellipsoid–line/plane, radii ≥ {thinnest}", V::NAME));
}

fn revolution_solids<V: TestVector + Vector3>(seed: u64) {
    let mut rng = Rng::new(seed);
    let (mut cylinders, mut cones) = (Worst::default(), Worst::default());
    for case in 0..case_count(200) {
        let h = to_f64(real::<V>(rng.range(0.1, 1.5)));
        let r = to_f64(real::<V>(rng.range(0.1, 1.5)));
        let pose = random_pose::<V>(&mut rng, 3.0);
        let rect = [
            DVec3::new(0.0, -h, 0.0),
            DVec3::new(r, -h, 0.0),
            DVec3::new(r, h, 0.0),
            DVec3::new(0.0, h, 0.0),
        ];
        let tri = [DVec3::new(0.0, -h, 0.0), DVec3::new(r, -h, 0.0), DVec3::new(0.0, h, 0.0)];
        let local = rng.in_cube(3, 2.5 * (h + r));
        let world = to_d(pose.translation()) + V::rotation_of(&pose) * local;
        let radius = if rng.chance(0.5) { 0.0 } else { rng.range(0.05, 0.5) };
        for (section, worst, name) in
            [(&rect[..], &mut cylinders, "cylinder"), (&tri[..], &mut cones, "cone")]
        {
            let solid: Box<dyn Support<V>> = if name == "cylinder" {
                Box::new(Cylinder::<V>::new(real::<V>(h), real::<V>(r)).unwrap())
            } else {
                Box::new(Cone::<V>::new(real::<V>(h), real::<V>(r)).unwrap())
            };
            let section = section.to_vec();
            let dsolid = move |p: DVec3| revolution_distance(p, &section);
            let center_pose = V::pose(glam::DQuat::IDENTITY, world);
            let at = to_d(center_pose.translation());
            let local_at = to_local(&pose, at);
            let outside = dsolid(local_at);
            let expected = if outside > 0.0 {
                outside - radius
            } else {
                -radius - revolution_depth(local_at, h, r, name == "cone")
            };
            let other: Box<dyn Support<V>> = if radius == 0.0 {
                Box::new(Point::new(V::ZERO).unwrap())
            } else {
                Box::new(Ball::<V>::new(real::<V>(radius)).unwrap())
            };
            let radius_used = if radius == 0.0 { 0.0 } else { to_f64(other.margin()) };
            let dother = move |p: DVec3| (p.length() - radius_used).max(0.0);
            check(
                &format!("{name}–{} {case}", if radius == 0.0 { "point" } else { "ball" }),
                &Solid { shape: &*solid, pose, distance: &dsolid },
                &Solid { shape: &*other, pose: center_pose, distance: &dother },
                expected,
                2.0 * (h + r) + local.length(),
                worst,
            );
        }
    }
    cylinders.report(&format!("{} cylinder", V::NAME));
    cones.report(&format!("{} cone", V::NAME));
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[test]
fn ball_ball() {
    balls::<DVec2>(1);
    balls::<DVec3>(2);
    balls::<Vec2>(3);
    balls::<Vec3>(4);
}

#[test]
fn capsule_capsule() {
    capsules::<DVec2>(5);
    capsules::<DVec3>(6);
    capsules::<Vec2>(7);
    capsules::<Vec3>(8);
}

#[test]
fn ball_cuboid() {
    balls_and_boxes::<DVec2>(9);
    balls_and_boxes::<DVec3>(10);
    balls_and_boxes::<Vec2>(11);
    balls_and_boxes::<Vec3>(12);
}

#[test]
fn ellipse_and_ellipsoid() {
    ellipsoids::<DVec2>(13, 0.1);
    ellipsoids::<DVec3>(14, 0.1);
    ellipsoids::<Vec2>(15, 0.1);
    ellipsoids::<Vec3>(16, 0.1);
}

/// Elongated ellipsoids (axis ratios up to 1000): GJK converges only linearly on smooth
/// shapes, and slowest on flat ones; the default iteration cap must still be enough.
#[test]
fn elongated_ellipsoids() {
    ellipsoids::<DVec2>(21, 0.002);
    ellipsoids::<DVec3>(22, 0.002);
    ellipsoids::<Vec2>(23, 0.002);
    ellipsoids::<Vec3>(24, 0.002);
}

#[test]
fn cylinder_and_cone() {
    revolution_solids::<DVec3>(17);
    revolution_solids::<Vec3>(18);
}

/// The two independent ellipse distances (Lagrange bisection, dense angle search) agree.
#[test]
fn ellipse_oracles_agree() {
    let mut rng = Rng::new(19);
    for _ in 0..50 {
        let (a, b) = (rng.range(0.1, 2.0), rng.range(0.1, 2.0));
        let p = rng.direction(2) * rng.range(1.05, 4.0) * a.max(b);
        let lagrange = point_ellipsoid_distance(p, DVec3::new(a, b, 0.0), 2);
        let dense = point_ellipse_distance_dense(DVec2::new(p.x, p.y), a, b);
        assert!((lagrange - dense).abs() < 1e-12 * a.max(b) * 4.0, "{lagrange} vs {dense}");
    }
}

/// The segment–segment distance agrees with a dense 2D minimisation over both parameters.
#[test]
fn segment_oracle_agrees_with_dense_search() {
    let mut rng = Rng::new(20);
    for _ in 0..30 {
        let [p0, p1, q0, q1] = [0; 4].map(|_| rng.in_cube(3, 1.0));
        let exact = segment_segment_distance(p0, p1, q0, q1);
        let n = 400;
        let mut dense = f64::INFINITY;
        for i in 0..=n {
            let s = i as f64 / n as f64;
            let p = p0 + (p1 - p0) * s;
            dense = dense.min(point_segment_distance(p, q0, q1));
        }
        assert!(exact <= dense + 1e-12 && dense - exact < 1e-4, "{exact} vs {dense}");
    }
}
