//! Bounding boxes of every shape under random poses.
//!
//! Oracle: the support function. For a convex set the largest coordinate `j` is reached at its
//! support point along axis `j`, so `max_j = e_j · (R s(Rᵀ e_j) + t) + margin` and likewise for
//! the minimum: the test computes that from `full_support` (which never calls `aabb`) and
//! requires the box to contain it (within a rounding allowance) and to be tight (equal within
//! the same allowance). A second check samples random directions: every support point of the
//! whole shape lies in the box.
//!
//! Tolerance: `1e-12` relative to the shape's size and place in f64, `5e-6` in f32.

use gjk::{
    full_support, Aabb, Ball, Capsule, Cone, Cuboid, Cylinder, Ellipsoid, Point, Polytope, Pose,
    Posed, Real, Rounded, Segment, Shape, Support, Triangle, Vector,
};
use gjk_testkit::SplitMix64;
use glam::{DQuat, DVec2, DVec3, Quat, Vec2, Vec3};

/// The exact box from the support function (never `aabb`).
fn oracle<V: Vector, S: Support<V> + ?Sized>(shape: &S, pose: &Pose<V>) -> Aabb<V> {
    let mut min = [V::Real::ZERO; 3];
    let mut max = [V::Real::ZERO; 3];
    for j in 0..V::DIM {
        let axis = pose.inverse_transform_vector(V::axis(j));
        max[j] = pose.transform_point(full_support(shape, axis)).component(j);
        min[j] = pose.transform_point(full_support(shape, -axis)).component(j);
    }
    Aabb::new(V::from_components(min), V::from_components(max))
}

fn check<V: Vector, S: Support<V> + ?Sized>(
    name: &str,
    shape: &S,
    pose: &Pose<V>,
    rng: &mut SplitMix64,
    relative: f64,
) {
    let got = shape.aabb(pose);
    let want = oracle(shape, pose);
    let scale = 1.0 + want.half_extents().max_abs().to_f64() + want.center().max_abs().to_f64();
    let allowance = relative * scale;
    for j in 0..V::DIM {
        for (g, w, side) in [
            (got.min.component(j), want.min.component(j), "min"),
            (got.max.component(j), want.max.component(j), "max"),
        ] {
            let (g, w) = (g.to_f64(), w.to_f64());
            assert!(
                (g - w).abs() <= allowance,
                "{name}: {side}[{j}] = {g}, support says {w} (pose {pose:?})"
            );
        }
    }
    for _ in 0..64 {
        let d = V::from_components([
            V::Real::from_f64(rng.range(-1.0, 1.0)),
            V::Real::from_f64(rng.range(-1.0, 1.0)),
            V::Real::from_f64(rng.range(-1.0, 1.0)),
        ]);
        let p = pose.transform_point(full_support(shape, pose.inverse_transform_vector(d)));
        let grown = got.loosened(V::Real::from_f64(allowance));
        assert!(grown.contains_point(p), "{name}: support point {p:?} outside {got:?}");
    }
}

fn pose3(rng: &mut SplitMix64) -> Pose<DVec3> {
    let [x, y, z, w] = rng.rotation3();
    let t = DVec3::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0), rng.range(-50.0, 50.0));
    Pose::new(DQuat::from_xyzw(x, y, z, w), t).unwrap()
}

fn pose2(rng: &mut SplitMix64) -> Pose<DVec2> {
    let t = DVec2::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0));
    Pose::from_angle_translation(rng.angle(), t).unwrap()
}

fn v3(rng: &mut SplitMix64, lo: f64, hi: f64) -> DVec3 {
    DVec3::new(rng.range(lo, hi), rng.range(lo, hi), rng.range(lo, hi))
}

fn v2(rng: &mut SplitMix64, lo: f64, hi: f64) -> DVec2 {
    DVec2::new(rng.range(lo, hi), rng.range(lo, hi))
}

/// Every built-in 3D shape (and the enum and the combinators around them), f64.
fn shapes3(rng: &mut SplitMix64) -> Vec<(&'static str, Shape<DVec3>)> {
    let hull = Polytope::new((0..32).map(|_| v3(rng, -1.5, 1.5)).collect()).unwrap();
    let big = Polytope::new(
        (0..300).map(|_| DVec3::from(rng.unit_vector3()) * rng.range(1.0, 2.0)).collect(),
    )
    .unwrap();
    vec![
        ("ball", Ball::new(rng.range(0.1, 2.0)).unwrap().into()),
        ("cuboid", Cuboid::new(v3(rng, 0.0, 2.0)).unwrap().into()),
        ("capsule", Capsule::new(v3(rng, -1.0, 1.0), v3(rng, -1.0, 1.0), 0.3).unwrap().into()),
        ("cylinder", Cylinder::new(rng.range(0.0, 2.0), rng.range(0.0, 2.0)).unwrap().into()),
        ("cone", Cone::new(rng.range(0.0, 2.0), rng.range(0.0, 2.0)).unwrap().into()),
        ("ellipsoid", Ellipsoid::new(v3(rng, 0.1, 2.0)).unwrap().into()),
        ("hull", hull.into()),
        ("big hull", big.into()),
        ("segment", Segment::new(v3(rng, -1.0, 1.0), v3(rng, -1.0, 1.0)).unwrap().into()),
        (
            "triangle",
            Triangle::new(v3(rng, -1.0, 1.0), v3(rng, -1.0, 1.0), v3(rng, -1.0, 1.0))
                .unwrap()
                .into(),
        ),
        ("point", Point::new(v3(rng, -1.0, 1.0)).unwrap().into()),
        ("rounded box", Shape::from(Cuboid::new(v3(rng, 0.0, 1.0)).unwrap()).rounded(0.2).unwrap()),
        (
            "rounded cone",
            Shape::from(Cone::new(1.0, 0.5).unwrap()).rounded(rng.range(0.0, 0.5)).unwrap(),
        ),
        (
            "posed cylinder",
            Shape::custom(Posed::new(Cylinder::<DVec3>::new(1.0, 0.5).unwrap(), pose3(rng))),
        ),
        ("user shape (support path)", Shape::custom(UserBox(v3(rng, 0.1, 2.0)))),
    ]
}

/// A box written by hand: no `aabb` of its own, so the default (support) path runs.
struct UserBox(DVec3);
impl Support<DVec3> for UserBox {
    fn support(&self, d: DVec3) -> DVec3 {
        DVec3::new(self.0.x.copysign(d.x), self.0.y.copysign(d.y), self.0.z.copysign(d.z))
    }
}

#[test]
fn boxes_of_3d_shapes_hold_them_and_are_tight_f64() {
    let mut rng = SplitMix64::new(15);
    for _ in 0..200 {
        for (name, shape) in shapes3(&mut rng) {
            let pose = pose3(&mut rng);
            check(name, &shape, &pose, &mut rng, 1e-12);
        }
    }
}

#[test]
fn axis_aligned_poses_give_exact_boxes() {
    // Quarter turns and the identity: no rounding in the rotation, so the box is exact.
    let cylinder = Cylinder::<DVec3>::new(2.0, 0.5).unwrap();
    let b = cylinder.aabb(&Pose::IDENTITY);
    assert_eq!(b, Aabb::new(DVec3::new(-0.5, -2.0, -0.5), DVec3::new(0.5, 2.0, 0.5)));
    let cone = Cone::<DVec3>::new(1.0, 0.5).unwrap();
    let b = cone.aabb(&Pose::from_translation(DVec3::X).unwrap());
    assert_eq!(b, Aabb::new(DVec3::new(0.5, -1.0, -0.5), DVec3::new(1.5, 1.0, 0.5)));
    let ellipse = Ellipsoid::new(DVec2::new(3.0, 1.0)).unwrap();
    let b = ellipse.aabb(&Pose::IDENTITY);
    assert_eq!(b, Aabb::new(DVec2::new(-3.0, -1.0), DVec2::new(3.0, 1.0)));
}

#[test]
fn boxes_of_2d_shapes_hold_them_and_are_tight_f64() {
    let mut rng = SplitMix64::new(16);
    for _ in 0..300 {
        let polygon = Polytope::new((0..12).map(|_| v2(&mut rng, -1.0, 1.0)).collect()).unwrap();
        let shapes: Vec<(&str, Shape<DVec2>)> = vec![
            ("disc", Ball::new(rng.range(0.1, 2.0)).unwrap().into()),
            ("rectangle", Cuboid::new(v2(&mut rng, 0.0, 2.0)).unwrap().into()),
            ("stadium", Capsule::new(v2(&mut rng, -1.0, 1.0), DVec2::ZERO, 0.4).unwrap().into()),
            ("ellipse", Ellipsoid::new(v2(&mut rng, 0.1, 2.0)).unwrap().into()),
            ("polygon", polygon.into()),
            (
                "rounded rectangle",
                Rounded::new(Cuboid::new(DVec2::ONE).unwrap(), 0.3)
                    .map(|r| {
                        Shape::Rounded(Box::new(
                            Rounded::new(Shape::from(*r.shape()), 0.3).unwrap(),
                        ))
                    })
                    .unwrap(),
            ),
        ];
        for (name, shape) in shapes {
            let pose = pose2(&mut rng);
            check(name, &shape, &pose, &mut rng, 1e-12);
        }
    }
}

#[test]
fn boxes_in_f32_hold_the_shapes() {
    let mut rng = SplitMix64::new(17);
    for _ in 0..200 {
        let [x, y, z, w] = rng.rotation3();
        let t = Vec3::new(rng.range(-50.0, 50.0) as f32, 1.0, -3.0);
        let pose = Pose::new(Quat::from_xyzw(x as f32, y as f32, z as f32, w as f32), t).unwrap();
        let hull = Polytope::new(
            (0..32).map(|_| Vec3::from(rng.unit_vector3().map(|c| c as f32))).collect(),
        )
        .unwrap();
        let shapes: Vec<(&str, Shape<Vec3>)> = vec![
            ("cuboid", Cuboid::new(Vec3::new(1.0, 0.2, 2.0)).unwrap().into()),
            ("cylinder", Cylinder::new(1.0, 0.5).unwrap().into()),
            ("cone", Cone::new(1.0, 0.5).unwrap().into()),
            ("ellipsoid", Ellipsoid::new(Vec3::new(1.0, 0.2, 2.0)).unwrap().into()),
            ("hull", hull.into()),
        ];
        for (name, shape) in shapes {
            check(name, &shape, &pose, &mut rng, 5e-6);
        }
        let pose2 = Pose::from_angle_translation(rng.angle() as f32, Vec2::new(3.0, -7.0)).unwrap();
        let rect: Shape<Vec2> = Cuboid::new(Vec2::new(1.0, 0.25)).unwrap().into();
        check("rectangle f32", &rect, &pose2, &mut rng, 5e-6);
    }
}
