//! Capsules and segments answered by the closed form of two segments' closest points, against
//! an independent oracle: the distance between segments `P(s)` and `Q` is a convex function of
//! `s` (the distance to a convex set composed with an affine map), so a golden-section search
//! over `s ∈ [0, 1]`, each value a point-to-segment projection, finds its minimum. Tolerance:
//! 1e-9 of the segments' size (`f64`), 1e-4 (`f32`). Families: random, parallel (offset and
//! collinear overlapping), crossing, touching, zero-length, far apart, posed at 1e6.

use crate::common;

use common::{Draw, Rng};
use gjk::{closest_points, distance, intersects, Capsule, Pose, Proximity, Segment};
use glam::{DQuat, DVec3, Vec3};

/// The distance from `p` to segment `q0 q1`.
fn point_segment(p: DVec3, q0: DVec3, q1: DVec3) -> f64 {
    let d = q1 - q0;
    let t = if d.length_squared() > 0.0 { (p - q0).dot(d) / d.length_squared() } else { 0.0 };
    (p - (q0 + d * t.clamp(0.0, 1.0))).length()
}

/// The oracle: golden-section search of the convex `s ↦ dist(P(s), Q)`.
fn segment_segment(p: [DVec3; 2], q: [DVec3; 2]) -> f64 {
    let g = |s: f64| point_segment(p[0] + (p[1] - p[0]) * s, q[0], q[1]);
    common::golden_minimum(g)
}

/// A pair of segments from one of the families.
fn family(rng: &mut Rng, kind: usize) -> ([DVec3; 2], [DVec3; 2]) {
    let p0 = rng.in_cube(3, 2.0);
    let p1 = p0 + rng.direction(3) * rng.range(0.1, 3.0);
    let d = p1 - p0;
    match kind {
        // Parallel, offset sideways and along.
        0 => {
            let side = d.any_orthonormal_vector() * rng.range(0.0, 1.0);
            let shift = d * rng.range(-1.5, 1.5);
            ([p0, p1], [p0 + side + shift, p1 + side + shift * rng.range(0.2, 1.0)])
        }
        // Collinear, overlapping or not.
        1 => ([p0, p1], [p0 + d * rng.range(-1.0, 1.0), p0 + d * rng.range(0.5, 2.0)]),
        // Crossing: Q passes through a point of P.
        2 => {
            let hit = p0 + d * rng.range(0.0, 1.0);
            let e = rng.direction(3);
            ([p0, p1], [hit - e * rng.range(0.1, 2.0), hit + e * rng.range(0.1, 2.0)])
        }
        // A zero-length segment on either side.
        3 => ([p0, p0], [rng.in_cube(3, 2.0), rng.in_cube(3, 2.0)]),
        4 => ([p0, p1], [p1 + rng.in_cube(3, 1.0); 2]),
        // Far apart.
        5 => (
            [p0, p1],
            [rng.in_cube(3, 1.0) + DVec3::splat(1e3), rng.in_cube(3, 1.0) - DVec3::splat(1e3)],
        ),
        // Random.
        _ => ([p0, p1], [rng.in_cube(3, 2.0), rng.in_cube(3, 2.0)]),
    }
}

#[test]
fn capsule_distances_match_the_oracle_in_f64() {
    let mut rng = Rng::new(0xCA95);
    let mut cases = 0;
    for kind in 0..7 {
        for _ in 0..600 {
            let (p, q) = family(&mut rng, kind);
            let (ra, rb) = (rng.range(0.0, 0.5), rng.range(0.0, 0.5));
            let exact = (segment_segment(p, q) - ra - rb).max(0.0);
            let size = (p[0] - p[1]).length().max((q[0] - q[1]).length()).max(1.0);
            let a = Capsule::new(p[0], p[1], ra).unwrap();
            let b = Capsule::new(q[0], q[1], rb).unwrap();
            // B posed: its segment given in its own frame, the pose putting it back.
            let turn = rng.rotation(3);
            let shift = rng.in_cube(3, 1e6);
            let pose_b = Pose::new(turn, shift).unwrap();
            let local = |x: DVec3| turn.inverse() * (x - shift);
            let b_local = Capsule::new(local(q[0]), local(q[1]), rb).unwrap();
            let d = distance(&a, &Pose::IDENTITY, &b, &Pose::IDENTITY);
            assert!((d - exact).abs() <= 1e-9 * size, "kind {kind}: {d} vs {exact}");
            let far = distance(&a, &Pose::IDENTITY, &b_local, &pose_b);
            // 1e6 offsets carry ~1e-10 of rounding per coordinate.
            assert!((far - exact).abs() <= 1e-8 * size, "kind {kind} posed: {far} vs {exact}");
            assert_eq!(intersects(&a, &Pose::IDENTITY, &b, &Pose::IDENTITY), exact <= 1e-9 * size);
            if let Proximity::Separated(s) =
                closest_points(&a, &Pose::IDENTITY, &b, &Pose::IDENTITY)
            {
                // The witnesses lie on the capsules' surfaces, `distance` apart along the normal.
                assert!((point_segment(s.point_a, p[0], p[1]) - ra).abs() <= 1e-9 * size);
                assert!((point_segment(s.point_b, q[0], q[1]) - rb).abs() <= 1e-9 * size);
                assert!((s.point_b - s.point_a - s.normal * s.distance).length() <= 1e-9 * size);
            }
            cases += 1;
        }
    }
    assert_eq!(cases, 4200);
}

#[test]
fn segment_distances_match_the_oracle_in_f32() {
    let mut rng = Rng::new(0x5E9);
    for kind in 0..5 {
        for _ in 0..400 {
            let (p, q) = family(&mut rng, kind);
            let exact = segment_segment(p, q);
            let f = |v: DVec3| v.as_vec3();
            // The oracle on the f32-rounded ends: the answer the f32 query should give.
            let rounded = segment_segment(p.map(|v| f(v).as_dvec3()), q.map(|v| f(v).as_dvec3()));
            let a = Segment::new(f(p[0]), f(p[1])).unwrap();
            let b = Segment::new(f(q[0]), f(q[1])).unwrap();
            let d = distance(&a, &Pose::<Vec3>::IDENTITY, &b, &Pose::IDENTITY) as f64;
            assert!((d - rounded).abs() <= 1e-4, "kind {kind}: {d} vs {rounded} ({exact})");
        }
    }
}

/// Capsules touching exactly (ends a radius sum apart, or parallel sides) intersect, and a
/// gap of 1e-9 relative is a gap.
#[test]
fn touching_and_nearly_touching_capsules() {
    let a = Capsule::new(DVec3::new(0.0, -1.0, 0.0), DVec3::new(0.0, 1.0, 0.0), 0.5).unwrap();
    for (offset, touching) in [
        (DVec3::new(1.0, 0.0, 0.0), true),         // parallel sides
        (DVec3::new(0.0, 3.0, 0.0), true),         // end caps
        (DVec3::new(1.0 + 1e-9, 0.3, 0.0), false), // parallel, 1e-9 apart
        (DVec3::new(0.0, 3.0 + 1e-9, 0.0), false), // caps, 1e-9 apart
    ] {
        let pose = Pose::new(DQuat::IDENTITY, offset).unwrap();
        assert_eq!(intersects(&a, &Pose::IDENTITY, &a, &pose), touching, "{offset}");
        let d = distance(&a, &Pose::IDENTITY, &a, &pose);
        let expected = if touching { 0.0 } else { 1e-9 };
        assert!((d - expected).abs() < 1e-15, "{offset}: {d}");
    }
}

/// Deeply overlapping `f32` capsules whose core segments pass close by each other (skew, a
/// 1e-3 gap, coordinates near 8): the contact normal must be the common perpendicular of the
/// segments to `f32` rounding of their directions. Measured as `a − b` between the closest
/// points, the gap's direction carried the rounding of the coordinates — 4e-4 rad off on the
/// benchmark workload `capsule_capsule`; it is now taken along `d₁ × d₂`.
#[test]
fn skew_capsules_in_f32_have_the_common_perpendicular_as_normal() {
    use gjk::contact;
    let mut rng = Rng::new(0xF32);
    let mut worst = 0.0f64;
    for _ in 0..500 {
        let centre = rng.in_cube(3, 9.0);
        let (u, v) = (rng.direction(3), rng.direction(3));
        let n = u.cross(v).normalize();
        let gap = 1e-3;
        let a = Capsule::new((centre - u).as_vec3(), (centre + u).as_vec3(), 0.5).unwrap();
        let q = centre + n * gap;
        let b = Capsule::new((q - v).as_vec3(), (q + v).as_vec3(), 0.5).unwrap();
        let c = contact(&a, &Pose::<Vec3>::IDENTITY, &b, &Pose::IDENTITY, 0.0).unwrap();
        // Exact: the f32 ends' directions, in f64, oriented from A toward B.
        let [a0, a1] = a.ends().map(|p| p.as_dvec3());
        let [b0, b1] = b.ends().map(|p| p.as_dvec3());
        let m = (a1 - a0).cross(b1 - b0).normalize();
        let exact = if m.dot(b0 - a0) < 0.0 { -m } else { m };
        worst = worst.max(c.normal.as_dvec3().cross(exact).length());
    }
    assert!(worst < 2e-5, "normal up to {worst:e} rad off");
}
