//! The recorded penetration run (EPA steps of the walkthrough) against brute force.
//!
//! Oracle: for two convex polygons, the Minkowski difference is the convex hull of all vertex
//! differences (built here by a gift-wrapping-free monotone chain); when the origin is inside,
//! the depth is the smallest distance from the origin to a hull edge's line, and when outside,
//! the distance is the distance from the origin to the hull. Tolerance 1e-9 (relative to sizes
//! of about 1 to 10).

use gjk::{Polytope, Pose};
use gjk_explain::{ExplainOptions, Explanation, Method, Stage};
use glam::DVec2;

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
                let last = view.steps.last().unwrap();
                assert_eq!(last.stage, Stage::Epa);
                assert!(last.stopped && e.text().contains("Penetration result: depth = "));
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
