//! Every wrapper × every shortcut × every query against the plain support-function path.
//!
//! The dispatch table (`crates/gjk/src/dispatch.rs`) sends a pair to a kernel from the cores
//! the shapes report (`Support::core`). A wrapper that reports its inner shape's core without
//! accounting for what it does to the shape (a moved box forwarding `Core::Box` unchanged, say)
//! makes the kernel answer for the wrong shape, and nothing else would notice. Here each shape
//! of each core kind, bare and behind each wrapper, meets every other, and each query's answer
//! is compared with the same query on the same geometry seen through `GeneralCore`, which
//! reports `Core::General`: that path never takes a shortcut (GJK, EPA, the GJK ray cast).
//!
//! Compared quantities are the ones that are unique for convex shapes: the verdict (away from
//! touching), the distance, the separation normal, the penetration depth, the time of impact.
//! Tolerances: 1e-6 of the pair's size for distances and depths (the general path on curved
//! cores converges to the default tolerance, far tighter), 1e-4 rad for normals.

use crate::common;

use common::{from_d, Draw, GeneralCore, Rng, TestVector};
use gjk::{
    contact, distance, intersects, ray_cast, shape_cast, Ball, Capsule, CastStatus, Core, Cuboid,
    Ellipsoid, MinkowskiSum, Point, Polytope, Pose, Posed, Proximity, Real, Rounded, Segment,
    Support, Triangle, Vector,
};
use glam::{DVec2, DVec3};

type Shape<V> = Box<dyn Support<V>>;

/// One shape of each core kind (and general ones), in the frame's dimension.
fn bases<V: TestVector>(rng: &mut Rng) -> Vec<(&'static str, Shape<V>)> {
    let dim = V::DIM;
    let point = |rng: &mut Rng, h: f64| from_d::<V>(rng.in_cube(dim, h));
    let mut shapes: Vec<(&'static str, Shape<V>)> = vec![
        ("ball", Box::new(Ball::<V>::new(V::Real::from_f64(rng.range(0.3, 1.0))).unwrap())),
        ("point", Box::new(Point::new(point(rng, 0.3)).unwrap())),
        ("segment", Box::new(Segment::new(point(rng, 1.0), point(rng, 1.0)).unwrap())),
        (
            "capsule",
            Box::new(
                Capsule::new(point(rng, 1.0), point(rng, 1.0), V::Real::from_f64(0.3)).unwrap(),
            ),
        ),
        ("box", Box::new(Cuboid::new(from_d::<V>(rng.in_cube(dim, 1.0).abs() + 0.2)).unwrap())),
        (
            "ellipsoid",
            Box::new(Ellipsoid::new(from_d::<V>(rng.in_cube(dim, 1.0).abs() + 0.3)).unwrap()),
        ),
        (
            "triangle",
            Box::new(Triangle::new(point(rng, 1.0), point(rng, 1.0), point(rng, 1.0)).unwrap()),
        ),
    ];
    // A polytope: a small polygon in 2D (its core is a polygon), a small hull in 3D (its core
    // is its face planes).
    let corners = (0..6).map(|_| point(rng, 1.0)).collect();
    shapes.push(("polytope", Box::new(Polytope::new(corners).unwrap())));
    shapes
}

/// Every wrapper around `shape`, the bare shape first.
fn wrapped<V: TestVector>(rng: &mut Rng, make: impl Fn() -> Shape<V>) -> Vec<(String, Shape<V>)> {
    let pose = V::pose(rng.rotation(V::DIM), rng.in_cube(V::DIM, 2.0));
    let shift = V::pose(glam::DQuat::IDENTITY, rng.in_cube(V::DIM, 2.0));
    let margin = V::Real::from_f64(rng.range(0.05, 0.4));
    let tip = Point::new(from_d::<V>(rng.in_cube(V::DIM, 0.5))).unwrap();
    vec![
        ("bare".into(), make()),
        ("rounded".into(), Box::new(Rounded::new(make(), margin).unwrap())),
        ("posed".into(), Box::new(Posed::new(make(), pose))),
        ("shifted".into(), Box::new(Posed::new(make(), shift))),
        ("posed identity".into(), Box::new(Posed::new(make(), Pose::IDENTITY))),
        ("rounded posed".into(), Box::new(Rounded::new(Posed::new(make(), pose), margin).unwrap())),
        ("posed rounded".into(), Box::new(Posed::new(Rounded::new(make(), margin).unwrap(), pose))),
        ("sum with point".into(), Box::new(MinkowskiSum::new(make(), tip))),
        ("boxed twice".into(), Box::new(make())),
    ]
}

/// All shapes under test: every base kind behind every wrapper.
fn shapes<V: TestVector>(seed: u64) -> Vec<(String, Shape<V>)> {
    let mut out = Vec::new();
    let base_count = bases::<V>(&mut Rng::new(seed)).len();
    for kind in 0..base_count {
        let mut rng = Rng::new(seed + 1 + kind as u64);
        let name = bases::<V>(&mut Rng::new(seed))[kind].0;
        let make = || bases::<V>(&mut Rng::new(seed)).swap_remove(kind).1;
        for (wrapper, shape) in wrapped::<V>(&mut rng, make) {
            out.push((format!("{wrapper} {name}"), shape));
        }
    }
    out
}

/// The disagreements found, as readable lines.
#[derive(Default)]
struct Report {
    failures: Vec<String>,
    failed: usize,
    checks: usize,
}

impl Report {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.checks += 1;
        if !ok {
            self.failed += 1;
            if self.failures.len() < 40 {
                self.failures.push(what());
            }
        }
    }
}

fn close(a: f64, b: f64, size: f64) -> bool {
    (a - b).abs() <= 1e-6 * size.max(1.0)
}

fn angle<V: Vector>(a: V, b: V) -> f64 {
    let (a, b) = (common::to_d(a), common::to_d(b));
    a.angle_between(b)
}

/// Every query on `a` at `pose_a` against `b` at `pose_b`, shortcut path against general path.
fn compare<V: TestVector>(
    report: &mut Report,
    what: &str,
    (a, pose_a): (&dyn Support<V>, Pose<V>),
    (b, pose_b): (&dyn Support<V>, Pose<V>),
    rng: &mut Rng,
) {
    let (ga, gb) = (GeneralCore(a), GeneralCore(b));
    let size = 10.0;
    let r = |x: V::Real| x.to_f64();
    let slow = gjk::closest_points(&ga, &pose_a, &gb, &pose_b);
    let gap = match slow {
        Proximity::Separated(s) => r(s.distance),
        Proximity::Intersecting => 0.0,
    };
    let slow_depth = contact(&ga, &pose_a, &gb, &pose_b, V::Real::ZERO).map(|c| r(c.depth));
    // Near touching, either verdict is right: compare only clear cases.
    let clear = gap > 1e-6 * size || slow_depth.is_some_and(|d| d > 1e-6 * size);
    if clear {
        let verdict = intersects(a, &pose_a, b, &pose_b);
        report
            .check(verdict == (gap == 0.0), || format!("{what}: intersects {verdict}, gap {gap}"));
    }
    let fast_distance = r(distance(a, &pose_a, b, &pose_b));
    report.check(close(fast_distance, gap, size), || {
        format!("{what}: distance {fast_distance} vs {gap}")
    });
    // `closest_points` answers a projection or closed form without GJK's loop state, and
    // must give what the full query (`closest_points_with`, whose first GJK step takes the
    // same projection) gives, to the bit.
    let quick = gjk::closest_points(a, &pose_a, b, &pose_b);
    let options = gjk::GjkOptions::default();
    let full = Proximity::from(&gjk::closest_points_with(a, &pose_a, b, &pose_b, &options));
    report.check(quick == full, || format!("{what}: closest_points {quick:?} vs {full:?}"));
    match (quick, slow) {
        (Proximity::Separated(f), Proximity::Separated(s)) => {
            report.check(close(r(f.distance), r(s.distance), size), || {
                format!("{what}: closest_points distance {} vs {}", f.distance, s.distance)
            });
            if gap > 1e-4 {
                let turn = angle(f.normal, s.normal);
                report.check(turn < 1e-4, || {
                    format!("{what}: normal {:?} vs {:?}", f.normal, s.normal)
                });
            }
        }
        (f, s) => {
            report.check(!clear || f == s, || format!("{what}: closest_points {f:?} vs {s:?}"))
        }
    }
    let fast_depth = contact(a, &pose_a, b, &pose_b, V::Real::ZERO).map(|c| r(c.depth));
    if clear {
        let same = match (fast_depth, slow_depth) {
            (Some(f), Some(s)) => close(f, s, size),
            (None, None) => true,
            _ => false,
        };
        report.check(same, || format!("{what}: contact depth {fast_depth:?} vs {slow_depth:?}"));
    }
    let prediction = V::Real::from_f64(0.5);
    let near = |s: &dyn Support<V>, t: &dyn Support<V>| {
        contact(s, &pose_a, t, &pose_b, prediction).map(|c| r(c.depth))
    };
    let (fast_near, slow_near) = (near(a, b), near(&ga, &gb));
    if (gap - 0.5).abs() > 1e-6 * size && clear {
        let same = match (fast_near, slow_near) {
            (Some(f), Some(s)) => close(f, s, size),
            (None, None) => true,
            _ => false,
        };
        report.check(same, || format!("{what}: predicted contact {fast_near:?} vs {slow_near:?}"));
    }
    // A ray from far away through B's centre (on to twice as far: a ray that ends right at a
    // point or segment's hit would only test rounding at the limit), and B swept toward A.
    let toward = pose_b.transform_point(b.center());
    let origin = toward + from_d::<V>(rng.direction(V::DIM) * 8.0);
    let direction = toward - origin;
    let one = V::Real::ONE;
    let ray = |s: &dyn Support<V>| {
        ray_cast(s, &pose_b, &gjk::Ray::new(origin, direction), V::Real::TWO)
            .map(|h| (r(h.toi), common::to_d(h.point), common::to_d(h.normal)))
    };
    let (fast_ray, slow_ray) = (ray(b), ray(&gb));
    let same_ray = match (fast_ray, slow_ray) {
        (Some(f), Some(s)) => close(f.0 * 8.0, s.0 * 8.0, size),
        (None, None) => true,
        _ => false,
    };
    report.check(same_ray, || format!("{what}: ray toi {fast_ray:?} vs {slow_ray:?}"));
    if let Some((_, point, normal)) = fast_ray.filter(|h| h.0 > 0.0) {
        // The hit's normal is the shape's: its plane through the hit point supports the shape
        // (the support function along it reaches no farther), whatever path answered.
        let local = |v: glam::DVec3| from_d::<V>(v);
        let n_local = pose_b.inverse_transform_vector(local(normal));
        let reach = common::to_d(pose_b.transform_point(gjk::full_support(b, n_local)));
        let off = (reach - point).dot(normal);
        let unit = (normal.length() - 1.0).abs() < 1e-9;
        report.check(off.abs() <= 1e-6 * size && unit, || {
            format!("{what}: ray normal {normal} is off the supporting plane by {off}")
        });
    }
    let velocity = pose_a.translation() - pose_b.translation();
    let cast = |s: &dyn Support<V>, t: &dyn Support<V>| {
        shape_cast(s, &pose_a, V::ZERO, t, &pose_b, velocity, one)
    };
    let (fast_cast, slow_cast) = (cast(a, b), cast(&ga, &gb));
    let hit = |c: &gjk::ShapeCastResult<V>| c.status == CastStatus::Hit;
    if hit(&fast_cast) && hit(&slow_cast) {
        let (f, s) = (r(fast_cast.toi), r(slow_cast.toi));
        let length = r(velocity.length()).max(1.0);
        report
            .check(close(f * length, s * length, size), || format!("{what}: cast toi {f} vs {s}"));
    }
}

fn run<V: TestVector>(seed: u64, poses_per_pair: usize) -> Report {
    let shapes = shapes::<V>(seed);
    let mut rng = Rng::new(seed ^ 0xD15_9A7C);
    let mut report = Report::default();
    for (name_a, a) in &shapes {
        for (name_b, b) in &shapes {
            for _ in 0..poses_per_pair {
                let pose_a = V::pose(rng.rotation(V::DIM), rng.in_cube(V::DIM, 1.0));
                let pose_b = V::pose(rng.rotation(V::DIM), rng.in_cube(V::DIM, 3.0));
                let what = format!("{} {name_a} vs {name_b}", V::NAME);
                compare::<V>(
                    &mut report,
                    &what,
                    (a.as_ref(), pose_a),
                    (b.as_ref(), pose_b),
                    &mut rng,
                );
            }
        }
    }
    report
}

fn assert_clean(report: Report) {
    assert!(report.checks > 10_000, "too few checks: {}", report.checks);
    assert!(
        report.failed == 0,
        "{} of {} checks disagree with the general path (first ones):\n{}",
        report.failed,
        report.checks,
        report.failures.join("\n")
    );
}

#[test]
fn every_wrapper_and_shortcut_agrees_with_the_general_path_in_2d() {
    assert_clean(run::<DVec2>(7, 3));
}

#[test]
fn every_wrapper_and_shortcut_agrees_with_the_general_path_in_3d() {
    assert_clean(run::<DVec3>(11, 2));
}

#[test]
fn every_core_kind_is_covered() {
    // The table's rows are only tested if the shapes above report every kind.
    fn kinds<V: TestVector>(shapes: Vec<(String, Shape<V>)>) -> Vec<&'static str> {
        let mut seen: Vec<&'static str> = shapes
            .iter()
            .map(|(_, s)| match s.core() {
                Core::Point(_) => "point",
                Core::Segment(_) => "segment",
                Core::Box(_) => "box",
                Core::Polygon(_) => "polygon",
                Core::Polytope(_) => "polytope",
                Core::Triangle(_) => "triangle",
                Core::Ellipsoid(_) => "ellipsoid",
                Core::Cylinder { .. } => "cylinder",
                Core::Cone { .. } => "cone",
                Core::General => "general",
            })
            .collect();
        seen.sort_unstable();
        seen.dedup();
        seen
    }
    let two = ["box", "ellipsoid", "general", "point", "polygon", "segment", "triangle"];
    assert_eq!(kinds(shapes::<DVec2>(7)), two);
    let three = ["box", "ellipsoid", "general", "point", "polytope", "segment", "triangle"];
    assert_eq!(kinds(shapes::<DVec3>(11)), three);
}
