//! Contact manifolds against independent oracles.
//!
//! * Box on box, face to face: the patch is the overlap rectangle of the two faces, computed in
//!   closed form (interval intersections); a box rotated about the normal and lying inside the
//!   other's face: its four bottom corners, rotated by hand. Depths: the overlap along the
//!   normal, `ha + hb − gap of centres` (the separating plane). f64 within 1e-9, f32 within 1e-4.
//! * 2D: a square resting on a polygon's flat edge: the two ends of the overlap interval.
//! * Surfaces: every point lies on both surfaces, checked by each shape's definition (a box:
//!   `max |xᵢ| − hᵢ = 0` in its frame; a hull: the largest excess over the planes through its
//!   faces, enumerated by brute force from the points, is 0; a capsule: the distance to its
//!   segment is the radius), within 1e-7 of the size (f64).
//! * Ids: the same set of ids after small translations and rotations.
//! * Capsules, balls, speculative points, f32, degenerate input (touching, identical, tiny and
//!   huge scales, flat hulls): counts and finiteness, never a panic or NaN.

use crate::common;

use common::Rng;
use gjk::{
    contact, manifold, Ball, Capsule, Cone, ContactId, Cuboid, Cylinder, ManifoldOptions,
    ManifoldResult, ManifoldStatus, Polytope, Pose, Real, Rounded, Vector,
};
use glam::{DQuat, DVec2, DVec3, Quat, Vec3};

fn options(prediction: f64) -> ManifoldOptions<f64> {
    ManifoldOptions { prediction, ..Default::default() }
}

fn pose3(t: DVec3, q: DQuat) -> Pose<DVec3> {
    Pose::new(q, t).unwrap()
}

/// Every point of `found` equals one point of `expected` (and the counts agree), within `tol`.
fn same_set(found: &[DVec3], expected: &[DVec3], tol: f64) {
    assert_eq!(found.len(), expected.len(), "{found:?} against {expected:?}");
    for e in expected {
        assert!(found.iter().any(|f| (*f - *e).length() < tol), "{e} missing from {found:?}");
    }
}

/// `max |xᵢ| − hᵢ` of a world point for a box with half extents `h` at `pose`: 0 on the surface.
fn box_excess(h: DVec3, pose: &Pose<DVec3>, p: DVec3) -> f64 {
    let local = pose.inverse_transform_point(p);
    (local.abs() - h).max_element()
}

fn assert_sane<V: Vector>(m: &ManifoldResult<V>) {
    assert!(m.normal.is_finite(), "{m:?}");
    for p in m.points() {
        assert!(p.point_a.is_finite() && p.point_b.is_finite() && p.depth.is_finite(), "{m:?}");
    }
}

#[test]
fn box_on_box_gives_the_overlap_rectangle_corners() {
    let mut rng = Rng::new(14);
    for _ in 0..200 {
        let ha = DVec3::new(rng.range(0.5, 2.0), rng.range(0.5, 2.0), rng.range(0.5, 2.0));
        let hb = DVec3::new(rng.range(0.5, 2.0), rng.range(0.5, 2.0), rng.range(0.5, 2.0));
        let sink = rng.range(0.001, 0.1);
        // B on top of A, overlapping in x and z by more than the sink (so that y is the axis
        // of least overlap).
        let tx = rng.range(-(ha.x + hb.x) * 0.8, (ha.x + hb.x) * 0.8);
        let tz = rng.range(-(ha.z + hb.z) * 0.8, (ha.z + hb.z) * 0.8);
        let t = DVec3::new(tx, ha.y + hb.y - sink, tz);
        let (a, b) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
        let m = manifold(&a, &Pose::IDENTITY, &b, &pose3(t, DQuat::IDENTITY), &options(0.0));
        assert_eq!(m.status, ManifoldStatus::Clipped { reference_is_a: true });
        assert!((m.normal - DVec3::Y).length() < 1e-12);
        let (x0, x1) = ((-ha.x).max(tx - hb.x), ha.x.min(tx + hb.x));
        let (z0, z1) = ((-ha.z).max(tz - hb.z), ha.z.min(tz + hb.z));
        let corners = [(x0, z0), (x1, z0), (x1, z1), (x0, z1)];
        let on_a: Vec<DVec3> = corners.iter().map(|&(x, z)| DVec3::new(x, ha.y, z)).collect();
        let on_b: Vec<DVec3> =
            corners.iter().map(|&(x, z)| DVec3::new(x, ha.y - sink, z)).collect();
        let found_a: Vec<DVec3> = m.points().iter().map(|p| p.point_a).collect();
        let found_b: Vec<DVec3> = m.points().iter().map(|p| p.point_b).collect();
        same_set(&found_a, &on_a, 1e-9);
        same_set(&found_b, &on_b, 1e-9);
        for p in m.points() {
            assert!((p.depth - sink).abs() < 1e-9, "{p:?} against {sink}");
            assert!(((p.point_a - p.point_b).dot(m.normal) - p.depth).abs() < 1e-9);
        }
    }
}

#[test]
fn box_rotated_about_the_normal_inside_the_face_gives_its_corners() {
    let mut rng = Rng::new(15);
    let ha = DVec3::new(3.0, 0.5, 3.0);
    for _ in 0..200 {
        let hb = DVec3::new(rng.range(0.3, 1.0), rng.range(0.3, 1.0), rng.range(0.3, 1.0));
        let angle = rng.range(-3.0, 3.0);
        let q = DQuat::from_rotation_y(angle);
        let sink = rng.range(0.001, 0.1);
        let t = DVec3::new(rng.range(-1.5, 1.5), ha.y + hb.y - sink, rng.range(-1.5, 1.5));
        let pose_b = pose3(t, q);
        let (a, b) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
        let m = manifold(&a, &Pose::IDENTITY, &b, &pose_b, &options(0.0));
        assert!(matches!(m.status, ManifoldStatus::Clipped { .. }), "{m:?}");
        assert!((m.normal - DVec3::Y).length() < 1e-9);
        let bottom: Vec<DVec3> = [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
            .iter()
            .map(|&(sx, sz)| t + q * DVec3::new(sx * hb.x, -hb.y, sz * hb.z))
            .collect();
        let found_b: Vec<DVec3> = m.points().iter().map(|p| p.point_b).collect();
        same_set(&found_b, &bottom, 1e-9);
        for p in m.points() {
            assert!((p.depth - sink).abs() < 1e-9);
            assert!((p.point_a.y - ha.y).abs() < 1e-9);
            assert!((p.point_a - (p.point_b + DVec3::Y * sink)).length() < 1e-9);
        }
    }
}

#[test]
fn overhanging_rotated_box_points_lie_on_both_surfaces_and_in_the_overlap() {
    // B rotated about the normal and hanging over A's edge: the overlap is an octagon at most;
    // the manifold keeps 4 of its corners. Oracle: each point is on both boxes' surfaces, and a
    // corner of the overlap (inside both faces, on the boundary of one).
    let mut rng = Rng::new(16);
    for _ in 0..300 {
        let ha = DVec3::new(rng.range(0.5, 2.0), 0.5, rng.range(0.5, 2.0));
        let hb = DVec3::new(rng.range(0.5, 2.0), 0.5, rng.range(0.5, 2.0));
        let q = DQuat::from_rotation_y(rng.range(-3.0, 3.0));
        let sink = rng.range(0.001, 0.05);
        let t = DVec3::new(rng.range(-1.5, 1.5), 1.0 - sink, rng.range(-1.5, 1.5));
        let pose_b = pose3(t, q);
        let (a, b) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
        let m = manifold(&a, &Pose::IDENTITY, &b, &pose_b, &options(0.0));
        assert_sane(&m);
        if m.points().is_empty() {
            assert_eq!(m.status, ManifoldStatus::Apart);
            continue;
        }
        assert!((m.normal - DVec3::Y).length() < 1e-9, "{m:?}");
        assert!(m.points().len() >= 3, "{m:?}");
        for p in m.points() {
            assert!(box_excess(ha, &Pose::IDENTITY, p.point_a).abs() < 1e-9, "{p:?}");
            assert!(box_excess(hb, &pose_b, p.point_b).abs() < 1e-9, "{p:?}");
            assert!((p.point_a.y - ha.y).abs() < 1e-9 && (p.depth - sink).abs() < 1e-9);
            // In both faces' rectangles (xz), on the boundary of at least one.
            let local = pose_b.inverse_transform_point(p.point_b);
            let in_a = (p.point_a.x.abs() - ha.x).max(p.point_a.z.abs() - ha.z);
            let in_b = (local.x.abs() - hb.x).max(local.z.abs() - hb.z);
            assert!(in_a < 1e-9 && in_b < 1e-9, "{p:?}");
            assert!(in_a.abs() < 1e-9 || in_b.abs() < 1e-9, "{p:?} is not a corner");
        }
        // The deepest point is kept and the 4 span an area: no two coincide.
        for (i, p) in m.points().iter().enumerate() {
            for r in &m.points()[i + 1..] {
                assert!((p.point_a - r.point_a).length() > 1e-9);
            }
        }
    }
}

#[test]
fn random_rotated_boxes_points_lie_on_both_surfaces() {
    let mut rng = Rng::new(17);
    let mut clipped = 0;
    for _ in 0..500 {
        let ha = DVec3::new(rng.range(0.5, 2.0), rng.range(0.5, 2.0), rng.range(0.5, 2.0));
        let hb = DVec3::new(rng.range(0.5, 2.0), rng.range(0.5, 2.0), rng.range(0.5, 2.0));
        let qa = DQuat::from_euler(
            glam::EulerRot::XYZ,
            rng.range(-3.0, 3.0),
            rng.range(-3.0, 3.0),
            rng.range(-3.0, 3.0),
        );
        let qb = DQuat::from_euler(
            glam::EulerRot::XYZ,
            rng.range(-3.0, 3.0),
            rng.range(-3.0, 3.0),
            rng.range(-3.0, 3.0),
        );
        let pa =
            pose3(DVec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)), qa);
        let pb =
            pose3(DVec3::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)), qb);
        let (a, b) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
        let prediction = 0.1;
        let m = manifold(&a, &pa, &b, &pb, &options(prediction));
        assert_sane(&m);
        let c = contact(&a, &pa, &b, &pb, prediction);
        assert_eq!(c.is_some(), !m.points().is_empty());
        let Some(c) = c else { continue };
        if matches!(m.status, ManifoldStatus::Clipped { .. }) {
            clipped += 1;
        }
        assert!((m.normal.length() - 1.0).abs() < 1e-9);
        for p in m.points() {
            assert!(box_excess(ha, &pa, p.point_a).abs() < 1e-7, "{p:?} {m:?}");
            assert!(box_excess(hb, &pb, p.point_b).abs() < 1e-7, "{p:?} {m:?}");
            assert!(((p.point_a - p.point_b).dot(m.normal) - p.depth).abs() < 1e-7);
            // No point is deeper than the penetration depth (up to the reference face's
            // choice, which may take a face that separates worse by 1e-4 of the pair's size,
            // here below 20), nor farther than the prediction.
            assert!(p.depth <= c.depth + 2e-3, "{p:?} deeper than {c:?}");
            assert!(p.depth >= -prediction - 1e-7);
        }
    }
    assert!(clipped > 50, "only {clipped} patches");
}

/// Brute-force planes of a point set's hull: every plane through 3 points with all points on one
/// side (outward normal, offset).
fn hull_planes(points: &[DVec3]) -> Vec<(DVec3, f64)> {
    let mut planes = Vec::new();
    let n = points.len();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let normal = (points[j] - points[i]).cross(points[k] - points[i]);
                if normal.length() < 1e-9 {
                    continue;
                }
                let normal = normal.normalize();
                let offset = normal.dot(points[i]);
                let above = points.iter().any(|p| normal.dot(*p) > offset + 1e-9);
                let below = points.iter().any(|p| normal.dot(*p) < offset - 1e-9);
                match (above, below) {
                    (false, _) => planes.push((normal, offset)),
                    (true, false) => planes.push((-normal, -offset)),
                    _ => {}
                }
            }
        }
    }
    planes
}

/// The largest excess of `p` over the planes: 0 on the surface, `< 0` inside.
fn hull_excess(planes: &[(DVec3, f64)], p: DVec3) -> f64 {
    planes.iter().map(|(n, o)| n.dot(p) - o).fold(f64::NEG_INFINITY, f64::max)
}

#[test]
fn hull_pairs_points_lie_on_both_surfaces() {
    let mut rng = Rng::new(18);
    let mut patches = 0;
    for round in 0..120 {
        let count = 8 + round % 12;
        let cloud = |rng: &mut Rng| -> Vec<DVec3> {
            (0..count)
                .map(|_| {
                    DVec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0))
                })
                .collect()
        };
        let (pa_points, pb_points) = (cloud(&mut rng), cloud(&mut rng));
        let (a, b) =
            (Polytope::new(pa_points.clone()).unwrap(), Polytope::new(pb_points.clone()).unwrap());
        let pb = pose3(
            DVec3::new(rng.range(-1.5, 1.5), rng.range(-1.5, 1.5), rng.range(-1.5, 1.5)),
            DQuat::from_rotation_x(rng.range(-3.0, 3.0)),
        );
        let m = manifold(&a, &Pose::IDENTITY, &b, &pb, &options(0.05));
        assert_sane(&m);
        let (planes_a, planes_b) = (hull_planes(&pa_points), hull_planes(&pb_points));
        if matches!(m.status, ManifoldStatus::Clipped { .. }) {
            patches += 1;
        }
        for p in m.points() {
            assert!(hull_excess(&planes_a, p.point_a).abs() < 1e-7, "{p:?} {m:?}");
            let local_b = pb.inverse_transform_point(p.point_b);
            assert!(hull_excess(&planes_b, local_b).abs() < 1e-7, "{p:?} {m:?}");
        }
    }
    assert!(patches > 10, "only {patches} patches");
}

#[test]
fn a_hull_cube_on_a_box_merges_its_triangles_into_one_face() {
    let corners: Vec<DVec3> = (0..8)
        .map(|i| {
            DVec3::new(
                if i & 1 == 0 { -0.5 } else { 0.5 },
                if i & 2 == 0 { -0.5 } else { 0.5 },
                if i & 4 == 0 { -0.5 } else { 0.5 },
            )
        })
        .collect();
    let cube = Polytope::new(corners).unwrap();
    let table = Cuboid::new(DVec3::new(2.0, 0.5, 2.0)).unwrap();
    let t = DVec3::new(0.2, 0.98, 0.1);
    let m = manifold(&table, &Pose::IDENTITY, &cube, &pose3(t, DQuat::IDENTITY), &options(0.0));
    assert_eq!(m.points().len(), 4, "{m:?}");
    let expected: Vec<DVec3> = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
        .iter()
        .map(|&(x, z)| DVec3::new(t.x + x, 0.48, t.z + z))
        .collect();
    same_set(&m.points().iter().map(|p| p.point_b).collect::<Vec<_>>(), &expected, 1e-9);
    // And with the hull as A (reference: the hull's merged face).
    let m = manifold(&cube, &pose3(t, DQuat::IDENTITY), &table, &Pose::IDENTITY, &options(0.0));
    assert_eq!(m.points().len(), 4, "{m:?}");
    same_set(&m.points().iter().map(|p| p.point_a).collect::<Vec<_>>(), &expected, 1e-9);
}

#[test]
fn square_on_polygon_in_2d_gives_the_two_ends_of_the_overlap() {
    let ground = Polytope::new(vec![
        DVec2::new(-3.0, -1.0),
        DVec2::new(3.0, -1.0),
        DVec2::new(2.0, 0.0),
        DVec2::new(-2.0, 0.0),
    ])
    .unwrap();
    let mut rng = Rng::new(19);
    for _ in 0..200 {
        let h = DVec2::new(rng.range(0.2, 1.0), rng.range(0.2, 1.0));
        let sink = rng.range(0.001, 0.1);
        let x = rng.range(-2.0 - h.x * 0.9, 2.0 + h.x * 0.9);
        let pose = Pose::from_translation(DVec2::new(x, h.y - sink)).unwrap();
        let square = Cuboid::new(h).unwrap();
        for (polygon, note) in [(true, "polygon"), (false, "box as A")] {
            let m = if polygon {
                manifold(&ground, &Pose::IDENTITY, &square, &pose, &ManifoldOptions::default())
            } else {
                manifold(&square, &pose, &ground, &Pose::IDENTITY, &ManifoldOptions::default())
            };
            assert!(matches!(m.status, ManifoldStatus::Clipped { .. }), "{note} {m:?}");
            assert_eq!(m.points().len(), 2, "{note} {m:?}");
            let (x0, x1) = ((-2.0f64).max(x - h.x), 2.0f64.min(x + h.x));
            let mut xs: Vec<f64> = m.points().iter().map(|p| p.point_a.x).collect();
            xs.sort_by(f64::total_cmp);
            assert!(
                (xs[0] - x0).abs() < 1e-9 && (xs[1] - x1).abs() < 1e-9,
                "{note} {xs:?} {x0} {x1}"
            );
            for p in m.points() {
                assert!((p.depth - sink).abs() < 1e-9, "{note} {p:?}");
                let (ground_y, square_y) =
                    if polygon { (p.point_a.y, p.point_b.y) } else { (p.point_b.y, p.point_a.y) };
                assert!(ground_y.abs() < 1e-9 && (square_y + sink).abs() < 1e-9, "{note} {p:?}");
            }
        }
    }
}

#[test]
fn polygon_pairs_in_2d_points_lie_on_both_surfaces() {
    let mut rng = Rng::new(20);
    for _ in 0..300 {
        let cloud = |rng: &mut Rng| -> Vec<DVec2> {
            (0..8).map(|_| DVec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0))).collect()
        };
        let (pa, pb) = (cloud(&mut rng), cloud(&mut rng));
        let (a, b) = (Polytope::new(pa.clone()).unwrap(), Polytope::new(pb.clone()).unwrap());
        let pose_b = Pose::from_angle_translation(
            rng.range(-3.0, 3.0),
            DVec2::new(rng.range(-1.5, 1.5), rng.range(-1.5, 1.5)),
        )
        .unwrap();
        let m = manifold(&a, &Pose::IDENTITY, &b, &pose_b, &options(0.05));
        assert_sane(&m);
        assert!(m.points().len() <= 2);
        // Brute-force edges' lines: excess over every line through two points with all on one side.
        let excess = |points: &[DVec2], p: DVec2| {
            let mut worst = f64::NEG_INFINITY;
            for i in 0..points.len() {
                for j in 0..points.len() {
                    if i == j {
                        continue;
                    }
                    let e = points[j] - points[i];
                    let n = DVec2::new(e.y, -e.x).normalize();
                    if points.iter().all(|q| n.dot(*q - points[i]) <= 1e-12) {
                        worst = worst.max(n.dot(p - points[i]));
                    }
                }
            }
            worst
        };
        for p in m.points() {
            assert!(excess(&pa, p.point_a).abs() < 1e-7, "{p:?} {m:?}");
            assert!(excess(&pb, pose_b.inverse_transform_point(p.point_b)).abs() < 1e-7, "{p:?}");
            assert!(((p.point_a - p.point_b).dot(m.normal) - p.depth).abs() < 1e-7);
        }
    }
}

fn id_set(m: &ManifoldResult<DVec3>) -> Vec<ContactId> {
    let mut ids: Vec<ContactId> = m.points().iter().map(|p| p.id).collect();
    ids.sort();
    ids
}

#[test]
fn ids_stay_the_same_under_small_motions() {
    let (a, b) =
        (Cuboid::new(DVec3::new(2.0, 0.5, 2.0)).unwrap(), Cuboid::new(DVec3::splat(0.5)).unwrap());
    let mut rng = Rng::new(21);
    // Inside the face (4 incident corners) and hanging over an edge (clipped points).
    for base in
        [DVec3::new(0.3, 0.99, 0.2), DVec3::new(1.8, 0.99, -0.4), DVec3::new(1.8, 0.99, 1.7)]
    {
        let start = manifold(
            &a,
            &Pose::IDENTITY,
            &b,
            &pose3(base, DQuat::from_rotation_y(0.3)),
            &options(0.0),
        );
        let ids = id_set(&start);
        assert!(ids.len() >= 3, "{start:?}");
        let unique: std::collections::BTreeSet<_> = ids.iter().collect();
        assert_eq!(unique.len(), ids.len(), "ids must be distinct: {ids:?}");
        for _ in 0..50 {
            let t = base
                + DVec3::new(
                    rng.range(-1e-3, 1e-3),
                    rng.range(-1e-3, 1e-3),
                    rng.range(-1e-3, 1e-3),
                );
            let q = DQuat::from_rotation_y(0.3 + rng.range(-1e-3, 1e-3))
                * DQuat::from_rotation_x(rng.range(-1e-4, 1e-4));
            let m = manifold(&a, &Pose::IDENTITY, &b, &pose3(t, q), &options(0.01));
            assert_eq!(id_set(&m), ids, "{m:?}");
        }
    }
    // 2D: a square on a polygon.
    let ground = Polytope::new(vec![
        DVec2::new(-3.0, -1.0),
        DVec2::new(3.0, -1.0),
        DVec2::new(2.0, 0.0),
        DVec2::new(-2.0, 0.0),
    ])
    .unwrap();
    let square = Cuboid::new(DVec2::splat(0.5)).unwrap();
    let at = |x: f64, angle: f64| Pose::from_angle_translation(angle, DVec2::new(x, 0.49)).unwrap();
    let first =
        manifold(&ground, &Pose::IDENTITY, &square, &at(1.8, 0.0), &ManifoldOptions::default());
    let ids: Vec<ContactId> = first.points().iter().map(|p| p.id).collect();
    assert_eq!(ids.len(), 2);
    for _ in 0..50 {
        let m = manifold(
            &ground,
            &Pose::IDENTITY,
            &square,
            &at(1.8 + rng.range(-1e-3, 1e-3), rng.range(-1e-4, 1e-4)),
            &options(0.01),
        );
        let mut now: Vec<ContactId> = m.points().iter().map(|p| p.id).collect();
        let mut was = ids.clone();
        now.sort();
        was.sort();
        assert_eq!(now, was, "{m:?}");
    }
}

#[test]
fn capsule_lying_on_a_box_gives_two_points() {
    let table = Cuboid::new(DVec3::new(2.0, 0.5, 2.0)).unwrap();
    let capsule =
        Capsule::new(DVec3::new(-0.7, 0.0, 0.0), DVec3::new(0.7, 0.0, 0.0), 0.25).unwrap();
    let mut rng = Rng::new(22);
    for _ in 0..100 {
        let sink = rng.range(0.001, 0.1);
        // The ends stay over the table's top (|x|, |z| ≤ 1.7 < 2).
        let t = DVec3::new(rng.range(-1.0, 1.0), 0.75 - sink, rng.range(-1.0, 1.0));
        let q = DQuat::from_rotation_y(rng.range(-3.0, 3.0));
        let pose = pose3(t, q);
        for swap in [false, true] {
            let m = if swap {
                manifold(&capsule, &pose, &table, &Pose::IDENTITY, &options(0.0))
            } else {
                manifold(&table, &Pose::IDENTITY, &capsule, &pose, &options(0.0))
            };
            assert_eq!(m.points().len(), 2, "{m:?}");
            let ends = [
                pose.transform_point(DVec3::new(-0.7, 0.0, 0.0)),
                pose.transform_point(DVec3::new(0.7, 0.0, 0.0)),
            ];
            for p in m.points() {
                let (on_table, on_capsule) =
                    if swap { (p.point_b, p.point_a) } else { (p.point_a, p.point_b) };
                assert!((p.depth - sink).abs() < 1e-9, "{p:?}");
                assert!((on_table.y - 0.5).abs() < 1e-9);
                // Under one end of the segment, at the radius from it.
                let end = ends.iter().find(|e| {
                    (e.x - on_capsule.x).abs() < 1e-9 && (e.z - on_capsule.z).abs() < 1e-9
                });
                let end = end.unwrap_or_else(|| panic!("{p:?} not under an end of {ends:?}"));
                assert!(((*end - on_capsule).length() - 0.25).abs() < 1e-9);
            }
        }
    }
    // Standing on its end: one point.
    let upright = pose3(
        DVec3::new(0.0, 0.5 + 0.7 + 0.25 - 0.01, 0.0),
        DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2),
    );
    let m = manifold(&table, &Pose::IDENTITY, &capsule, &upright, &options(0.0));
    assert_eq!(m.points().len(), 1, "{m:?}");
    assert!((m.points()[0].depth - 0.01).abs() < 1e-9);
}

#[test]
fn parallel_capsules_give_two_points_and_crossed_ones_one() {
    let capsule = Capsule::new(DVec3::new(-1.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 0.0), 0.5).unwrap();
    let over = pose3(DVec3::new(0.5, 0.9, 0.0), DQuat::IDENTITY);
    let m = manifold(&capsule, &Pose::IDENTITY, &capsule, &over, &options(0.0));
    assert_eq!(m.points().len(), 2, "{m:?}");
    let mut xs: Vec<f64> = m.points().iter().map(|p| p.point_a.x).collect();
    xs.sort_by(f64::total_cmp);
    assert!((xs[0] + 0.5).abs() < 1e-9 && (xs[1] - 1.0).abs() < 1e-9, "{xs:?}");
    for p in m.points() {
        assert!((p.depth - 0.1).abs() < 1e-9 && (p.point_a.y - 0.5).abs() < 1e-9);
    }
    let crossed = pose3(DVec3::new(0.0, 0.9, 0.0), DQuat::from_rotation_y(1.0));
    let m = manifold(&capsule, &Pose::IDENTITY, &capsule, &crossed, &options(0.0));
    assert_eq!(m.points().len(), 1, "{m:?}");
    assert!((m.points()[0].depth - 0.1).abs() < 1e-9);
}

#[test]
fn a_ball_gives_the_contact_point() {
    let table = Cuboid::new(DVec3::new(2.0, 0.5, 2.0)).unwrap();
    let ball = Ball::new(0.3).unwrap();
    let pose = pose3(DVec3::new(0.4, 0.75, 0.1), DQuat::IDENTITY);
    let m = manifold(&table, &Pose::IDENTITY, &ball, &pose, &options(0.0));
    assert_eq!(m.status, ManifoldStatus::SinglePoint);
    assert_eq!(m.points().len(), 1);
    let p = m.points()[0];
    assert!((p.depth - 0.05).abs() < 1e-12);
    assert!((p.point_a - DVec3::new(0.4, 0.5, 0.1)).length() < 1e-12);
    assert!((p.point_b - DVec3::new(0.4, 0.45, 0.1)).length() < 1e-12);
}

#[test]
fn speculative_points_appear_only_within_the_prediction() {
    let (a, b) =
        (Cuboid::new(DVec3::new(2.0, 0.5, 2.0)).unwrap(), Cuboid::new(DVec3::splat(0.5)).unwrap());
    // 0.05 apart: 4 speculative points at prediction 0.1, none at 0.01.
    let apart = pose3(DVec3::new(0.0, 1.05, 0.0), DQuat::IDENTITY);
    let m = manifold(&a, &Pose::IDENTITY, &b, &apart, &options(0.1));
    assert_eq!(m.points().len(), 4);
    assert!(m.points().iter().all(|p| (p.depth + 0.05).abs() < 1e-12));
    let m = manifold(&a, &Pose::IDENTITY, &b, &apart, &options(0.01));
    assert_eq!(m.status, ManifoldStatus::Apart);
    assert!(m.points().is_empty());
    // Tilted about z: one edge touches, the other rises 2 sin θ: kept only within the prediction.
    let angle: f64 = 0.05;
    let lowest = 0.5 * angle.cos() + 0.5 * angle.sin();
    let tilted = pose3(DVec3::new(0.0, 0.5 + lowest - 0.001, 0.0), DQuat::from_rotation_z(angle));
    let rise = 2.0 * 0.5 * angle.sin();
    for (prediction, expected) in [(0.0, 2), (rise + 0.01, 4)] {
        let m = manifold(&a, &Pose::IDENTITY, &b, &tilted, &options(prediction));
        assert_eq!(m.points().len(), expected, "{prediction}: {m:?}");
        for p in m.points() {
            assert!(p.depth >= -prediction - 1e-12 && p.depth <= 0.001 + 1e-12, "{p:?}");
        }
    }
}

#[test]
fn f32_box_on_box() {
    let (a, b) =
        (Cuboid::new(Vec3::new(2.0, 0.5, 2.0)).unwrap(), Cuboid::new(Vec3::splat(0.5)).unwrap());
    let pose = Pose::new(Quat::from_rotation_y(0.4), Vec3::new(0.3, 0.98, -0.2)).unwrap();
    let m = manifold(&a, &Pose::IDENTITY, &b, &pose, &ManifoldOptions::default());
    assert_eq!(m.points().len(), 4);
    for p in m.points() {
        assert!((p.depth - 0.02).abs() < 1e-4 && (p.point_a.y - 0.5).abs() < 1e-4);
    }
    let square = Cuboid::new(glam::Vec2::ONE).unwrap();
    let pose = Pose::from_translation(glam::Vec2::new(0.5, 1.9)).unwrap();
    let m = manifold(&square, &Pose::IDENTITY, &square, &pose, &ManifoldOptions::default());
    assert_eq!(m.points().len(), 2);
    assert!(m.points().iter().all(|p| (p.depth - 0.1).abs() < 1e-4));
}

#[test]
fn cylinder_standing_on_a_box_and_lying_on_it() {
    let table = Cuboid::new(DVec3::new(3.0, 0.5, 3.0)).unwrap();
    let cylinder = Cylinder::new(0.5, 0.4).unwrap();
    let standing = pose3(DVec3::new(0.2, 0.99, 0.3), DQuat::IDENTITY);
    let m = manifold(&table, &Pose::IDENTITY, &cylinder, &standing, &options(0.0));
    assert_eq!(m.points().len(), 4, "{m:?}");
    for p in m.points() {
        let r = p.point_b - standing.translation();
        let radial = DVec2::new(r.x, r.z).length();
        assert!(radial <= 0.4 + 1e-9 && radial > 0.35, "{p:?}");
        assert!((p.depth - 0.01).abs() < 1e-9);
    }
    let lying =
        pose3(DVec3::new(0.2, 0.89, 0.3), DQuat::from_rotation_x(std::f64::consts::FRAC_PI_2));
    let m = manifold(&table, &Pose::IDENTITY, &cylinder, &lying, &options(0.0));
    assert_eq!(m.points().len(), 2, "{m:?}");
    assert!(m.points().iter().all(|p| (p.depth - 0.01).abs() < 1e-9));
}

#[test]
fn cone_on_its_base_gives_four_rim_points_and_on_its_apex_one() {
    let table = Cuboid::new(DVec3::new(3.0, 0.5, 3.0)).unwrap();
    let cone = Cone::new(0.6, 0.4).unwrap();
    let standing = pose3(DVec3::new(0.2, 0.5 + 0.6 - 0.01, 0.3), DQuat::IDENTITY);
    let m = manifold(&table, &Pose::IDENTITY, &cone, &standing, &options(0.0));
    assert_eq!(m.points().len(), 4, "{m:?}");
    for p in m.points() {
        let r = p.point_b - standing.translation();
        let radial = DVec2::new(r.x, r.z).length();
        assert!((radial - 0.4).abs() < 1e-9, "{p:?}"); // corners of the inscribed octagon
        assert!((p.depth - 0.01).abs() < 1e-9 && (p.point_a.y - 0.5).abs() < 1e-9);
    }
    let upside_down =
        pose3(DVec3::new(0.2, 0.5 + 0.6 - 0.01, 0.3), DQuat::from_rotation_x(std::f64::consts::PI));
    let m = manifold(&table, &Pose::IDENTITY, &cone, &upside_down, &options(0.0));
    assert_eq!(m.points().len(), 1, "{m:?}");
    assert!((m.points()[0].point_b - DVec3::new(0.2, 0.49, 0.3)).length() < 1e-9);
}

#[test]
fn rounded_boxes_push_the_patch_out_by_the_margins() {
    let a = Rounded::new(Cuboid::new(DVec3::new(2.0, 0.4, 2.0)).unwrap(), 0.1).unwrap();
    let b = Rounded::new(Cuboid::new(DVec3::splat(0.4)).unwrap(), 0.1).unwrap();
    let pose = pose3(DVec3::new(0.0, 0.98, 0.0), DQuat::IDENTITY);
    let m = manifold(&a, &Pose::IDENTITY, &b, &pose, &options(0.0));
    assert_eq!(m.points().len(), 4, "{m:?}");
    for p in m.points() {
        assert!((p.depth - 0.02).abs() < 1e-9);
        assert!((p.point_a.y - 0.5).abs() < 1e-9 && (p.point_b.y - 0.48).abs() < 1e-9);
        assert!((p.point_a.x.abs() - 0.4).abs() < 1e-9);
    }
}

#[test]
fn degenerate_input_never_panics_nor_gives_nan() {
    let unit = Cuboid::new(DVec3::splat(0.5)).unwrap();
    // Identical shapes at the same pose; exactly touching; tiny and huge scales.
    let m = manifold(&unit, &Pose::IDENTITY, &unit, &Pose::IDENTITY, &options(0.0));
    assert_sane(&m);
    assert!(!m.points().is_empty());
    let touching = pose3(DVec3::new(0.2, 1.0, 0.0), DQuat::IDENTITY);
    let m = manifold(&unit, &Pose::IDENTITY, &unit, &touching, &options(0.0));
    assert_sane(&m);
    assert_eq!(m.points().len(), 4, "{m:?}");
    for scale in [1e-6, 1e-3, 1e3, 1e6] {
        let (a, b) = (
            Cuboid::new(DVec3::splat(scale)).unwrap(),
            Cuboid::new(DVec3::splat(0.5 * scale)).unwrap(),
        );
        let pose = pose3(DVec3::new(0.1, 1.49, 0.2) * scale, DQuat::from_rotation_y(0.3));
        let m = manifold(&a, &Pose::IDENTITY, &b, &pose, &options(0.0));
        assert_sane(&m);
        assert_eq!(m.points().len(), 4, "{scale}: {m:?}");
        assert!(m.points().iter().all(|p| (p.depth - 0.01 * scale).abs() < 1e-8 * scale));
    }
    // Flat hulls (a square plate, a segment, a point) against a box, every side.
    let plate = Polytope::new(vec![
        DVec3::new(-0.5, 0.0, -0.5),
        DVec3::new(0.5, 0.0, -0.5),
        DVec3::new(0.5, 0.0, 0.5),
        DVec3::new(-0.5, 0.0, 0.5),
    ])
    .unwrap();
    let stick = Polytope::new(vec![DVec3::new(-0.5, 0.0, 0.0), DVec3::new(0.5, 0.0, 0.0)]).unwrap();
    let dot = Polytope::new(vec![DVec3::ZERO]).unwrap();
    let mut rng = Rng::new(23);
    for _ in 0..200 {
        let pose = pose3(
            DVec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)),
            DQuat::from_euler(glam::EulerRot::XYZ, rng.range(-3.0, 3.0), rng.range(-3.0, 3.0), 0.0),
        );
        for shape in [&plate, &stick, &dot] {
            assert_sane(&manifold(shape, &pose, &unit, &Pose::IDENTITY, &options(0.1)));
            assert_sane(&manifold(&unit, &Pose::IDENTITY, shape, &pose, &options(0.1)));
            assert_sane(&manifold(shape, &pose, shape, &Pose::IDENTITY, &options(0.1)));
        }
    }
    // A plate lying on the box: its four corners.
    let m = manifold(
        &unit,
        &Pose::IDENTITY,
        &plate,
        &pose3(DVec3::new(0.0, 0.49, 0.0), DQuat::IDENTITY),
        &options(0.0),
    );
    assert_eq!(m.points().len(), 4, "{m:?}");
    // NaN and negative predictions count as 0.
    let apart = pose3(DVec3::new(0.0, 1.05, 0.0), DQuat::IDENTITY);
    for prediction in [f64::NAN, -1.0] {
        let m = manifold(&unit, &Pose::IDENTITY, &unit, &apart, &options(prediction));
        assert_eq!(m.status, ManifoldStatus::Apart);
    }
}

/// The scene's shape enum forwards the features: a hull cube and a standing cylinder held in a
/// `gjk::Shape` give the same four points as the shapes themselves (without the forwarding the
/// enum answered the default, a hull's single support point).
#[test]
fn the_shape_enum_gives_the_same_manifolds_as_its_shapes() {
    use gjk::Shape;
    let corners: Vec<DVec3> = (0..8)
        .map(|i| DVec3::new([-0.5, 0.5][i & 1], [-0.5, 0.5][(i >> 1) & 1], [-0.5, 0.5][i >> 2]))
        .collect();
    let cube = Polytope::new(corners).unwrap();
    let cylinder = Cylinder::new(0.5, 0.4).unwrap();
    let table = Cuboid::new(DVec3::new(3.0, 0.5, 3.0)).unwrap();
    let on_table = pose3(DVec3::new(0.2, 0.99, 0.3), DQuat::IDENTITY);
    let direct = [
        manifold(&table, &Pose::IDENTITY, &cube, &on_table, &options(0.0)),
        manifold(&table, &Pose::IDENTITY, &cylinder, &on_table, &options(0.0)),
    ];
    let held: [Shape<DVec3>; 2] = [cube.into(), cylinder.into()];
    for (shape, expected) in held.iter().zip(&direct) {
        let m = manifold(&table, &Pose::IDENTITY, shape, &on_table, &options(0.0));
        assert_eq!(m.points().len(), 4, "{m:?}");
        assert_eq!(m.points(), expected.points());
    }
}
