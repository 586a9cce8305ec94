//! Convex hulls against parry, on the same points, in the same run.
//!
//! Construction groups are `<set>/hull/<precision>` (for example `ball_100000/hull/f64`) with
//! the functions `gjk` (`gjk::hull::Hull::new`) and `parry` (`transformation::convex_hull` of
//! parry3d or parry3d-f64: parry's plain hull construction). One iteration builds one hull (no
//! throughput is set, so the report reads ns per hull).
//!
//! Support groups are `<set>/support/<precision>` on the hull of points on the sphere (every
//! point a vertex), with the functions `scan` (`Hull::scan`: every vertex), `cold`
//! (`Polytope::support`: hill climbing from the seed table's vertex), `warm`
//! (`Polytope::support_hinted` with the hint left by a direction 0.02 rad away) and `parry`
//! (`SupportMap::local_support_point` of parry's `ConvexPolyhedron`, a scan of its vertices).
//! One iteration answers a batch of 256 directions; the throughput is the batch, so
//! ns per call = iteration time / 256.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use gjk::hull::Hull;
use gjk::{Polytope, Support};
use gjk_bench::hulls::{self, PointSet};
use glam::{DVec3, Vec3};
use parry3d::shape::SupportMap as _;
use parry3d_f64::shape::SupportMap as _;

/// One construction group: ours and parry's on the same points.
fn construct<P>(
    c: &mut Criterion,
    id: String,
    points: &[P],
    ours: impl Fn(&[P]) -> usize,
    parry: impl Fn(&[P]) -> usize,
) {
    let mut group = c.benchmark_group(id);
    // Flat sampling: the 100,000-point hulls take tens of milliseconds, so criterion's default
    // linear ramp (1 + 2 + … + 10 iterations) would dominate the run.
    group.sampling_mode(SamplingMode::Flat).sample_size(10);
    group.bench_function("gjk", |b| b.iter(|| ours(black_box(points))));
    group.bench_function("parry", |b| b.iter(|| parry(black_box(points))));
    group.finish();
}

fn construction(c: &mut Criterion) {
    for set in hulls::construction_sets() {
        construct(
            c,
            format!("{}/hull/f64", set.name),
            &set.points,
            |p: &[DVec3]| Hull::new(p).expect("our hull").vertices().len(),
            |p: &[DVec3]| hulls::parry_hull_f64(p).0.len(),
        );
        construct(
            c,
            format!("{}/hull/f32", set.name),
            &set.points_f32(),
            |p: &[Vec3]| Hull::new(p).expect("our hull").vertices().len(),
            |p: &[Vec3]| hulls::parry_hull_f32(p).0.len(),
        );
    }
}

/// The support groups of one hull in one precision. `parry_support` answers one direction on
/// parry's polyhedron of the same points.
fn support_group<V: gjk::Vector>(
    c: &mut Criterion,
    id: String,
    polytope: &Polytope<V>,
    pairs: &[(V, V)],
    parry_support: impl Fn(V) -> V,
) {
    let hull = polytope.hull();
    // Hints left by the nearby directions (vertex index + 1, as `support_hinted` stores it).
    let hints: Vec<u32> = pairs
        .iter()
        .map(|&(_, near)| {
            let mut hint = 0;
            polytope.support_hinted(near, &mut hint);
            hint
        })
        .collect();
    let mut group = c.benchmark_group(id);
    group.throughput(Throughput::Elements(pairs.len() as u64));
    group.bench_function("scan", |b| {
        b.iter(|| pairs.iter().map(|&(d, _)| hull.scan(black_box(d))).sum::<usize>())
    });
    group.bench_function("cold", |b| {
        b.iter(|| pairs.iter().map(|&(d, _)| polytope.support(black_box(d))).fold(V::ZERO, add))
    });
    group.bench_function("warm", |b| {
        b.iter(|| {
            pairs
                .iter()
                .zip(&hints)
                .map(|(&(d, _), &hint)| {
                    let mut hint = hint;
                    polytope.support_hinted(black_box(d), &mut hint)
                })
                .fold(V::ZERO, add)
        })
    });
    group.bench_function("parry", |b| {
        b.iter(|| pairs.iter().map(|&(d, _)| parry_support(black_box(d))).fold(V::ZERO, add))
    });
    group.finish();
}

fn add<V: gjk::Vector>(a: V, b: V) -> V {
    a + b
}

fn support(c: &mut Criterion) {
    for (k, set) in hulls::support_sets().into_iter().enumerate() {
        let pairs = hulls::direction_pairs(k as u64 + 1);
        support_f64(c, &set, &pairs);
        support_f32(c, &set, &pairs);
    }
}

fn support_f64(c: &mut Criterion, set: &PointSet, pairs: &[(DVec3, DVec3)]) {
    let polytope = Polytope::new(set.points.clone()).expect("our hull");
    assert_eq!(polytope.points().len(), set.points.len(), "every sphere point is a vertex");
    let parry =
        parry3d_f64::shape::ConvexPolyhedron::from_convex_hull(&set.points).expect("parry's hull");
    let id = format!("{}/support/f64", set.name);
    support_group(c, id, &polytope, pairs, |d| parry.local_support_point(d));
}

fn support_f32(c: &mut Criterion, set: &PointSet, pairs: &[(DVec3, DVec3)]) {
    let points = set.points_f32();
    let polytope = Polytope::new(points.clone()).expect("our hull");
    assert_eq!(polytope.points().len(), points.len(), "every sphere point is a vertex");
    let parry = parry3d::shape::ConvexPolyhedron::from_convex_hull(&points).expect("parry's hull");
    let pairs: Vec<(Vec3, Vec3)> = pairs.iter().map(|(d, n)| (d.as_vec3(), n.as_vec3())).collect();
    let id = format!("{}/support/f32", set.name);
    support_group(c, id, &polytope, &pairs, |d| parry.local_support_point(d));
}

criterion_group! {
    name = benches;
    // Short windows: the whole file runs in a few minutes; the command line may override them.
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = construction, support
}
criterion_main!(benches);
