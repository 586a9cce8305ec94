#!/usr/bin/env bash
# Measures gjk against every peer a user would pick, on the same pairs in one run: parry (its
# dispatcher and its GJK path, f32 and f64), libccd (GJK, MPR; f64) and coal (one-shot and
# cached; f64), on the 3D workloads box_box, sphere_box, capsule_capsule, hull_32 and
# cylinder_cone, and prints markdown tables (ns per query, ratio to the fastest, accuracy) for
# the "Against every peer" section of docs/benchmarks.md. A benchmark, not a test: CI does not
# run it. It installs nothing; it checks the prerequisites and says how to get them.
#
# Usage: scripts/bench-peers.sh [ROUNDS]   (best of ROUNDS rounds per cell; default 30)
# Environment: COAL_PREFIX (the coal wheel's cmeel.prefix; found through PYTHON otherwise),
#              PYTHON (a Python with `pip install coal`; default python3),
#              EIGEN_INCLUDE (default /usr/include/eigen3), CARGO_TARGET_DIR (default target).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-30}"
missing=0
need() { echo "bench-peers: missing $1; $2" >&2; missing=1; }

[ -f /usr/include/ccd/ccd.h ] || need "libccd's header" "install Debian's libccd-dev (apt-get install libccd-dev)"
eigen="${EIGEN_INCLUDE:-/usr/include/eigen3}"
[ -f "$eigen/Eigen/Core" ] || need "Eigen's headers (coal's headers include them)" "install Debian's libeigen3-dev or set EIGEN_INCLUDE"
command -v g++ >/dev/null || need "g++" "install Debian's g++"
if [ -z "${COAL_PREFIX:-}" ]; then
  COAL_PREFIX="$("${PYTHON:-python3}" -c 'import cmeel, os; print(os.path.join(os.path.dirname(cmeel.__file__), "..", "cmeel.prefix"))' 2>/dev/null || true)"
fi
[ -f "${COAL_PREFIX:-/nonexistent}/include/coal/collision.h" ] && [ -f "$COAL_PREFIX/lib/libcoal.so" ] ||
  need "coal's headers and library" "pip install coal (the wheel ships them under site-packages/cmeel.prefix), then set PYTHON to that interpreter or COAL_PREFIX to the prefix"
[ "$missing" = 0 ] || exit 1

target="${CARGO_TARGET_DIR:-target}"
work="$target/bench-peers"
mkdir -p "$work"
cargo build -j2 --release -p gjk-bench --features peers --bin peers
g++ -O2 -std=c++17 -DNDEBUG -Wall -Wextra -I"$COAL_PREFIX/include" -I"$eigen" \
  crates/gjk-bench/peers/coal_driver.cpp -L"$COAL_PREFIX/lib" -lcoal \
  -Wl,-rpath,"$COAL_PREFIX/lib" -o "$work/coal_driver"

"$target/release/peers" pairs "$work/pairs.txt"
"$work/coal_driver" "$work/pairs.txt" "$work/coal.txt" "$rounds"
echo "libccd $(dpkg-query -W -f='${Version}' libccd-dev 2>/dev/null || echo '(version unknown)'), coal $(grep -o '"[0-9.]*"' "$COAL_PREFIX/include/coal/config.hh" | head -1 | tr -d '"'), $(nproc) cores, $(date -u +%F)"
echo
"$target/release/peers" run "$work/coal.txt" "$rounds"
