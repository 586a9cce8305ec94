//! Our queries against parry's, on the same pairs, in the same run.
//!
//! Group ids are `<workload>/<query>/<precision>` (for example `box_box/distance/f32`), with
//! the functions `gjk` (ours), `parry` (parry's public `query::intersection_test` /
//! `query::distance`) and, where parry's dispatcher does not use GJK (box–box: SAT;
//! a ball against a polyhedron: point projection), `parry_gjk` (parry's GJK called directly).
//! One iteration answers the whole batch of a workload's pairs; the throughput is the number of
//! pairs, so ns per query = iteration time / pairs. `src/bin/report.rs` turns the estimates
//! into `docs/benchmarks.md`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gjk_bench::spec::{Placement2, Placement3, Spec2, Spec3};
use gjk_bench::{workload, ParryGjk, Query, Workload};
use glam::{DVec2, DVec3, Vec2, Vec3};

/// The number of pairs that intersect (kept so the loop cannot be optimised away).
fn intersect_all<Q: Query>(cases: &[Q]) -> usize {
    cases.iter().filter(|c| black_box(*c).intersects()).count()
}

/// The sum of the distances.
fn distance_all<Q: Query>(cases: &[Q]) -> f64 {
    cases.iter().map(|c| black_box(c).distance()).sum()
}

/// Both queries of one workload in one precision: ours, parry's, and parry's GJK if given.
fn compare<O: Query, P: Query, G: Query>(
    c: &mut Criterion,
    (workload, precision): (&str, &str),
    ours: &[O],
    parry: &[P],
    parry_gjk: Option<&[G]>,
) {
    let pairs = ours.len() as u64;
    let mut group = c.benchmark_group(format!("{workload}/intersects/{precision}"));
    group.throughput(Throughput::Elements(pairs));
    group.bench_function("gjk", |b| b.iter(|| intersect_all(ours)));
    group.bench_function("parry", |b| b.iter(|| intersect_all(parry)));
    if let Some(direct) = parry_gjk {
        group.bench_function("parry_gjk", |b| b.iter(|| intersect_all(direct)));
    }
    group.finish();
    let mut group = c.benchmark_group(format!("{workload}/distance/{precision}"));
    group.throughput(Throughput::Elements(pairs));
    group.bench_function("gjk", |b| b.iter(|| distance_all(ours)));
    group.bench_function("parry", |b| b.iter(|| distance_all(parry)));
    if let Some(direct) = parry_gjk {
        group.bench_function("parry_gjk", |b| b.iter(|| distance_all(direct)));
    }
    group.finish();
}

/// A 3D workload in `f32` and `f64`.
fn bench3<A: Spec3, B: Spec3>(c: &mut Criterion, w: &Workload<A, B, Placement3>, direct: bool) {
    let (ours, parry) = (w.ours::<Vec3>().expect("ours f32"), w.parry().expect("parry3d"));
    let gjk: Vec<_> = parry.iter().map(ParryGjk).collect();
    compare(c, (w.name, "f32"), &ours, &parry, direct.then_some(&gjk[..]));
    let (ours, parry) = (w.ours::<DVec3>().expect("ours f64"), w.parry_f64().expect("parry3d-f64"));
    let gjk: Vec<_> = parry.iter().map(ParryGjk).collect();
    compare(c, (w.name, "f64"), &ours, &parry, direct.then_some(&gjk[..]));
}

/// A 2D workload in `f32` and `f64`.
fn bench2<A: Spec2, B: Spec2>(c: &mut Criterion, w: &Workload<A, B, Placement2>, direct: bool) {
    let (ours, parry) = (w.ours::<Vec2>().expect("ours f32"), w.parry().expect("parry2d"));
    let gjk: Vec<_> = parry.iter().map(ParryGjk).collect();
    compare(c, (w.name, "f32"), &ours, &parry, direct.then_some(&gjk[..]));
    let (ours, parry) = (w.ours::<DVec2>().expect("ours f64"), w.parry_f64().expect("parry2d-f64"));
    let gjk: Vec<_> = parry.iter().map(ParryGjk).collect();
    compare(c, (w.name, "f64"), &ours, &parry, direct.then_some(&gjk[..]));
}

fn queries(c: &mut Criterion) {
    bench3(c, &workload::box_box(), true);
    bench3(c, &workload::sphere_box(), true);
    bench3(c, &workload::capsule_capsule(), false);
    bench3(c, &workload::hull_32(), false);
    bench3(c, &workload::hull_1000(), false);
    bench3(c, &workload::cylinder_cone(), false);
    bench2(c, &workload::polygon_8(), false);
    bench2(c, &workload::circle_polygon(), true);
    bench2(c, &workload::tutorial_triangles(), false);
}

criterion_group! {
    name = benches;
    // 50 samples keep the 1,000-point hulls (about a millisecond per batch) within a short
    // measurement time; the command line may still override it.
    config = Criterion::default().sample_size(50);
    targets = queries
}
criterion_main!(benches);
