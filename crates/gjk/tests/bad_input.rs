//! Bad and extreme input: constructors refuse what is meaningless with the right
//! [`ShapeError`] and a message naming the input; queries on extreme but valid input (1e-300 and
//! 1e300 coordinates and sizes, coincident shapes, zero directions, odd options) never panic nor
//! return NaN; the iteration cap is honoured.

use gjk::{
    full_support, Ball, Capsule, Cone, Cuboid, Cylinder, Ellipsoid, GjkOptions, GjkResult, Goal,
    MinkowskiSum, Pair, Point, Polytope, Pose, Posed, Rotation2, Rounded, Segment, ShapeError,
    Support, Termination, Triangle, Vector, WarmStart,
};
use glam::{DQuat, DVec2, DVec3, Quat, Vec2, Vec3};

const NAN: f64 = f64::NAN;
const INF: f64 = f64::INFINITY;

/// Checks the variant (by its `what`, when it has one) and that the message names the input.
fn refused<T: core::fmt::Debug>(result: Result<T, ShapeError>, variant: &str, what: &str) {
    let err = result.expect_err("must be refused");
    let (name, got_what) = match &err {
        ShapeError::NonFinite { what } => ("NonFinite", *what),
        ShapeError::EmptyPointSet => ("EmptyPointSet", ""),
        ShapeError::NotPositive { what, .. } => ("NotPositive", *what),
        ShapeError::Negative { what, .. } => ("Negative", *what),
        ShapeError::InvalidRotation => ("InvalidRotation", ""),
        other => panic!("unexpected variant {other:?}"),
    };
    assert_eq!(name, variant, "{err:?}");
    assert_eq!(got_what, what, "{err:?}");
    let message = err.to_string();
    assert!(message.contains(what), "message {message:?} should name {what:?}");
    assert!(message.len() > what.len() + 10, "message {message:?} should explain");
}

#[test]
fn constructors_refuse_non_finite_input() {
    let bad = DVec3::new(1.0, NAN, 0.0);
    let inf = DVec3::new(INF, 0.0, 0.0);
    refused(Point::new(bad), "NonFinite", "point");
    refused(Point::new(Vec2::new(f32::NEG_INFINITY, 0.0)), "NonFinite", "point");
    refused(Segment::new(DVec3::ZERO, inf), "NonFinite", "segment end");
    refused(Triangle::new(DVec3::ZERO, DVec3::X, bad), "NonFinite", "triangle corner");
    refused(Polytope::new(vec![DVec3::ZERO, bad]), "NonFinite", "point");
    refused(Ball::<DVec3>::new(NAN), "NonFinite", "radius");
    refused(Ball::<Vec3>::new(f32::INFINITY), "NonFinite", "radius");
    refused(Ellipsoid::new(DVec2::new(1.0, INF)), "NonFinite", "ellipsoid radius");
    refused(Cuboid::new(DVec3::new(1.0, 1.0, NAN)), "NonFinite", "half extent");
    refused(Capsule::new(DVec3::ZERO, bad, 1.0), "NonFinite", "capsule end");
    refused(Capsule::new(DVec3::ZERO, DVec3::X, NAN), "NonFinite", "radius");
    refused(Cylinder::<DVec3>::new(NAN, 1.0), "NonFinite", "half height");
    refused(Cylinder::<DVec3>::new(1.0, INF), "NonFinite", "radius");
    refused(Cone::<Vec3>::new(f32::NAN, 1.0), "NonFinite", "half height");
    refused(Cone::<DVec3>::new(1.0, -INF), "NonFinite", "radius");
    refused(Rounded::new(Cuboid::new(DVec3::ONE).unwrap(), NAN), "NonFinite", "margin");
    refused(Pose::<DVec3>::from_translation(inf), "NonFinite", "translation");
    refused(Pose::<DVec2>::from_angle_translation(NAN, DVec2::ZERO), "NonFinite", "rotation angle");
    refused(
        Pose::<Vec2>::from_angle_translation(f32::INFINITY, Vec2::ZERO),
        "NonFinite",
        "rotation angle",
    );
}

#[test]
fn constructors_refuse_empty_and_negative_sizes() {
    refused(Polytope::<DVec3>::new(vec![]), "EmptyPointSet", "");
    refused(Polytope::<Vec2>::new(Vec::new()), "EmptyPointSet", "");
    // A ball or an ellipsoid axis of zero size is meaningless (a ball of radius 0 is a Point).
    refused(Ball::<DVec3>::new(0.0), "NotPositive", "radius");
    refused(Ball::<DVec2>::new(-1.0), "NotPositive", "radius");
    refused(Ellipsoid::new(DVec3::new(1.0, 0.0, 1.0)), "NotPositive", "ellipsoid radius");
    refused(Ellipsoid::new(Vec2::new(-1.0, 1.0)), "NotPositive", "ellipsoid radius");
    // Zero is meaningful for these (flat box, segment-like capsule, disc, ...), negative is not.
    refused(Cuboid::new(DVec3::new(1.0, -0.5, 1.0)), "Negative", "half extent");
    refused(Capsule::new(DVec2::ZERO, DVec2::X, -0.1), "Negative", "radius");
    refused(Cylinder::<DVec3>::new(-1.0, 1.0), "Negative", "half height");
    refused(Cylinder::<Vec3>::new(1.0, -1.0), "Negative", "radius");
    refused(Cone::<DVec3>::new(-1.0, 1.0), "Negative", "half height");
    refused(Cone::<DVec3>::new(1.0, -1.0), "Negative", "radius");
    refused(Rounded::new(Ball::<DVec3>::new(1.0).unwrap(), -1e-9), "Negative", "margin");
    assert!(Cuboid::new(DVec3::new(1.0, 0.0, 1.0)).is_ok());
    assert!(Capsule::new(DVec3::ZERO, DVec3::X, 0.0).is_ok());
    assert!(Cylinder::<DVec3>::new(0.0, 0.0).is_ok());
    assert!(Cone::<DVec3>::new(0.0, 1.0).is_ok());
    // The value given is reported.
    let err = Cuboid::new(DVec3::new(1.0, -0.5, 1.0)).unwrap_err();
    assert!(err.to_string().contains("-0.5"), "{err}");
}

#[test]
fn poses_refuse_rotations_that_cannot_be_normalised() {
    for q in [
        DQuat::from_xyzw(0.0, 0.0, 0.0, 0.0),
        DQuat::from_xyzw(NAN, 0.0, 0.0, 1.0),
        DQuat::from_xyzw(0.0, INF, 0.0, 1.0),
        DQuat::from_xyzw(1e-300, 0.0, 0.0, 0.0),
    ] {
        refused(Pose::<DVec3>::new(q, DVec3::ZERO), "InvalidRotation", "");
    }
    refused(
        Pose::<Vec3>::new(Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), Vec3::ZERO),
        "InvalidRotation",
        "",
    );
    refused(
        Pose::<DVec2>::new(Rotation2 { cos: 0.0, sin: 0.0 }, DVec2::ZERO),
        "InvalidRotation",
        "",
    );
    refused(
        Pose::<Vec2>::new(Rotation2 { cos: f32::NAN, sin: 1.0 }, Vec2::ZERO),
        "InvalidRotation",
        "",
    );
    // A valid but unnormalised rotation is accepted and normalised.
    let p = Pose::<DVec2>::new(Rotation2 { cos: 0.0, sin: 3.0 }, DVec2::ZERO).unwrap();
    assert!((p.transform_point(DVec2::X) - DVec2::Y).length() < 1e-15);
    let p = Pose::<DVec3>::new(DQuat::from_xyzw(0.0, 0.0, 0.0, 1e-3), DVec3::ZERO).unwrap();
    assert_eq!(p.rotation(), DQuat::IDENTITY);
}

fn assert_sane<V: Vector>(label: &str, r: &GjkResult<V>) {
    let finite = |v: V| (0..V::DIM).all(|i| !v.component(i).to_f64().is_nan());
    assert!(!r.distance.to_f64().is_nan(), "{label}: NaN distance {r:?}");
    assert!(r.distance.to_f64() >= 0.0, "{label}: negative distance {r:?}");
    assert!(finite(r.point_a) && finite(r.point_b) && finite(r.normal), "{label}: NaN point {r:?}");
    assert!(finite(r.closest), "{label}: NaN closest {r:?}");
    let n = r.normal.length().to_f64();
    assert!(n == 0.0 || (n - 1.0).abs() < 1e-3, "{label}: normal not unit {r:?}");
    assert_eq!(r.intersecting, r.distance.to_f64() == 0.0, "{label}: {r:?}");
}

fn all_queries<V: Vector>(
    label: &str,
    a: &dyn Support<V>,
    pa: Pose<V>,
    b: &dyn Support<V>,
    pb: Pose<V>,
) -> GjkResult<V> {
    let pair = Pair::new(a, pa, b, pb);
    let mut last = None;
    for goal in [Goal::Intersection, Goal::Distance] {
        let mut warm = WarmStart::default();
        for round in 0..2 {
            let r = pair.gjk(goal, &GjkOptions::default(), &mut warm);
            assert_sane(&format!("{label} {goal:?} round {round}"), &r);
            last = Some(r);
        }
    }
    let _ = pair.intersects();
    assert!(!pair.distance().to_f64().is_nan(), "{label}");
    let _ = pair.closest_points();
    last.unwrap()
}

use gjk::Real;

/// Every shape's support at the zero direction and at tiny, huge and mixed directions is a
/// finite point (no division by the direction's length).
#[test]
fn supports_survive_zero_tiny_and_huge_directions() {
    let shapes: Vec<Box<dyn Support<DVec3>>> = vec![
        Box::new(Point::new(DVec3::ONE).unwrap()),
        Box::new(Segment::new(DVec3::ZERO, DVec3::X).unwrap()),
        Box::new(Triangle::new(DVec3::ZERO, DVec3::X, DVec3::Y).unwrap()),
        Box::new(Polytope::new(vec![DVec3::ZERO, DVec3::ONE]).unwrap()),
        Box::new(Polytope::new(vec![DVec3::splat(1.5e308), DVec3::splat(1.7e308)]).unwrap()),
        Box::new(Ball::<DVec3>::new(1.0).unwrap()),
        Box::new(Ellipsoid::new(DVec3::new(1.0, 2.0, 3.0)).unwrap()),
        Box::new(Ellipsoid::new(DVec3::new(1e-300, 1.0, 1e300)).unwrap()),
        Box::new(Cuboid::new(DVec3::ONE).unwrap()),
        Box::new(Capsule::new(DVec3::ZERO, DVec3::Y, 0.5).unwrap()),
        Box::new(Cylinder::<DVec3>::new(1.0, 2.0).unwrap()),
        Box::new(Cone::<DVec3>::new(1.0, 2.0).unwrap()),
        Box::new(Cone::<DVec3>::new(0.0, 0.0).unwrap()),
        Box::new(Rounded::new(Cuboid::new(DVec3::ONE).unwrap(), 0.1).unwrap()),
        Box::new(MinkowskiSum::new(
            Cuboid::new(DVec3::ONE).unwrap(),
            Ball::<DVec3>::new(1.0).unwrap(),
        )),
        Box::new(Posed::new(
            Cylinder::<DVec3>::new(1.0, 1.0).unwrap(),
            Pose::new(DQuat::from_rotation_x(1.0), DVec3::ONE).unwrap(),
        )),
    ];
    let directions = [
        DVec3::ZERO,
        DVec3::new(1e-300, 0.0, 0.0),
        DVec3::new(0.0, -5e-324, 0.0),
        DVec3::new(1e300, 1e300, 1e300),
        DVec3::new(-1e308, 1e-308, 0.0),
        DVec3::new(0.0, 1.0, 0.0),
        DVec3::new(0.0, -1.0, 0.0),
    ];
    for (i, s) in shapes.iter().enumerate() {
        for d in directions {
            let p = s.support(d);
            assert!(p.is_finite(), "shape {i} at {d:?}: {p:?}");
            let q = full_support(&**s, d);
            assert!(q.is_finite(), "shape {i} full support at {d:?}: {q:?}");
            let mut hint = 0;
            assert!(s.support_hinted(d, &mut hint).is_finite());
            assert!(s.center().is_finite() && s.margin().is_finite());
        }
    }
}

#[test]
fn queries_survive_tiny_and_huge_scales() {
    // Squared lengths and signed volumes (cubes of coordinates) must not under/overflow for the
    // answers to be right: they are asserted from 1e-100 to 1e100; beyond, only the absence of
    // NaN and panics (a known limitation, see the report).
    let scales = [
        (1e-300, "1e-300"),
        (1e-150, "1e-150"),
        (1e-100, "1e-100"),
        (1e100, "1e100"),
        (1e150, "1e150"),
        (1e300, "1e300"),
    ];
    for (scale, name) in scales {
        let cube = Cuboid::new(DVec3::splat(scale)).unwrap();
        let ball = Ball::<DVec3>::new(scale).unwrap();
        let hull =
            Polytope::new(vec![DVec3::ZERO, DVec3::X * scale, DVec3::Y * scale, DVec3::Z * scale])
                .unwrap();
        let ellipsoid = Ellipsoid::new(DVec3::new(scale, 2.0 * scale, 0.5 * scale)).unwrap();
        let shapes: [(&str, &dyn Support<DVec3>); 4] =
            [("cube", &cube), ("ball", &ball), ("hull", &hull), ("ellipsoid", &ellipsoid)];
        for (na, a) in shapes {
            for (nb, b) in shapes {
                for offset in [0.0, 0.5, 3.0, 1e3_f64.min(1e307 / scale)] {
                    let t = DVec3::new(1.0, 0.5, -0.25) * offset * scale;
                    let Ok(pose_b) = Pose::from_translation(t) else { continue };
                    let label = format!("{na} vs {nb} at scale {name}, offset {offset}");
                    let r = all_queries::<DVec3>(&label, a, Pose::IDENTITY, b, pose_b);
                    // Far apart must stay apart, and the distance must stay finite when the
                    // answer is representable.
                    if offset >= 3.0 && (1e-100..=1e100).contains(&scale) {
                        assert!(!r.intersecting, "{label}: {r:?}");
                        assert!(r.distance.is_finite(), "{label}: {r:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn queries_survive_huge_coordinates_and_coincident_shapes() {
    // 1e300: no NaN, no panic (the squared distance overflows: the verdict is not asserted).
    let p = Point::new(DVec3::splat(1e300)).unwrap();
    let q = Point::new(DVec3::new(1e300, 1e300, -1e300)).unwrap();
    all_queries::<DVec3>("points at 1e300", &p, Pose::IDENTITY, &q, Pose::IDENTITY);
    let p100 = Point::new(DVec3::splat(1e100)).unwrap();
    let q100 = Point::new(DVec3::new(1e100, 1e100, -1e100)).unwrap();
    let r = all_queries::<DVec3>("points at 1e100", &p100, Pose::IDENTITY, &q100, Pose::IDENTITY);
    assert!(!r.intersecting && (r.distance - 2e100).abs() < 1e88, "{r:?}");
    let r = all_queries::<DVec3>("same point twice", &p, Pose::IDENTITY, &p, Pose::IDENTITY);
    assert!(r.intersecting);
    let far = Pose::from_translation(DVec3::splat(-1e300)).unwrap();
    let cube = Cuboid::new(DVec3::ONE).unwrap();
    all_queries::<DVec3>("cube vs point through a 1e300 pose", &cube, far, &p, Pose::IDENTITY);
    let far = Pose::from_translation(DVec3::splat(-1e100)).unwrap();
    let r = all_queries::<DVec3>("cube vs point, 1e100 pose", &cube, far, &p100, Pose::IDENTITY);
    assert!(!r.intersecting);
    // Coincident everything: same shape, same place (the first search direction is zero).
    for shape in [
        &cube as &dyn Support<DVec3>,
        &Ball::<DVec3>::new(1.0).unwrap(),
        &Point::new(DVec3::ZERO).unwrap(),
    ] {
        let r = all_queries::<DVec3>("coincident", shape, Pose::IDENTITY, shape, Pose::IDENTITY);
        assert!(r.intersecting);
    }
    // Degenerate shapes: zero-size cuboid, zero-length capsule, flat cone, all at one point.
    let flat = Cuboid::new(DVec3::ZERO).unwrap();
    let dot = Capsule::new(DVec3::ZERO, DVec3::ZERO, 0.0).unwrap();
    let r = all_queries::<DVec3>("zero-size shapes", &flat, Pose::IDENTITY, &dot, Pose::IDENTITY);
    assert!(r.intersecting);
    let r = all_queries::<DVec3>(
        "zero-size shapes apart",
        &flat,
        Pose::IDENTITY,
        &dot,
        Pose::from_translation(DVec3::X).unwrap(),
    );
    assert!(!r.intersecting && (r.distance - 1.0).abs() < 1e-15);
    // f32 extremes.
    let tiny = Ball::<Vec3>::new(1e-30).unwrap();
    let huge = Cuboid::new(Vec3::splat(1e30)).unwrap();
    all_queries::<Vec3>(
        "f32 tiny ball vs huge box",
        &tiny,
        Pose::IDENTITY,
        &huge,
        Pose::from_translation(Vec3::splat(3e30)).unwrap(),
    );
    all_queries::<Vec3>(
        "f32 tiny ball vs tiny ball",
        &tiny,
        Pose::IDENTITY,
        &tiny,
        Pose::from_translation(Vec3::splat(1e-30)).unwrap(),
    );
    let big = Polytope::new(vec![Vec2::splat(3e38), Vec2::new(-3e38, 3e38)]).unwrap();
    all_queries::<Vec2>(
        "f32 near overflow",
        &big,
        Pose::IDENTITY,
        &big,
        Pose::from_translation(Vec2::new(0.0, -3e38)).unwrap(),
    );
}

#[test]
fn odd_options_never_give_nan() {
    let a = Cuboid::new(DVec3::ONE).unwrap();
    let b = Ellipsoid::new(DVec3::new(1.0, 0.5, 0.2)).unwrap();
    let pose_b = Pose::from_translation(DVec3::new(3.0, 0.2, 0.1)).unwrap();
    let pair = Pair::new(&a, Pose::IDENTITY, &b, pose_b);
    for tolerance in [0.0, -1.0, NAN, INF, 1e-300, 0.5] {
        for max_iterations in [0, 1, 2, 1000] {
            for goal in [Goal::Intersection, Goal::Distance] {
                let options = GjkOptions { tolerance, max_iterations };
                let r = pair.gjk(goal, &options, &mut WarmStart::default());
                assert_sane(&format!("tolerance {tolerance}, cap {max_iterations}, {goal:?}"), &r);
                assert!(r.iterations <= max_iterations);
            }
        }
    }
}

#[test]
fn iteration_cap_is_honoured() {
    // Two boxes 1 apart: a distance query needs more than one support call.
    let a = Cuboid::new(DVec3::ONE).unwrap();
    let pose_b = Pose::new(DQuat::from_rotation_y(0.4), DVec3::new(3.5, 0.3, 0.2)).unwrap();
    let pair = Pair::new(&a, Pose::IDENTITY, &a, pose_b);
    for cap in [0, 1] {
        let options = GjkOptions { max_iterations: cap, ..Default::default() };
        let r = pair.gjk(Goal::Distance, &options, &mut WarmStart::default());
        assert_eq!(r.termination, Termination::IterationCap, "cap {cap}: {r:?}");
        assert_eq!(r.iterations, cap);
        assert_sane(&format!("cap {cap}"), &r);
        assert!(r.distance.is_finite());
    }
    // A smooth pair needs many iterations at 1e-10: caps from 2 to 5 stop it, with an upper
    // bound of the distance.
    let e = Ellipsoid::new(DVec3::new(1.0, 0.3, 0.6)).unwrap();
    let pair = Pair::new(
        &e,
        Pose::IDENTITY,
        &e,
        Pose::new(DQuat::from_rotation_z(0.7), DVec3::new(2.5, 0.7, 0.1)).unwrap(),
    );
    let exact = pair.distance();
    for cap in 2..=5 {
        let options = GjkOptions { max_iterations: cap, ..Default::default() };
        let r = pair.gjk(Goal::Distance, &options, &mut WarmStart::default());
        assert_sane(&format!("ellipsoid cap {cap}"), &r);
        assert!(r.iterations <= cap);
        if r.termination == Termination::IterationCap {
            assert!(r.distance >= exact - 1e-12, "cap {cap}: {} < {exact}", r.distance);
        }
    }
    // f32 and 2D too.
    let sq = Cuboid::new(Vec2::ONE).unwrap();
    let pair = Pair::new(
        &sq,
        Pose::IDENTITY,
        &sq,
        Pose::<Vec2>::from_angle_translation(0.3, Vec2::new(3.0, 1.0)).unwrap(),
    );
    let r = pair.gjk(
        Goal::Distance,
        &GjkOptions { max_iterations: 1, ..Default::default() },
        &mut WarmStart::default(),
    );
    assert_eq!(r.termination, Termination::IterationCap);
    assert_sane("2D f32 cap 1", &r);
}
