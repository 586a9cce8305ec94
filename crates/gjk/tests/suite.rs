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
mod ellipsoid_normals;
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

/// Every file in `tests/` is built: a module here or a target of its own in `Cargo.toml`.
/// With `autotests = false`, Cargo no longer finds test files by itself, and a new file
/// without its `mod` line would be silently left out, its tests never run.
#[test]
fn every_test_file_is_a_module_or_a_target() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |path: &std::path::Path| std::fs::read_to_string(path).expect("readable");
    let (suite, manifest) = (read(&root.join("tests/suite.rs")), read(&root.join("Cargo.toml")));
    for entry in std::fs::read_dir(root.join("tests")).expect("the tests directory") {
        let path = entry.expect("a directory entry").path();
        let (Some(stem), Some("rs")) =
            (path.file_stem().and_then(|s| s.to_str()), path.extension().and_then(|s| s.to_str()))
        else {
            continue;
        };
        let module = suite.lines().any(|l| l == format!("mod {stem};"));
        let target = manifest.contains(&format!("path = \"tests/{stem}.rs\""));
        assert!(module || target, "tests/{stem}.rs is neither a module of suite.rs nor a target");
    }
}
