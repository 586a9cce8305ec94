//! The command's tests in one binary: each file in `tests/` is a module here.
//!
//! As ten crates, each test file compiled and optimised its own copy of what it used (JSON,
//! the library's generic queries behind the README's examples, its oracles); as modules of one
//! crate, that is done once (docs/benchmarks.md, "Test build"). Run one file's tests with a
//! filter on its module path, e.g. `cargo test -p gjk-cli --test cli errors::`.

mod common;

mod casts;
mod commands;
mod errors;
mod explain;
mod manifold;
mod progress;
mod query;
mod readme;
mod scene;
mod time_of_impact;
