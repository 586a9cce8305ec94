#!/usr/bin/env bash
# Builds the playground: the engine (crates/gjk-playground) compiled to WebAssembly, copied next
# to the page in playground/www. Serve that folder with any static server, for example
#   python3 -m http.server -d playground/www 8000
set -euo pipefail
cd "$(dirname "$0")/.."

target=wasm32-unknown-unknown
if command -v rustup >/dev/null 2>&1 && ! rustup target list --installed | grep -qx "$target"; then
    rustup target add "$target"
fi
export CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-2}"
# The workspace's release profile keeps line tables for profiling; the page needs none.
export CARGO_PROFILE_RELEASE_DEBUG=0 CARGO_PROFILE_RELEASE_STRIP=true
cargo build --release --target "$target" -p gjk-playground
target_dir="${CARGO_TARGET_DIR:-target}"
cp "$target_dir/$target/release/gjk_playground.wasm" playground/www/gjk_playground.wasm
echo "built playground/www/gjk_playground.wasm ($(wc -c <playground/www/gjk_playground.wasm) bytes)"
