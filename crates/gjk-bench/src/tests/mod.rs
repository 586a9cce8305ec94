//! The crate's tests, in the library's own test binary rather than as integration tests
//! (`tests/`): for a package with integration tests, `cargo test` builds every binary too
//! (`profile`, `report`, `world`), and those binaries, which hold no tests, took more CPU time to
//! build than the tests themselves (docs/benchmarks.md, "Test build").

mod agreement;
mod casts;
mod hulls;
mod penetration;
