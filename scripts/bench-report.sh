#!/usr/bin/env bash
# Measures gjk against parry on every benchmark group (intersection, distance, contact, ray
# cast, shape cast; f32 and f64) and writes docs/benchmarks.md (timings, accuracy, depth errors).
# Takes about 10 minutes on 2 cores, after the build. Extra arguments go to criterion (e.g. a
# filter: box_box); the report then keeps whatever other estimates target/criterion holds.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -j2 -p gjk-bench --bench queries -- --warm-up-time 0.5 --measurement-time 2 "$@"
cargo run -j2 --release -p gjk-bench --bin report
