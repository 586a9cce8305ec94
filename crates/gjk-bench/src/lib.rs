//! # gjk-bench — the standard workloads, measured against parry
//!
//! The benchmark workloads of the design (DESIGN.md, "Standard benchmark workloads") built
//! once as plain numbers from a fixed seed ([`workload`]), converted into our shapes and into
//! parry's ([`spec`], [`cases`]), so both libraries answer the same pairs in the same run:
//!
//! ```
//! let boxes = gjk_bench::workload::box_box();
//! let ours = boxes.ours::<glam::Vec3>().unwrap();
//! let parry = boxes.parry().unwrap();
//! use gjk_bench::Query;
//! assert_eq!(ours[0].intersects(), parry[0].intersects());
//! assert!((ours[0].distance() - parry[0].distance()).abs() < 1e-5);
//! ```
//!
//! (The crate's examples are not run as doc tests, which would need the library built once
//! more for `cargo test`; the unit tests check the same on every pair of every workload.)
//!
//! Beyond the pair queries (intersection, distance, contact), [`rays`] and [`shape_casts`] hold
//! the cast workloads, [`depth`] the closed-form penetration depths the report scores both
//! libraries against, and [`hulls`] the convex-hull workloads (construction, and support by
//! scan against hill climbing).
//!
//! `benches/queries.rs` and `benches/hulls.rs` time them with criterion; the `report` binary
//! turns criterion's estimates into `docs/benchmarks.md` (run `scripts/bench-report.sh`).
//!
//! The peers that are not Rust crates, libccd and coal, answer the 3D workloads too: [`peers`]
//! hands them the pairs, `ccd` (feature `peers`, links Debian's `libccd`) calls libccd, and
//! the `peers` binary (same feature) times everyone in one run (`scripts/bench-peers.sh`).

pub mod cases;
#[cfg(feature = "peers")]
#[allow(unsafe_code)] // The FFI to libccd: callbacks and calls across the C boundary.
pub mod ccd;
pub mod check;
pub mod depth;
pub mod hulls;
pub mod manifolds;
pub mod peers;
pub mod rays;
pub mod rays2d;
pub mod shape_casts;
pub mod spec;
pub mod toi;
pub mod workload;

#[cfg(test)]
mod tests;

pub use cases::{ContactQuery, Depth, OurCase, ParryCase, ParryGjk, Query};
/// The workloads' generator (shared with the library's tests), so a seed names the same pairs
/// in every run and every version.
pub use gjk_testkit::SplitMix64;
pub use workload::{Case, Workload};
