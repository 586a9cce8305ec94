//! The library's tests in one binary: each file in `tests/` is a module here.
//!
//! Every integration-test file used to be its own crate, and each of those 29 crates
//! instantiated and optimised the generic algorithms (2D/3D, f32/f64) it used all over again:
//! most of what `cargo test` built. As modules of one crate, the library's generics are
//! instantiated once. Run one file's tests with a filter on its module path, e.g.
//! `cargo test -p gjk --test suite epa_answers::`.
//!
//! Three targets stay apart (see `Cargo.toml`): `properties` (the property tests, run alone at a
//! large count by the command in docs/robustness.md), and `world` and `serde`, which need the
//! crate's optional features.

mod common;

mod analytic;
mod axial_point;
mod bad_input;
mod bounds;
mod capsules;
mod cast;
mod contact;
mod curved_finish;
mod dispatch;
mod ellipsoid_point;
mod epa_answers;
mod families;
mod hull;
mod hull_extremes;
mod manifold;
mod module_graph;
mod mpr;
mod oracle;
mod point_contact;
mod polygon_distance;
mod polygon_point;
mod polygon_sat;
mod projection;
mod ray_cast_analytic;
mod regressions;
mod segment_box;
mod time_of_impact;
mod tutorials;
mod warm_start;
