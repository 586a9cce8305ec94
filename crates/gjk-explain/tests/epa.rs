//! The recorded penetration run (the library's EPA steps, as the walkthrough shows them)
//! against brute force.
//!
//! Oracles: for two convex polygons, the Minkowski difference is the convex hull of all vertex
//! differences (built here by a monotone chain); when the origin is inside, the depth is the
//! smallest distance from the origin to a hull edge's line, and when outside, the distance is
//! the distance from the origin to the hull. For two boxes in 3D, the depth is the smallest
//! overlap of their projections on the 15 separating-axis candidates (the 6 face normals and
//! the 9 cross products of edge directions), which is exact for polyhedra. Tolerance 1e-9
//! (relative to sizes of about 1 to 10).
//!
//! Each observed step must bracket the oracle's depth (lower bound ≤ depth ≤ upper bound),
//! its lower bound must never fall, and the last step's normal must be the answer's.

use gjk::{Cuboid, Polytope, Pose};
use gjk_explain::{ExplainOptions, Explanation, Method, RunView, Stage};
use glam::{DQuat, DVec2, DVec3};

/// A tiny deterministic generator (64-bit LCG, high bits).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn hull(mut p: Vec<DVec2>) -> Vec<DVec2> {
    p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    p.dedup();
    let mut h: Vec<DVec2> = Vec::new();
    for pass in 0..2 {
        let start = h.len();
        let order: Vec<DVec2> =
            if pass == 0 { p.clone() } else { p.iter().rev().copied().collect() };
        for q in order {
            while h.len() >= start + 2
                && (h[h.len() - 1] - h[h.len() - 2]).perp_dot(q - h[h.len() - 2]) <= 0.0
            {
                h.pop();
            }
            h.push(q);
        }
        h.pop();
    }
    h
}

/// (origin inside, depth or distance) by brute force.
fn brute(a: &[DVec2], b: &[DVec2]) -> (bool, f64) {
    let d = hull(a.iter().flat_map(|&p| b.iter().map(move |&q| p - q)).collect());
    let n = d.len();
    let inside = (0..n).all(|i| (d[(i + 1) % n] - d[i]).perp_dot(-d[i]) >= 0.0);
    if inside {
        let depth = (0..n)
            .map(|i| {
                let e = d[(i + 1) % n] - d[i];
                e.perp_dot(-d[i]).abs() / e.length()
            })
            .fold(f64::INFINITY, f64::min);
        (true, depth)
    } else {
        let dist = (0..n)
            .map(|i| {
                let (p, e) = (d[i], d[(i + 1) % n] - d[i]);
                let t = (-p.dot(e) / e.length_squared()).clamp(0.0, 1.0);
                (p + t * e).length()
            })
            .fold(f64::INFINITY, f64::min);
        (false, dist)
    }
}

fn polygon(rng: &mut Lcg, centre: DVec2) -> Vec<DVec2> {
    let n = 3 + (rng.next() * 6.0) as usize;
    (0..n)
        .map(|_| {
            let t = rng.next() * std::f64::consts::TAU;
            let r = 0.5 + 2.0 * rng.next();
            centre + r * DVec2::new(t.cos(), t.sin())
        })
        .collect()
}

/// The observed EPA steps of `view` against the oracle's `depth` (shapes without margins).
fn check_steps(view: &RunView, depth: f64) {
    let p = view.penetration.as_ref().expect("a penetration");
    assert_eq!(p.how, "converged");
    let epa: Vec<_> = view.steps.iter().filter(|s| s.stage == Stage::Epa).collect();
    assert!(!epa.is_empty());
    let mut lower = f64::NEG_INFINITY;
    for s in &epa {
        let [l, u] = s.bounds.expect("bounds");
        assert!(l <= depth + 1e-9 && u >= depth - 1e-9, "[{l}, {u}] vs {depth}");
        assert!(l >= lower - 1e-9, "the lower bound fell: {l} after {lower}");
        lower = l;
        let face = &s.faces[s.face.expect("a closest face")];
        assert_eq!(face.len(), view.steps[0].w.len(), "an edge in 2D, a triangle in 3D");
    }
    let last = epa.last().unwrap();
    assert!(last.stopped);
    let n: f64 = last.direction.iter().zip(&p.normal).map(|(x, y)| (x - y).powi(2)).sum();
    assert!(n.sqrt() < 1e-12, "last step's normal {:?} vs {:?}", last.direction, p.normal);
    assert!((last.bounds.unwrap()[0] - depth).abs() < 1e-9);
}

#[test]
fn epa_depth_and_gjk_distance_match_brute_force() {
    let mut rng = Lcg(7);
    let (mut overlapping, mut apart) = (0, 0);
    for _ in 0..300 {
        let a = polygon(&mut rng, DVec2::ZERO);
        let centre = DVec2::new(6.0 * rng.next() - 3.0, 6.0 * rng.next() - 3.0);
        let b = polygon(&mut rng, centre);
        let (inside, expected) = brute(&a, &b);
        // Skip grazing pairs, where "inside" depends on rounding.
        if expected < 1e-6 {
            continue;
        }
        let (pa, pb) = (Polytope::new(a.clone()).unwrap(), Polytope::new(b.clone()).unwrap());
        for method in [Method::Robust, Method::Classic] {
            let options = ExplainOptions { method, ..Default::default() };
            let e = Explanation::for_pair_2d(&pa, &Pose::IDENTITY, &pb, &Pose::IDENTITY, &options)
                .unwrap();
            let view = e.view();
            if inside {
                assert_eq!(e.intersecting(), Some(true), "{a:?} {b:?}");
                let p = view.penetration.as_ref().expect("an EPA run for an overlap");
                assert!(
                    (p.depth - expected).abs() < 1e-9,
                    "{} vs {expected}: {a:?} {b:?}",
                    p.depth
                );
                check_steps(view, expected);
                assert!(e.text().contains("Penetration result: depth = "));
                overlapping += 1;
            } else if method == Method::Robust {
                assert_eq!(e.intersecting(), Some(false));
                let s = view.separation.as_ref().expect("a separation");
                assert!((s.distance - expected).abs() < 1e-9, "{} vs {expected}", s.distance);
                assert!(view.penetration.is_none());
                apart += 1;
            }
        }
    }
    assert!(overlapping > 100 && apart > 50, "{overlapping} {apart}");
}

/// The corners of a box with these half extents at `pose`.
fn box_corners(h: DVec3, rotation: DQuat, t: DVec3) -> Vec<DVec3> {
    (0..8)
        .map(|i| {
            let s = DVec3::new(
                if i & 1 == 0 { -1.0 } else { 1.0 },
                if i & 2 == 0 { -1.0 } else { 1.0 },
                if i & 4 == 0 { -1.0 } else { 1.0 },
            );
            rotation * (s * h) + t
        })
        .collect()
}

/// The penetration depth of two boxes by the separating-axis test (negative when apart).
fn box_depth(a: &[DVec3], ra: DQuat, b: &[DVec3], rb: DQuat) -> f64 {
    let axes_a = [ra * DVec3::X, ra * DVec3::Y, ra * DVec3::Z];
    let axes_b = [rb * DVec3::X, rb * DVec3::Y, rb * DVec3::Z];
    let mut axes: Vec<DVec3> = axes_a.iter().chain(&axes_b).copied().collect();
    for x in axes_a {
        for y in axes_b {
            if let Some(n) = x.cross(y).try_normalize() {
                axes.push(n);
            }
        }
    }
    let span = |ps: &[DVec3], n: DVec3| {
        ps.iter()
            .map(|p| p.dot(n))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)))
    };
    axes.iter()
        .map(|&n| {
            let ((a0, a1), (b0, b1)) = (span(a, n), span(b, n));
            (a1 - b0).min(b1 - a0)
        })
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn epa_steps_in_3d_match_the_boxes_separating_axis_depth() {
    let mut rng = Lcg(18);
    let mut overlapping = 0;
    for _ in 0..60 {
        let mut unit = || 2.0 * rng.next() - 1.0;
        let quat = |u: &mut dyn FnMut() -> f64| {
            let q = DQuat::from_xyzw(u(), u(), u(), u());
            if q.length() > 1e-3 {
                q.normalize()
            } else {
                DQuat::IDENTITY
            }
        };
        let (ra, rb) = (quat(&mut unit), quat(&mut unit));
        let ha = DVec3::new(0.5 + unit().abs(), 0.5 + unit().abs(), 0.5 + unit().abs());
        let hb = DVec3::new(0.5 + unit().abs(), 0.5 + unit().abs(), 0.5 + unit().abs());
        let t = DVec3::new(unit(), unit(), unit()) * 1.5;
        let depth = box_depth(&box_corners(ha, ra, DVec3::ZERO), ra, &box_corners(hb, rb, t), rb);
        if depth < 1e-3 {
            continue;
        }
        let (a, b) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
        let (pa, pb) = (Pose::new(ra, DVec3::ZERO).unwrap(), Pose::new(rb, t).unwrap());
        let e = Explanation::for_pair_3d(&a, &pa, &b, &pb, &ExplainOptions::default()).unwrap();
        assert_eq!(e.intersecting(), Some(true));
        let view = e.view();
        let p = view.penetration.as_ref().expect("an EPA run for an overlap");
        assert!((p.depth - depth).abs() < 1e-9, "{} vs {depth}", p.depth);
        check_steps(view, depth);
        assert!(view.meshes.is_some(), "3D views carry meshes");
        overlapping += 1;
    }
    assert!(overlapping > 20, "{overlapping}");
}
