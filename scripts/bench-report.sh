#!/usr/bin/env bash
# Measures gjk against parry on the standard workloads and writes docs/benchmarks.md.
# Takes about 7 minutes. Extra arguments go to criterion (e.g. a filter: box_box).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -j2 -p gjk-bench --bench queries -- --warm-up-time 1 --measurement-time 3 "$@"
cargo run -j2 --release -p gjk-bench --bin report
