//! Writes `docs/benchmarks.md` from criterion's estimates of `benches/queries.rs`.
//!
//! Usage: `report [CRITERION_DIR] [OUTPUT]` (defaults: `target/criterion`, or
//! `$CARGO_TARGET_DIR/criterion`, and `docs/benchmarks.md`). It reads every
//! `<group>/<function>/new/benchmark.json` (group id, function id, pairs per iteration) and the
//! median of `new/estimates.json`, and adds the machine, the workloads' intersecting fractions
//! and the accuracy of each library (from `gjk_bench::check`).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use gjk_bench::check::{self, Accuracy};
use serde_json::Value;

/// The command that regenerates the report.
const REGENERATE: &str = "scripts/bench-report.sh";
/// What the script runs.
const BENCH_COMMAND: &str =
    "cargo bench -p gjk-bench --bench queries -- --warm-up-time 1 --measurement-time 3";

/// The workloads in report order, with what parry runs on them (intersects; distance).
const WORKLOADS: [(&str, &str, &str); 9] = [
    ("box_box", "3D", "SAT (cuboid–cuboid); SAT-based closest points"),
    ("sphere_box", "3D", "ball centre projected onto the box (both queries)"),
    ("capsule_capsule", "3D", "GJK on the rounded shapes (both queries)"),
    ("hull_32", "3D", "GJK, `ConvexPolyhedron` (hull vertices scanned)"),
    ("hull_1000", "3D", "GJK, `ConvexPolyhedron` (hull vertices scanned)"),
    ("cylinder_cone", "3D", "GJK (both queries)"),
    ("polygon_8", "2D", "GJK, `ConvexPolygon`"),
    ("circle_polygon", "2D", "disc centre projected onto the polygon (both queries)"),
    ("tutorial_triangles", "2D", "GJK, `Triangle`"),
];

/// Median ns per query, by (group id, function id).
type Estimates = BTreeMap<(String, String), f64>;

fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// One benchmark's median time per pair, from its `new/` directory.
fn estimate(new: &Path) -> Option<((String, String), f64)> {
    let benchmark = read_json(&new.join("benchmark.json"))?;
    let estimates = read_json(&new.join("estimates.json"))?;
    let group = benchmark["group_id"].as_str()?.to_owned();
    let function = benchmark["function_id"].as_str()?.to_owned();
    let pairs = benchmark["throughput"]["Elements"].as_f64().unwrap_or(1.0).max(1.0);
    let median = estimates["median"]["point_estimate"].as_f64()?;
    Some(((group, function), median / pairs))
}

/// Every estimate under `dir` (criterion nests groups and functions in directories).
fn collect(dir: &Path, into: &mut Estimates) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        if path.file_name().is_some_and(|n| n == "new") {
            into.extend(estimate(&path));
        } else {
            collect(&path, into);
        }
    }
}

fn command_output(program: &str, args: &[&str]) -> String {
    Command::new(program)
        .args(args)
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map_or_else(|| "unknown".to_owned(), |s| s.trim().to_owned())
}

fn cpu_model() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    info.lines()
        .find_map(|l| l.strip_prefix("model name").and_then(|r| r.split(':').nth(1)))
        .map_or_else(|| "unknown".to_owned(), |m| m.trim().to_owned())
}

fn format_ns(ns: Option<f64>) -> String {
    match ns {
        Some(ns) if ns >= 100.0 => format!("{ns:.0}"),
        Some(ns) => format!("{ns:.1}"),
        None => "—".to_owned(),
    }
}

fn ratio(ours: Option<f64>, peer: Option<f64>) -> String {
    match (ours, peer) {
        (Some(o), Some(p)) if o > 0.0 => format!("{:.2}", p / o),
        _ => "—".to_owned(),
    }
}

/// The speed table of one query.
fn speed_table(out: &mut String, query: &str, estimates: &Estimates) {
    out.push_str("| workload | dim | precision | gjk ns/query | parry ns/query | parry / gjk | parry GJK-only ns/query | parry GJK / gjk |\n");
    out.push_str("|---|---|---|---:|---:|---:|---:|---:|\n");
    for (name, dim, _) in WORKLOADS {
        for precision in ["f32", "f64"] {
            let group = format!("{name}/{query}/{precision}");
            let get = |f: &str| estimates.get(&(group.clone(), f.to_owned())).copied();
            let (ours, parry, direct) = (get("gjk"), get("parry"), get("parry_gjk"));
            let (direct_ns, direct_ratio) = match direct {
                Some(_) => (format_ns(direct), ratio(ours, direct)),
                None => ("(same path)".to_owned(), String::new()),
            };
            let _ = writeln!(
                out,
                "| {name} | {dim} | {precision} | {} | {} | **{}** | {direct_ns} | {direct_ratio} |",
                format_ns(ours),
                format_ns(parry),
                ratio(ours, parry),
            );
        }
    }
}

fn workload_table(out: &mut String, accuracy: &[Accuracy]) {
    out.push_str("| workload | pairs | intersecting | what parry's `query::*` runs |\n");
    out.push_str("|---|---:|---:|---|\n");
    for (name, _, parry) in WORKLOADS {
        if let Some(a) = accuracy.iter().find(|a| a.name == name) {
            let fraction = 100.0 * a.intersecting_fraction();
            let _ = writeln!(out, "| {name} | {} | {fraction:.1} % | {parry} |", a.pairs);
        }
    }
}

fn accuracy_table(out: &mut String, accuracy: &[Accuracy]) {
    out.push_str("| workload | reference | gjk f32 | parry f32 | gjk f64 | parry f64 |\n");
    out.push_str("|---|---|---:|---:|---:|---:|\n");
    for a in accuracy {
        let _ = writeln!(
            out,
            "| {} | {} | {:.1e} | {:.1e} | {:.1e} | {:.1e} |",
            a.name, a.reference, a.ours_f32, a.parry_f32, a.ours_f64, a.parry_f64
        );
    }
}

fn render(estimates: &Estimates, accuracy: &[Accuracy]) -> String {
    let mut out = String::new();
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let _ = write!(
        out,
        "# Benchmarks: gjk against parry\n\n\
         Generated by `{REGENERATE}` on {date} (UTC).\n\n\
         * Machine: {cpu}, {cores} logical cores (shared with other jobs while measured; \
           compare ratios rather than absolute times).\n\
         * Toolchain: {rustc}; release profile of the workspace.\n\
         * Peer: parry2d / parry3d / parry2d-f64 / parry3d-f64 0.31, in the same run, on the \
           same pairs.\n\
         * Regenerate: `{REGENERATE}` — it runs `{BENCH_COMMAND}`, then \
           `cargo run --release -p gjk-bench --bin report`.\n\n\
         Each workload is a fixed list of pairs (`crates/gjk-bench/src/workload.rs`, fixed \
         seeds) converted into both libraries' shapes. One criterion iteration answers every \
         pair; the time shown is criterion's median divided by the number of pairs. \
         **parry / gjk > 1 means we are faster.** `gjk` is `gjk::intersects` / \
         `gjk::distance`; `parry` is parry's public `query::intersection_test` / \
         `query::distance`, whose dispatcher uses special-purpose algorithms for some pairs; \
         `parry GJK-only` calls parry's GJK (`query::details::*_support_map_support_map`) \
         directly on those pairs, algorithm against algorithm.\n\n",
        date = command_output("date", &["-u", "+%Y-%m-%d %H:%M"]),
        cpu = cpu_model(),
        rustc = command_output("rustc", &["--version"]),
    );
    out.push_str("## Intersection test\n\n");
    speed_table(&mut out, "intersects", estimates);
    out.push_str("\n## Distance\n\n");
    speed_table(&mut out, "distance", estimates);
    out.push_str("\n## Workloads\n\n");
    workload_table(&mut out, accuracy);
    out.push_str(
        "\nPlacements: A at a random rotation and a translation in [−10, 10]ⁿ, B offset from \
         it along a random direction by a uniform fraction of a per-workload reach, tuned so \
         about half the pairs intersect. Hull and polygon points lie on ellipsoids / ellipses \
         (semi-axes 0.5–2), so every point is a hull vertex: our `Polytope` scans all its \
         points for a support point, parry's `ConvexPolyhedron` / `ConvexPolygon` first builds \
         the hull and scans its vertices — here the same points, so the scans do equal work. \
         On point clouds with interior points parry would scan fewer; our hill-climbing hull \
         (DESIGN.md) is not built yet.\n",
    );
    out.push_str("\n## Accuracy\n\n");
    out.push_str(
        "Largest distance error over each workload's pairs, relative to max(distance, 1) \
         (the shapes are 0.5–2 units). The intersection answers of gjk and parry agree on \
         every pair in both precisions (checked by `cargo test -p gjk-bench`).\n\n",
    );
    accuracy_table(&mut out, accuracy);
    out
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let target = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".to_owned());
    let dir = args.next().map_or_else(|| PathBuf::from(target).join("criterion"), PathBuf::from);
    let output = args.next().map_or_else(|| PathBuf::from("docs/benchmarks.md"), PathBuf::from);
    let mut estimates = Estimates::new();
    collect(&dir, &mut estimates);
    if estimates.is_empty() {
        eprintln!("no criterion estimates under {}: run `{BENCH_COMMAND}` first", dir.display());
        return ExitCode::FAILURE;
    }
    let accuracy = match check::all() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("cannot build the workloads: {e}");
            return ExitCode::FAILURE;
        }
    };
    let report = render(&estimates, &accuracy);
    if let Some(parent) = output.parent().filter(|p| !p.as_os_str().is_empty()) {
        let _ = std::fs::create_dir_all(parent);
    }
    if let Err(e) = std::fs::write(&output, report) {
        eprintln!("cannot write {}: {e}", output.display());
        return ExitCode::FAILURE;
    }
    println!("wrote {} ({} estimates)", output.display(), estimates.len());
    ExitCode::SUCCESS
}
