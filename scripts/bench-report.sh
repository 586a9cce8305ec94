#!/usr/bin/env bash
# Measures gjk against parry on every benchmark group (intersection, distance, contact, ray
# cast, shape cast; convex-hull construction and support; f32 and f64) and writes
# docs/benchmarks.md (timings, accuracy, depth errors). Takes about 15 minutes on 2 cores, after
# the build. Extra arguments go to criterion in both benches (e.g. a filter: box_box, or
# ball_100000); the report then keeps whatever other estimates target/criterion holds.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -j2 -p gjk-bench --features bench --bench queries -- --warm-up-time 0.5 --measurement-time 2 "$@"
# Hull benches: their short warm-up and measurement windows are set in benches/hulls.rs.
cargo bench -j2 -p gjk-bench --features bench --bench hulls -- "$@"
cargo run -j2 --release -p gjk-bench --bin report
