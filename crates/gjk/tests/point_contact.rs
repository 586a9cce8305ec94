//! Contact of a point core (ball, point) deep inside a box, answered without EPA
//! ([`gjk::Core::nearest_boundary`]), against closed forms.
//!
//! The oracle, in f64 from the poses the library actually holds: with `c` the ball's centre
//! in the box's frame and `h` the half extents, the penetration depth of a ball of radius `r`
//! whose centre is inside the box is `r + minᵢ (hᵢ − |cᵢ|)`: the ball leaves through the nearest
//! face, along that face's outward normal `sign(cᵢ) eᵢ` (rotated to the world; the contact normal
//! points from A toward B, so it is minus that when the ball is A). Ties go to the lowest axis,
//! then to `+`. Independent checks: moving B by `depth × normal × (1 + 1e-6)` separates the
//! shapes (`gjk::intersects`) and `× (1 − 1e-3)` does not; and the general GJK + EPA path on the
//! same box given as a polytope of its corners agrees on the depth.
//!
//! Tolerances: depth within 1e-12 (f64) / 2e-5 (f32) absolute (shapes of size 0.5–2, as in the
//! benchmark's penetration test); normal within 1e-9 rad (f64) / 1e-4 rad (f32); witness points
//! within that plus a few rounding units of the world coordinates (1e6 away in f32, the
//! coordinates themselves are only good to 0.06).

use crate::common;

use common::{from_d, to_d, to_local, to_world, Draw, Rng, TestVector};
use gjk::{
    contact, intersects, Ball, Capsule, Contact, ContactOptions, Core, Cuboid, EpaTermination,
    Pair, Point, Polytope, Pose, Posed, Real, Rounded, Support, Termination, WarmStart,
};
use glam::{DVec2, DVec3, Vec2, Vec3};

/// Tolerances per precision: (depth, normal angle in rad, relative rounding of coordinates).
fn tolerances<V: TestVector>() -> (f64, f64, f64) {
    if V::Real::EPSILON.to_f64() > 1e-10 {
        (2e-5, 1e-4, 1.2e-7)
    } else {
        (1e-12, 1e-9, 2.3e-16)
    }
}

fn angle(a: DVec3, b: DVec3) -> f64 {
    a.cross(b).length().atan2(a.dot(b))
}

/// What the closed form says about a ball in a box: depth, normal (A toward B), points.
struct Expected {
    depth: f64,
    normal: DVec3,
    point_a: DVec3,
    point_b: DVec3,
}

/// The closed form for a ball of radius `r` centred at `centre` (world, f64) and the box `h` at
/// `pose_box`; `ball_first`: the ball is A.
fn closed_form<V: TestVector>(
    h: DVec3,
    pose_box: &Pose<V>,
    r: f64,
    centre: DVec3,
    ball_first: bool,
) -> Expected {
    let c = to_local(pose_box, centre);
    let mut axis = 0;
    for i in 1..V::DIM {
        if h[i] - c[i].abs() < h[axis] - c[axis].abs() {
            axis = i;
        }
    }
    let gap = h[axis] - c[axis].abs();
    let side = if c[axis] < 0.0 { -1.0 } else { 1.0 };
    let mut face_point = c;
    face_point[axis] = side * h[axis];
    let mut out = DVec3::ZERO;
    out[axis] = side;
    let out = V::rotation_of(pose_box) * out;
    let face = to_world(pose_box, face_point);
    if ball_first {
        Expected { depth: r + gap, normal: -out, point_a: centre - out * r, point_b: face }
    } else {
        Expected { depth: r + gap, normal: out, point_a: face, point_b: centre - out * r }
    }
}

/// A ball at `ball_pose` and the box at `box_pose`, in the order `ball_first` says.
fn query<V: TestVector>(
    ball: &Ball<V>,
    ball_pose: &Pose<V>,
    cuboid: &Cuboid<V>,
    box_pose: &Pose<V>,
    ball_first: bool,
) -> gjk::ContactResult<V> {
    let options = ContactOptions::default();
    if ball_first {
        Pair::new(ball, *ball_pose, cuboid, *box_pose)
            .contact_with(&options, &mut WarmStart::default())
    } else {
        Pair::new(cuboid, *box_pose, ball, *ball_pose)
            .contact_with(&options, &mut WarmStart::default())
    }
}

fn moved<V: TestVector>(pose: &Pose<V>, by: DVec3) -> Pose<V> {
    Pose::new(pose.rotation(), from_d::<V>(to_d(pose.translation()) + by)).unwrap()
}

/// Checks one ball-in-box configuration against the closed form; returns the depth error.
#[allow(clippy::too_many_arguments)]
fn check<V: TestVector>(
    h: DVec3,
    box_pose: &Pose<V>,
    r: f64,
    ball_pose: &Pose<V>,
    ball_first: bool,
    separation: Option<(f64, f64)>,
    what: &str,
) -> f64 {
    let (tol_depth, tol_angle, ulp) = tolerances::<V>();
    let cuboid = Cuboid::new(from_d::<V>(h)).unwrap();
    let ball = Ball::<V>::new(V::Real::from_f64(r)).unwrap();
    let centre = to_d(ball_pose.translation());
    let e = closed_form(h, box_pose, r, centre, ball_first);
    let result = query(&ball, ball_pose, &cuboid, box_pose, ball_first);
    assert_eq!(result.epa, None, "{what}: analytic, no expansion: {result:?}");
    assert_eq!(result.gjk_termination, Termination::Contained, "{what}");
    assert_eq!(result.gjk_iterations, 1, "{what}");
    let c: Contact<V> = result.contact.unwrap_or_else(|| panic!("{what}: no contact"));
    let (depth, n, pa, pb) = (c.depth.to_f64(), to_d(c.normal), to_d(c.point_a), to_d(c.point_b));
    let depth_error = (depth - e.depth).abs();
    assert!(depth_error <= tol_depth, "{what}: depth {depth} vs {}", e.depth);
    assert!((n.length() - 1.0).abs() <= tol_angle, "{what}: normal not unit: {n}");
    assert!(angle(n, e.normal) <= tol_angle, "{what}: normal {n} vs {}", e.normal);
    let coords = 8.0 * ulp * centre.abs().max_element().max(1.0);
    let tol_point = tol_depth + tol_angle * 4.0 + coords;
    assert!((pa - e.point_a).length() <= tol_point, "{what}: point_a {pa} vs {}", e.point_a);
    assert!((pb - e.point_b).length() <= tol_point, "{what}: point_b {pb} vs {}", e.point_b);
    assert!((pa - pb - n * depth).length() <= tol_point, "{what}: point_a − point_b ≠ depth × n");
    if let Some((beyond, short)) = separation {
        let (ball_pose_b, box_pose_b) = if ball_first {
            (*ball_pose, moved(box_pose, e.normal * depth * (1.0 + beyond)))
        } else {
            (moved(ball_pose, e.normal * depth * (1.0 + beyond)), *box_pose)
        };
        assert!(
            !intersects(&ball, &ball_pose_b, &cuboid, &box_pose_b),
            "{what}: still overlapping after moving B by depth × normal"
        );
        let (ball_pose_b, box_pose_b) = if ball_first {
            (*ball_pose, moved(box_pose, e.normal * depth * (1.0 - short)))
        } else {
            (moved(ball_pose, e.normal * depth * (1.0 - short)), *box_pose)
        };
        assert!(
            intersects(&ball, &ball_pose_b, &cuboid, &box_pose_b),
            "{what}: separated before the full depth"
        );
    }
    depth_error
}

/// Random boxes, the ball's centre inside near each face in turn (that face clearly the
/// nearest), ball as A and as B, poses rotated and near the origin or 1e6 away.
fn near_each_face<V: TestVector>(seed: u64, rounds: usize) -> usize {
    let (tol_depth, _, _) = tolerances::<V>();
    let f32_space = tol_depth > 1e-9;
    let mut rng = Rng::new(seed);
    let mut checked = 0;
    let mut worst: f64 = 0.0;
    let mut skipped = 0;
    for round in 0..rounds {
        for axis in 0..V::DIM {
            for side in [1.0, -1.0] {
                let h = DVec3::new(rng.range(0.5, 2.0), rng.range(0.5, 2.0), rng.range(0.5, 2.0));
                let h = to_d(from_d::<V>(h)); // as the library holds it
                let hmin = (0..V::DIM).map(|i| h[i]).fold(f64::INFINITY, f64::min);
                // Depth below the face, then the other coordinates at least 0.05·hmin deeper
                // from their faces: this face is the nearest by a clear margin.
                let gap = rng.range(0.02, 0.4) * hmin;
                let mut c = DVec3::ZERO;
                for i in 0..V::DIM {
                    c[i] = if i == axis {
                        side * (h[i] - gap)
                    } else {
                        rng.range(-1.0, 1.0) * (h[i] - gap - 0.05 * hmin)
                    };
                }
                let far = round % 2 == 1;
                let offset = if far {
                    rng.in_cube(V::DIM, 1.0) * 1e6 + DVec3::splat(1e6)
                } else {
                    rng.in_cube(V::DIM, 3.0)
                };
                let box_pose = V::pose(rng.rotation(V::DIM), offset);
                let ball_pose = V::pose(rng.rotation(V::DIM), to_world(&box_pose, c));
                // 1e6 away in f32, the centre moves by up to 0.03 per coordinate when rounded
                // to f32: keep the cases still inside with a unique nearest face (the answer is
                // checked against the rounded centre).
                let actual = to_local(&box_pose, to_d(ball_pose.translation()));
                let mut gaps: Vec<f64> = (0..V::DIM).map(|i| h[i] - actual[i].abs()).collect();
                gaps.sort_by(f64::total_cmp);
                if gaps[0] < 1e-3 || gaps[1] - gaps[0] < 1e-3 {
                    skipped += 1;
                    continue;
                }
                let r = rng.range(0.5, 2.0);
                let r = V::Real::from_f64(r).to_f64();
                // Moving B separates: in f64 at any distance; in f32 near the origin, with a
                // looser margin above the f32 touching tolerance (1e-5 of the size).
                let separation = match (f32_space, far) {
                    (false, _) => Some((1e-6, 1e-3)),
                    (true, false) => Some((1e-3, 1e-2)),
                    (true, true) => None,
                };
                for ball_first in [true, false] {
                    let what = format!(
                        "{} round {round} axis {axis} side {side} far {far} ball first {ball_first}",
                        V::NAME
                    );
                    worst = worst
                        .max(check(h, &box_pose, r, &ball_pose, ball_first, separation, &what));
                    checked += 1;
                }
            }
        }
    }
    eprintln!(
        "{}: {checked} ball-in-box contacts ({skipped} rounded out of shape), worst depth error \
         {worst:.2e}",
        V::NAME
    );
    assert!(skipped * 10 <= rounds * V::DIM * 2, "{skipped} skipped");
    checked
}

#[test]
fn ball_inside_a_box_near_each_face_f64_3d() {
    assert_eq!(near_each_face::<DVec3>(1, 200), 200 * 12);
}

#[test]
fn ball_inside_a_box_near_each_face_f32_3d() {
    assert!(near_each_face::<Vec3>(2, 200) >= 200 * 12 * 9 / 10);
}

#[test]
fn disc_inside_a_rectangle_near_each_side_2d() {
    assert_eq!(near_each_face::<DVec2>(3, 200), 200 * 8);
    assert!(near_each_face::<Vec2>(4, 200) >= 200 * 8 * 9 / 10);
}

/// The ball's centre at the box's exact centre: every face of a cube is equally near, and the
/// tie goes to `+x` of the box. Ball and box share the pose, so the centre is exactly the box's
/// centre in the query whatever the pose.
fn at_the_exact_centre<V: TestVector>(seed: u64) {
    let mut rng = Rng::new(seed);
    for case in 0..100 {
        let far = case % 2 == 1;
        let offset = if far {
            DVec3::splat(1e6) + rng.in_cube(V::DIM, 1e3)
        } else {
            rng.in_cube(V::DIM, 3.0)
        };
        let pose = V::pose(rng.rotation(V::DIM), offset);
        // A cube, and a box whose two shortest axes tie (x and y).
        for h in [DVec3::splat(1.25), DVec3::new(0.75, 0.75, 2.0)] {
            for ball_first in [true, false] {
                let what = format!("{} centre case {case} h {h} ball first {ball_first}", V::NAME);
                let separation = if tolerances::<V>().0 < 1e-9 { Some((1e-6, 1e-3)) } else { None };
                check(h, &pose, 0.5, &pose, ball_first, separation, &what);
                let cuboid = Cuboid::new(from_d::<V>(h)).unwrap();
                let ball = Ball::<V>::new(V::Real::from_f64(0.5)).unwrap();
                let c = query(&ball, &pose, &cuboid, &pose, ball_first).contact.unwrap();
                let x = V::rotation_of(&pose) * DVec3::X;
                let expected = if ball_first { -x } else { x };
                assert!(angle(to_d(c.normal), expected) <= tolerances::<V>().1, "{what}");
                assert!((c.depth.to_f64() - (0.5 + h.x)).abs() <= tolerances::<V>().0, "{what}");
            }
        }
    }
}

#[test]
fn ball_at_the_exact_centre_of_a_box_exits_through_plus_x() {
    at_the_exact_centre::<DVec3>(5);
    at_the_exact_centre::<Vec3>(6);
    at_the_exact_centre::<DVec2>(7);
    at_the_exact_centre::<Vec2>(8);
}

/// The general path (GJK + EPA on the box given as the hull of its corners) agrees with the
/// analytic answer.
#[test]
fn analytic_depths_agree_with_epa_on_the_same_box_as_a_polytope() {
    let mut rng = Rng::new(9);
    let options = ContactOptions::default();
    for case in 0..300 {
        let h = DVec3::new(rng.range(0.5, 2.0), rng.range(0.5, 2.0), rng.range(0.5, 2.0));
        let corners: Vec<DVec3> = (0..8)
            .map(|i| {
                let s = |bit: usize| if i >> bit & 1 == 1 { 1.0 } else { -1.0 };
                DVec3::new(s(0) * h.x, s(1) * h.y, s(2) * h.z)
            })
            .collect();
        let hull = Polytope::new(corners).unwrap();
        let cuboid = Cuboid::new(h).unwrap();
        let ball = Ball::<DVec3>::new(rng.range(0.5, 2.0)).unwrap();
        let box_pose = DVec3::pose(rng.rotation(3), rng.in_cube(3, 5.0));
        let c = DVec3::new(
            rng.range(-0.9, 0.9) * h.x,
            rng.range(-0.9, 0.9) * h.y,
            rng.range(-0.9, 0.9) * h.z,
        );
        let ball_pose = DVec3::pose(rng.rotation(3), to_world(&box_pose, c));
        let analytic = Pair::new(&ball, ball_pose, &cuboid, box_pose)
            .contact_with(&options, &mut WarmStart::default());
        let general = Pair::new(&ball, ball_pose, &hull, box_pose)
            .contact_with(&options, &mut WarmStart::default());
        assert_eq!(analytic.epa, None);
        assert_eq!(general.epa, Some(EpaTermination::Converged), "case {case}: {general:?}");
        let (a, g) = (analytic.contact.unwrap(), general.contact.unwrap());
        assert!((a.depth - g.depth).abs() <= 1e-9, "case {case}: {} vs EPA {}", a.depth, g.depth);
        // The nearest face is unique away from ties: the normals agree too.
        let gaps = h - c.abs();
        let mut sorted = [gaps.x, gaps.y, gaps.z];
        sorted.sort_by(f64::total_cmp);
        if sorted[1] - sorted[0] > 1e-6 {
            assert!(angle(a.normal, g.normal) <= 1e-6, "case {case}: {} vs {}", a.normal, g.normal);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The trait method itself.

#[test]
fn cuboid_nearest_boundary_breaks_ties_to_the_lowest_axis_then_plus() {
    let cube = Cuboid::new(DVec3::ONE).unwrap();
    let exit = |p: DVec3| {
        let e = cube.core().nearest_boundary(p).unwrap();
        (e.point, e.normal, e.depth)
    };
    assert_eq!(exit(DVec3::ZERO), (DVec3::X, DVec3::X, 1.0));
    assert_eq!(exit(DVec3::new(-0.0, 0.0, 0.0)), (DVec3::X, DVec3::X, 1.0));
    assert_eq!(exit(DVec3::new(0.5, 0.5, 0.0)), (DVec3::new(1.0, 0.5, 0.0), DVec3::X, 0.5));
    assert_eq!(exit(DVec3::new(0.0, -0.5, 0.5)), (DVec3::new(0.0, -1.0, 0.5), DVec3::NEG_Y, 0.5));
    assert_eq!(exit(DVec3::new(-0.5, 0.0, 0.5)), (DVec3::new(-1.0, 0.0, 0.5), DVec3::NEG_X, 0.5));
    assert_eq!(
        exit(DVec3::new(0.25, 0.5, -0.875)),
        (DVec3::new(0.25, 0.5, -1.0), DVec3::NEG_Z, 0.125)
    );
    // On the boundary: depth 0, the point itself.
    assert_eq!(exit(DVec3::new(0.3, 1.0, 0.2)), (DVec3::new(0.3, 1.0, 0.2), DVec3::Y, 0.0));
    // Outside: the face it is farthest outside of, negative depth.
    assert_eq!(exit(DVec3::new(1.5, 1.25, 0.0)), (DVec3::new(1.0, 1.25, 0.0), DVec3::X, -0.5));
    // A flat box: the flat axis is at depth 0.
    let flat = Cuboid::new(DVec2::new(1.0, 0.0)).unwrap();
    let e = flat.core().nearest_boundary(DVec2::new(0.5, 0.0)).unwrap();
    assert_eq!((e.point, e.normal, e.depth), (DVec2::new(0.5, 0.0), DVec2::Y, 0.0));
}

#[test]
fn wrappers_forward_the_core() {
    let cube = Cuboid::new(Vec3::ONE).unwrap();
    let turn = glam::Quat::from_rotation_z(core::f32::consts::FRAC_PI_2);
    // A turned and moved box is no longer the axis-aligned box of its frame: general.
    let posed = Posed::new(cube, Pose::new(turn, Vec3::new(10.0, 0.0, 0.0)).unwrap());
    assert_eq!(posed.core(), Core::General);
    // A moved ball's point core moves with it.
    let ball = Ball::<Vec3>::new(0.5).unwrap();
    let moved = Posed::new(ball, Pose::new(turn, Vec3::new(10.0, 0.0, 0.0)).unwrap());
    assert_eq!(moved.core(), Core::Point(Vec3::new(10.0, 0.0, 0.0)));
    let rounded = Rounded::new(cube, 0.1).unwrap();
    assert_eq!(rounded.core(), cube.core());
    let by_ref: &dyn Support<Vec3> = &cube;
    assert_eq!(by_ref.core(), cube.core());
    let boxed: Box<dyn Support<Vec3>> = Box::new(cube);
    assert_eq!(boxed.core(), cube.core());
    // Kinds without a way out answer `None`: a segment has no interior in 3D.
    let capsule = Capsule::new(Vec3::ZERO, Vec3::Y, 0.5).unwrap();
    assert_eq!(capsule.core().nearest_boundary(Vec3::ZERO), None);
}

// ---------------------------------------------------------------------------------------------
// Other point cores and shapes.

#[test]
fn coincident_balls_take_minus_x_of_b() {
    let mut rng = Rng::new(10);
    for case in 0..50 {
        let (ra, rb) = (rng.range(0.5, 2.0), rng.range(0.5, 2.0));
        let (a, b) = (Ball::<DVec3>::new(ra).unwrap(), Ball::<DVec3>::new(rb).unwrap());
        let centre = rng.in_cube(3, 1e6);
        let pose_a = DVec3::pose(rng.rotation(3), centre);
        let pose_b = DVec3::pose(rng.rotation(3), centre);
        let r = Pair::new(&a, pose_a, &b, pose_b)
            .contact_with(&ContactOptions::default(), &mut WarmStart::default());
        assert_eq!((r.epa, r.gjk_termination), (None, Termination::Contained), "case {case}");
        let c = r.contact.unwrap();
        assert!((c.depth - (ra + rb)).abs() <= 1e-12, "case {case}: {c:?}");
        let expected = -(DVec3::rotation_of(&pose_b) * DVec3::X);
        assert!(angle(c.normal, expected) <= 1e-9, "case {case}: {c:?}");
        let tol = 1e-9 * centre.abs().max_element().max(1.0);
        assert!((c.point_a - c.point_b - c.normal * c.depth).length() <= tol, "case {case}");
        assert!((c.point_a - (centre + c.normal * ra)).length() <= tol, "case {case}");
    }
    // Centres apart by a hair: that hair gives the normal (as GJK's answer would), and the
    // depth is the radii minus it — continuous with the coincident case.
    let ball = Ball::<DVec3>::new(1.0).unwrap();
    let shift = DVec3::new(0.0, 3e-14, 0.0);
    let c = contact(&ball, &Pose::IDENTITY, &ball, &Pose::from_translation(shift).unwrap(), 0.0)
        .unwrap();
    assert_eq!(c.normal, DVec3::Y);
    assert!((c.depth - (2.0 - 3e-14)).abs() <= 1e-15, "{c:?}");
    // Concentric balls of different sizes in f32.
    let (big, small) = (Ball::<Vec3>::new(1.0).unwrap(), Ball::<Vec3>::new(0.25).unwrap());
    let c = contact(&big, &Pose::IDENTITY, &small, &Pose::IDENTITY, 0.0).unwrap();
    assert_eq!((c.depth, c.normal), (1.25, Vec3::NEG_X));
}

#[test]
fn a_point_and_a_rounded_box_use_the_same_answer() {
    // A point (no margin) 0.25 inside the +y face of a box rounded by 0.1.
    let rounded = Rounded::new(Cuboid::new(DVec3::new(1.0, 0.5, 2.0)).unwrap(), 0.1).unwrap();
    let point = Point::new(DVec3::new(0.2, 0.25, -0.3)).unwrap();
    let pose_box = Pose::from_translation(DVec3::new(5.0, -1.0, 2.0)).unwrap();
    let pose_point = Pose::from_translation(DVec3::new(5.0, -1.0, 2.0)).unwrap();
    let r = Pair::new(&point, pose_point, &rounded, pose_box)
        .contact_with(&ContactOptions::default(), &mut WarmStart::default());
    assert_eq!(r.epa, None);
    let c = r.contact.unwrap();
    assert!((c.depth - 0.35).abs() < 1e-12 && c.normal == DVec3::NEG_Y, "{c:?}");
    assert!((c.point_a - DVec3::new(5.2, -0.75, 1.7)).length() < 1e-12, "{c:?}");
    assert!((c.point_b - DVec3::new(5.2, -0.4, 1.7)).length() < 1e-12, "{c:?}");
    // The box as A: the normal is the box's outward normal.
    let c = contact(&rounded, &pose_box, &point, &pose_point, 0.0).unwrap();
    assert!((c.depth - 0.35).abs() < 1e-12 && c.normal == DVec3::Y, "{c:?}");
}

#[test]
fn a_ball_centred_on_a_capsule_axis_still_runs_the_expansion() {
    // A segment core has no interior: no analytic exit, EPA answers.
    let capsule = Capsule::new(DVec3::new(-1.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 0.0), 0.5).unwrap();
    let ball = Ball::<DVec3>::new(0.25).unwrap();
    let at = Pose::from_translation(DVec3::new(0.3, 0.0, 0.0)).unwrap();
    let r = Pair::new(&ball, at, &capsule, Pose::IDENTITY)
        .contact_with(&ContactOptions::default(), &mut WarmStart::default());
    assert!(r.epa.is_some(), "{r:?}");
    assert!((r.contact.unwrap().depth - 0.75).abs() < 1e-9, "{r:?}");
    // Off the axis, the projection answers without the expansion.
    let off = Pose::from_translation(DVec3::new(0.3, 0.5, 0.0)).unwrap();
    let r = Pair::new(&ball, off, &capsule, Pose::IDENTITY)
        .contact_with(&ContactOptions::default(), &mut WarmStart::default());
    assert_eq!((r.epa, r.gjk_termination), (None, Termination::Converged));
    assert!((r.contact.unwrap().depth - 0.25).abs() < 1e-12, "{r:?}");
}

#[test]
fn separated_balls_and_boxes_respect_the_prediction() {
    let cuboid = Cuboid::new(DVec3::new(1.0, 2.0, 3.0)).unwrap();
    let ball = Ball::<DVec3>::new(0.5).unwrap();
    // Centre 1 beyond the +x face and 1 beyond the +y face: the gap is √2 − 0.5.
    let pose = Pose::from_translation(DVec3::new(2.0, 3.0, 0.0)).unwrap();
    let gap = 2f64.sqrt() - 0.5;
    for (prediction, reported) in [(0.0, false), (0.9, false), (1.0, true), (f64::INFINITY, true)] {
        let options = ContactOptions { prediction, ..Default::default() };
        let r = Pair::new(&cuboid, Pose::IDENTITY, &ball, pose)
            .contact_with(&options, &mut WarmStart::default());
        assert_eq!(r.contact.is_some(), reported, "prediction {prediction}: {r:?}");
        if let Some(c) = r.contact {
            assert!((c.depth + gap).abs() < 1e-12, "{c:?}");
            let n = DVec3::new(1.0, 1.0, 0.0).normalize();
            assert!(angle(c.normal, n) < 1e-12, "{c:?}");
            assert!((c.point_a - DVec3::new(1.0, 2.0, 0.0)).length() < 1e-12, "{c:?}");
        }
        let r = Pair::new(&ball, pose, &cuboid, Pose::IDENTITY)
            .contact_with(&options, &mut WarmStart::default());
        assert_eq!(r.contact.is_some(), reported, "prediction {prediction}, ball first: {r:?}");
        if let Some(c) = r.contact {
            assert!((c.depth + gap).abs() < 1e-12, "{c:?}");
            let n = DVec3::new(-1.0, -1.0, 0.0).normalize();
            assert!(angle(c.normal, n) < 1e-12, "{c:?}");
        }
    }
    // Deep inside: reported whatever the prediction (negative and NaN count as 0).
    let inside = Pose::from_translation(DVec3::new(0.5, 0.0, 0.0)).unwrap();
    for prediction in [0.0, -1.0, f64::NAN] {
        let c = contact(&ball, &inside, &cuboid, &Pose::IDENTITY, prediction).unwrap();
        assert!((c.depth - 1.0).abs() < 1e-12 && c.normal == DVec3::NEG_X, "{c:?}");
    }
}
