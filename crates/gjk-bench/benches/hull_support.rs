//! Hull construction and support: full scan vs hill climbing (cold and warm).
//!
//! `cargo bench -p gjk-bench --features bench --bench hull_support`. Support groups time a batch of 256 directions per
//! iteration (divide by 256 for one call). "warm" starts each climb from the vertex found for
//! a direction 0.02 rad away, as a frame-to-frame or iteration-to-iteration hint would.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gjk::hull::Hull;
use gjk::{Polytope, Support};
use gjk_testkit::SplitMix64 as Rng;
use glam::{DVec3, Vec3};

/// Deterministic points on the shared SplitMix64.
trait Draw {
    fn in_ball(&mut self) -> DVec3;
    fn on_sphere(&mut self) -> DVec3;
}

impl Draw for Rng {
    fn in_ball(&mut self) -> DVec3 {
        loop {
            let v = DVec3::new(self.unit(), self.unit(), self.unit()) * 2.0 - 1.0;
            if v.length_squared() <= 1.0 && v.length_squared() > 1e-6 {
                return v;
            }
        }
    }
    fn on_sphere(&mut self) -> DVec3 {
        self.in_ball().normalize()
    }
}

const BATCH: usize = 256;

fn construction(c: &mut Criterion) {
    let mut group = c.benchmark_group("hull construction (points in a ball)");
    group.sample_size(10);
    let mut rng = Rng::new(1);
    for n in [1_000, 10_000, 100_000] {
        let points: Vec<DVec3> = (0..n).map(|_| rng.in_ball()).collect();
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("DVec3", n), &points, |b, p| {
            b.iter(|| Hull::new(black_box(p)).unwrap())
        });
        let points32: Vec<Vec3> = points.iter().map(|p| p.as_vec3()).collect();
        group.bench_with_input(BenchmarkId::new("Vec3", n), &points32, |b, p| {
            b.iter(|| Hull::new(black_box(p)).unwrap())
        });
    }
    let sphere: Vec<DVec3> = (0..10_000).map(|_| rng.on_sphere()).collect();
    group.bench_with_input(BenchmarkId::new("DVec3 sphere surface", 10_000), &sphere, |b, p| {
        b.iter(|| Hull::new(black_box(p)).unwrap())
    });
    group.finish();
}

/// `BATCH` random directions and, for each, one 0.02 rad away.
fn direction_pairs(rng: &mut Rng) -> Vec<(Vec3, Vec3)> {
    (0..BATCH)
        .map(|_| {
            let d = rng.on_sphere();
            let nudge = d.any_orthonormal_vector() * 0.02;
            (d.as_vec3(), (d + nudge).as_vec3())
        })
        .collect()
}

fn support(c: &mut Criterion) {
    let mut rng = Rng::new(2);
    for n in [1_000, 10_000] {
        let mut group = c.benchmark_group(format!("support on {n}-vertex hull (sphere, f32)"));
        group.throughput(Throughput::Elements(BATCH as u64));
        let points: Vec<Vec3> = (0..n).map(|_| rng.on_sphere().as_vec3()).collect();
        let polytope = Polytope::new(points).unwrap();
        let hull = polytope.hull();
        let pairs = direction_pairs(&mut rng);
        // Hints left by the nearby directions.
        let hints: Vec<u32> = pairs
            .iter()
            .map(|&(_, near)| {
                let mut h = 0;
                polytope.support_hinted(near, &mut h);
                h
            })
            .collect();
        group.bench_function("full scan", |b| {
            b.iter(|| pairs.iter().map(|&(d, _)| hull.scan(black_box(d))).sum::<usize>())
        });
        group.bench_function("climb cold from vertex 0", |b| {
            b.iter(|| pairs.iter().map(|&(d, _)| hull.climb(black_box(d), 0)).sum::<usize>())
        });
        group.bench_function("climb cold from the seed table (support)", |b| {
            b.iter(|| pairs.iter().map(|&(d, _)| polytope.support(black_box(d)).x).sum::<f32>())
        });
        group.bench_function("climb warm (hint from 0.02 rad away)", |b| {
            b.iter(|| {
                pairs
                    .iter()
                    .zip(&hints)
                    .map(|(&(d, _), &h)| {
                        let mut h = h;
                        polytope.support_hinted(black_box(d), &mut h).x
                    })
                    .sum::<f32>()
            })
        });
        group.finish();
    }
}

/// Scan vs cold climb on small hulls: where the scan threshold belongs.
fn threshold(c: &mut Criterion) {
    let mut rng = Rng::new(3);
    let mut group = c.benchmark_group("scan vs climb on small hulls (sphere, f32)");
    group.throughput(Throughput::Elements(BATCH as u64));
    for n in [16, 32, 48, 64, 96, 128] {
        let points: Vec<Vec3> = (0..n).map(|_| rng.on_sphere().as_vec3()).collect();
        let hull = Hull::new(&points).unwrap();
        let pairs = direction_pairs(&mut rng);
        group.bench_with_input(BenchmarkId::new("scan", n), &hull, |b, hull| {
            b.iter(|| pairs.iter().map(|&(d, _)| hull.scan(black_box(d))).sum::<usize>())
        });
        group.bench_with_input(BenchmarkId::new("seeded climb", n), &hull, |b, hull| {
            b.iter(|| pairs.iter().map(|&(d, _)| hull.support_index(black_box(d))).sum::<usize>())
        });
        group.bench_with_input(BenchmarkId::new("warm climb", n), &hull, |b, hull| {
            let hints: Vec<usize> =
                pairs.iter().map(|&(_, near)| hull.support_index(near)).collect();
            b.iter(|| {
                pairs
                    .iter()
                    .zip(&hints)
                    .map(|(&(d, _), &h)| hull.climb(black_box(d), h))
                    .sum::<usize>()
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = construction, support, threshold
}
criterion_main!(benches);
