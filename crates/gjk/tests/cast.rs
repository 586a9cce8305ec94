//! Ray casts and shape casts against independent oracles.
//!
//! * Analytic rays: ray–sphere (quadratic), ray–box (slab method), ray–capsule (two spheres and
//!   a cylinder, quadratics), ray–ellipsoid (scaled to a unit sphere).
//! * Polytopes: the convex hull's facet planes by brute force over point triples (pairs in 2D),
//!   and the ray clipped against them (Cyrus–Beck). A shape cast of polytopes is the ray
//!   `t·(v_B − v_A)` against the hull of the differences `aᵢ − bⱼ`.
//! * Analytic casts: sphere–sphere (quadratic), axis-aligned box–box (per-axis intervals).
//! * Curved shapes in random poses: bisection on `gjk::distance` along the motion (the distance
//!   is convex in `t`), and the shapes must touch at the time of impact and be apart just before.
//!
//! Tolerances: times of impact within 1e-9 (f64) or 1e-4 (f32) of the scale `s` of the problem
//! (the time to travel the shapes' size and distance), divided by the incidence cosine where the
//! problem is ill-conditioned (grazing); points within the same fraction of the size; normals
//! within 1e-9 / 1e-4 (direction) where unique, else checked to be supporting normals.

use gjk::{
    closest_points, contact, distance, intersects, ray_cast, ray_cast_with, shape_cast, Ball,
    Capsule, CastStatus, Cone, Cuboid, Cylinder, Ellipsoid, GjkOptions, Goal, Pair, Polytope, Pose,
    Proximity, RayCastOptions, Real, Rounded, ShapeCastOptions, Support, Termination, Vector,
    WarmStart,
};
// Deterministic random numbers: the shared SplitMix64.
use gjk_testkit::SplitMix64 as Rng;
use glam::{DQuat, DVec2, DVec3, Vec2, Vec3};

// ---------------------------------------------------------------------------------------------
// Spaces: each test runs in 2D and 3D, f32 and f64. The oracles compute in f64 on 3-vectors
// (z = 0 in 2D), from the exact values the library sees.

/// A rigid placement as the oracle sees it (f64).
#[derive(Clone, Copy, Debug)]
struct Place {
    rotation: DQuat,
    /// The 2D angle (rotation about z), unused in 3D.
    angle: f64,
    translation: DVec3,
}

impl Place {
    fn at(translation: DVec3) -> Self {
        Self { rotation: DQuat::IDENTITY, angle: 0.0, translation }
    }
    fn point(&self, p: DVec3) -> DVec3 {
        self.rotation * p + self.translation
    }
    fn vector(&self, v: DVec3) -> DVec3 {
        self.rotation * v
    }
    fn inverse_point(&self, p: DVec3) -> DVec3 {
        self.rotation.inverse() * (p - self.translation)
    }
    fn inverse_vector(&self, v: DVec3) -> DVec3 {
        self.rotation.inverse() * v
    }
}

trait Space: Vector {
    fn pose(place: &Place) -> Pose<Self>;
    /// The placement's exact counterpart of `pose` (translations rounded to the precision).
    fn random_place(rng: &mut Rng, spread: f64) -> Place;
}

fn random_quat(rng: &mut Rng) -> DQuat {
    loop {
        let q = DQuat::from_xyzw(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        );
        if q.length() > 0.1 {
            return q.normalize();
        }
    }
}

impl Space for DVec3 {
    fn pose(p: &Place) -> Pose<Self> {
        Pose::new(p.rotation, p.translation).unwrap()
    }
    fn random_place(rng: &mut Rng, spread: f64) -> Place {
        let translation = random_vec::<Self>(rng, spread);
        Place { rotation: random_quat(rng), angle: 0.0, translation }
    }
}

impl Space for Vec3 {
    fn pose(p: &Place) -> Pose<Self> {
        Pose::new(p.rotation.as_quat(), p.translation.as_vec3()).unwrap()
    }
    fn random_place(rng: &mut Rng, spread: f64) -> Place {
        let translation = random_vec::<Self>(rng, spread);
        // The oracle uses the rotation the library will use (normalised in f32).
        let rotation = random_quat(rng).as_quat().normalize().as_dquat();
        Place { rotation, angle: 0.0, translation }
    }
}

impl Space for DVec2 {
    fn pose(p: &Place) -> Pose<Self> {
        Pose::<DVec2>::from_angle_translation(p.angle, p.translation.truncate()).unwrap()
    }
    fn random_place(rng: &mut Rng, spread: f64) -> Place {
        let angle = rng.range(-3.2, 3.2);
        let translation = random_vec::<Self>(rng, spread);
        Place { rotation: DQuat::from_rotation_z(angle), angle, translation }
    }
}

impl Space for Vec2 {
    fn pose(p: &Place) -> Pose<Self> {
        Pose::<Vec2>::from_angle_translation(p.angle as f32, p.translation.truncate().as_vec2())
            .unwrap()
    }
    fn random_place(rng: &mut Rng, spread: f64) -> Place {
        let angle = rng.range(-3.2, 3.2) as f32 as f64;
        let translation = random_vec::<Self>(rng, spread);
        Place { rotation: DQuat::from_rotation_z(angle), angle, translation }
    }
}

/// Any vector as an f64 3-vector (z = 0 in 2D).
fn wide<V: Vector>(v: V) -> DVec3 {
    DVec3::new(v.component(0).to_f64(), v.component(1).to_f64(), v.component(2).to_f64())
}

fn narrow<V: Vector>(v: DVec3) -> V {
    V::from_components([V::Real::from_f64(v.x), V::Real::from_f64(v.y), V::Real::from_f64(v.z)])
}

fn real<V: Vector>(x: f64) -> V::Real {
    V::Real::from_f64(x)
}

/// A random vector with coordinates in `[-scale, scale)`, exactly representable in `V`.
fn random_vec<V: Vector>(rng: &mut Rng, scale: f64) -> DVec3 {
    let z = if V::DIM == 3 { rng.range(-scale, scale) } else { 0.0 };
    wide(narrow::<V>(DVec3::new(rng.range(-scale, scale), rng.range(-scale, scale), z)))
}

/// A value exactly representable in `V`'s precision.
fn exact<V: Vector>(x: f64) -> f64 {
    real::<V>(x).to_f64()
}

fn is_f32<V: Vector>() -> bool {
    V::Real::EPSILON.to_f64() > 1e-10
}

/// The relative tolerance of the checks: 1e-9 in f64, 1e-4 in f32.
fn tol<V: Vector>() -> f64 {
    if is_f32::<V>() {
        1e-4
    } else {
        1e-9
    }
}

/// The relative band around tangency where a random case counts as grazing: whether it hits
/// is decided within the tolerance, so the analytic batches skip it (the edge tests cover it).
fn grazing<V: Vector>() -> f64 {
    if is_f32::<V>() {
        1e-3
    } else {
        1e-7
    }
}

/// Worst errors over a batch, relative to the scales in the module docs.
#[derive(Default, Debug)]
struct Worst {
    toi: f64,
    point: f64,
    normal: f64,
    hits: usize,
    misses: usize,
    inside: usize,
    max_iterations: u32,
}

impl Worst {
    fn report(&self, what: &str) {
        println!("{what}: {self:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Analytic oracles (f64).

/// The smallest `t ≥ 0` with `|m + t·d| = r`, or `Some(0)` when `|m| ≤ r` (inside).
fn sphere_entry(m: DVec3, d: DVec3, r: f64) -> Option<f64> {
    let c = m.length_squared() - r * r;
    if c <= 0.0 {
        return Some(0.0);
    }
    let a = d.length_squared();
    let b = m.dot(d);
    let disc = b * b - a * c;
    if a == 0.0 || disc < 0.0 || b >= 0.0 {
        return None;
    }
    // Stable form of the nearer root (−b − √disc)/a = c / (−b + √disc).
    Some(c / (-b + disc.sqrt()))
}

/// Slab method for the box `|xᵢ| ≤ hᵢ`: entry time and the entering axis (or `None` inside).
fn slab_entry(o: DVec3, d: DVec3, h: DVec3, dim: usize) -> Option<(f64, Option<usize>)> {
    let (mut enter, mut exit, mut axis) = (0.0f64, f64::INFINITY, None);
    for i in 0..dim {
        if d[i] == 0.0 {
            if o[i].abs() > h[i] {
                return None;
            }
            continue;
        }
        let (t0, t1) = ((-h[i] - o[i]) / d[i], (h[i] - o[i]) / d[i]);
        let (near, far) = (t0.min(t1), t0.max(t1));
        if near > enter {
            enter = near;
            axis = Some(i);
        }
        exit = exit.min(far);
    }
    (enter <= exit).then_some((enter, axis))
}

/// The ray `o + t·d` against the capsule (segment `a b`, radius `r`): the first entry time.
fn capsule_entry(o: DVec3, d: DVec3, a: DVec3, b: DVec3, r: f64) -> Option<f64> {
    if segment_distance(o, a, b) <= r {
        return Some(0.0);
    }
    let mut best: Option<f64> = None;
    let mut consider = |t: f64| {
        if t >= 0.0 && best.is_none_or(|b| t < b) {
            best = Some(t);
        }
    };
    for end in [a, b] {
        if let Some(t) = sphere_entry(o - end, d, r) {
            consider(t);
        }
    }
    // The side: |m⊥ + t d⊥| = r, with the foot of the hit point inside the segment.
    let axis = (b - a).normalize();
    let perp = |v: DVec3| v - axis * v.dot(axis);
    let (m, dp) = (perp(o - a), perp(d));
    if let Some(t) = sphere_entry(m, dp, r) {
        let along = (o + d * t - a).dot(axis);
        if (0.0..=(b - a).length()).contains(&along) {
            consider(t);
        }
    }
    best
}

fn axis_vector(axis: usize, value: f64) -> DVec3 {
    let mut v = DVec3::ZERO;
    v[axis] = value;
    v
}

fn segment_distance(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    let ab = b - a;
    let s = ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
    (p - (a + ab * s)).length()
}

// ---------------------------------------------------------------------------------------------
// Brute-force hull facets and the ray clipped by them.

/// A facet plane `n·x = offset` (unit outward normal).
#[derive(Clone, Copy, Debug)]
struct Plane {
    n: DVec3,
    offset: f64,
}

/// Every facet plane of the hull of `points` by brute force (`dim` = 2: lines through pairs).
fn hull_planes(points: &[DVec3], dim: usize) -> Vec<Plane> {
    let size = points.iter().map(|p| p.length()).fold(0.0, f64::max).max(1e-300);
    let eps = 1e-12 * size;
    let mut planes = Vec::new();
    let mut consider = |n: DVec3, p: DVec3| {
        let Some(n) = n.try_normalize() else { return };
        let d = n.dot(p);
        let (mut above, mut below) = (false, false);
        for q in points {
            let s = n.dot(*q) - d;
            above |= s > eps;
            below |= s < -eps;
            if above && below {
                return;
            }
        }
        if !above {
            planes.push(Plane { n, offset: d });
        }
        if !below {
            planes.push(Plane { n: -n, offset: -d });
        }
    };
    let n = points.len();
    for i in 0..n {
        for j in i + 1..n {
            let e = points[j] - points[i];
            if dim == 2 {
                if e.length() > 1e-12 * size {
                    consider(DVec3::new(e.y, -e.x, 0.0), points[i]);
                }
                continue;
            }
            for k in j + 1..n {
                let m = e.cross(points[k] - points[i]);
                if m.length() > 1e-12 * size * size {
                    consider(m, points[i]);
                }
            }
        }
    }
    planes
}

/// The ray `o + t·d` clipped by the facets (Cyrus–Beck): the entry time and entering facet
/// normal (`None` for an origin inside).
fn facets_entry(planes: &[Plane], o: DVec3, d: DVec3) -> Option<(f64, Option<DVec3>)> {
    let (mut enter, mut exit, mut normal) = (0.0f64, f64::INFINITY, None);
    for p in planes {
        let (nd, height) = (p.n.dot(d), p.offset - p.n.dot(o));
        if nd == 0.0 {
            if height < 0.0 {
                return None;
            }
        } else if nd < 0.0 {
            let t = height / nd;
            if t > enter {
                enter = t;
                normal = Some(p.n);
            }
        } else {
            exit = exit.min(height / nd);
        }
    }
    (enter <= exit).then_some((enter, normal))
}

/// The largest `n·p` over `points`.
fn support_value(points: &[DVec3], n: DVec3) -> f64 {
    points.iter().map(|p| p.dot(n)).fold(f64::NEG_INFINITY, f64::max)
}

// ---------------------------------------------------------------------------------------------
// Ray casts against analytic shapes.

/// Checks one ray hit against an oracle entry time, with the incidence cosine `cos` at the
/// oracle's hit; returns the relative errors (toi, point) for the batch report.
#[allow(clippy::too_many_arguments)]
fn check_ray_hit<V: Space>(
    what: &str,
    hit: Option<gjk::RayHit<V>>,
    oracle: Option<f64>,
    o: DVec3,
    d: DVec3,
    size: f64,
    cos: f64,
    worst: &mut Worst,
) -> Option<(DVec3, DVec3)> {
    let tol = tol::<V>();
    // The time scale: the time to travel the distance to the shape and its size.
    let scale = (size + o.length()) / d.length();
    match (hit, oracle) {
        (Some(h), Some(t)) => {
            let err = (h.toi.to_f64() - t).abs() / scale;
            let point = wide(h.point);
            let point_err = (point - (o + d * t)).length() / (size + o.length());
            if t == 0.0 {
                worst.inside += 1;
                assert_eq!(h.toi.to_f64(), 0.0, "{what}: inside, got {h:?}");
                assert_eq!(h.normal, V::ZERO, "{what}: inside, got {h:?}");
                return None;
            }
            worst.hits += 1;
            let allowed = tol / cos.max(1e-3);
            assert!(err <= allowed, "{what}: toi {} vs {t} (err {err:e}): {h:?}", h.toi.to_f64());
            assert!(point_err <= allowed, "{what}: point {point} vs {}", o + d * t);
            if cos > 0.05 {
                worst.toi = worst.toi.max(err);
                worst.point = worst.point.max(point_err);
            }
            // The point is on the ray: point = origin + toi × direction.
            let on_ray = (point - (o + d * h.toi.to_f64())).length() / (size + o.length());
            assert!(on_ray <= 4.0 * tol, "{what}: point off the ray");
            let n = wide(h.normal);
            assert!((n.length() - 1.0).abs() <= tol, "{what}: normal {n} not unit");
            assert!(n.dot(d) <= tol * d.length(), "{what}: normal {n} faces away from {d}");
            Some((point, n))
        }
        (None, None) => {
            worst.misses += 1;
            None
        }
        (got, want) => panic!("{what}: got {got:?}, oracle {want:?} (o {o}, d {d})"),
    }
}

/// Rays from random origins aimed near random points of a sphere's neighbourhood.
fn random_ray<V: Space>(rng: &mut Rng, target: DVec3, reach: f64) -> (DVec3, DVec3) {
    let o = random_vec::<V>(rng, 8.0);
    let aim = target + random_vec::<V>(rng, reach);
    let d = wide(narrow::<V>((aim - o) * rng.scale(0.1, 10.0)));
    (o, d)
}

fn ray_sphere<V: Space>(seed: u64) {
    let mut rng = Rng::new(seed);
    let mut worst = Worst::default();
    for case in 0..400 {
        let r = exact::<V>(rng.range(0.2, 2.0));
        let place = V::random_place(&mut rng, 4.0);
        let c = place.translation;
        let (mut o, d) = random_ray::<V>(&mut rng, c, 1.5 * r);
        if case % 10 == 0 {
            o = c + random_vec::<V>(&mut rng, 0.5 * r); // inside
        }
        let ball = Ball::<V>::new(real::<V>(r)).unwrap();
        let pose = V::pose(&place);
        let result = ray_cast_with(
            &ball,
            &pose,
            &gjk::Ray::new(narrow(o), narrow(d)),
            real::<V>(100.0),
            &RayCastOptions::default(),
        );
        worst.max_iterations = worst.max_iterations.max(result.iterations);
        let oracle = sphere_entry(o - c, d, r);
        // Skip near-grazing rays whose hit or miss is decided within the tolerance.
        let closest = (o - c - d * ((o - c).dot(d) / d.length_squared())).length();
        if ((closest - r) / r).abs() < grazing::<V>() && (o - c).length() > r {
            continue;
        }
        let cos = oracle
            .filter(|&t| t > 0.0)
            .map(|t| ((o + d * t - c).normalize().dot(d.normalize())).abs())
            .unwrap_or(1.0);
        let what = format!("ray–sphere {case}");
        if let Some((p, n)) =
            check_ray_hit(&what, result.hit(), oracle, o, d, 2.0 * r, cos, &mut worst)
        {
            let err = (n - (p - c) / r).length();
            assert!(err <= tol::<V>() / cos.max(1e-3), "{what}: normal {n} vs {}", (p - c) / r);
            worst.normal = worst.normal.max(err);
        }
    }
    assert!(worst.hits >= 20 && worst.misses >= 20 && worst.inside >= 3, "{worst:?}");
    worst.report(&format!("ray–sphere {}", core::any::type_name::<V>()));
}

#[test]
fn ray_sphere_analytic() {
    ray_sphere::<DVec3>(1);
    ray_sphere::<DVec2>(2);
    ray_sphere::<Vec3>(3);
    ray_sphere::<Vec2>(4);
}

fn ray_box<V: Space>(seed: u64) {
    let mut rng = Rng::new(seed);
    let mut worst = Worst::default();
    for case in 0..400 {
        let h = random_vec::<V>(&mut rng, 1.0).abs() + wide(narrow::<V>(DVec3::splat(0.1)));
        let h = if V::DIM == 2 { h.truncate().extend(0.0) } else { h };
        let place = V::random_place(&mut rng, 4.0);
        let (mut o, d) = random_ray::<V>(&mut rng, place.translation, h.max_element() * 1.5);
        if case % 10 == 0 {
            o = place.point(random_vec::<V>(&mut rng, 1.0) * h * 0.9);
        }
        let cuboid = Cuboid::new(narrow::<V>(h)).unwrap();
        let pose = V::pose(&place);
        let result = ray_cast_with(
            &cuboid,
            &pose,
            &gjk::Ray::new(narrow(o), narrow(d)),
            real::<V>(100.0),
            &RayCastOptions::default(),
        );
        worst.max_iterations = worst.max_iterations.max(result.iterations);
        let (lo, ld) = (place.inverse_point(o), place.inverse_vector(d));
        let oracle = slab_entry(lo, ld, h, V::DIM);
        let cos = match oracle {
            Some((_, Some(axis))) => (ld[axis] / ld.length()).abs(),
            _ => 1.0,
        };
        // Near-grazing rays (hit or miss decided within tolerance) are the edge tests' job.
        let size = 2.0 * h.length();
        if grazing_box(lo, ld, h, V::DIM, size * grazing::<V>()) {
            continue;
        }
        let what = format!("ray–box {case}");
        let hit = result.hit();
        if let Some((p, n)) =
            check_ray_hit(&what, hit, oracle.map(|o| o.0), o, d, size, cos, &mut worst)
        {
            // The normal supports the box at the hit point: Σ hᵢ|nᵢ| = n·p (local frame).
            let (lp, ln) = (place.inverse_point(p), place.inverse_vector(n));
            let support = (0..V::DIM).map(|i| h[i] * ln[i].abs()).sum::<f64>();
            let err = (support - ln.dot(lp)).abs() / size;
            assert!(err <= tol::<V>(), "{what}: normal {ln} does not support the box at {lp}");
            // A unique face normal when the entering slab is clear of the others.
            if let Some((t, Some(axis))) = oracle {
                let runner_up = (0..V::DIM)
                    .filter(|&i| i != axis && ld[i] != 0.0)
                    .map(|i| ((-h[i] - lo[i]) / ld[i]).min((h[i] - lo[i]) / ld[i]))
                    .fold(f64::NEG_INFINITY, f64::max);
                if (t - runner_up) * ld.length() > 1e-3 * size {
                    let want = axis_vector(axis, -ld[axis].signum());
                    let err = (ln - want).length();
                    assert!(err <= tol::<V>(), "{what}: normal {ln} vs {want}");
                    worst.normal = worst.normal.max(err);
                }
            }
        }
    }
    assert!(worst.hits >= 20 && worst.misses >= 20 && worst.inside >= 3, "{worst:?}");
    worst.report(&format!("ray–box {}", core::any::type_name::<V>()));
}

/// Whether the ray passes within `margin` of the box's boundary without clearly entering it.
fn grazing_box(o: DVec3, d: DVec3, h: DVec3, dim: usize, margin: f64) -> bool {
    let grown = slab_entry(o, d, h + DVec3::splat(margin), dim);
    let shrunk = slab_entry(o, d, (h - DVec3::splat(margin)).max(DVec3::ZERO), dim);
    grown.is_some() != shrunk.is_some()
}

#[test]
fn ray_box_slabs() {
    ray_box::<DVec3>(11);
    ray_box::<DVec2>(12);
    ray_box::<Vec3>(13);
    ray_box::<Vec2>(14);
}

fn ray_capsule<V: Space>(seed: u64) {
    let mut rng = Rng::new(seed);
    let mut worst = Worst::default();
    for case in 0..400 {
        let a = random_vec::<V>(&mut rng, 1.5);
        let b = random_vec::<V>(&mut rng, 1.5);
        let r = exact::<V>(rng.range(0.1, 1.0));
        if (b - a).length() < 0.1 {
            continue;
        }
        let place = V::random_place(&mut rng, 3.0);
        let (mut o, d) = random_ray::<V>(&mut rng, place.point((a + b) * 0.5), 2.0);
        if case % 10 == 0 {
            o = place.point(a + (b - a) * rng.range(0.0, 1.0));
        }
        let capsule = Capsule::new(narrow::<V>(a), narrow::<V>(b), real::<V>(r)).unwrap();
        let pose = V::pose(&place);
        let result = ray_cast_with(
            &capsule,
            &pose,
            &gjk::Ray::new(narrow(o), narrow(d)),
            real::<V>(100.0),
            &RayCastOptions::default(),
        );
        worst.max_iterations = worst.max_iterations.max(result.iterations);
        let (lo, ld) = (place.inverse_point(o), place.inverse_vector(d));
        let oracle = capsule_entry(lo, ld, a, b, r);
        // Skip near-grazing rays: the distance between the ray line and the segment is ≈ r.
        let size = (b - a).length() + 2.0 * r;
        let grown = capsule_entry(lo, ld, a, b, r * (1.0 + grazing::<V>()));
        let shrunk = capsule_entry(lo, ld, a, b, r * (1.0 - grazing::<V>()));
        if grown.is_some() != shrunk.is_some() {
            continue;
        }
        let normal_at = |t: f64| {
            let p = lo + ld * t;
            let ab = b - a;
            let s = ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
            (p - (a + ab * s)).normalize()
        };
        let cos = oracle
            .filter(|&t| t > 0.0)
            .map(|t| normal_at(t).dot(ld.normalize()).abs())
            .unwrap_or(1.0);
        let what = format!("ray–capsule {case}");
        if let Some((_, n)) =
            check_ray_hit(&what, result.hit(), oracle, o, d, size, cos, &mut worst)
        {
            let want = place.vector(normal_at(oracle.unwrap()));
            let err = (n - want).length();
            assert!(err <= tol::<V>() / cos.max(1e-3), "{what}: normal {n} vs {want}");
            worst.normal = worst.normal.max(err);
        }
    }
    assert!(worst.hits >= 20 && worst.misses >= 20 && worst.inside >= 3, "{worst:?}");
    worst.report(&format!("ray–capsule {}", core::any::type_name::<V>()));
}

#[test]
fn ray_capsule_analytic() {
    ray_capsule::<DVec3>(21);
    ray_capsule::<DVec2>(22);
    ray_capsule::<Vec3>(23);
    ray_capsule::<Vec2>(24);
}

/// The ellipsoid has a curved core (no margin): the ray cast converges on the surface itself.
fn ray_ellipsoid<V: Space>(seed: u64) {
    let mut rng = Rng::new(seed);
    let mut worst = Worst::default();
    for case in 0..300 {
        let radii = random_vec::<V>(&mut rng, 1.0).abs() + wide(narrow::<V>(DVec3::splat(0.2)));
        let radii = if V::DIM == 2 { radii.truncate().extend(1.0) } else { radii };
        let place = V::random_place(&mut rng, 3.0);
        let (o, d) = random_ray::<V>(&mut rng, place.translation, 1.5 * radii.max_element());
        let ellipsoid = Ellipsoid::new(narrow::<V>(radii)).unwrap();
        let pose = V::pose(&place);
        let result = ray_cast_with(
            &ellipsoid,
            &pose,
            &gjk::Ray::new(narrow(o), narrow(d)),
            real::<V>(100.0),
            &RayCastOptions::default(),
        );
        worst.max_iterations = worst.max_iterations.max(result.iterations);
        // Scale the local frame by 1/radii: the ellipsoid becomes the unit sphere.
        let (lo, ld) = (place.inverse_point(o) / radii, place.inverse_vector(d) / radii);
        let oracle = sphere_entry(lo, ld, 1.0);
        let closest = (lo - ld * (lo.dot(ld) / ld.length_squared())).length();
        if (closest - 1.0).abs() < grazing::<V>() && lo.length() > 1.0 {
            continue;
        }
        let normal_at = |t: f64| place.vector((lo + ld * t) / radii).normalize();
        let cos = oracle
            .filter(|&t| t > 0.0)
            .map(|t| normal_at(t).dot(d.normalize()).abs())
            .unwrap_or(1.0);
        let what = format!("ray–ellipsoid {case}");
        let size = 2.0 * radii.max_element();
        if let Some((_, n)) =
            check_ray_hit(&what, result.hit(), oracle, o, d, size, cos, &mut worst)
        {
            let want = normal_at(oracle.unwrap());
            let err = (n - want).length();
            // The normal comes from the last advancing plane: converged within √tolerance
            // of the surface's curvature (the hit point itself is within tolerance).
            assert!(err <= tol::<V>().sqrt() / cos.max(1e-3), "{what}: normal {n} vs {want}");
            worst.normal = worst.normal.max(err);
        }
    }
    assert!(worst.hits >= 20 && worst.misses >= 20, "{worst:?}");
    worst.report(&format!("ray–ellipsoid {}", core::any::type_name::<V>()));
}

#[test]
fn ray_ellipsoid_analytic() {
    ray_ellipsoid::<DVec3>(31);
    ray_ellipsoid::<DVec2>(32);
    ray_ellipsoid::<Vec3>(33);
    ray_ellipsoid::<Vec2>(34);
}

// ---------------------------------------------------------------------------------------------
// Ray casts against random polytopes (brute-force facets).

fn ray_polytope<V: Space>(seed: u64) {
    let mut rng = Rng::new(seed);
    let mut worst = Worst::default();
    let count = if V::DIM == 3 { 14 } else { 9 };
    for case in 0..200 {
        let local: Vec<DVec3> = (0..count).map(|_| random_vec::<V>(&mut rng, 1.0)).collect();
        let place = V::random_place(&mut rng, 3.0);
        let world: Vec<DVec3> = local.iter().map(|&p| place.point(p)).collect();
        let planes = hull_planes(&world, V::DIM);
        let (mut o, d) = random_ray::<V>(&mut rng, place.translation, 1.2);
        if case % 10 == 0 {
            o = place.point(local[0] * 0.3 + local[1] * 0.3 + local[2] * 0.4);
            o = wide(narrow::<V>(o));
        }
        let shape = Polytope::new(local.iter().map(|&p| narrow::<V>(p)).collect()).unwrap();
        let pose = V::pose(&place);
        let result = ray_cast_with(
            &shape,
            &pose,
            &gjk::Ray::new(narrow(o), narrow(d)),
            real::<V>(100.0),
            &RayCastOptions::default(),
        );
        worst.max_iterations = worst.max_iterations.max(result.iterations);
        let size =
            2.0 * world.iter().map(|p| (*p - place.translation).length()).fold(0.0, f64::max);
        let oracle = facets_entry(&planes, o, d);
        // Skip rays whose hit or miss is decided within the tolerance: the ray's distance to
        // the hull (grown and shrunk facets disagree).
        let grow = |by: f64| {
            let moved: Vec<Plane> =
                planes.iter().map(|p| Plane { n: p.n, offset: p.offset + by }).collect();
            facets_entry(&moved, o, d).is_some()
        };
        let margin = grazing::<V>() * size;
        if grow(margin) != grow(-margin) {
            continue;
        }
        let cos = match oracle {
            Some((t, Some(n))) if t > 0.0 => n.dot(d.normalize()).abs(),
            _ => 1.0,
        };
        let what = format!("ray–polytope {case}");
        if let Some((p, n)) =
            check_ray_hit(&what, result.hit(), oracle.map(|o| o.0), o, d, size, cos, &mut worst)
        {
            // A supporting normal of the hull at the hit point.
            let err = (support_value(&world, n) - n.dot(p)).abs() / size;
            assert!(
                err <= tol::<V>() / cos.max(1e-3),
                "{what}: normal {n} does not support the hull at {p}: {err:e}, cos {cos}"
            );
            worst.normal = worst.normal.max(err);
        }
    }
    assert!(worst.hits >= 20 && worst.misses >= 20 && worst.inside >= 3, "{worst:?}");
    worst.report(&format!("ray–polytope {}", core::any::type_name::<V>()));
}

#[test]
fn ray_polytope_facets() {
    ray_polytope::<DVec3>(41);
    ray_polytope::<DVec2>(42);
    ray_polytope::<Vec3>(43);
    ray_polytope::<Vec2>(44);
}

// ---------------------------------------------------------------------------------------------
// Shape casts: analytic.

fn sphere_sphere<V: Space>(seed: u64) {
    let mut rng = Rng::new(seed);
    let mut worst = Worst::default();
    for case in 0..300 {
        let (ra, rb) = (exact::<V>(rng.range(0.2, 1.5)), exact::<V>(rng.range(0.2, 1.5)));
        let (ca, cb) = (random_vec::<V>(&mut rng, 5.0), random_vec::<V>(&mut rng, 5.0));
        let va = random_vec::<V>(&mut rng, 3.0);
        let aim = ca + random_vec::<V>(&mut rng, 2.0 * (ra + rb));
        let vb = wide(narrow::<V>(va + (aim - cb) * rng.range(0.2, 2.0)));
        let (m, d, sum) = (cb - ca, vb - va, ra + rb);
        let oracle = sphere_entry(m, d, sum);
        let closest = (m - d * (m.dot(d) / d.length_squared())).length();
        if ((closest - sum) / sum).abs() < grazing::<V>() {
            continue; // grazing: decided within tolerance
        }
        let (a, b) =
            (Ball::<V>::new(real::<V>(ra)).unwrap(), Ball::<V>::new(real::<V>(rb)).unwrap());
        let r = shape_cast(
            &a,
            &V::pose(&Place::at(ca)),
            narrow(va),
            &b,
            &V::pose(&Place::at(cb)),
            narrow(vb),
            real::<V>(100.0),
        );
        worst.max_iterations = worst.max_iterations.max(r.iterations);
        let what = format!("sphere–sphere {case}: {r:?}");
        let scale = (m.length() + sum) / d.length();
        match oracle {
            None => {
                assert_eq!(r.status, CastStatus::NoHit, "{what}");
                worst.misses += 1;
            }
            Some(0.0) => {
                assert_eq!(r.status, CastStatus::InitiallyOverlapping, "{what}");
                assert_eq!(r.toi.to_f64(), 0.0);
                let n = wide(r.normal);
                let want = m.normalize();
                assert!((n - want).length() <= tol::<V>(), "{what}: normal {n} vs {want}");
                worst.inside += 1;
            }
            Some(t) => {
                assert_eq!(r.status, CastStatus::Hit, "{what}");
                let n_want = (m + d * t) / sum;
                let cos = n_want.dot(d.normalize()).abs();
                let err = (r.toi.to_f64() - t).abs() / scale;
                assert!(err <= tol::<V>() / cos, "{what}: toi vs {t}");
                let n_err = (wide(r.normal) - n_want).length();
                assert!(n_err <= tol::<V>() / cos, "{what}: normal vs {n_want}");
                let p_want = ca + va * t + n_want * ra;
                let p_err =
                    (wide(r.point_a) - p_want).length().max((wide(r.point_b) - p_want).length())
                        / (m.length() + sum);
                assert!(p_err <= tol::<V>() / cos, "{what}: points vs {p_want}");
                worst.hits += 1;
                worst.toi = worst.toi.max(err * cos);
                worst.normal = worst.normal.max(n_err * cos);
                worst.point = worst.point.max(p_err * cos);
            }
        }
    }
    assert!(worst.hits >= 20 && worst.misses >= 20 && worst.inside >= 3, "{worst:?}");
    worst.report(&format!("sphere–sphere {}", core::any::type_name::<V>()));
}

#[test]
fn shape_cast_sphere_sphere_analytic() {
    sphere_sphere::<DVec3>(51);
    sphere_sphere::<DVec2>(52);
    sphere_sphere::<Vec3>(53);
    sphere_sphere::<Vec2>(54);
}

fn box_box<V: Space>(seed: u64) {
    let mut rng = Rng::new(seed);
    let mut worst = Worst::default();
    let dim = V::DIM;
    let flat = |v: DVec3| if dim == 2 { v.truncate().extend(0.0) } else { v };
    for case in 0..300 {
        let ha = flat(random_vec::<V>(&mut rng, 1.0).abs() + wide(narrow::<V>(DVec3::splat(0.2))));
        let hb = flat(random_vec::<V>(&mut rng, 1.0).abs() + wide(narrow::<V>(DVec3::splat(0.2))));
        let (ca, cb) = (random_vec::<V>(&mut rng, 5.0), random_vec::<V>(&mut rng, 5.0));
        let va = random_vec::<V>(&mut rng, 2.0);
        let aim = ca + random_vec::<V>(&mut rng, 2.0);
        let vb = wide(narrow::<V>(va + (aim - cb) * rng.range(0.2, 2.0)));
        // B − A enters the box |x| ≤ ha + hb: the slab method on the relative motion.
        let (m, d, h) = (cb - ca, vb - va, ha + hb);
        let oracle = slab_entry(m, d, h, dim);
        if grazing_box(m, d, h, dim, grazing::<V>() * h.length()) {
            continue;
        }
        let a = Cuboid::new(narrow::<V>(ha)).unwrap();
        let b = Cuboid::new(narrow::<V>(hb)).unwrap();
        let r = shape_cast(
            &a,
            &V::pose(&Place::at(ca)),
            narrow(va),
            &b,
            &V::pose(&Place::at(cb)),
            narrow(vb),
            real::<V>(100.0),
        );
        worst.max_iterations = worst.max_iterations.max(r.iterations);
        let what = format!("box–box {case}: {r:?}");
        let size = m.length() + h.length();
        match oracle {
            None => {
                assert_eq!(r.status, CastStatus::NoHit, "{what}");
                worst.misses += 1;
            }
            Some((0.0, _)) => {
                assert_eq!(r.status, CastStatus::InitiallyOverlapping, "{what}");
                let c = contact(
                    &a,
                    &V::pose(&Place::at(ca)),
                    &b,
                    &V::pose(&Place::at(cb)),
                    real::<V>(0.0),
                )
                .expect("overlapping");
                assert_eq!(r.normal, c.normal, "{what}");
                worst.inside += 1;
            }
            Some((t, axis)) => {
                let axis = axis.unwrap();
                assert_eq!(r.status, CastStatus::Hit, "{what}");
                let cos = (d[axis] / d.length()).abs();
                let err = (r.toi.to_f64() - t).abs() * d.length() / size;
                assert!(err <= tol::<V>() / cos, "{what}: toi vs {t}");
                // The normal is the entering face's, unless another face enters at nearly the
                // same time (edge or corner contact): then it must support both boxes.
                let n = wide(r.normal);
                let (pa, pb) = (wide(r.point_a), wide(r.point_b));
                let at = |c: DVec3, v: DVec3| c + v * r.toi.to_f64();
                let support = |h: DVec3, n: DVec3| (0..dim).map(|i| h[i] * n[i].abs()).sum::<f64>();
                let on_a = (n.dot(pa - at(ca, va)) - support(ha, n)).abs() / size;
                let on_b = (-n.dot(pb - at(cb, vb)) - support(hb, n)).abs() / size;
                assert!(on_a.max(on_b) <= tol::<V>() / cos, "{what}: points not on the faces");
                assert!((pa - pb).length() / size <= tol::<V>() / cos, "{what}: points apart");
                let runner_up = (0..dim)
                    .filter(|&i| i != axis && d[i] != 0.0)
                    .map(|i| ((-h[i] - m[i]) / d[i]).min((h[i] - m[i]) / d[i]))
                    .fold(f64::NEG_INFINITY, f64::max);
                if (t - runner_up) * d.length() > 1e-3 * size {
                    let want = axis_vector(axis, -d[axis].signum());
                    let n_err = (n - want).length();
                    assert!(n_err <= tol::<V>(), "{what}: normal vs {want}");
                    worst.normal = worst.normal.max(n_err);
                }
                worst.hits += 1;
                worst.toi = worst.toi.max(err * cos);
                worst.point = worst.point.max(on_a.max(on_b) * cos);
            }
        }
    }
    assert!(worst.hits >= 20 && worst.misses >= 20 && worst.inside >= 3, "{worst:?}");
    worst.report(&format!("box–box {}", core::any::type_name::<V>()));
}

#[test]
fn shape_cast_box_box_axis_aligned() {
    box_box::<DVec3>(61);
    box_box::<DVec2>(62);
    box_box::<Vec3>(63);
    box_box::<Vec2>(64);
}

// ---------------------------------------------------------------------------------------------
// Shape casts: random polytope pairs (brute-force facets of the Minkowski difference).

fn polytope_pairs<V: Space>(seed: u64) {
    let mut rng = Rng::new(seed);
    let mut worst = Worst::default();
    let count = 6;
    for case in 0..150 {
        let local_a: Vec<DVec3> = (0..count).map(|_| random_vec::<V>(&mut rng, 1.0)).collect();
        let local_b: Vec<DVec3> = (0..count).map(|_| random_vec::<V>(&mut rng, 1.0)).collect();
        let (place_a, place_b) = (V::random_place(&mut rng, 4.0), V::random_place(&mut rng, 4.0));
        let va = random_vec::<V>(&mut rng, 2.0);
        let aim = place_a.translation + random_vec::<V>(&mut rng, 2.5);
        let vb = wide(narrow::<V>(va + (aim - place_b.translation) * rng.range(0.2, 2.0)));
        let wa: Vec<DVec3> = local_a.iter().map(|&p| place_a.point(p)).collect();
        let wb: Vec<DVec3> = local_b.iter().map(|&p| place_b.point(p)).collect();
        let diff: Vec<DVec3> = wa.iter().flat_map(|&p| wb.iter().map(move |&q| p - q)).collect();
        let planes = hull_planes(&diff, V::DIM);
        let d = vb - va;
        let oracle = facets_entry(&planes, DVec3::ZERO, d);
        let size = diff.iter().map(|p| p.length()).fold(0.0, f64::max);
        let grow = |by: f64| {
            let moved: Vec<Plane> =
                planes.iter().map(|p| Plane { n: p.n, offset: p.offset + by }).collect();
            facets_entry(&moved, DVec3::ZERO, d).is_some()
        };
        let margin = grazing::<V>() * size;
        if grow(margin) != grow(-margin) {
            continue;
        }
        let a = Polytope::new(local_a.iter().map(|&p| narrow::<V>(p)).collect()).unwrap();
        let b = Polytope::new(local_b.iter().map(|&p| narrow::<V>(p)).collect()).unwrap();
        let (pose_a, pose_b) = (V::pose(&place_a), V::pose(&place_b));
        let r = shape_cast(&a, &pose_a, narrow(va), &b, &pose_b, narrow(vb), real::<V>(100.0));
        worst.max_iterations = worst.max_iterations.max(r.iterations);
        let what = format!("polytopes {case}: {r:?}");
        match oracle {
            None => {
                assert_eq!(r.status, CastStatus::NoHit, "{what}");
                worst.misses += 1;
            }
            Some((0.0, _)) => {
                assert_eq!(r.status, CastStatus::InitiallyOverlapping, "{what}");
                worst.inside += 1;
            }
            Some((t, normal)) => {
                assert_eq!(r.status, CastStatus::Hit, "{what}");
                let cos = normal.unwrap().dot(d.normalize()).abs();
                let toi = r.toi.to_f64();
                let err = (toi - t).abs() * d.length() / size;
                assert!(err <= tol::<V>() / cos, "{what}: toi vs {t}");
                // A supporting normal of A − B at the hit point t·d (outward = from A to B).
                let n = wide(r.normal);
                let n_err = (support_value(&diff, n) - n.dot(d * toi)).abs() / size;
                assert!(n_err <= tol::<V>() / cos, "{what}: normal does not support A − B: {n_err:e} cos {cos} oracle {normal:?} t {t}");
                // The points lie on the moved shapes' supporting planes along ±n and coincide.
                let (pa, pb) = (wide(r.point_a), wide(r.point_b));
                let on_a = (pa.dot(n) - support_value(&wa, n) - va.dot(n) * toi).abs() / size;
                let on_b = (pb.dot(-n) - support_value(&wb, -n) + vb.dot(n) * toi).abs() / size;
                let gap = (pa - pb).length() / size;
                assert!(on_a.max(on_b).max(gap) <= tol::<V>() / cos, "{what}: points");
                // The shapes touch at the time of impact and are apart a little earlier.
                let moved = |place: &Place, v: DVec3, t: f64| {
                    V::pose(&Place { translation: place.translation + v * t, ..*place })
                };
                let gap_at = distance(&a, &moved(&place_a, va, toi), &b, &moved(&place_b, vb, toi));
                assert!(gap_at.to_f64() <= tol::<V>() * size, "{what}: apart at toi");
                let back = if is_f32::<V>() { 1e-2 } else { 1e-6 };
                let before = toi * (1.0 - back);
                if (toi - before) * d.length() * cos > 1e2 * tol::<V>() * size {
                    let touching = intersects(
                        &a,
                        &moved(&place_a, va, before),
                        &b,
                        &moved(&place_b, vb, before),
                    );
                    assert!(!touching, "{what}: touching before toi");
                }
                worst.hits += 1;
                worst.toi = worst.toi.max(err * cos);
                worst.normal = worst.normal.max(n_err * cos);
                worst.point = worst.point.max(on_a.max(on_b).max(gap) * cos);
            }
        }
    }
    assert!(worst.hits >= 20 && worst.misses >= 20 && worst.inside >= 3, "{worst:?}");
    worst.report(&format!("polytope pairs {}", core::any::type_name::<V>()));
}

#[test]
fn shape_cast_polytope_pairs_facets() {
    polytope_pairs::<DVec3>(71);
    polytope_pairs::<DVec2>(72);
    polytope_pairs::<Vec3>(73);
    polytope_pairs::<Vec2>(74);
}

// ---------------------------------------------------------------------------------------------
// Shape casts of curved shapes in random poses: bisection on the distance along the motion.

/// `distance(t)` between A moved by `t·va` and B moved by `t·vb`.
fn gap_at<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    place_a: &Place,
    va: DVec3,
    b: &B,
    place_b: &Place,
    vb: DVec3,
    t: f64,
) -> f64 {
    let moved = |place: &Place, v: DVec3| {
        V::pose(&Place { translation: place.translation + v * t, ..*place })
    };
    // The oracle must converge: curved shapes near contact need more than the default 64
    // iterations (GJK converges linearly there), and a capped run only bounds the distance.
    let options = GjkOptions { max_iterations: 1000, ..Default::default() };
    let pair = Pair::new(a, moved(place_a, va), b, moved(place_b, vb));
    let r = pair.gjk(Goal::Distance, &options, &mut WarmStart::default());
    assert_ne!(r.termination, Termination::IterationCap, "the distance oracle did not converge");
    r.distance.to_f64()
}

/// The first time the distance reaches 0 in `[0, horizon]`, by the oracle: the distance is
/// convex in `t`, so golden-section search finds its minimum, and bisection the first zero
/// before it. `None` when the minimum stays positive.
fn bisection_toi(gap: impl Fn(f64) -> f64, horizon: f64) -> Option<f64> {
    if gap(0.0) <= 0.0 {
        return Some(0.0);
    }
    let (mut lo, mut hi) = (0.0, horizon);
    let phi = 0.5 * (5f64.sqrt() - 1.0);
    for _ in 0..100 {
        let (m1, m2) = (hi - phi * (hi - lo), lo + phi * (hi - lo));
        if gap(m1) <= 0.0 {
            hi = m1;
            break;
        }
        if gap(m1) < gap(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    if gap(hi) > 0.0 {
        return None;
    }
    let (mut apart, mut touching) = (0.0, hi);
    for _ in 0..200 {
        let mid = 0.5 * (apart + touching);
        if gap(mid) > 0.0 {
            apart = mid;
        } else {
            touching = mid;
        }
    }
    Some(touching)
}

/// Checks a shape cast against the bisection oracle: same verdict, touching at the time of
/// impact, apart just before, time within tolerance (non-grazing).
fn check_curved<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    what: &str,
    a: &A,
    b: &B,
    rng: &mut Rng,
    worst: &mut Worst,
) {
    let tol = tol::<V>();
    let (place_a, place_b) = (V::random_place(rng, 3.0), V::random_place(rng, 3.0));
    let va = random_vec::<V>(rng, 2.0);
    let aim = place_a.translation + random_vec::<V>(rng, 2.0);
    let vb = wide(narrow::<V>(va + (aim - place_b.translation) * rng.range(0.3, 2.0)));
    let gap = |t: f64| gap_at::<V, A, B>(a, &place_a, va, b, &place_b, vb, t);
    let horizon = 10.0;
    let oracle = bisection_toi(gap, horizon);
    let (pose_a, pose_b) = (V::pose(&place_a), V::pose(&place_b));
    let r = shape_cast(a, &pose_a, narrow(va), b, &pose_b, narrow(vb), real::<V>(horizon));
    worst.max_iterations = worst.max_iterations.max(r.iterations);
    let size = 6.0;
    let d = (vb - va).length();
    let what = format!("{what}: {r:?} oracle {oracle:?}");
    match (r.status, oracle) {
        (CastStatus::NoHit, None) => worst.misses += 1,
        (CastStatus::InitiallyOverlapping, Some(0.0)) => worst.inside += 1,
        (CastStatus::Hit, Some(t)) => {
            let toi = r.toi.to_f64();
            // Touching at the time of impact (the distance oracle's own tolerance included).
            assert!(gap(toi) <= 4.0 * tol * size, "{what}: apart at toi by {}", gap(toi));
            // Apart a little earlier: the cast is conservative.
            let back = if is_f32::<V>() { 1e-2 } else { 1e-6 };
            let n = wide(r.normal);
            let cos = n.dot((vb - va) / d).abs();
            if toi * back * d * cos > 1e2 * tol * size {
                assert!(gap(toi * (1.0 - back)) > 0.0, "{what}: touching before toi");
            }
            let err = (toi - t).abs() * d / size;
            if cos > 0.05 {
                assert!(err <= 4.0 * tol / cos, "{what}: toi {toi} vs {t}: {err:e}");
                worst.toi = worst.toi.max(err * cos);
            }
            // The contact points coincide (no target gap).
            let (pa, pb) = (wide(r.point_a), wide(r.point_b));
            assert!((pa - pb).length() <= 4.0 * tol * size / cos.max(0.05), "{what}: points");
            assert!((n.length() - 1.0).abs() <= tol, "{what}: normal not unit");
            worst.hits += 1;
        }
        (_, _) => {
            // A disagreement is only allowed where the verdict is decided within tolerance:
            // grazing motion, or shapes touching at t = 0.
            let m = min_gap(&gap, horizon);
            assert!(m <= 1e2 * tol * size || gap(0.0) <= 1e2 * tol * size, "{what}: min gap {m}");
        }
    }
}

/// The smallest distance over `[0, horizon]` (golden-section search on the convex distance).
fn min_gap(gap: &impl Fn(f64) -> f64, horizon: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, horizon);
    let phi = 0.5 * (5f64.sqrt() - 1.0);
    for _ in 0..100 {
        let (m1, m2) = (hi - phi * (hi - lo), lo + phi * (hi - lo));
        if gap(m1) < gap(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    gap(0.5 * (lo + hi)).min(gap(0.0)).min(gap(horizon))
}

fn curved_shapes<V: Space>(seed: u64) -> Worst {
    let mut rng = Rng::new(seed);
    let mut worst = Worst::default();
    let r = |x: f64| real::<V>(x);
    let ball = Ball::<V>::new(r(0.7)).unwrap();
    let ellipse = Ellipsoid::new(narrow::<V>(DVec3::new(1.0, 0.4, 0.6))).unwrap();
    let capsule =
        Capsule::new(narrow::<V>(DVec3::new(-0.6, 0.1, 0.0)), narrow::<V>(DVec3::X * 0.5), r(0.3))
            .unwrap();
    let cube = Cuboid::new(narrow::<V>(DVec3::new(0.8, 0.5, 0.3))).unwrap();
    let rounded = Rounded::new(cube, r(0.2)).unwrap();
    let shapes: [&dyn Support<V>; 5] = [&ball, &ellipse, &capsule, &cube, &rounded];
    for case in 0..120 {
        let (i, j) = (case % 5, (case / 5) % 5);
        check_curved::<V, _, _>(
            &format!("curved {case} ({i}, {j})"),
            shapes[i],
            shapes[j],
            &mut rng,
            &mut worst,
        );
    }
    worst
}

#[test]
fn shape_cast_curved_vs_bisection() {
    for (name, w) in [
        ("DVec3", curved_shapes::<DVec3>(81)),
        ("DVec2", curved_shapes::<DVec2>(82)),
        ("Vec3", curved_shapes::<Vec3>(83)),
        ("Vec2", curved_shapes::<Vec2>(84)),
    ] {
        assert!(w.hits >= 20 && w.misses >= 10, "{name}: {w:?}");
        w.report(&format!("curved {name}"));
    }
}

/// Cylinders and cones (3D only) against boxes and ellipsoids.
fn round_3d<V: Space + gjk::Vector3>(seed: u64) -> Worst {
    let mut rng = Rng::new(seed);
    let mut worst = Worst::default();
    let r = |x: f64| real::<V>(x);
    let cylinder = Cylinder::<V>::new(r(0.6), r(0.4)).unwrap();
    let cone = Cone::<V>::new(r(0.5), r(0.5)).unwrap();
    let cube = Cuboid::new(narrow::<V>(DVec3::new(0.8, 0.5, 0.3))).unwrap();
    let ellipsoid = Ellipsoid::new(narrow::<V>(DVec3::new(1.0, 0.4, 0.6))).unwrap();
    let shapes: [&dyn Support<V>; 4] = [&cylinder, &cone, &cube, &ellipsoid];
    for case in 0..80 {
        let (i, j) = (case % 2, (case / 2) % 4);
        check_curved::<V, _, _>(
            &format!("round {case} ({i}, {j})"),
            shapes[i],
            shapes[j],
            &mut rng,
            &mut worst,
        );
    }
    worst
}

#[test]
fn shape_cast_cylinders_and_cones_vs_bisection() {
    for (name, w) in [("DVec3", round_3d::<DVec3>(91)), ("Vec3", round_3d::<Vec3>(92))] {
        assert!(w.hits >= 15 && w.misses >= 5, "{name}: {w:?}");
        w.report(&format!("cylinders and cones {name}"));
    }
}

// ---------------------------------------------------------------------------------------------
// Edge cases with analytic answers.

fn at<V: Vector>(x: f64, y: f64, z: f64) -> V {
    narrow::<V>(DVec3::new(x, y, if V::DIM == 3 { z } else { 0.0 }))
}

fn translation<V: Vector>(x: f64, y: f64, z: f64) -> Pose<V> {
    Pose::from_translation(at::<V>(x, y, z)).unwrap()
}

fn close<V: Vector>(got: V::Real, want: f64, scale: f64) -> bool {
    (got.to_f64() - want).abs() <= tol::<V>() * scale
}

fn misses_and_limits<V: Space>() {
    let cube = Cuboid::new(at::<V>(1.0, 1.0, 1.0)).unwrap();
    let here = Pose::IDENTITY;
    let there = translation::<V>(5.0, 0.0, 0.0);
    let still = V::ZERO;
    let cast = |vb: V, max_toi: f64| {
        shape_cast(&cube, &here, still, &cube, &there, vb, real::<V>(max_toi))
    };
    // Parallel motion beside the cube (3 above it, moving along x): no hit.
    let above = translation::<V>(5.0, 3.0, 0.0);
    let r =
        shape_cast(&cube, &here, still, &cube, &above, at::<V>(-1.0, 0.0, 0.0), real::<V>(100.0));
    assert_eq!(r.status, CastStatus::NoHit, "{r:?}");
    assert_eq!(r.toi, real::<V>(100.0));
    // Moving away: no hit, found at once.
    let r = cast(at::<V>(1.0, 0.0, 0.0), 100.0);
    assert_eq!(r.status, CastStatus::NoHit, "{r:?}");
    assert!(r.iterations <= 2, "{r:?}");
    // Toward, but max_toi too small: the gap of 3 needs t = 1.5 at speed 2.
    let r = cast(at::<V>(-2.0, 0.0, 0.0), 1.4);
    assert_eq!(r.status, CastStatus::NoHit, "{r:?}");
    let r = cast(at::<V>(-2.0, 0.0, 0.0), 1.6);
    assert_eq!(r.status, CastStatus::Hit, "{r:?}");
    assert!(close::<V>(r.toi, 1.5, 1.0), "{r:?}");
    // max_toi = 0 and infinite.
    assert_eq!(cast(at::<V>(-2.0, 0.0, 0.0), 0.0).status, CastStatus::NoHit);
    let r = cast(at::<V>(-2.0, 0.0, 0.0), f64::INFINITY);
    assert!(r.status == CastStatus::Hit && close::<V>(r.toi, 1.5, 1.0), "{r:?}");
    // Zero relative velocity (both move together): apart stays apart.
    let v = at::<V>(3.0, -1.0, 2.0);
    let r = shape_cast(&cube, &here, v, &cube, &there, v, real::<V>(100.0));
    assert_eq!(r.status, CastStatus::NoHit, "{r:?}");
    // A ray parallel to a face, outside: no hit; behind the origin: no hit; too short: no hit.
    let origin = at::<V>(-5.0, 1.5, 0.0);
    assert!(ray_cast(
        &cube,
        &here,
        &gjk::Ray::new(origin, at::<V>(1.0, 0.0, 0.0)),
        real::<V>(100.0)
    )
    .is_none());
    let behind = at::<V>(5.0, 0.0, 0.0);
    assert!(ray_cast(
        &cube,
        &here,
        &gjk::Ray::new(behind, at::<V>(1.0, 0.0, 0.0)),
        real::<V>(100.0)
    )
    .is_none());
    let origin = at::<V>(-5.0, 0.0, 0.0);
    assert!(ray_cast(&cube, &here, &gjk::Ray::new(origin, at::<V>(1.0, 0.0, 0.0)), real::<V>(3.9))
        .is_none());
    let hit =
        ray_cast(&cube, &here, &gjk::Ray::new(origin, at::<V>(1.0, 0.0, 0.0)), real::<V>(4.1))
            .unwrap();
    assert!(close::<V>(hit.toi, 4.0, 5.0), "{hit:?}");
}

#[test]
fn misses_parallel_moving_away_and_short_casts() {
    misses_and_limits::<DVec3>();
    misses_and_limits::<DVec2>();
    misses_and_limits::<Vec3>();
    misses_and_limits::<Vec2>();
}

fn overlap_and_touching<V: Space>() {
    let cube = Cuboid::new(at::<V>(1.0, 1.0, 1.0)).unwrap();
    let here = Pose::IDENTITY;
    let still = V::ZERO;
    // Overlapping by 0.5 along x: initial overlap, with the contact query's normal and points.
    let overlapping = translation::<V>(1.5, 0.2, 0.0);
    for vb in [at::<V>(-1.0, 0.0, 0.0), at::<V>(1.0, 0.0, 0.0), V::ZERO] {
        let r = shape_cast(&cube, &here, still, &cube, &overlapping, vb, real::<V>(10.0));
        assert_eq!(r.status, CastStatus::InitiallyOverlapping, "{r:?}");
        assert_eq!(r.toi, real::<V>(0.0));
        let c = contact(&cube, &here, &cube, &overlapping, real::<V>(0.0)).unwrap();
        assert_eq!((r.normal, r.point_a, r.point_b), (c.normal, c.point_a, c.point_b));
        assert!((wide(r.normal) - DVec3::X).length() <= tol::<V>(), "{r:?}");
    }
    // Touching exactly at t = 0: initial overlap whether moving toward or apart.
    let touching = translation::<V>(2.0, 0.5, 0.0);
    for vb in [at::<V>(-1.0, 0.0, 0.0), at::<V>(1.0, 0.0, 0.0)] {
        let r = shape_cast(&cube, &here, still, &cube, &touching, vb, real::<V>(10.0));
        assert_eq!(r.status, CastStatus::InitiallyOverlapping, "{r:?}");
        assert!((wide(r.normal) - DVec3::X).length() <= tol::<V>(), "{r:?}");
    }
    // Balls: initial overlap normal along the centres.
    let ball = Ball::<V>::new(real::<V>(1.0)).unwrap();
    let near = translation::<V>(1.2, 1.0, 0.0);
    let r = shape_cast(&ball, &here, still, &ball, &near, at::<V>(-1.0, 0.0, 0.0), real::<V>(1.0));
    assert_eq!(r.status, CastStatus::InitiallyOverlapping, "{r:?}");
    let want = DVec3::new(1.2, 1.0, 0.0).normalize();
    assert!((wide(r.normal) - want).length() <= tol::<V>(), "{r:?}");
    assert!(r.is_hit());
    // Rays starting inside (solid) or exactly on the surface.
    let inside = ray_cast(
        &cube,
        &here,
        &gjk::Ray::new(at::<V>(0.5, 0.0, 0.0), at::<V>(0.0, 1.0, 0.0)),
        real::<V>(5.0),
    );
    let inside = inside.unwrap();
    assert_eq!((inside.toi, inside.normal), (real::<V>(0.0), V::ZERO));
    assert_eq!(inside.point, at::<V>(0.5, 0.0, 0.0));
    let on = ray_cast(
        &cube,
        &here,
        &gjk::Ray::new(at::<V>(1.0, 0.0, 0.0), at::<V>(1.0, 0.0, 0.0)),
        real::<V>(5.0),
    );
    assert_eq!(on.unwrap().toi, real::<V>(0.0));
}

#[test]
fn initial_overlap_and_touching_at_zero() {
    overlap_and_touching::<DVec3>();
    overlap_and_touching::<DVec2>();
    overlap_and_touching::<Vec3>();
    overlap_and_touching::<Vec2>();
}

fn grazing_cases<V: Space>() {
    let ball = Ball::<V>::new(real::<V>(1.0)).unwrap();
    let here = Pose::IDENTITY;
    let right = at::<V>(1.0, 0.0, 0.0);
    // A ray tangent to the ball at (0, 1): it touches there, at toi 5.
    let tangent =
        ray_cast(&ball, &here, &gjk::Ray::new(at::<V>(-5.0, 1.0, 0.0), right), real::<V>(10.0));
    let hit = tangent.expect("a tangent ray touches");
    // Grazing: the time is ill-conditioned (√ of the tolerance), the point is on the surface.
    assert!((hit.toi.to_f64() - 5.0).abs() <= 2.0 * tol::<V>().sqrt(), "{hit:?}");
    assert!((wide(hit.point).length() - 1.0).abs() <= tol::<V>(), "{hit:?}");
    // Clearly past it: a miss.
    let past = ray_cast(
        &ball,
        &here,
        &gjk::Ray::new(at::<V>(-5.0, 1.0 + 1e3 * tol::<V>(), 0.0), right),
        real::<V>(10.0),
    );
    assert!(past.is_none(), "{past:?}");
    // Boxes sliding face on face (B's bottom in A's top plane): they touch when the x-ranges
    // meet, at t = 1 (gap 2 at speed 2).
    let cube = Cuboid::new(at::<V>(1.0, 1.0, 1.0)).unwrap();
    let level = translation::<V>(4.0, 2.0, 0.0);
    let r =
        shape_cast(&cube, &here, V::ZERO, &cube, &level, at::<V>(-2.0, 0.0, 0.0), real::<V>(5.0));
    assert_eq!(r.status, CastStatus::Hit, "{r:?}");
    assert!(close::<V>(r.toi, 1.0, 2.0), "{r:?}");
    // Edge grazing: a square/cube slides past a corner exactly in line with it.
    let corner = translation::<V>(4.0, 2.0, 2.0);
    let r =
        shape_cast(&cube, &here, V::ZERO, &cube, &corner, at::<V>(-1.0, 0.0, 0.0), real::<V>(5.0));
    assert_eq!(r.status, CastStatus::Hit, "{r:?}");
    assert!(close::<V>(r.toi, 2.0, 2.0), "{r:?}");
}

#[test]
fn grazing_contacts() {
    grazing_cases::<DVec3>();
    grazing_cases::<DVec2>();
    grazing_cases::<Vec3>();
    grazing_cases::<Vec2>();
}

/// Sphere–sphere at tiny and huge scales and far from the origin: same relative accuracy.
fn scales<V: Space>(scales: &[f64], offsets: &[f64]) {
    for &s in scales {
        for &offset in offsets {
            let ball = Ball::<V>::new(real::<V>(s)).unwrap();
            let base = DVec3::new(offset, -offset, if V::DIM == 3 { offset } else { 0.0 });
            let pa = V::pose(&Place::at(base));
            let pb = V::pose(&Place::at(base + DVec3::new(10.0 * s, 1.0 * s, 0.0)));
            let vb = at::<V>(-3.0 * s, 0.0, 0.0);
            let r = shape_cast(&ball, &pa, V::ZERO, &ball, &pb, vb, real::<V>(100.0));
            // Centres 10s apart in x, 1s in y: they touch when the x gap is √(4 − 1) s.
            let want = (10.0 - 3f64.sqrt()) / 3.0;
            let rounding =
                f64::from(V::Real::EPSILON.to_f64() as f32).max(V::Real::EPSILON.to_f64());
            let slack = tol::<V>() + 100.0 * rounding * (offset / s).abs();
            assert_eq!(r.status, CastStatus::Hit, "scale {s} offset {offset}: {r:?}");
            assert!(
                (r.toi.to_f64() - want).abs() <= slack * want,
                "scale {s} offset {offset}: {r:?} vs {want}"
            );
            let n = wide(r.normal);
            let n_want = DVec3::new(3f64.sqrt(), 1.0, 0.0) / 2.0;
            assert!((n - n_want).length() <= slack, "scale {s} offset {offset}: {n}");
            // Ray against a box at the same scale.
            let cube = Cuboid::new(at::<V>(s, s, s)).unwrap();
            let origin = narrow::<V>(base + DVec3::new(-5.0 * s, 0.5 * s, 0.0));
            let hit = ray_cast(
                &cube,
                &pa,
                &gjk::Ray::new(origin, at::<V>(2.0 * s, 0.0, 0.0)),
                real::<V>(10.0),
            )
            .unwrap();
            assert!(
                (hit.toi.to_f64() - 2.0).abs() <= 2.0 * slack,
                "scale {s} offset {offset}: {hit:?}"
            );
        }
    }
}

#[test]
fn tiny_and_huge_scales_far_from_the_origin() {
    scales::<DVec3>(&[1e-6, 1.0, 1e6], &[0.0, 1e3]);
    scales::<DVec2>(&[1e-6, 1.0, 1e6], &[0.0, 1e3]);
    scales::<Vec3>(&[1e-3, 1.0, 1e3], &[0.0, 10.0]);
    scales::<Vec2>(&[1e-3, 1.0, 1e3], &[0.0, 10.0]);
}

#[test]
fn target_distance_keeps_a_gap() {
    let cube = Cuboid::new(DVec3::ONE).unwrap();
    let ball = Ball::<DVec3>::new(0.5).unwrap();
    let here = Pose::IDENTITY;
    let there = Pose::from_translation(DVec3::new(6.0, 0.0, 0.0)).unwrap();
    for target in [0.0, 0.01, 0.5, 2.0] {
        let options = ShapeCastOptions { target_distance: target, ..Default::default() };
        let pair = Pair::new(&cube, here, &ball, there);
        let r = pair.shape_cast_with(DVec3::ZERO, DVec3::new(-1.0, 0.0, 0.0), 10.0, &options);
        assert_eq!(r.status, CastStatus::Hit, "{r:?}");
        assert!((r.toi - (4.5 - target)).abs() < 1e-9, "target {target}: {r:?}");
        assert!((r.point_b - r.point_a - DVec3::X * target).length() < 1e-9, "{r:?}");
        assert!((r.point_a.x - 1.0).abs() < 1e-9, "{r:?}");
    }
    // Already closer than the target: initial overlap (the gap is reported by the contact).
    let options = ShapeCastOptions { target_distance: 5.0, ..Default::default() };
    let r =
        Pair::new(&cube, here, &ball, there).shape_cast_with(DVec3::ZERO, DVec3::X, 10.0, &options);
    assert_eq!(r.status, CastStatus::InitiallyOverlapping, "{r:?}");
    assert!(
        (r.normal - DVec3::X).length() < 1e-12 && ((r.point_b - r.point_a).x - 4.5).abs() < 1e-9
    );
    // A negative or NaN target counts as 0.
    for target in [-1.0, f64::NAN] {
        let options = ShapeCastOptions { target_distance: target, ..Default::default() };
        let r = Pair::new(&cube, here, &ball, there).shape_cast_with(
            DVec3::ZERO,
            -DVec3::X,
            10.0,
            &options,
        );
        assert!((r.toi - 4.5).abs() < 1e-9, "{r:?}");
    }
}

#[test]
fn hollow_rays_exit_the_shape() {
    let hollow = RayCastOptions { solid: false, ..Default::default() };
    let cube = Cuboid::new(DVec3::new(1.0, 2.0, 3.0)).unwrap();
    let pose = Pose::new(DQuat::from_rotation_z(0.3), DVec3::new(1.0, 2.0, 3.0)).unwrap();
    let local = DVec3::new(0.2, -0.5, 1.0);
    let origin = pose.transform_point(local);
    let dir = pose.transform_vector(DVec3::new(0.0, 0.0, 0.5));
    let r = ray_cast_with(&cube, &pose, &gjk::Ray::new(origin, dir), 100.0, &hollow);
    assert_eq!(r.status, CastStatus::InitiallyOverlapping, "{r:?}");
    // Exits through z = 3 after 2 units, at speed 0.5: toi 4.
    let hit = r.hit().unwrap();
    assert!((hit.toi - 4.0).abs() < 1e-9, "{r:?}");
    assert!((hit.normal - pose.transform_vector(DVec3::Z)).length() < 1e-9, "{r:?}");
    // Too short to reach the exit: no hit.
    assert_eq!(
        ray_cast_with(&cube, &pose, &gjk::Ray::new(origin, dir), 3.9, &hollow).status,
        CastStatus::NoHit
    );
    // From outside, hollow and solid agree.
    let outside = pose.transform_point(DVec3::new(0.2, -0.5, -5.0));
    let solid = ray_cast(&cube, &pose, &gjk::Ray::new(outside, dir), 100.0).unwrap();
    let r = ray_cast_with(&cube, &pose, &gjk::Ray::new(outside, dir), 100.0, &hollow);
    assert_eq!((r.status, r.hit.toi), (CastStatus::Hit, solid.toi));
    // Inside a capsule (margin) and a 2D ellipse (curved core), against the analytic exits.
    let capsule = Capsule::new(DVec3::new(0.0, -1.0, 0.0), DVec3::new(0.0, 1.0, 0.0), 0.5).unwrap();
    let r = ray_cast_with(
        &capsule,
        &Pose::IDENTITY,
        &gjk::Ray::new(DVec3::ZERO, DVec3::new(0.0, 3.0, 0.0)),
        10.0,
        &hollow,
    );
    assert!((r.hit.toi - 0.5).abs() < 1e-9 && (r.hit.normal - DVec3::Y).length() < 1e-9, "{r:?}");
    let ellipse = Ellipsoid::new(DVec2::new(2.0, 1.0)).unwrap();
    let r = ray_cast_with(
        &ellipse,
        &Pose::IDENTITY,
        &gjk::Ray::new(DVec2::ZERO, DVec2::new(-1.0, 0.0)),
        10.0,
        &hollow,
    );
    assert!((r.hit.toi - 2.0).abs() < 1e-9 && (r.hit.normal + DVec2::X).length() < 1e-4, "{r:?}");
}

#[test]
fn invalid_input_and_iteration_cap() {
    let cube = Cuboid::new(Vec3::ONE).unwrap();
    let here = Pose::IDENTITY;
    let there = Pose::from_translation(Vec3::new(5.0, 0.0, 0.0)).unwrap();
    let cast =
        |va: Vec3, vb: Vec3, max_toi: f32| shape_cast(&cube, &here, va, &cube, &there, vb, max_toi);
    for (va, vb, max_toi) in [
        (Vec3::NAN, Vec3::ZERO, 1.0),
        (Vec3::ZERO, Vec3::new(f32::INFINITY, 0.0, 0.0), 1.0),
        (Vec3::splat(f32::MAX), Vec3::splat(-f32::MAX), 1.0), // relative velocity overflows
        (Vec3::ZERO, -Vec3::X, -1.0),
        (Vec3::ZERO, -Vec3::X, f32::NAN),
    ] {
        let r = cast(va, vb, max_toi);
        assert_eq!(r.status, CastStatus::InvalidInput, "{va} {vb} {max_toi}: {r:?}");
        assert!(!r.toi.is_nan() && !r.is_hit());
    }
    let r = ray_cast_with(
        &cube,
        &here,
        &gjk::Ray::new(Vec3::NAN, Vec3::X),
        1.0,
        &RayCastOptions::default(),
    );
    assert_eq!(r.status, CastStatus::InvalidInput);
    assert!(
        ray_cast(&cube, &here, &gjk::Ray::new(Vec3::new(-5.0, 0.0, 0.0), Vec3::NAN), 1.0).is_none()
    );
    // Huge and tiny (finite) speeds: no NaN, sensible answers.
    let r = cast(Vec3::ZERO, Vec3::new(-1e30, 0.0, 0.0), 1.0);
    assert!(r.status == CastStatus::Hit && (r.toi - 3e-30).abs() < 1e-34, "{r:?}");
    let r = cast(Vec3::ZERO, Vec3::new(-1e-30, 0.0, 0.0), f32::INFINITY);
    assert!(r.status == CastStatus::Hit && (r.toi / 3e30 - 1.0).abs() < 1e-4, "{r:?}");
    // The cap: the time reported is a conservative lower bound.
    let ellipsoid = Ellipsoid::new(DVec3::new(1.0, 0.5, 0.3)).unwrap();
    let far = Pose::from_translation(DVec3::new(6.0, 0.3, 0.2)).unwrap();
    let full =
        shape_cast(&ellipsoid, &Pose::IDENTITY, DVec3::ZERO, &ellipsoid, &far, -DVec3::X, 100.0);
    assert_eq!(full.status, CastStatus::Hit, "{full:?}");
    for cap in 1..6 {
        let options = ShapeCastOptions { max_iterations: cap, ..Default::default() };
        let pair = Pair::new(&ellipsoid, Pose::IDENTITY, &ellipsoid, far);
        let r = pair.shape_cast_with(DVec3::ZERO, -DVec3::X, 100.0, &options);
        assert_eq!((r.status, r.iterations), (CastStatus::IterationCap, cap), "{r:?}");
        assert!(r.toi <= full.toi * (1.0 + 1e-12), "cap {cap}: {} > {}", r.toi, full.toi);
        let moved =
            Pose::from_translation(DVec3::new(6.0 - r.toi * (1.0 - 1e-9), 1.0, 0.7)).unwrap();
        assert!(!intersects(&ellipsoid, &Pose::IDENTITY, &ellipsoid, &moved), "cap {cap}");
    }
}

#[test]
fn moving_both_shapes_with_rotations() {
    // A 2D square (half 1) rotated 45° moving right meets a ball moving down: both move, the
    // relative motion decides.
    let square = Cuboid::new(DVec2::ONE).unwrap();
    let pose_a =
        Pose::<DVec2>::from_angle_translation(core::f64::consts::FRAC_PI_4, DVec2::ZERO).unwrap();
    let ball = Ball::<DVec2>::new(0.5).unwrap();
    let pose_b = Pose::from_translation(DVec2::new(3.0, 4.0)).unwrap();
    let (va, vb) = (DVec2::new(1.0, 0.0), DVec2::new(0.0, -2.0));
    let r = shape_cast(&square, &pose_a, va, &ball, &pose_b, vb, 10.0);
    assert_eq!(r.status, CastStatus::Hit, "{r:?}");
    // Relative to the square the ball moves from (3, 4) along (−1, −2) and passes through the
    // diamond |x| + |y| ≤ √2; the oracle is bisection on the distance along the motion.
    let gap = |t: f64| {
        let a =
            Pose::<DVec2>::from_angle_translation(core::f64::consts::FRAC_PI_4, va * t).unwrap();
        let b = Pose::from_translation(DVec2::new(3.0, 4.0) + vb * t).unwrap();
        distance(&square, &a, &ball, &b)
    };
    let t = bisection_toi(gap, 10.0).unwrap();
    assert!((r.toi - t).abs() < 1e-8, "{r:?} vs {t}");
    assert!(gap(r.toi) < 1e-9 && gap(r.toi * (1.0 - 1e-6)) > 0.0);
    // The normal from the square toward the ball, with the contact points on both.
    let Proximity::Separated(s) = closest_points(
        &square,
        &Pose::<DVec2>::from_angle_translation(core::f64::consts::FRAC_PI_4, va * (r.toi - 1e-3))
            .unwrap(),
        &ball,
        &Pose::from_translation(DVec2::new(3.0, 4.0) + vb * (r.toi - 1e-3)).unwrap(),
    ) else {
        panic!("apart just before")
    };
    assert!((s.normal - r.normal).length() < 1e-2, "{s:?} vs {r:?}");
    assert!((r.point_a - r.point_b).length() < 1e-9);
}
