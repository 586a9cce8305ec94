//! Two small 2D polygons: contact and intersection by the separating-axis test over both
//! polygons' edge normals ([`gjk::Core::Polygon`]), without GJK or EPA.
//!
//! Random pairs are checked against the brute-force Minkowski oracle in `contact.rs`; here the
//! analytic cases (aligned squares, touching, identical, rounded polygons, the prediction
//! distance) and agreement with the general GJK path on intersection verdicts.
//! Tolerances: 1e-12 absolute on shapes of size 1–2 (f64).

use crate::common;

use common::{Rng, SupportOnly};
use gjk::{
    contact, intersects, ContactOptions, Core, CorePolygon, Cuboid, Pair, Polytope, Pose, Rounded,
    Support, WarmStart,
};
use glam::DVec2;
use std::f64::consts::PI;

fn square(h: f64) -> Polytope<DVec2> {
    Polytope::new(vec![DVec2::new(-h, -h), DVec2::new(h, -h), DVec2::new(h, h), DVec2::new(-h, h)])
        .unwrap()
}

fn at(x: f64, y: f64) -> Pose<DVec2> {
    Pose::from_translation(DVec2::new(x, y)).unwrap()
}

fn close(a: DVec2, b: DVec2) -> bool {
    (a - b).length() < 1e-12
}

#[test]
fn aligned_squares_overlap_along_the_shallower_axis_and_witness_the_overlap_centre() {
    let s = square(1.0);
    let result = Pair::new(&s, Pose::IDENTITY, &s, at(1.5, 0.5))
        .contact_with(&ContactOptions::default(), &mut WarmStart::default());
    assert_eq!(result.epa, None, "{result:?}");
    let c = result.contact.unwrap();
    assert!((c.depth - 0.5).abs() < 1e-12, "{c:?}");
    assert!(close(c.normal, DVec2::X), "{c:?}");
    // B's left edge (y from −0.5 to 1.5) clipped to A's right edge (y from −1 to 1): the
    // centre of y in [−0.5, 1].
    assert!(close(c.point_b, DVec2::new(0.5, 0.25)), "{c:?}");
    assert!(close(c.point_a, DVec2::new(1.0, 0.25)), "{c:?}");
}

#[test]
fn a_corner_in_an_edge_witnesses_the_corner() {
    // A square turned by 45° with its lowest corner 0.1 below the top edge of another.
    let s = square(1.0);
    let diamond =
        Pose::<DVec2>::from_angle_translation(PI / 4.0, DVec2::new(0.3, 1.0 + 2f64.sqrt() - 0.1))
            .unwrap();
    let c = contact(&s, &Pose::IDENTITY, &s, &diamond, 0.0).unwrap();
    assert!((c.depth - 0.1).abs() < 1e-12, "{c:?}");
    assert!(close(c.normal, DVec2::Y), "{c:?}");
    assert!(close(c.point_b, DVec2::new(0.3, 0.9)), "{c:?}");
    assert!(close(c.point_a, DVec2::new(0.3, 1.0)), "{c:?}");
}

#[test]
fn touching_squares_have_zero_depth_and_the_edge_normal() {
    let s = square(1.0);
    for (x, y, normal) in [(2.0, 0.3, DVec2::X), (-0.4, -2.0, DVec2::NEG_Y)] {
        let c = contact(&s, &Pose::IDENTITY, &s, &at(x, y), 0.0).expect("touching is a contact");
        assert!(c.depth.abs() < 1e-12, "{c:?}");
        assert!(close(c.normal, normal), "{c:?}");
        assert!(intersects(&s, &Pose::IDENTITY, &s, &at(x, y)));
        assert!(!intersects(&s, &Pose::IDENTITY, &s, &at(x * 1.001, y * 1.001)));
    }
}

#[test]
fn identical_hexagons_separate_across_their_width() {
    let hexagon =
        Polytope::new((0..6).map(|k| DVec2::from_angle(0.2 + k as f64 * PI / 3.0) * 1.5).collect())
            .unwrap();
    let pose = Pose::<DVec2>::from_angle_translation(0.7, DVec2::new(3.0, -4.0)).unwrap();
    let c = contact(&hexagon, &pose, &hexagon, &pose, 0.0).unwrap();
    // The width of a regular hexagon is twice its apothem, r √3.
    assert!((c.depth - 1.5 * 3f64.sqrt()).abs() < 1e-12, "{c:?}");
    // Along an edge normal: at 0.2 + 0.7 + π/6 + k π/3 for some k.
    let angle = c.normal.to_angle() - 0.9 - PI / 6.0;
    let k = (angle / (PI / 3.0)).round();
    assert!((angle - k * PI / 3.0).abs() < 1e-12, "{c:?}");
}

#[test]
fn rounded_polygons_add_their_margins_to_the_cores_overlap() {
    let rounded = Rounded::new(square(1.0), 0.1).unwrap();
    let result = Pair::new(&rounded, Pose::IDENTITY, &rounded, at(1.9, 0.4))
        .contact_with(&ContactOptions::default(), &mut WarmStart::default());
    assert_eq!(result.epa, None, "{result:?}");
    let c = result.contact.unwrap();
    assert!((c.depth - 0.3).abs() < 1e-12, "{c:?}");
    assert!(close(c.normal, DVec2::X), "{c:?}");
    // Cores apart by 0.1 but margins of 0.2 in all: the general path answers, 0.1 deep.
    let c = contact(&rounded, &Pose::IDENTITY, &rounded, &at(2.1, 0.4), 0.0).unwrap();
    assert!((c.depth - 0.1).abs() < 1e-12, "{c:?}");
}

#[test]
fn squares_apart_are_reported_within_the_prediction_only() {
    let s = square(1.0);
    assert!(contact(&s, &Pose::IDENTITY, &s, &at(2.2, 0.5), 0.1).is_none());
    let c = contact(&s, &Pose::IDENTITY, &s, &at(2.2, 0.5), 0.3).unwrap();
    assert!((c.depth + 0.2).abs() < 1e-12, "{c:?}");
    assert!(close(c.normal, DVec2::X), "{c:?}");
}

#[test]
fn intersection_verdicts_agree_with_the_general_path() {
    let mut rng = Rng::new(21);
    let mut overlapping = 0;
    for case in 0..4000 {
        let polygon = |rng: &mut Rng| {
            let n = 3 + rng.below(12);
            let (a, b) = (rng.range(0.5, 2.0), rng.range(0.5, 2.0));
            let points = (0..n).map(|_| DVec2::from_angle(rng.range(-PI, PI)) * DVec2::new(a, b));
            Polytope::new(points.collect()).unwrap()
        };
        let (a, b) = (polygon(&mut rng), polygon(&mut rng));
        let pose = |rng: &mut Rng| {
            let t = DVec2::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
            Pose::<DVec2>::from_angle_translation(rng.range(-PI, PI), t).unwrap()
        };
        let (pa, pb) = (pose(&mut rng), pose(&mut rng));
        let fast = intersects(&a, &pa, &b, &pb);
        let slow = intersects(&SupportOnly(&a), &pa, &SupportOnly(&b), &pb);
        assert_eq!(fast, slow, "case {case}");
        overlapping += usize::from(fast);
    }
    assert!((1000..3000).contains(&overlapping), "{overlapping} of 4000 overlap");
}

#[test]
fn slivers_with_needle_corners_agree_with_the_general_path() {
    // A triangle whose corner at the origin is a millionth of a radian: degenerate input for
    // the test's reference edges (normals that turn by almost half a turn at one corner) and
    // for its clipping (edges far longer than the polygon is wide).
    let sliver =
        Polytope::new(vec![DVec2::ZERO, DVec2::new(10.0, 0.0), DVec2::new(10.0, 1e-5)]).unwrap();
    let octagon =
        Polytope::new((0..8).map(|k| DVec2::from_angle(k as f64 * PI / 4.0) * 0.7).collect())
            .unwrap();
    let options = ContactOptions::default();
    let mut rng = Rng::new(22);
    let mut checked = 0;
    for case in 0..2000 {
        let t = DVec2::new(rng.range(-1.0, 11.0), rng.range(-0.8, 0.8));
        let pose = Pose::<DVec2>::from_angle_translation(rng.range(-PI, PI), t).unwrap();
        for (a, pa, b, pb) in
            [(&sliver, Pose::IDENTITY, &octagon, pose), (&octagon, pose, &sliver, Pose::IDENTITY)]
        {
            let fast = Pair::new(a, pa, b, pb).contact_with(&options, &mut WarmStart::default());
            let slow = Pair::new(&SupportOnly(a), pa, &SupportOnly(b), pb)
                .contact_with(&options, &mut WarmStart::default());
            let what = format!("case {case}: {fast:?} vs {slow:?}");
            match (fast.contact, slow.contact) {
                (Some(f), Some(s)) => {
                    assert!((f.depth - s.depth).abs() < 1e-9, "{what}");
                    checked += 1;
                }
                (None, None) => {}
                // Within rounding of touching the verdicts may differ; nothing deeper may.
                (Some(c), None) | (None, Some(c)) => assert!(c.depth.abs() < 1e-9, "{what}"),
            }
            assert_eq!(intersects(a, &pa, b, &pb), slow.contact.is_some(), "{what}");
        }
    }
    assert!(checked > 500, "{checked} overlapping pairs");
}

/// A shape whose core polygon keeps only its first `corners` corners (all the normals):
/// malformed data, as a user's implementation might give.
struct Malformed(Polytope<DVec2>, usize);

impl Support<DVec2> for Malformed {
    fn support(&self, dir: DVec2) -> DVec2 {
        self.0.support(dir)
    }
    fn center(&self) -> DVec2 {
        self.0.center()
    }
    fn core(&self) -> Core<'_, DVec2> {
        let Core::Polygon(full) = self.0.core() else { return Core::General };
        Core::Polygon(CorePolygon { vertices: &full.vertices[..self.1], normals: full.normals })
    }
}

#[test]
fn malformed_core_polygons_take_the_general_path() {
    let options = ContactOptions::default();
    for corners in [0, 1, 2, 3] {
        let a = Malformed(square(1.0), corners);
        let b = square(1.0);
        for x in [0.5, 1.5, 2.5] {
            let pose = at(x, 0.25);
            let fast = Pair::new(&a, Pose::IDENTITY, &b, pose)
                .contact_with(&options, &mut WarmStart::default());
            let slow = Pair::new(&SupportOnly(&a.0), Pose::IDENTITY, &SupportOnly(&b), pose)
                .contact_with(&options, &mut WarmStart::default());
            assert_eq!(fast, slow, "{corners} corners at {x}");
            let verdict = intersects(&SupportOnly(&a.0), &Pose::IDENTITY, &b, &pose);
            assert_eq!(intersects(&a, &Pose::IDENTITY, &b, &pose), verdict);
        }
    }
}

#[test]
fn boxes_against_polygons_take_the_same_test_and_agree_with_the_general_path() {
    let mut rng = Rng::new(23);
    let options = ContactOptions::default();
    let mut overlapping = 0;
    for case in 0..3000 {
        // Every fifth box is flat (a segment-like box, zero height).
        let h =
            DVec2::new(rng.range(0.2, 1.5), if case % 5 == 0 { 0.0 } else { rng.range(0.2, 1.5) });
        let cuboid = Cuboid::new(h).unwrap();
        let n = 3 + rng.below(10);
        let points = (0..n).map(|_| DVec2::from_angle(rng.range(-PI, PI)) * rng.range(0.5, 1.5));
        let polygon = Polytope::new(points.collect()).unwrap();
        let t = DVec2::new(rng.range(-2.5, 2.5), rng.range(-2.5, 2.5));
        let pose = Pose::<DVec2>::from_angle_translation(rng.range(-PI, PI), t).unwrap();
        let what = format!("case {case}");
        let (general_box, general_polygon) = (SupportOnly(&cuboid), SupportOnly(&polygon));
        for box_first in [true, false] {
            let warm = &mut WarmStart::default();
            let (fast, slow, verdict) = if box_first {
                let pair = Pair::new(&cuboid, Pose::IDENTITY, &polygon, pose);
                let general = Pair::new(&general_box, Pose::IDENTITY, &general_polygon, pose);
                let slow = general.contact_with(&options, &mut WarmStart::default());
                (pair.contact_with(&options, warm), slow, pair.intersects())
            } else {
                let pair = Pair::new(&polygon, pose, &cuboid, Pose::IDENTITY);
                let general = Pair::new(&general_polygon, pose, &general_box, Pose::IDENTITY);
                let slow = general.contact_with(&options, &mut WarmStart::default());
                (pair.contact_with(&options, warm), slow, pair.intersects())
            };
            match (fast.contact, slow.contact) {
                (Some(f), Some(s)) => {
                    assert_eq!(fast.epa, None, "{what}: the separating-axis test answers");
                    assert!((f.depth - s.depth).abs() < 1e-9, "{what}: {f:?} vs {s:?}");
                    assert!(f.point_a.is_finite() && f.point_b.is_finite(), "{what}: {f:?}");
                    let gap = f.point_a - f.point_b - f.normal * f.depth;
                    assert!(gap.length() < 1e-12, "{what}: {f:?}");
                    overlapping += 1;
                }
                (None, None) => {}
                (f, s) => panic!("{what}: {f:?} vs {s:?}"),
            }
            assert_eq!(verdict, slow.contact.is_some(), "{what}");
        }
    }
    assert!(overlapping > 1500, "{overlapping} overlapping");
}
