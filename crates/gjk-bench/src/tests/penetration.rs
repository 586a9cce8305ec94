//! Contact (penetration) answers against the closed-form oracles of `gjk_bench::depth` and
//! against parry. Tolerances (absolute; the shapes are 0.5–2 units):
//! * penetrating-or-not verdicts: identical to the exact ones, for ours and parry, on every pair;
//! * depth, ours in `f64`: within 1e-12 of the exact depth (measured ≤ 3.1e-15); in `f32`:
//!   within 2e-5 (measured 9.6e-6, box–box near an edge–edge contact);
//! * normal, ours: within 1e-9 rad in `f64` (measured 7.4e-13), 1e-4 rad in `f32` (2e-5);
//! * parry's public `query::contact`, `f64`: within 1e-12 on boxes and ball–box, where its
//!   algorithms are exact (capsules are not scored: parry runs EPA on the rounded shapes);
//! * on every standard workload, ours and parry agree on which pairs touch, and in `f64` on the
//!   depth within 1e-9 where both are exact (polytopes, and balls against polytopes).

use crate::depth::{self, angle, ball_box_depth, box_box_depth, capsule_capsule_depth};
use crate::spec::{BallSpec, CapsuleSpec, CuboidSpec, Placement2, Placement3, Spec2, Spec3};
use crate::{workload, Case, ContactQuery, Depth, Workload};
use glam::{DVec2, DVec3, Vec2, Vec3};

#[test]
fn depths_match_the_closed_forms() {
    let rows = depth::all().expect("the workloads build");
    assert_eq!(rows.len(), 18);
    for r in &rows {
        let what = format!("{} {} {}", r.workload, r.library, r.precision);
        assert_eq!(r.disagreements, 0, "{what}: penetration verdicts differ from the exact ones");
        assert!(r.penetrating >= 400, "{what}: only {} penetrating pairs", r.penetrating);
        let exact_peer = r.library == "parry" && r.workload != "capsule_capsule";
        match (r.library, r.precision) {
            ("gjk", "f64") => {
                assert!(r.max_error <= 1e-12, "{what}: depth error {:e}", r.max_error);
                assert!(r.max_angle <= 1e-9, "{what}: normal error {:e}", r.max_angle);
            }
            ("gjk", _) => {
                assert!(r.max_error <= 2e-5, "{what}: depth error {:e}", r.max_error);
                assert!(r.max_angle <= 1e-4, "{what}: normal error {:e}", r.max_angle);
            }
            (_, "f64") if exact_peer => {
                assert!(r.max_error <= 1e-12, "{what}: depth error {:e}", r.max_error);
            }
            _ => {}
        }
    }
}

fn placed(x: f64, y: f64, z: f64) -> Placement3 {
    Placement3 { rotation: [0.0, 0.0, 0.0, 1.0], translation: [x, y, z] }
}

fn close(d: Option<Depth>, depth: f64, normal: [f64; 3]) -> bool {
    d.is_some_and(|d| (d.depth - depth).abs() < 1e-12 && angle(d.normal, normal) < 1e-12)
}

#[test]
fn depth_oracles_match_hand_computed_cases() {
    let cube = CuboidSpec { half_extents: [1.0; 3] };
    let boxes = |b: Placement3| Case {
        a: cube.clone(),
        b: cube.clone(),
        pose_a: placed(0., 0., 0.),
        pose_b: b,
    };
    // Overlap 0.5 along x, 1.8 along y: the shallow axis is x, pointing toward B.
    assert!(close(box_box_depth(&boxes(placed(-1.5, 0.2, 0.0))), 0.5, [-1.0, 0.0, 0.0]));
    assert!(box_box_depth(&boxes(placed(2.5, 0.0, 0.0))).is_none());
    // B turned 45° about z, its edge 0.3 into A's +x face: depth 0.3 along x (a face normal
    // of A; the edge of B is no shallower).
    let edge_in = Placement3 {
        rotation: [
            0.0,
            0.0,
            (core::f64::consts::PI / 8.0).sin(),
            (core::f64::consts::PI / 8.0).cos(),
        ],
        translation: [1.0 + 2f64.sqrt() - 0.3, 0.0, 0.0],
    };
    assert!(close(box_box_depth(&boxes(edge_in)), 0.3, [1.0, 0.0, 0.0]));

    let ball = |r: f64, at: Placement3| Case {
        a: BallSpec { radius: r },
        b: cube.clone(),
        pose_a: at,
        pose_b: placed(0., 0., 0.),
    };
    // Centre outside, 0.5 from the +x face: depth 0.5, B (the box) pushed toward −x.
    assert!(close(ball_box_depth(&ball(1.0, placed(1.5, 0.0, 0.0))), 0.5, [-1.0, 0.0, 0.0]));
    // Centre outside near a corner: distance √3·0.2 from the corner.
    let corner = ball_box_depth(&ball(1.0, placed(1.2, 1.2, 1.2))).unwrap();
    assert!((corner.depth - (1.0 - 0.2 * 3f64.sqrt())).abs() < 1e-12);
    // Centre inside, 0.2 below the +x face: depth r + 0.2.
    assert!(close(ball_box_depth(&ball(0.5, placed(0.8, 0.0, 0.0))), 0.7, [-1.0, 0.0, 0.0]));
    assert!(ball_box_depth(&ball(0.5, placed(1.6, 0.0, 0.0))).is_none());

    // Parallel vertical capsules 1 apart in x, radii 0.75: depth 0.5, normal +x.
    let capsule = CapsuleSpec { half_height: 1.0, radius: 0.75 };
    let pair = Case {
        a: capsule.clone(),
        b: capsule.clone(),
        pose_a: placed(0., 0., 0.),
        pose_b: placed(1., 0.5, 0.),
    };
    assert!(close(capsule_capsule_depth(&pair), 0.5, [1.0, 0.0, 0.0]));
    let apart = Case { pose_b: placed(1.6, 0.0, 0.0), ..pair };
    assert!(capsule_capsule_depth(&apart).is_none());
}

/// Verdicts of ours and parry's on every pair; the worst `f64` depth difference.
fn compare<O: ContactQuery, P: ContactQuery>(ours: &[O], parry: &[P]) -> (usize, f64) {
    let mut differing = 0;
    let mut worst = 0.0_f64;
    for (o, p) in ours.iter().zip(parry) {
        match (o.contact(), p.contact()) {
            (Some(o), Some(p)) => worst = worst.max((o.depth - p.depth).abs()),
            (None, None) => {}
            _ => differing += 1,
        }
    }
    (differing, worst)
}

fn check3<A: Spec3, B: Spec3>(w: &Workload<A, B, Placement3>, exact: bool) {
    let (d32, _) = compare(&w.ours::<Vec3>().unwrap(), &w.parry().unwrap());
    let (d64, worst) = compare(&w.ours::<DVec3>().unwrap(), &w.parry_f64().unwrap());
    check(w.name, d32, d64, worst, exact);
}

fn check2<A: Spec2, B: Spec2>(w: &Workload<A, B, Placement2>, exact: bool) {
    let (d32, _) = compare(&w.ours::<Vec2>().unwrap(), &w.parry().unwrap());
    let (d64, worst) = compare(&w.ours::<DVec2>().unwrap(), &w.parry_f64().unwrap());
    check(w.name, d32, d64, worst, exact);
}

fn check(name: &str, d32: usize, d64: usize, worst: f64, exact: bool) {
    assert_eq!(d32, 0, "{name}: f32 contact verdicts differ from parry's");
    assert_eq!(d64, 0, "{name}: f64 contact verdicts differ from parry's");
    if exact {
        assert!(worst <= 1e-9, "{name}: f64 depths differ from parry's by {worst:e}");
    }
}

#[test]
fn contacts_agree_with_parry_on_every_standard_workload() {
    check3(&workload::box_box(), true);
    check3(&workload::sphere_box(), true);
    check3(&workload::capsule_capsule(), false);
    check3(&workload::hull_32(), true);
    check3(&workload::hull_1000(), true);
    check3(&workload::cylinder_cone(), false);
    check2(&workload::polygon_8(), true);
    check2(&workload::circle_polygon(), true);
    check2(&workload::tutorial_triangles(), true);
}

/// The hull oracle (separating axes from parry's hull faces and edges) against the box oracle
/// (the 15 axes of the boxes' frames) on the box workload, each box given as its 8 corners.
#[test]
fn hull_depth_oracle_matches_the_box_oracle() {
    let corners = |b: &CuboidSpec| {
        let [x, y, z] = b.half_extents;
        let points = (0..8)
            .map(|i: i32| {
                let s = |bit: i32| if i & bit == 0 { -1.0 } else { 1.0 };
                [s(1) * x, s(2) * y, s(4) * z]
            })
            .collect();
        crate::spec::HullSpec3 { points }
    };
    let mut penetrating = 0;
    for c in &workload::box_box().cases {
        let hulls = Case { a: corners(&c.a), b: corners(&c.b), pose_a: c.pose_a, pose_b: c.pose_b };
        let (from_hulls, from_boxes) = (depth::hull_hull_depth(&hulls).unwrap(), box_box_depth(c));
        assert_eq!(from_hulls.is_some(), from_boxes.is_some());
        if let (Some(h), Some(b)) = (from_hulls, from_boxes) {
            penetrating += 1;
            assert!((h.depth - b.depth).abs() < 1e-12, "{} against {}", h.depth, b.depth);
            assert!(angle(h.normal, b.normal) < 1e-9);
        }
    }
    assert!(penetrating > 400);
}
