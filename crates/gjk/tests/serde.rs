//! Shapes and poses through serde (JSON): what comes back is the same shape.
//!
//! Oracle: the support function. A shape read back must answer every direction (a fixed
//! sample of 64) with the same support point and margin as the original, exactly (hulls: the
//! same vertex set, so the same farthest point). Bad input must be an error naming why.
#![cfg(feature = "serde")]

use gjk::{
    Ball, Capsule, Cone, Cuboid, Cylinder, Ellipsoid, Point, Polytope, Pose, Segment, Shape,
    Support, Triangle, Vector,
};
use gjk_testkit::SplitMix64;
use glam::{DQuat, DVec2, DVec3, Vec2, Vec3};
use serde::{de::DeserializeOwned, Serialize};

fn same_support<V: Vector>(a: &impl Support<V>, b: &impl Support<V>, rng: &mut SplitMix64) {
    assert_eq!(a.margin(), b.margin());
    for _ in 0..64 {
        let d = V::from_components([
            V::Real::from_f64(rng.range(-1.0, 1.0)),
            V::Real::from_f64(rng.range(-1.0, 1.0)),
            V::Real::from_f64(rng.range(-1.0, 1.0)),
        ]);
        assert_eq!(a.support(d), b.support(d), "direction {d:?}");
    }
}

fn round_trip<T: Serialize + DeserializeOwned>(value: &T) -> T {
    let json = serde_json::to_string(value).unwrap();
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

use gjk::Real;

#[test]
fn every_3d_shape_comes_back_the_same() {
    let mut rng = SplitMix64::new(31);
    let hull = Polytope::new((0..40).map(|_| DVec3::from(rng.unit_vector3())).collect()).unwrap();
    let shapes: Vec<Shape<DVec3>> = vec![
        Point::new(DVec3::new(1.0, 2.0, 3.0)).unwrap().into(),
        Segment::new(DVec3::ZERO, DVec3::ONE).unwrap().into(),
        Triangle::new(DVec3::X, DVec3::Y, DVec3::Z).unwrap().into(),
        Ball::new(0.7).unwrap().into(),
        Cuboid::new(DVec3::new(1.0, 0.5, 0.25)).unwrap().into(),
        Capsule::new(DVec3::ZERO, DVec3::Y, 0.3).unwrap().into(),
        Ellipsoid::new(DVec3::new(1.0, 2.0, 0.5)).unwrap().into(),
        hull.into(),
        Cylinder::new(1.0, 0.5).unwrap().into(),
        Cone::new(1.0, 0.5).unwrap().into(),
        Shape::from(Cone::new(1.0, 0.5).unwrap()).rounded(0.1).unwrap().rounded(0.2).unwrap(),
    ];
    for shape in &shapes {
        let back = round_trip(shape);
        same_support(shape, &back, &mut rng);
    }
}

#[test]
fn planar_shapes_and_f32_come_back_the_same() {
    let mut rng = SplitMix64::new(32);
    let polygon: Shape<Vec2> =
        Polytope::new(vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y]).unwrap().into();
    let shapes: Vec<Shape<Vec2>> = vec![
        polygon,
        Ball::new(0.5).unwrap().into(),
        Shape::from(Cuboid::new(Vec2::new(1.0, 2.0)).unwrap()).rounded(0.5).unwrap(),
    ];
    for shape in &shapes {
        same_support(shape, &round_trip(shape), &mut rng);
    }
    let cylinder: Shape<Vec3> = Cylinder::new(1.0, 0.5).unwrap().into();
    same_support(&cylinder, &round_trip(&cylinder), &mut rng);
}

#[test]
fn poses_come_back_the_same() {
    // Reading normalises the rotation again, which may move its last bit.
    let pose = Pose::new(DQuat::from_rotation_y(0.3), DVec3::new(1.0, -2.0, 3.5)).unwrap();
    let back = round_trip(&pose);
    assert_eq!(back.translation(), pose.translation());
    assert!(back.rotation().abs_diff_eq(pose.rotation(), 1e-15));
    let planar = Pose::from_angle_translation(0.7, DVec2::new(4.0, 5.0)).unwrap();
    assert_eq!(round_trip(&planar), planar);
    let json = serde_json::to_string(&Pose::<Vec3>::from_translation(Vec3::X).unwrap()).unwrap();
    assert_eq!(json, r#"{"rotation":[0.0,0.0,0.0,1.0],"translation":[1.0,0.0,0.0]}"#);
    // Not unit: normalised when read, as by `Pose::new`.
    let scaled: Pose<Vec3> =
        serde_json::from_str(r#"{"rotation":[0,0,0,2],"translation":[0,0,0]}"#).unwrap();
    assert_eq!(scaled, Pose::IDENTITY);
}

#[test]
fn bad_input_is_an_error_that_says_why() {
    let cases: [(&str, &str); 7] = [
        (r#"{"type":"ball","radius":-1}"#, "radius must be positive"),
        (r#"{"type":"cuboid","half_extents":[1,-1,1]}"#, "half extent must not be negative"),
        (r#"{"type":"polytope","points":[]}"#, "at least one point"),
        (r#"{"type":"rounded","shape":{"type":"ball","radius":1},"margin":-0.5}"#, "margin"),
        (r#"{"type":"teapot"}"#, "unknown variant"),
        (r#"{"type":"ball","radius":1,"colour":"red"}"#, "unknown field"),
        (r#"{"type":"cuboid","half_extents":[1,1]}"#, "3"),
    ];
    for (json, why) in cases {
        let err = serde_json::from_str::<Shape<DVec3>>(json).unwrap_err().to_string();
        assert!(err.contains(why), "{json}: {err}");
    }
    let err = serde_json::from_str::<Shape<DVec2>>(r#"{"type":"cone","half_height":1,"radius":1}"#)
        .unwrap_err()
        .to_string();
    assert!(err.contains("only in 3D"), "{err}");
    let err =
        serde_json::from_str::<Pose<DVec3>>(r#"{"rotation":[0,0,0,0],"translation":[0,0,0]}"#)
            .unwrap_err()
            .to_string();
    assert!(err.contains("rotation cannot be normalised"), "{err}");
}

#[test]
fn user_shapes_cannot_be_serialized() {
    struct Dot;
    impl Support<DVec3> for Dot {
        fn support(&self, _: DVec3) -> DVec3 {
            DVec3::ZERO
        }
    }
    let err = serde_json::to_string(&Shape::custom(Dot)).unwrap_err().to_string();
    assert!(err.contains("user shape"), "{err}");
}
