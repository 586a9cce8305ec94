//! The closed-form ray casts of the dispatch table's ray-cast column (`src/ray.rs`) against
//! independent oracles, for every primitive, bare, rounded and posed, in 2D and 3D, `f32` and
//! `f64`.
//!
//! Oracles:
//! * the GJK ray cast on the same geometry seen through [`GeneralCore`] (support function,
//!   margin, centre and extent forwarded, `Core::General` reported), which never takes a
//!   closed form;
//! * closed forms written here in `f64` for spheres and boxes (the smaller root of the
//!   quadratic, the slab method);
//! * the support function: a hit's point and normal must lie on a supporting plane of the shape
//!   (`n · point = max_{x ∈ shape} n · x`), the normal must face the ray (`n · d ≤ 0`).
//!
//! Tolerances (relative to the shape's size `s`, the ray's length counted in units of its
//! direction): times of impact `1e-7 s` in `f64` and `2e-3 s` in `f32` (the GJK ray cast stops
//! within its tolerance, `1e-10` and `1e-5`, and the time is off by that over the cosine of the
//! incidence; rays hitting within 5° of tangent are compared on the supporting plane only);
//! supporting planes `1e-8 s` and `1e-4 s`; normals on smooth shapes `1e-4` and `2e-2` rad. Hit
//! or miss must agree except for rays that pass within `1e-6 s` (`f64`) or `1e-3 s` (`f32`) of the
//! shape, measured by a GJK distance between the ray's segment and the shape.

use crate::common;

use common::{from_d, to_d, Draw, GeneralCore, Rng, TestVector};
use gjk::{
    full_support, ray_cast_with, Ball, Capsule, CastStatus, Cone, Core, Cuboid, Cylinder,
    Ellipsoid, Point, Polytope, Pose, Posed, Ray, RayCastOptions, RayCastResult, Real, Rounded,
    Segment, Support, Triangle, Vector,
};
use glam::{DVec2, DVec3, Vec2, Vec3};

type Shape<V> = Box<dyn Support<V>>;

/// Whether the shape's boundary is smooth (one normal at every point), so normals compare.
fn smooth(name: &str) -> bool {
    ["ball", "capsule", "rounded box", "ellipsoid", "rounded flat box"]
        .iter()
        .any(|s| name.ends_with(s))
}

fn r<V: Vector>(x: f64) -> V::Real {
    V::Real::from_f64(x)
}

fn is_f32<V: Vector>() -> bool {
    V::Real::EPSILON.to_f64() > 1e-10
}

/// The tolerances: (time of impact and miss margin, supporting plane, normal angle).
fn tolerances<V: Vector>() -> (f64, f64, f64) {
    if is_f32::<V>() {
        (2e-3, 1e-4, 2e-2)
    } else {
        (1e-7, 1e-8, 1e-4)
    }
}

/// One shape of every primitive kind (and its rounded and posed variants), sizes about 1.
fn shapes<V: TestVector>(rng: &mut Rng) -> Vec<(String, Shape<V>)> {
    let dim = V::DIM;
    let p = |rng: &mut Rng| from_d::<V>(rng.in_cube(dim, 1.0));
    let real = |x: f64| r::<V>(x);
    let half = |rng: &mut Rng| from_d::<V>(rng.in_cube(dim, 1.0).abs() + 0.2);
    let margin = real(rng.range(0.1, 0.4));
    let pose = V::pose(rng.rotation(dim), rng.in_cube(dim, 0.5));
    let mut out: Vec<(String, Shape<V>)> = vec![
        ("ball".into(), Box::new(Ball::<V>::new(real(rng.range(0.3, 1.5))).unwrap())),
        ("point".into(), Box::new(Point::new(p(rng)).unwrap())),
        ("segment".into(), Box::new(Segment::new(p(rng), p(rng)).unwrap())),
        ("capsule".into(), Box::new(Capsule::new(p(rng), p(rng), margin).unwrap())),
        ("box".into(), Box::new(Cuboid::new(half(rng)).unwrap())),
        (
            "rounded box".into(),
            Box::new(Rounded::new(Cuboid::new(half(rng)).unwrap(), margin).unwrap()),
        ),
        ("ellipsoid".into(), Box::new(Ellipsoid::new(half(rng)).unwrap())),
        ("triangle".into(), Box::new(Triangle::new(p(rng), p(rng), p(rng)).unwrap())),
        (
            "rounded triangle".into(),
            Box::new(Rounded::new(Triangle::new(p(rng), p(rng), p(rng)).unwrap(), margin).unwrap()),
        ),
        ("posed ball".into(), Box::new(Posed::new(Ball::<V>::new(real(0.7)).unwrap(), pose))),
        (
            "posed capsule".into(),
            Box::new(Posed::new(Capsule::new(p(rng), p(rng), margin).unwrap(), pose)),
        ),
        (
            "posed triangle".into(),
            Box::new(Posed::new(Triangle::new(p(rng), p(rng), p(rng)).unwrap(), pose)),
        ),
    ];
    // A flat box (one half extent zero): a rectangle in 3D, a segment in 2D.
    let mut flat = rng.in_cube(dim, 1.0).abs() + 0.2;
    flat.y = 0.0;
    out.push(("flat box".into(), Box::new(Cuboid::new(from_d::<V>(flat)).unwrap())));
    let flat_rounded = Rounded::new(Cuboid::new(from_d::<V>(flat)).unwrap(), margin).unwrap();
    out.push(("rounded flat box".into(), Box::new(flat_rounded)));
    let count = if dim == 2 { 7 } else { 24 };
    let corners: Vec<V> = (0..count).map(|_| p(rng)).collect();
    out.push(("polytope".into(), Box::new(Polytope::new(corners.clone()).unwrap())));
    let rounded = Rounded::new(Polytope::new(corners).unwrap(), margin).unwrap();
    out.push(("rounded polytope".into(), Box::new(rounded)));
    out
}

/// The 3D-only primitives.
fn round_shapes<V: TestVector + gjk::Vector3>(rng: &mut Rng) -> Vec<(String, Shape<V>)> {
    let mut size = || r::<V>(rng.range(0.3, 1.5));
    vec![
        ("cylinder".into(), Box::new(Cylinder::<V>::new(size(), size()).unwrap()) as Shape<V>),
        ("cone".into(), Box::new(Cone::<V>::new(size(), size()).unwrap())),
        ("flat cylinder".into(), Box::new(Cylinder::<V>::new(r::<V>(0.0), size()).unwrap())),
        ("flat cone".into(), Box::new(Cone::<V>::new(r::<V>(0.0), size()).unwrap())),
        ("needle cone".into(), Box::new(Cone::<V>::new(size(), r::<V>(0.0)).unwrap())),
        ("rounded cylinder".into(), {
            let c = Cylinder::<V>::new(size(), size()).unwrap();
            Box::new(Rounded::new(c, size()).unwrap())
        }),
    ]
}

/// The largest support value of the whole shape (margin included) along the unit `n`.
fn support_value<V: Vector>(shape: &dyn Support<V>, n: DVec3) -> f64 {
    to_d(full_support(shape, from_d::<V>(n))).dot(n)
}

/// How far the segment from `a` to `b` (world) passes from the shape at `pose`.
fn gap_to_segment<V: Vector>(shape: &dyn Support<V>, pose: &Pose<V>, a: V, b: V) -> f64 {
    let general = GeneralCore(shape);
    match Segment::new(a, b) {
        Ok(s) => gjk::distance(&general, pose, &s, &Pose::IDENTITY).to_f64(),
        Err(_) => 0.0,
    }
}

/// Counts of what was compared, to make sure the comparison is not vacuous.
#[derive(Default, Debug)]
struct Tally {
    hits: usize,
    misses: usize,
    inside: usize,
    grazing: usize,
    closed_form: usize,
}

/// Checks one ray: the closed-form answer against the GJK ray cast and the supporting plane.
#[allow(clippy::too_many_arguments)]
fn check_ray<V: TestVector>(
    what: &str,
    shape: &dyn Support<V>,
    pose: &Pose<V>,
    ray: &Ray<V>,
    max_toi: f64,
    size: f64,
    tally: &mut Tally,
) {
    let (toi_tol, plane_tol, angle_tol) = tolerances::<V>();
    let options = RayCastOptions::default();
    let fast = ray_cast_with(shape, pose, ray, r::<V>(max_toi), &options);
    let slow = ray_cast_with(&GeneralCore(shape), pose, ray, r::<V>(max_toi), &options);
    let context = || format!("{} {what}: ray {ray:?}\n fast {fast:?}\n slow {slow:?}", V::NAME);
    for x in [fast.hit.toi, fast.hit.point.component(0), fast.hit.normal.component(0)] {
        assert!(!x.to_f64().is_nan(), "NaN: {}", context());
    }
    if fast.iterations == 0 && fast.status == CastStatus::Hit {
        tally.closed_form += 1;
    }
    let length = to_d(ray.direction).length();
    if fast.status != slow.status {
        // Only a ray that grazes the shape (or an origin on its surface) may get either verdict.
        let end = ray.point_at(r::<V>(max_toi));
        let gap = gap_to_segment(shape, pose, ray.origin, end);
        let from_origin = gap_to_segment(shape, pose, ray.origin, ray.origin);
        let grazing = gap <= toi_tol * size || from_origin <= toi_tol * size;
        assert!(grazing, "verdicts differ {gap}: {}", context());
        tally.grazing += 1;
        return;
    }
    match fast.status {
        CastStatus::InitiallyOverlapping => {
            tally.inside += 1;
            assert_eq!(fast.hit.toi, r::<V>(0.0), "{}", context());
            assert_eq!(fast.hit.normal, V::ZERO, "{}", context());
            assert_eq!(fast.hit.point, ray.origin, "{}", context());
        }
        CastStatus::NoHit => {
            tally.misses += 1;
            assert_eq!(fast.hit.toi, r::<V>(max_toi), "{}", context());
        }
        CastStatus::Hit => {
            tally.hits += 1;
            let (n, point) = (to_d(fast.hit.normal), to_d(fast.hit.point));
            assert!((n.length() - 1.0).abs() < 1e-5, "normal not unit: {}", context());
            let d = to_d(ray.direction) / length;
            assert!(n.dot(d) <= 1e-6, "normal faces away: {}", context());
            let local_n = common::to_local(pose, n + to_d(pose.translation()));
            let plane = support_value(shape, local_n) - common::to_local(pose, point).dot(local_n);
            assert!(
                plane.abs() <= plane_tol * size.max(1.0) * 10.0,
                "off plane {plane}: {}",
                context()
            );
            let incidence = -to_d(slow.hit.normal).dot(d);
            if incidence > 0.09 {
                let dt = (fast.hit.toi.to_f64() - slow.hit.toi.to_f64()).abs() * length;
                assert!(dt <= toi_tol * size.max(1.0), "toi differs by {dt}: {}", context());
                if smooth(what) {
                    let angle = n.angle_between(to_d(slow.hit.normal));
                    assert!(angle <= angle_tol, "normal differs by {angle}: {}", context());
                }
            }
            assert!(fast.hit.toi.to_f64() <= max_toi, "{}", context());
        }
        other => panic!("unexpected status {other:?}: {}", context()),
    }
}

/// Random rays at every shape: from outside toward the shape (half hit), from inside, short
/// rays that stop before the shape, and zero directions.
fn run<V: TestVector>(seed: u64, extra: Vec<(String, Shape<V>)>) -> Tally {
    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    let mut all = shapes::<V>(&mut rng);
    all.extend(extra);
    for (name, shape) in &all {
        let size = 2.0 * (shape.extent().to_f64() + shape.margin().to_f64()) + 0.1;
        for _ in 0..150 {
            let pose = V::pose(rng.rotation(V::DIM), rng.in_cube(V::DIM, 5.0));
            let centre = common::to_world(&pose, to_d(shape.center()));
            let from = centre + rng.direction(V::DIM) * size * rng.range(1.5, 3.0);
            let aim = centre + rng.in_cube(V::DIM, 0.6 * size);
            let scale = rng.range(0.3, 3.0);
            let direction = (aim - from) * scale;
            let ray = Ray::new(from_d::<V>(from), from_d::<V>(direction));
            check_ray(name, shape.as_ref(), &pose, &ray, 10.0, size, &mut tally);
            // Too short to arrive, and from inside.
            check_ray(name, shape.as_ref(), &pose, &ray, 0.2 / scale, size, &mut tally);
            let inner = centre + rng.in_cube(V::DIM, 0.1 * size);
            let inside = Ray::new(from_d::<V>(inner), from_d::<V>(direction));
            check_ray(name, shape.as_ref(), &pose, &inside, 10.0, size, &mut tally);
            let still = Ray::new(from_d::<V>(from), V::ZERO);
            check_ray(name, shape.as_ref(), &pose, &still, 10.0, size, &mut tally);
        }
    }
    tally
}

fn assert_covered(tally: &Tally) {
    assert!(tally.hits > 600 && tally.misses > 1000 && tally.inside > 500, "{tally:?}");
    assert!(tally.closed_form > 500, "{tally:?}");
    assert!(tally.grazing < tally.hits / 50, "{tally:?}");
}

#[test]
fn every_primitive_agrees_with_the_gjk_ray_cast_2d() {
    assert_covered(&run::<DVec2>(21, Vec::new()));
    assert_covered(&run::<Vec2>(22, Vec::new()));
}

#[test]
fn every_primitive_agrees_with_the_gjk_ray_cast_3d() {
    let mut rng = Rng::new(99);
    assert_covered(&run::<DVec3>(23, round_shapes(&mut rng)));
    assert_covered(&run::<Vec3>(24, round_shapes(&mut rng)));
}

#[test]
fn the_primitives_take_the_closed_forms() {
    // The GJK ray cast makes at least one support call; a closed form none.
    let mut rng = Rng::new(5);
    let mut three = shapes::<DVec3>(&mut rng);
    three.extend(round_shapes(&mut rng));
    let general = ["rounded polytope", "rounded triangle", "rounded cylinder"];
    for (name, shape) in &three {
        let ray = Ray::new(DVec3::new(-20.0, 0.1, 0.2), DVec3::X);
        let cast = ray_cast_with(shape.as_ref(), &Pose::IDENTITY, &ray, 100.0, &Default::default());
        let closed = cast.iterations == 0;
        assert_eq!(closed, !general.contains(&name.as_str()), "{name}: {cast:?}");
    }
    // In 2D every primitive has a closed form, rounded polygons and triangles included.
    for (name, shape) in shapes::<DVec2>(&mut rng) {
        let ray = Ray::new(DVec2::new(-20.0, 0.1), DVec2::X);
        let cast = ray_cast_with(shape.as_ref(), &Pose::IDENTITY, &ray, 100.0, &Default::default());
        assert_eq!(cast.iterations, 0, "{name}: {cast:?}");
    }
}

/// The sphere's first hit in closed form, `f64`: the smaller root of `|o + t d|² = r²`.
fn sphere_toi(o: DVec3, d: DVec3, radius: f64) -> Option<f64> {
    let (a, b, c) = (d.dot(d), o.dot(d), o.dot(o) - radius * radius);
    let disc = b * b - a * c;
    (disc >= 0.0 && b < 0.0).then(|| c / (-b + disc.sqrt()))
}

/// The box's first hit by the slab method, `f64`, with the entered face's axis.
fn box_toi(o: DVec3, d: DVec3, h: DVec3, dim: usize) -> Option<(f64, usize)> {
    let (mut enter, mut exit, mut axis) = (0.0_f64, f64::INFINITY, None);
    for i in 0..dim {
        if d[i] == 0.0 {
            if o[i].abs() > h[i] {
                return None;
            }
            continue;
        }
        let (t0, t1) = ((-h[i] - o[i]) / d[i], (h[i] - o[i]) / d[i]);
        if t0.min(t1) > enter {
            (enter, axis) = (t0.min(t1), Some(i));
        }
        exit = exit.min(t0.max(t1));
    }
    (enter <= exit).then_some((enter, axis?))
}

fn closed_forms<V: TestVector>(seed: u64) {
    let mut rng = Rng::new(seed);
    let tol = if is_f32::<V>() { 1e-5 } else { 1e-12 };
    let mut hits = 0;
    for _ in 0..2000 {
        let radius = rng.range(0.2, 3.0);
        let h = rng.in_cube(V::DIM, 2.0).abs() + 0.1;
        let o = rng.direction(V::DIM) * rng.range(4.0, 8.0);
        let d = (rng.in_cube(V::DIM, 2.0) - o) * rng.range(0.2, 2.0);
        let (ov, dv) = (from_d::<V>(o), from_d::<V>(d));
        // Exactly representable inputs, so both sides solve the same problem.
        let (o, d) = (to_d(ov), to_d(dv));
        let ray = Ray::new(ov, dv);
        let ball = Ball::<V>::new(r::<V>(radius)).unwrap();
        let got = ray_cast_with(&ball, &Pose::IDENTITY, &ray, r::<V>(100.0), &Default::default());
        let radius = ball.radius().to_f64();
        match sphere_toi(o, d, radius) {
            Some(t) => {
                assert_eq!(got.status, CastStatus::Hit, "{got:?}");
                let scale = d.length() * t + 1.0;
                assert!(
                    (got.hit.toi.to_f64() - t).abs() * d.length() <= tol * scale * 4.0,
                    "sphere {t}: {got:?}"
                );
                let want = (o + d * t) / radius;
                assert!(to_d(got.hit.normal).angle_between(want) <= tol.sqrt(), "{got:?}");
                hits += 1;
            }
            None => assert_ne!(got.status, CastStatus::Hit, "sphere miss: {got:?}"),
        }
        let cube = Cuboid::new(from_d::<V>(h)).unwrap();
        let h = to_d(cube.half_extents());
        let got = ray_cast_with(&cube, &Pose::IDENTITY, &ray, r::<V>(100.0), &Default::default());
        match box_toi(o, d, h, V::DIM) {
            Some((t, axis)) => {
                assert_eq!(got.status, CastStatus::Hit, "{got:?}");
                assert!(
                    (got.hit.toi.to_f64() - t).abs() * d.length() <= tol * 16.0,
                    "box {t}: {got:?}"
                );
                let mut want = DVec3::ZERO;
                want[axis] = -d[axis].signum();
                assert_eq!(to_d(got.hit.normal), want, "{got:?}");
                hits += 1;
            }
            None => assert_ne!(got.status, CastStatus::Hit, "box miss: {got:?}"),
        }
    }
    assert!(hits > 1000, "{hits}");
}

#[test]
fn spheres_and_boxes_match_their_closed_forms() {
    closed_forms::<DVec3>(31);
    closed_forms::<Vec3>(32);
    closed_forms::<DVec2>(33);
    closed_forms::<Vec2>(34);
}

fn special_rays<V: TestVector>() {
    let at =
        |x: f64, y: f64, z: f64| from_d::<V>(DVec3::new(x, y, if V::DIM == 3 { z } else { 0.0 }));
    let here = Pose::IDENTITY;
    let cube = Cuboid::new(at(1.0, 1.0, 1.0)).unwrap();
    let ball = Ball::<V>::new(r::<V>(1.0)).unwrap();
    let capsule = Capsule::new(at(0.0, -1.0, 0.0), at(0.0, 1.0, 0.0), r::<V>(0.5)).unwrap();
    let rounded = Rounded::new(cube, r::<V>(0.25)).unwrap();
    let shapes: [(&str, &dyn Support<V>); 4] =
        [("cube", &cube), ("ball", &ball), ("capsule", &capsule), ("rounded cube", &rounded)];
    let cast = |s: &dyn Support<V>, o: V, d: V, max: f64| {
        ray_cast_with(s, &here, &Ray::new(o, d), r::<V>(max), &RayCastOptions::default())
    };
    let same = |what: &str, s: &dyn Support<V>, o: V, d: V, max: f64| -> RayCastResult<V> {
        let (f, g) = (cast(s, o, d, max), cast(&GeneralCore(s), o, d, max));
        assert_eq!(f.status, g.status, "{what}: {f:?} vs {g:?}");
        let (tol, _, _) = tolerances::<V>();
        assert!((f.hit.toi - g.hit.toi).to_f64().abs() <= tol * 10.0, "{what}: {f:?} vs {g:?}");
        f
    };
    for (name, s) in shapes {
        // Inside, on the surface (the face of the cube, the ball's pole), zero direction.
        let r0 = same(name, s, at(0.1, 0.2, 0.0), at(1.0, 0.0, 0.0), 10.0);
        assert_eq!(r0.status, CastStatus::InitiallyOverlapping);
        let top = full_support(s, at(0.0, 1.0, 0.0));
        let r1 = same(name, s, top, at(0.0, 1.0, 0.0), 10.0);
        assert_eq!((r1.status, r1.hit.normal), (CastStatus::InitiallyOverlapping, V::ZERO));
        let r2 = same(name, s, at(5.0, 0.0, 0.0), V::ZERO, 10.0);
        assert_eq!((r2.status, r2.hit.toi), (CastStatus::NoHit, r::<V>(10.0)));
        let r3 = same(name, s, at(0.0, 0.0, 0.0), V::ZERO, 10.0);
        assert_eq!(r3.status, CastStatus::InitiallyOverlapping);
        // Head on, with max_toi just short and just long enough.
        let far = at(-5.0, 0.0, 0.0);
        let hit = same(name, s, far, at(2.0, 0.0, 0.0), 10.0);
        assert_eq!((hit.status, hit.iterations), (CastStatus::Hit, 0), "{name}");
        assert!((to_d(hit.hit.normal) - DVec3::NEG_X).length() < 1e-6, "{name}: {hit:?}");
        let t = hit.hit.toi.to_f64();
        assert_eq!(cast(s, far, at(2.0, 0.0, 0.0), t * 0.999).status, CastStatus::NoHit);
        assert_eq!(cast(s, far, at(2.0, 0.0, 0.0), t * 1.001).status, CastStatus::Hit);
        // Pointing away.
        assert_eq!(same(name, s, far, at(-1.0, 0.0, 0.0), 10.0).status, CastStatus::NoHit);
        // Bad input: non-finite origin or direction, negative or NaN max_toi.
        let nan = r::<V>(f64::NAN);
        for (o, d, max) in [
            (at(f64::NAN, 0.0, 0.0), at(1.0, 0.0, 0.0), r::<V>(1.0)),
            (far, at(f64::INFINITY, 0.0, 0.0), r::<V>(1.0)),
            (far, at(1.0, 0.0, 0.0), r::<V>(-1.0)),
            (far, at(1.0, 0.0, 0.0), nan),
        ] {
            let got = ray_cast_with(s, &here, &Ray::new(o, d), max, &RayCastOptions::default());
            assert_eq!(got.status, CastStatus::InvalidInput, "{name}: {got:?}");
            assert!(!got.hit.toi.to_f64().is_nan());
        }
    }
    // Parallel to a face, in its plane: touching all along, hit where the face begins.
    let face = same("face plane", &cube, at(-5.0, 1.0, 0.3), at(1.0, 0.0, 0.0), 10.0);
    assert_eq!(face.status, CastStatus::Hit);
    assert!((face.hit.toi.to_f64() - 4.0).abs() < 1e-4, "{face:?}");
    // Grazing an edge (2D: a corner) and a corner exactly.
    let edge = same("edge", &cube, at(-5.0, 1.0, 1.0), at(1.0, 0.0, 0.0), 10.0);
    assert_eq!(edge.status, CastStatus::Hit);
    let corner = cast(&cube, at(-4.0, -2.0, -2.0), at(1.0, 1.0, 1.0), 10.0);
    if V::DIM == 3 {
        assert_eq!(corner.status, CastStatus::Hit, "{corner:?}");
        assert!((corner.hit.toi.to_f64() - 3.0).abs() < 1e-4, "{corner:?}");
    }
    // The rounded cube's rounded corner: the ray along the diagonal meets the corner ball.
    let diagonal = at(1.0, 1.0, 1.0);
    let rc = cast(&rounded, diagonal * r::<V>(5.0), -diagonal, 10.0);
    let corner_distance = to_d(diagonal).length() * 5.0 - to_d(diagonal).length() - 0.25;
    let want = corner_distance / to_d(diagonal).length();
    assert!((rc.hit.toi.to_f64() - want).abs() < 1e-5, "{rc:?} vs {want}");
    // A hollow cast exits where the GJK path says.
    let hollow = RayCastOptions { solid: false, ..Default::default() };
    for (name, s) in shapes {
        let o = at(0.1, 0.2, 0.0);
        let f = ray_cast_with(s, &here, &Ray::new(o, at(1.0, 0.5, 0.0)), r::<V>(10.0), &hollow);
        let g = ray_cast_with(
            &GeneralCore(s),
            &here,
            &Ray::new(o, at(1.0, 0.5, 0.0)),
            r::<V>(10.0),
            &hollow,
        );
        assert_eq!(f.status, CastStatus::InitiallyOverlapping, "{name}: {f:?}");
        assert!((f.hit.toi - g.hit.toi).to_f64().abs() < 1e-4, "{name}: {f:?} vs {g:?}");
        assert!(
            to_d(f.hit.normal).angle_between(to_d(g.hit.normal)) < 1e-2,
            "{name}: {f:?} vs {g:?}"
        );
    }
}

#[test]
fn inside_on_the_surface_parallel_grazing_zero_and_bad_rays() {
    special_rays::<DVec3>();
    special_rays::<Vec3>();
    special_rays::<DVec2>();
    special_rays::<Vec2>();
}

fn scales<V: TestVector>(factors: &[f64]) {
    for &k in factors {
        let at = |x: f64, y: f64| from_d::<V>(DVec3::new(x, y, 0.0) * k);
        let shapes: Vec<(&str, Shape<V>)> = vec![
            ("ball", Box::new(Ball::<V>::new(r::<V>(k)).unwrap())),
            ("box", Box::new(Cuboid::new(at(1.0, 0.5)).unwrap())),
            (
                "capsule",
                Box::new(Capsule::new(at(0.0, -1.0), at(0.0, 1.0), r::<V>(0.5 * k)).unwrap()),
            ),
            (
                "rounded box",
                Box::new(
                    Rounded::new(Cuboid::new(at(1.0, 0.5)).unwrap(), r::<V>(0.2 * k)).unwrap(),
                ),
            ),
            (
                "ellipsoid",
                Box::new(Ellipsoid::new(at(1.0, 0.5) + from_d::<V>(DVec3::Z * k)).unwrap()),
            ),
            (
                "triangle",
                Box::new(Triangle::new(at(-1.0, -1.0), at(1.0, -1.0), at(0.0, 1.0)).unwrap()),
            ),
        ];
        for (name, s) in &shapes {
            let pose = V::pose(glam::DQuat::from_rotation_z(0.3), DVec3::new(3.0, -2.0, 0.0) * k);
            let origin = at(-10.0, 0.1) + pose.translation();
            let ray = Ray::new(origin, at(1.0, 0.0));
            let got = ray_cast_with(s.as_ref(), &pose, &ray, r::<V>(100.0), &Default::default());
            let general = ray_cast_with(
                &GeneralCore(s.as_ref()),
                &pose,
                &ray,
                r::<V>(100.0),
                &Default::default(),
            );
            assert_eq!(got.status, CastStatus::Hit, "{name} at {k}: {got:?}");
            assert_eq!(got.status, general.status, "{name} at {k}: {got:?} vs {general:?}");
            let (t, g) = (got.hit.toi.to_f64(), general.hit.toi.to_f64());
            assert!((t - g).abs() <= 1e-3 * g, "{name} at {k}: {t} vs {g}");
            assert!(
                to_d(got.hit.normal).is_finite()
                    && (to_d(got.hit.normal).length() - 1.0).abs() < 1e-5
            );
        }
    }
}

#[test]
fn huge_and_tiny_scales() {
    scales::<DVec3>(&[1e-100, 1e-8, 1.0, 1e8, 1e100]);
    scales::<DVec2>(&[1e-100, 1e-8, 1.0, 1e8, 1e100]);
    scales::<Vec3>(&[1e-12, 1e-4, 1.0, 1e4, 1e12]);
    scales::<Vec2>(&[1e-12, 1e-4, 1.0, 1e4, 1e12]);
}

#[test]
fn cores_report_the_new_kinds() {
    let t = Triangle::new(DVec3::ZERO, DVec3::X, DVec3::Y).unwrap();
    assert_eq!(t.core(), Core::Triangle([DVec3::ZERO, DVec3::X, DVec3::Y]));
    let moved = Posed::new(t, Pose::from_translation(DVec3::Z).unwrap());
    assert_eq!(moved.core(), Core::Triangle([DVec3::Z, DVec3::X + DVec3::Z, DVec3::Y + DVec3::Z]));
    let c = Cylinder::<DVec3>::new(1.0, 0.5).unwrap();
    assert_eq!(c.core(), Core::Cylinder { half_height: 1.0, radius: 0.5 });
    let e = Ellipsoid::new(DVec2::new(1.0, 2.0)).unwrap();
    assert_eq!(e.core(), Core::Ellipsoid(DVec2::new(1.0, 2.0)));
    // Large hulls stay general (the face scan would cost more than GJK's climb).
    let mut rng = Rng::new(3);
    let many: Vec<DVec3> = (0..500).map(|_| rng.direction(3)).collect();
    assert_eq!(Polytope::new(many).unwrap().core(), Core::General);
}
