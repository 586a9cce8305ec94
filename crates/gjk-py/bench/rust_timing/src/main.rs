//! The Rust library's per-query time on the pairs `bench/bench.py` writes: the same shapes and
//! poses, concrete shape types (no dynamic dispatch), one thread, a plain loop.
//!
//! Usage: `gjk-py-rust-timing KIND FILE` with KIND `box`, `capsule` or `hull`; FILE holds
//! little-endian f64: `m_a`, `m_a` shape numbers of A, `m_b`, B's, `n`, then `n` rows of 14
//! (pose A `[x, y, z, qx, qy, qz, qw]`, pose B). Prints `distance_ns intersects_ns checksum`.
//!
//! With a third argument `distance` or `intersects` and a fourth, a count `r`, it runs that
//! query `r` times over the pairs and prints only the checksum: `bench.py --instructions`
//! counts the instructions of two such runs and divides their difference by the extra queries.

use std::hint::black_box;
use std::time::Instant;

use gjk::{Capsule, Cuboid, Polytope, Pose, Support};
use glam::{DQuat, DVec3};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (kind, file, once) = match &args[..] {
        [_, kind, file] => (kind, file, None),
        [_, kind, file, query, r] => (kind, file, Some((query.as_str(), r.parse().unwrap()))),
        _ => {
            eprintln!("usage: gjk-py-rust-timing box|capsule|hull FILE [distance|intersects R]");
            std::process::exit(2);
        }
    };
    let bytes = std::fs::read(file).expect("cannot read the pairs file");
    let numbers: Vec<f64> =
        bytes.chunks_exact(8).map(|b| f64::from_le_bytes(b.try_into().unwrap())).collect();
    let (a, rest) = take(&numbers);
    let (b, rest) = take(rest);
    let n = rest[0] as usize;
    let poses: Vec<(Pose<DVec3>, Pose<DVec3>)> =
        rest[1..1 + 14 * n].chunks_exact(14).map(|r| (pose(&r[..7]), pose(&r[7..]))).collect();
    match kind.as_str() {
        "box" => run(&cuboid(a), &cuboid(b), &poses, once),
        "capsule" => run(&capsule(a), &capsule(b), &poses, once),
        "hull" => run(&hull(a), &hull(b), &poses, once),
        other => panic!("unknown kind {other}"),
    }
}

fn take(numbers: &[f64]) -> (&[f64], &[f64]) {
    let m = numbers[0] as usize;
    (&numbers[1..1 + m], &numbers[1 + m..])
}

fn pose(r: &[f64]) -> Pose<DVec3> {
    Pose::new(DQuat::from_xyzw(r[3], r[4], r[5], r[6]), DVec3::new(r[0], r[1], r[2])).unwrap()
}

fn cuboid(p: &[f64]) -> Cuboid<DVec3> {
    Cuboid::new(DVec3::new(p[0], p[1], p[2])).unwrap()
}

fn capsule(p: &[f64]) -> Capsule<DVec3> {
    Capsule::new(DVec3::new(p[0], p[1], p[2]), DVec3::new(p[3], p[4], p[5]), p[6]).unwrap()
}

fn hull(p: &[f64]) -> Polytope<DVec3> {
    Polytope::new(p.chunks_exact(3).map(|c| DVec3::new(c[0], c[1], c[2])).collect()).unwrap()
}

/// `r` passes of `query` (printing a checksum), or the timings.
fn run<A: Support<DVec3>, B: Support<DVec3>>(
    a: &A,
    b: &B,
    poses: &[(Pose<DVec3>, Pose<DVec3>)],
    once: Option<(&str, u32)>,
) {
    let Some((query, r)) = once else { return time(a, b, poses) };
    let mut sum = 0.0;
    for _ in 0..r {
        for (pa, pb) in poses {
            sum += match query {
                "distance" => gjk::distance(black_box(a), pa, black_box(b), pb),
                "intersects" => f64::from(u8::from(gjk::intersects(black_box(a), pa, b, pb))),
                other => panic!("unknown query {other}"),
            };
        }
    }
    println!("{sum}");
}

/// Best of five passes over all pairs, per query, in nanoseconds.
fn time<A: Support<DVec3>, B: Support<DVec3>>(a: &A, b: &B, poses: &[(Pose<DVec3>, Pose<DVec3>)]) {
    let mut best = [f64::INFINITY; 2];
    let mut checksum = 0.0;
    for _ in 0..5 {
        let start = Instant::now();
        let mut sum = 0.0;
        for (pa, pb) in poses {
            sum += gjk::distance(black_box(a), pa, black_box(b), pb);
        }
        best[0] = best[0].min(start.elapsed().as_secs_f64() * 1e9 / poses.len() as f64);
        checksum = sum;
        let start = Instant::now();
        let mut hits = 0u32;
        for (pa, pb) in poses {
            hits += u32::from(gjk::intersects(black_box(a), pa, black_box(b), pb));
        }
        best[1] = best[1].min(start.elapsed().as_secs_f64() * 1e9 / poses.len() as f64);
        black_box(hits);
    }
    println!("{:.1} {:.1} {checksum}", best[0], best[1]);
}
