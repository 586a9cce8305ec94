//! The worked examples of the GJK tutorials must come out as the tutorials say: both pairs
//! intersect. Checked in 2D (f64 and f32, as `Polytope` and as `Triangle`), as flat 3D
//! polytopes, under a common rotation and translation, and against the oracle; then pulled
//! apart, where the distance must match the oracle.

use crate::common;

use common::{check_pair, Body, Expect, Stats, TestVector};
use glam::{DQuat, DVec2, DVec3, Vec2, Vec3};

fn points(coords: &[(f64, f64)]) -> Vec<DVec3> {
    coords.iter().map(|&(x, y)| DVec3::new(x, y, 0.0)).collect()
}

/// The pair at identity and under a common pose (must intersect: `check_pair` asserts it), and
/// pulled apart along `apart` by 0.5 and 3 (the oracle decides).
fn check_example<V: TestVector>(name: &str, a: &[DVec3], b: &[DVec3], apart: DVec3) -> Stats {
    let mut stats = Stats::default();
    let at_identity = V::pose(DQuat::IDENTITY, DVec3::ZERO);
    let (body_a, body_b) = (Body::polytope(a, at_identity), Body::polytope(b, at_identity));
    let pair = gjk::Pair::new(&*body_a.shape, at_identity, &*body_b.shape, at_identity);
    assert!(pair.intersects(), "{name} [{}] must intersect", V::NAME);
    let rotation = DQuat::from_rotation_z(0.7);
    let t = DVec3::new(-3.0, 8.0, 0.0);
    for (label, pose_a, pose_b, expect) in [
        (
            "as given",
            V::pose(DQuat::IDENTITY, DVec3::ZERO),
            V::pose(DQuat::IDENTITY, DVec3::ZERO),
            Expect::Intersecting,
        ),
        ("common pose", V::pose(rotation, t), V::pose(rotation, t), Expect::Intersecting),
        (
            "apart 0.5",
            V::pose(DQuat::IDENTITY, DVec3::ZERO),
            V::pose(DQuat::IDENTITY, apart * 0.5),
            Expect::Oracle,
        ),
        (
            "apart 3",
            V::pose(rotation, t),
            V::pose(rotation, t + rotation * apart * 3.0),
            Expect::Oracle,
        ),
    ] {
        let label = format!("{name}, {label}");
        check_pair(
            &Body::polytope(a, pose_a),
            &Body::polytope(b, pose_b),
            expect,
            &label,
            &mut stats,
        );
    }
    stats
}

fn both_examples<V: TestVector>() {
    // Triangles of the "GJK: collision detection" tutorials.
    let ta = points(&[(0.0, 1.0), (1.0, -1.0), (-1.0, -1.0)]);
    let tb = points(&[(0.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]);
    let s = check_example::<V>("tutorial triangles", &ta, &tb, DVec3::new(3.0, 1.0, 0.0));
    // In 3D the flat pair only touches (its Minkowski difference is flat): after an f32 rotation
    // it may sit in the touching band; at identity it must intersect in every precision.
    assert!(s.intersecting + s.in_band >= 2 && s.separated >= 1, "{s:?}");
    // dyn4j's "GJK (Gilbert-Johnson-Keerthi)" example.
    let da = points(&[(4.0, 11.0), (4.0, 5.0), (9.0, 9.0)]);
    let db = points(&[(5.0, 7.0), (12.0, 7.0), (10.0, 2.0), (7.0, 3.0)]);
    let s = check_example::<V>("dyn4j example", &da, &db, DVec3::new(4.0, -3.0, 0.0));
    // In 3D the flat pair only touches (its Minkowski difference is flat): after an f32 rotation
    // it may sit in the touching band; at identity it must intersect in every precision.
    assert!(s.intersecting + s.in_band >= 2 && s.separated >= 1, "{s:?}");
}

#[test]
fn tutorial_examples_intersect_2d() {
    both_examples::<DVec2>();
    both_examples::<Vec2>();
}

#[test]
fn tutorial_examples_intersect_as_flat_3d_polytopes() {
    both_examples::<DVec3>();
    both_examples::<Vec3>();
}

#[test]
fn tutorial_triangles_as_triangle_shapes() {
    use gjk::{intersects, Pose, Triangle};
    let a =
        Triangle::new(DVec2::new(0.0, 1.0), DVec2::new(1.0, -1.0), DVec2::new(-1.0, -1.0)).unwrap();
    let b =
        Triangle::new(DVec2::new(0.0, -1.0), DVec2::new(1.0, 1.0), DVec2::new(-1.0, 1.0)).unwrap();
    assert!(intersects(&a, &Pose::IDENTITY, &b, &Pose::IDENTITY));
    let a = Triangle::new(
        DVec3::new(4.0, 11.0, 0.0),
        DVec3::new(4.0, 5.0, 0.0),
        DVec3::new(9.0, 9.0, 0.0),
    )
    .unwrap();
    let b = gjk::Polytope::new(vec![
        DVec3::new(5.0, 7.0, 0.0),
        DVec3::new(12.0, 7.0, 0.0),
        DVec3::new(10.0, 2.0, 0.0),
        DVec3::new(7.0, 3.0, 0.0),
    ])
    .unwrap();
    assert!(intersects(&a, &Pose::IDENTITY, &b, &Pose::IDENTITY));
}
