//! Random polytope pairs against the brute-force Carathéodory oracle (see `common`).
//!
//! Case counts (defaults; scale them with `GJK_ORACLE_CASES`, e.g. `GJK_ORACLE_CASES=20000`
//! runs 20× as many):
//! * 2D f64: 2000 pairs, 2D f32: 1000 pairs (1–8 points per shape);
//! * 3D f64: 1500 pairs, 3D f32: 800 pairs (1–6 points per shape).
//!
//! Every pair has random rotations and translations, spread so that about half intersect; f32
//! results are checked against the f64 oracle evaluated on the exact f32 inputs.

use crate::common;

use common::{case_count, check_pair, Body, Draw, Expect, Rng, Stats, TestVector};
use glam::{DVec2, DVec3, Vec2, Vec3};

/// A random point cloud of 1 to `max_points` points, mostly more than `dim`.
fn cloud(rng: &mut Rng, dim: usize, max_points: usize) -> Vec<glam::DVec3> {
    let n =
        if rng.chance(0.1) { 1 + rng.below(dim) } else { dim + 1 + rng.below(max_points - dim) };
    let size = rng.range(0.2, 2.0);
    (0..n).map(|_| rng.in_cube(dim, size)).collect()
}

fn random_pairs<V: TestVector>(seed: u64, cases: usize, max_points: usize) -> Stats {
    let mut rng = Rng::new(seed);
    let mut stats = Stats::default();
    let dim = V::DIM;
    for case in 0..cases {
        let a = cloud(&mut rng, dim, max_points);
        let b = cloud(&mut rng, dim, max_points);
        let reach = |pts: &[DVec3]| pts.iter().map(|p| p.length()).fold(0.0, f64::max);
        let spread = reach(&a) + reach(&b);
        let offset = rng.direction(dim) * rng.range(0.0, if dim == 2 { 1.0 } else { 0.8 } * spread);
        let ta = rng.in_cube(dim, 5.0);
        let pose_a = V::pose(rng.rotation(dim), ta);
        let pose_b = V::pose(rng.rotation(dim), ta + offset);
        let label = format!("random pair {case} (seed {seed})");
        check_pair(
            &Body::polytope(&a, pose_a),
            &Body::polytope(&b, pose_b),
            Expect::Oracle,
            &label,
            &mut stats,
        );
    }
    stats
}

#[test]
fn random_pairs_2d_f64() {
    let stats = random_pairs::<DVec2>(0x2d64, case_count(2000), 8);
    stats.report("random 2D f64");
    assert!(stats.intersecting > stats.cases / 5 && stats.separated > stats.cases / 5);
}

#[test]
fn random_pairs_2d_f32() {
    let stats = random_pairs::<Vec2>(0x2d32, case_count(1000), 8);
    stats.report("random 2D f32");
    assert!(stats.intersecting > stats.cases / 5 && stats.separated > stats.cases / 5);
}

#[test]
fn random_pairs_3d_f64() {
    let stats = random_pairs::<DVec3>(0x3d64, case_count(1500), 6);
    stats.report("random 3D f64");
    assert!(stats.intersecting > stats.cases / 5 && stats.separated > stats.cases / 5);
}

#[test]
fn random_pairs_3d_f32() {
    let stats = random_pairs::<Vec3>(0x3d32, case_count(800), 6);
    stats.report("random 3D f32");
    assert!(stats.intersecting > stats.cases / 5 && stats.separated > stats.cases / 5);
}

/// The oracle itself, on configurations whose answers are known by hand.
#[test]
fn oracle_knows_simple_answers() {
    use common::origin_to_hull;
    let square: Vec<DVec3> = [(1.0, 1.0), (3.0, 1.0), (3.0, 2.0), (1.0, 2.0)]
        .iter()
        .map(|&(x, y)| DVec3::new(x, y, 0.0))
        .collect();
    let q = origin_to_hull(&square, 2);
    assert!(!q.contains && (q.distance() - 2f64.sqrt()).abs() < 1e-15);
    let around: Vec<DVec3> = square.iter().map(|p| *p - DVec3::new(2.0, 1.5, 0.0)).collect();
    assert!(origin_to_hull(&around, 2).contains);
    let tet = [
        DVec3::new(1.0, -1.0, 2.0),
        DVec3::new(-1.0, -1.0, 2.0),
        DVec3::new(0.0, 1.0, 2.0),
        DVec3::new(0.0, 0.0, 5.0),
    ];
    let q = origin_to_hull(&tet, 3);
    assert!(!q.contains && (q.distance() - 2.0).abs() < 1e-15);
    let shifted: Vec<DVec3> = tet.iter().map(|p| *p - DVec3::new(0.0, -0.2, 2.5)).collect();
    assert!(origin_to_hull(&shifted, 3).contains);
    // A flat (coplanar) set in 3D: the origin in its plane and inside, then beside it.
    let plate =
        [DVec3::new(-1.0, -1.0, 0.0), DVec3::new(-1.0, 1.0, 0.0), DVec3::new(1.0, 0.0, 0.0)];
    assert_eq!(origin_to_hull(&plate, 3).distance(), 0.0);
    let beside: Vec<DVec3> = plate.iter().map(|p| *p + DVec3::new(3.0, 0.0, 0.0)).collect();
    assert!((origin_to_hull(&beside, 3).distance() - 2.0).abs() < 1e-15);
    let above: Vec<DVec3> = plate.iter().map(|p| *p + DVec3::new(0.0, 0.0, 0.5)).collect();
    assert!((origin_to_hull(&above, 3).distance() - 0.5).abs() < 1e-15);
}

/// The oracle's shortcut (a separating plane through the origin skips the Carathéodory search)
/// agrees with the exhaustive search: 2000 random Minkowski differences in 2D and 3D.
#[test]
fn oracle_shortcut_agrees_with_exhaustive_search() {
    use common::{minkowski_difference, origin_to_hull, origin_to_hull_exhaustive};
    let mut rng = Rng::new(0x5407);
    let mut inside = 0;
    for case in 0..case_count(2000) {
        let dim = 2 + case % 2;
        let a = cloud(&mut rng, dim, 6);
        let offset = rng.in_cube(dim, 2.0);
        let b: Vec<DVec3> = cloud(&mut rng, dim, 6).iter().map(|p| *p + offset).collect();
        let p = minkowski_difference(&a, &b);
        let (fast, full) = (origin_to_hull(&p, dim), origin_to_hull_exhaustive(&p, dim));
        assert_eq!(fast.contains, full.contains, "case {case}");
        assert_eq!(fast.distance(), full.distance(), "case {case}");
        inside += usize::from(full.contains);
    }
    assert!(inside > 100, "too few intersecting cases: {inside}");
}
