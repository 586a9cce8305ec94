//! Point queries on small 2D polygons, answered by a scan of the edges
//! ([`Core::closest_point`] and [`Core::nearest_boundary`] on a [`Polytope`]'s core),
//! so a disc against a polygon skips GJK and EPA.
//!
//! Oracles:
//! - regular polygons in closed form: the edge lines of a regular `n`-gon of circumradius `R`
//!   lie at the apothem `R cos(π/n)` from its centre, with normals at the angles
//!   `φ + (2k + 1)π/n`, so the depth of an inside point `p` is `minₖ (apothem − nₖ·p)`; the
//!   distance of an outside point is the smallest point–segment distance over the edges, the
//!   vertices taken from `R (cos, sin)(φ + 2πk/n)` (not from the hull);
//! - the full GJK and EPA loops on the same polygon, hidden behind a wrapper that only answers
//!   support queries, on random polygons and poses.
//!
//! Tolerances (f64, shapes of size 0.5–2): 1e-12 absolute against the closed forms, 1e-9
//! against GJK/EPA (whose own tolerance is relative 1e-10 of the shapes' size).

use crate::common;

use common::{Rng, SupportOnly};
use gjk::{
    contact, distance, Ball, ContactOptions, EpaTermination, Pair, Polytope, Pose, Support,
    WarmStart,
};
use glam::{DVec2, DVec3};
use std::f64::consts::PI;

/// The vertices of a regular `n`-gon of circumradius `r`, first vertex at angle `phase`.
fn regular(n: usize, r: f64, phase: f64) -> Vec<DVec2> {
    (0..n).map(|k| DVec2::from_angle(phase + 2.0 * PI * k as f64 / n as f64) * r).collect()
}

/// The distance from `p` to the segment `a b`.
fn segment_distance(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
    (p - (a + (b - a) * t)).length()
}

#[test]
fn regular_polygons_match_the_closed_forms_inside_and_out() {
    let mut rng = Rng::new(11);
    for case in 0..3000 {
        let n = 3 + rng.below(62);
        let (r, phase) = (rng.range(0.5, 2.0), rng.range(-PI, PI));
        let vertices = regular(n, r, phase);
        let polygon = Polytope::new(vertices.clone()).unwrap();
        let apothem = r * (PI / n as f64).cos();
        let what = format!("case {case}: {n}-gon, r = {r}, phase = {phase}");
        // Inside: the point itself, and the way out through the nearest edge line.
        let p = DVec2::from_angle(rng.range(-PI, PI)) * apothem * rng.range(0.0, 0.99);
        assert_eq!(polygon.core().closest_point(p), Some(p), "{what}: inside");
        let exit = polygon.core().nearest_boundary(p).unwrap();
        let (k, depth) = (0..n)
            .map(|k| {
                (k, apothem - DVec2::from_angle(phase + (2 * k + 1) as f64 * PI / n as f64).dot(p))
            })
            .fold((0, f64::INFINITY), |best, c| if c.1 < best.1 { c } else { best });
        let normal = DVec2::from_angle(phase + (2 * k + 1) as f64 * PI / n as f64);
        assert!((exit.depth - depth).abs() < 1e-12, "{what}: depth {} vs {depth}", exit.depth);
        assert!(
            (exit.normal - normal).length() < 1e-12,
            "{what}: normal {} vs {normal}",
            exit.normal
        );
        assert!((exit.point - (p + normal * depth)).length() < 1e-12, "{what}: point");
        // Outside: the nearest point of the nearest edge.
        let q = DVec2::from_angle(rng.range(-PI, PI)) * r * rng.range(1.0, 4.0);
        let expected = (0..n)
            .map(|k| segment_distance(q, vertices[k], vertices[(k + 1) % n]))
            .fold(f64::INFINITY, f64::min);
        let closest = polygon.core().closest_point(q).unwrap();
        assert!(((q - closest).length() - expected).abs() < 1e-12, "{what}: outside {q}");
        let on_boundary = (0..n)
            .map(|k| segment_distance(closest, vertices[k], vertices[(k + 1) % n]))
            .fold(f64::INFINITY, f64::min);
        assert!(on_boundary < 1e-12, "{what}: {closest} is {on_boundary} off the boundary");
    }
}

/// A random convex polygon: `n` points on an ellipse (all vertices) plus a few inside.
fn random_polygon(rng: &mut Rng, n: usize) -> Polytope<DVec2> {
    let (a, b) = (rng.range(0.5, 2.0), rng.range(0.5, 2.0));
    let mut points: Vec<DVec2> =
        (0..n).map(|_| DVec2::from_angle(rng.range(-PI, PI)) * DVec2::new(a, b)).collect();
    points.extend((0..3).map(|_| DVec2::new(rng.range(-0.3, 0.3), rng.range(-0.3, 0.3))));
    Polytope::new(points).unwrap()
}

fn random_pose(rng: &mut Rng, reach: f64) -> Pose<DVec2> {
    let t = DVec2::new(rng.range(-reach, reach), rng.range(-reach, reach));
    Pose::<DVec2>::from_angle_translation(rng.range(-PI, PI), t).unwrap()
}

#[test]
fn discs_against_random_polygons_agree_with_gjk_and_epa() {
    let mut rng = Rng::new(12);
    let options = ContactOptions::default();
    let (mut inside, mut apart) = (0, 0);
    for case in 0..3000 {
        let n = 3 + rng.below(40);
        let polygon = random_polygon(&mut rng, n);
        let disc = Ball::<DVec2>::new(rng.range(0.05, 0.5)).unwrap();
        let pose = random_pose(&mut rng, 10.0);
        let centre = pose.transform_point(DVec2::new(rng.range(-2.5, 2.5), rng.range(-2.5, 2.5)));
        let disc_pose = Pose::from_translation(centre).unwrap();
        let general = SupportOnly(&polygon);
        let what = format!("case {case}");
        for disc_first in [true, false] {
            let (fast, slow) = if disc_first {
                (
                    Pair::new(&disc, disc_pose, &polygon, pose)
                        .contact_with(&options, &mut WarmStart::default()),
                    Pair::new(&disc, disc_pose, &general, pose)
                        .contact_with(&options, &mut WarmStart::default()),
                )
            } else {
                (
                    Pair::new(&polygon, pose, &disc, disc_pose)
                        .contact_with(&options, &mut WarmStart::default()),
                    Pair::new(&general, pose, &disc, disc_pose)
                        .contact_with(&options, &mut WarmStart::default()),
                )
            };
            assert_eq!(fast.epa, None, "{what}: the closed form runs no expansion");
            assert_eq!(fast.gjk_iterations, 1, "{what}: nor GJK's loop");
            match (fast.contact, slow.contact) {
                (Some(f), Some(s)) => {
                    inside += usize::from(slow.epa.is_some());
                    assert!((f.depth - s.depth).abs() < 1e-9, "{what}: {f:?} vs {s:?}");
                    assert!((f.normal - s.normal).length() < 1e-7, "{what}: {f:?} vs {s:?}");
                    assert!((f.point_a - s.point_a).length() < 1e-7, "{what}: {f:?} vs {s:?}");
                    assert!((f.point_b - s.point_b).length() < 1e-7, "{what}: {f:?} vs {s:?}");
                }
                (None, None) => apart += 1,
                (f, s) => panic!("{what}: closed form {f:?}, general {s:?}"),
            }
        }
        let fast = distance(&disc, &disc_pose, &polygon, &pose);
        let slow = distance(&disc, &disc_pose, &general, &pose);
        assert!((fast - slow).abs() < 1e-9 * fast.max(1.0), "{what}: {fast} vs {slow}");
    }
    // Both kinds of answer, and centres inside (the general path's EPA), were exercised.
    assert!(inside > 300 && apart > 1000, "inside {inside}, apart {apart}");
}

#[test]
fn the_centre_of_a_square_exits_through_the_first_edge_from_the_lowest_vertex() {
    // The lowest vertex (smallest x, then y) is (−1, −1); the first edge counter-clockwise
    // from it is the bottom one, whatever order the corners come in.
    for corners in [
        [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)],
        [(-1.0, 1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, -1.0)],
    ] {
        let square = Polytope::new(corners.map(|(x, y)| DVec2::new(x, y)).to_vec()).unwrap();
        let exit = square.core().nearest_boundary(DVec2::ZERO).unwrap();
        assert_eq!(
            (exit.point, exit.normal, exit.depth),
            (DVec2::new(0.0, -1.0), DVec2::NEG_Y, 1.0)
        );
    }
}

#[test]
fn points_on_the_boundary_project_to_themselves() {
    let triangle =
        Polytope::new(vec![DVec2::new(0.0, 0.0), DVec2::new(2.0, 0.0), DVec2::new(0.0, 2.0)])
            .unwrap();
    for p in
        [DVec2::new(1.0, 0.0), DVec2::new(0.0, 0.5), DVec2::new(1.0, 1.0), DVec2::new(2.0, 0.0)]
    {
        let q = triangle.core().closest_point(p).unwrap();
        assert!((q - p).length() < 1e-15, "{p} -> {q}");
        assert!(triangle.core().nearest_boundary(p).unwrap().depth.abs() < 1e-15, "{p}");
    }
    // A disc touching the hypotenuse from outside: depth 0 (within rounding), normal along
    // the hypotenuse's outward normal, from the triangle (A) toward the disc (B).
    let disc = Ball::<DVec2>::new(0.5).unwrap();
    let normal = DVec2::new(1.0, 1.0).normalize();
    let centre = DVec2::new(1.0, 1.0) + normal * 0.5;
    let touching =
        contact(&triangle, &Pose::IDENTITY, &disc, &Pose::from_translation(centre).unwrap(), 0.0)
            .unwrap();
    assert!(touching.depth.abs() < 1e-15, "{touching:?}");
    assert!((touching.normal - normal).length() < 1e-15, "{touching:?}");
}

#[test]
fn tiny_and_huge_polygons_keep_their_relative_accuracy() {
    for scale in [1e-6, 1.0, 1e6] {
        let hexagon = Polytope::new(regular(6, scale, 0.1)).unwrap();
        let apothem = scale * (PI / 6.0).cos();
        let inside = DVec2::new(0.2, -0.1) * scale;
        let exit = hexagon.core().nearest_boundary(inside).unwrap();
        let expected = (0..6)
            .map(|k| apothem - DVec2::from_angle(0.1 + (2 * k + 1) as f64 * PI / 6.0).dot(inside))
            .fold(f64::INFINITY, f64::min);
        assert!((exit.depth - expected).abs() < 1e-14 * scale, "scale {scale}: {exit:?}");
        let outside = DVec2::new(3.0, 0.4) * scale;
        let q = hexagon.core().closest_point(outside).unwrap();
        let vertices = regular(6, scale, 0.1);
        let expected = (0..6)
            .map(|k| segment_distance(outside, vertices[k], vertices[(k + 1) % 6]))
            .fold(f64::INFINITY, f64::min);
        assert!(((outside - q).length() - expected).abs() < 1e-14 * scale, "scale {scale}");
    }
}

#[test]
fn only_small_polygons_in_the_plane_take_the_closed_form() {
    let p = DVec2::new(0.1, 0.2);
    let polygon = |n| Polytope::new(regular(n, 1.0, 0.0)).unwrap();
    assert!(polygon(64).core().closest_point(p).is_some());
    assert!(polygon(64).core().nearest_boundary(p).is_some());
    // Larger polygons climb; segments and points have no interior to leave.
    assert!(polygon(65).core().closest_point(p).is_none());
    assert!(polygon(65).core().nearest_boundary(p).is_none());
    let segment = Polytope::new(vec![DVec2::ZERO, DVec2::X, DVec2::new(0.5, 0.0)]).unwrap();
    assert!(segment.core().closest_point(p).is_none());
    let point = Polytope::new(vec![DVec2::X; 3]).unwrap();
    assert!(point.core().nearest_boundary(p).is_none());
    // 3D polytopes leave it to GJK and EPA.
    let tetrahedron = Polytope::new(vec![DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z]).unwrap();
    assert!(tetrahedron.core().closest_point(DVec3::splat(0.1)).is_none());
    assert!(tetrahedron.core().nearest_boundary(DVec3::splat(0.1)).is_none());
}

#[test]
fn a_disc_deep_in_a_polygon_gets_the_analytic_depth_without_an_expansion() {
    let pentagon = Polytope::new(regular(5, 1.0, 0.3)).unwrap();
    let disc = Ball::<DVec2>::new(0.25).unwrap();
    let centre = DVec2::new(0.05, -0.02);
    let result =
        Pair::new(&pentagon, Pose::IDENTITY, &disc, Pose::from_translation(centre).unwrap())
            .contact_with(&ContactOptions::default(), &mut WarmStart::default());
    assert_eq!(result.epa, None);
    let c = result.contact.unwrap();
    let apothem = (PI / 5.0).cos();
    let depth = (0..5)
        .map(|k| apothem - DVec2::from_angle(0.3 + (2 * k + 1) as f64 * PI / 5.0).dot(centre))
        .fold(f64::INFINITY, f64::min)
        + 0.25;
    assert!((c.depth - depth).abs() < 1e-12, "{c:?} vs {depth}");
    // The general path agrees, through EPA.
    let general = Pair::new(
        &SupportOnly(&pentagon),
        Pose::IDENTITY,
        &disc,
        Pose::from_translation(centre).unwrap(),
    )
    .contact_with(&ContactOptions::default(), &mut WarmStart::default());
    assert_eq!(general.epa, Some(EpaTermination::Converged));
    assert!((general.contact.unwrap().depth - depth).abs() < 1e-9);
}
