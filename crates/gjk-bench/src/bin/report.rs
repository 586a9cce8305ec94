//! Writes `docs/benchmarks.md` from criterion's estimates of `benches/queries.rs` and
//! `benches/hulls.rs`.
//!
//! Usage: `report [CRITERION_DIR] [OUTPUT]` (defaults: `target/criterion`, or
//! `$CARGO_TARGET_DIR/criterion`, and `docs/benchmarks.md`). It reads every
//! `<group>/<function>/new/benchmark.json` (group id, function id, pairs per iteration) and the
//! median of `new/estimates.json`, and adds the machine, the workloads' intersecting fractions
//! and the accuracy of each library (from `gjk_bench::check`, `depth`, `rays` and
//! `shape_casts`).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use gjk_bench::check::{self, Accuracy};
use gjk_bench::depth::{self, DepthErrors};
use gjk_bench::hulls::{self, Distribution};
use gjk_bench::rays::{self, ImpactErrors};
use gjk_bench::shape_casts;
use gjk_bench::toi::{self, ToiErrors};
use serde_json::Value;

/// The command that regenerates the report.
const REGENERATE: &str = "scripts/bench-report.sh";
/// What the script runs.
const BENCH_COMMAND: &str =
    "cargo bench -p gjk-bench --features bench --bench queries -- --warm-up-time 0.5 --measurement-time 2";
/// What the script runs for the hull section.
const HULL_BENCH_COMMAND: &str = "cargo bench -p gjk-bench --features bench --bench hulls";

/// The workloads in report order, with what parry runs on them (intersects; distance) and
/// what we run.
const WORKLOADS: [(&str, &str, &str, &str); 9] = [
    (
        "box_box",
        "3D",
        "SAT (cuboid–cuboid); SAT-based closest points",
        "SAT (intersects); GJK (distance; SAT answers clearly overlapping pairs)",
    ),
    (
        "sphere_box",
        "3D",
        "ball centre projected onto the box (both queries)",
        "ball centre projected onto the box",
    ),
    (
        "capsule_capsule",
        "3D",
        "GJK on the rounded shapes (both queries)",
        "closed form on the segment cores",
    ),
    (
        "hull_32",
        "3D",
        "GJK, `ConvexPolyhedron` (hull vertices scanned)",
        "GJK, hull vertices scanned",
    ),
    (
        "hull_1000",
        "3D",
        "GJK, `ConvexPolyhedron` (hull vertices scanned)",
        "GJK, hill climbing on the hull graph",
    ),
    ("cylinder_cone", "3D", "GJK (both queries)", "GJK"),
    (
        "polygon_8",
        "2D",
        "GJK, `ConvexPolygon`",
        "SAT over both polygons' edge normals (intersects); GJK (distance)",
    ),
    (
        "circle_polygon",
        "2D",
        "disc centre projected onto the polygon (both queries)",
        "disc centre projected onto the polygon (a scan of its edges)",
    ),
    ("tutorial_triangles", "2D", "GJK, `Triangle`", "GJK"),
];

/// What parry's public `query::contact` runs on each workload of the contact table, and what
/// `gjk::contact` runs.
const CONTACT_PATHS: [(&str, &str, &str, &str); 10] = [
    (
        "box_box",
        "3D",
        "GJK then EPA (its cuboid–cuboid SAT contact is disabled in the dispatcher)",
        "SAT on the box cores, witnesses from the clipped features",
    ),
    (
        "sphere_box",
        "3D",
        "ball centre projected onto the box",
        "ball centre projected onto the box (inside: nearest face)",
    ),
    (
        "capsule_capsule",
        "3D",
        "GJK then EPA on the whole capsules (radius in the support map)",
        "closed form on the segment cores (GJK, EPA only when they touch)",
    ),
    ("hull_32", "3D", "GJK then EPA", "GJK then EPA"),
    ("hull_1000", "3D", "GJK then EPA", "GJK then EPA, hill-climbing support"),
    ("cylinder_cone", "3D", "GJK then EPA", "GJK then EPA"),
    (
        "polygon_8",
        "2D",
        "GJK then EPA",
        "SAT over both polygons' edge normals, witnesses from the clipped incident edge",
    ),
    (
        "circle_polygon",
        "2D",
        "disc centre projected onto the polygon",
        "disc centre projected onto the polygon (inside: nearest edge)",
    ),
    ("tutorial_triangles", "2D", "GJK then EPA", "GJK then EPA"),
    (
        "box_box_aligned",
        "3D",
        "GJK then EPA (every pair penetrates)",
        "SAT on the box cores (every pair penetrates)",
    ),
];

/// The ray workloads and what parry's `RayCast` runs on them.
const RAY_WORKLOADS: [(&str, &str, &str); 9] = [
    ("ray_box", "3D", "slab test (closed form)"),
    ("ray_sphere", "3D", "quadratic (closed form)"),
    ("ray_capsule", "3D", "closed form"),
    ("ray_hull_32", "3D", "GJK ray cast"),
    ("ray_cylinder", "3D", "GJK ray cast"),
    ("ray_cone", "3D", "GJK ray cast"),
    ("ray_circle", "2D", "quadratic (closed form)"),
    ("ray_polygon_8", "2D", "GJK ray cast"),
    ("ray_triangle", "2D", "edge tests (closed form)"),
];

/// The shape-cast workloads and what parry's `query::cast_shapes` runs on them.
const CAST_WORKLOADS: [(&str, &str, &str); 2] = [
    ("cast_box_box", "3D", "GJK ray cast on the Minkowski difference"),
    ("cast_hull_32", "3D", "GJK ray cast on the Minkowski difference"),
];

/// The time-of-impact workloads (rotation and translation) as (name, dimension).
const TOI_WORKLOADS: [(&str, &str); 2] = [("toi_box_box", "3D"), ("toi_hull_32", "3D")];

/// Everything the report computes besides the timings.
struct Tables {
    accuracy: Vec<Accuracy>,
    depth: Vec<DepthErrors>,
    rays: Vec<ImpactErrors>,
    casts: Vec<ImpactErrors>,
    tois: Vec<ToiErrors>,
}

impl Tables {
    fn compute() -> Result<Self, gjk_bench::spec::BuildError> {
        Ok(Self {
            accuracy: check::all()?,
            depth: depth::all()?,
            rays: rays::accuracy()?,
            casts: shape_casts::accuracy()?,
            tois: toi::accuracy()?,
        })
    }
}

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

/// The speed table of one query over `rows` (workload, dimension): ours, then each peer
/// function (criterion function id, column title) with its ratio to ours. A missing
/// `parry_gjk` means parry's public query already runs its GJK there.
fn speed_table(
    out: &mut String,
    query: &str,
    rows: &[(&str, &str)],
    peers: &[(&str, &str)],
    estimates: &Estimates,
) {
    out.push_str("| workload | dim | precision | gjk ns/query |");
    for (_, title) in peers {
        let _ = write!(out, " {title} ns/query | {title} / gjk |");
    }
    out.push_str("\n|---|---|---|---:|");
    out.push_str(&"---:|---:|".repeat(peers.len()));
    out.push('\n');
    for &(name, dim) in rows {
        for precision in ["f32", "f64"] {
            let group = format!("{name}/{query}/{precision}");
            let get = |f: &str| estimates.get(&(group.clone(), f.to_owned())).copied();
            let ours = get("gjk");
            let _ = write!(out, "| {name} | {dim} | {precision} | {} |", format_ns(ours));
            for (i, (function, _)) in peers.iter().enumerate() {
                let peer = get(function);
                let _ = match peer {
                    None if *function == "parry_gjk" => write!(out, " (same path) | |"),
                    _ if i == 0 => {
                        write!(out, " {} | **{}** |", format_ns(peer), ratio(ours, peer))
                    }
                    _ => write!(out, " {} | {} |", format_ns(peer), ratio(ours, peer)),
                };
            }
            out.push('\n');
        }
    }
}

/// The peers of the pair queries: parry's public query and its GJK called directly.
const PAIR_PEERS: [(&str, &str); 2] = [("parry", "parry"), ("parry_gjk", "parry GJK-only")];

/// The standard workloads as (name, dimension).
fn standard_rows() -> Vec<(&'static str, &'static str)> {
    WORKLOADS.iter().map(|&(name, dim, _, _)| (name, dim)).collect()
}

fn workload_table(out: &mut String, accuracy: &[Accuracy]) {
    out.push_str(
        "| workload | pairs | intersecting | what parry's `query::*` runs | what we run |\n",
    );
    out.push_str("|---|---:|---:|---|---|\n");
    for (name, _, parry, ours) in WORKLOADS {
        if let Some(a) = accuracy.iter().find(|a| a.name == name) {
            let fraction = 100.0 * a.intersecting_fraction();
            let _ = writeln!(out, "| {name} | {} | {fraction:.1} % | {parry} | {ours} |", a.pairs);
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

fn depth_table(out: &mut String, rows: &[DepthErrors]) {
    out.push_str("| workload | library | precision | penetrating pairs | verdicts differing | max depth error | mean depth error | max normal angle (rad) |\n");
    out.push_str("|---|---|---|---:|---:|---:|---:|---:|\n");
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {:.1e} | {:.1e} | {:.1e} |",
            r.workload,
            r.library,
            r.precision,
            r.penetrating,
            r.disagreements,
            r.max_error,
            r.mean_error,
            r.max_angle
        );
    }
}

fn impact_table(out: &mut String, rows: &[ImpactErrors]) {
    out.push_str("| workload | library | precision | casts | hits (reference) | hit/miss differing | max toi error | max normal angle (rad) |\n");
    out.push_str("|---|---|---|---:|---:|---:|---:|---:|\n");
    for r in rows {
        let angle = r.max_angle.map_or_else(|| "—".to_owned(), |a| format!("{a:.1e}"));
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {:.1e} | {angle} |",
            r.workload, r.library, r.precision, r.cases, r.hits, r.mismatches, r.max_toi_error
        );
    }
}

/// Workload, hit fraction (from the accuracy rows) and what parry runs.
fn cast_workload_table(out: &mut String, workloads: &[(&str, &str, &str)], rows: &[ImpactErrors]) {
    out.push_str("| workload | casts | hit | what parry runs |\n|---|---:|---:|---|\n");
    for &(name, _, parry) in workloads {
        if let Some(r) = rows.iter().find(|r| r.workload == name) {
            let fraction = 100.0 * r.hits as f64 / r.cases.max(1) as f64;
            let _ = writeln!(out, "| {name} | {} | {fraction:.1} % | {parry} |", r.cases);
        }
    }
}

fn render_contact(out: &mut String, estimates: &Estimates, tables: &Tables) {
    let rows: Vec<_> = CONTACT_PATHS.iter().map(|&(name, dim, _, _)| (name, dim)).collect();
    out.push_str(
        "\n## Contact (penetration)\n\n\
         `gjk::contact` (prediction 0; GJK, then EPA when the cores overlap, unless a closed \
         form or the separating-axis test of two boxes answers) against parry's \
         public `query::contact` (prediction 0) on the standard workloads: separated pairs \
         return no contact, overlapping pairs their depth, normal and points. \
         `parry GJK-only` is `query::details::contact_support_map_support_map` (GJK then EPA) \
         where the dispatcher does something else.\n\n",
    );
    speed_table(out, "contact", &rows, &PAIR_PEERS, estimates);
    out.push_str(
        "\n| workload | what parry's `query::contact` runs | what `gjk::contact` runs |\n|---|---|---|\n",
    );
    for (name, _, parry, ours) in CONTACT_PATHS {
        let _ = writeln!(out, "| {name} | {parry} | {ours} |");
    }
    out.push_str(
        "\n### Penetration depth against exact answers\n\n\
         Pairs whose exact penetration is known in closed form (`crates/gjk-bench/src/depth.rs`, \
         all `f64`): box–box by the 15-axis separating-axis test (exact for boxes, aligned or \
         not: the axes include every face normal of the Minkowski difference), ball–box by \
         projecting the centre, capsule–capsule as `r₁ + r₂ − (segment distance)`. \
         `box_box_aligned` is 1,000 axis-aligned overlapping boxes (depth = the smallest \
         per-axis overlap); the others are the penetrating pairs of the standard workloads. \
         Errors are absolute (the shapes are 0.5–2 units); a pair a library calls apart counts \
         with depth 0. The normal angle is between the library's normal and the exact one.\n\n",
    );
    depth_table(out, &tables.depth);
}

fn render_casts(out: &mut String, estimates: &Estimates, tables: &Tables) {
    let rows: Vec<_> = RAY_WORKLOADS.iter().map(|&(name, dim, _)| (name, dim)).collect();
    out.push_str(
        "\n## Ray cast\n\n\
         `gjk::ray_cast` (solid) against parry's `RayCast::cast_ray_and_get_normal` (solid; \
         time and normal, like ours), `RayCast::cast_ray` (time only) and, where parry uses a \
         closed form, its GJK ray cast \
         (`query::details::local_ray_intersection_with_support_map_with_params`). Each ray \
         starts 2–4 bounding radii from its shape, aimed near it so about half hit; directions \
         are not unit. The timed loop adds up each hit's time and normal coordinates (so a cast \
         inlined into the loop still computes the normal).\n\n",
    );
    speed_table(
        out,
        "ray_cast",
        &rows,
        &[("parry", "parry"), ("parry_toi", "parry toi-only"), ("parry_gjk", "parry GJK-only")],
        estimates,
    );
    out.push('\n');
    cast_workload_table(out, &RAY_WORKLOADS, &tables.rays);
    out.push_str(
        "\nAccuracy against closed forms (`crates/gjk-bench/src/rays.rs`: slab test, quadratic, \
         capsule as cylinder ∪ balls, discs by the quadratic, and for hulls, octagons and \
         triangles the ray clipped by facet or edge planes found by brute force over the \
         points); toi errors are absolute, in units of the ray \
         direction (hits at toi 0.2–4):\n\n",
    );
    impact_table(out, &tables.rays);
    let rows: Vec<_> = CAST_WORKLOADS.iter().map(|&(name, dim, _)| (name, dim)).collect();
    out.push_str(
        "\n## Shape cast\n\n\
         `gjk::shape_cast` against parry's `query::cast_shapes` (linear motion, default \
         options), over `t ∈ [0, 1]`. Both shapes move; B starts 0.9–2 bounding radii away and \
         heads near A so about half the pairs touch.\n\n",
    );
    speed_table(out, "shape_cast", &rows, &[("parry", "parry")], estimates);
    out.push('\n');
    cast_workload_table(out, &CAST_WORKLOADS, &tables.casts);
    out.push_str(
        "\nAccuracy of the time of impact against a reference found by golden-section search \
         and bisection on parry3d-f64's distance (exact on polytopes; the distance along a \
         linear motion is convex in time), good to about 1e-9:\n\n",
    );
    impact_table(out, &tables.casts);
}

fn render_tois(out: &mut String, estimates: &Estimates, tables: &Tables) {
    out.push_str(
        "\n## Time of impact under rotation\n\n\
         `gjk::time_of_impact` (conservative advancement, default slop: 1/1000 of the smaller \
         shape's reach) against parry's `query::cast_shapes_nonlinear` (its \
         `NonlinearRigidMotion` about the shape's position, stopping at penetration), over \
         `t ∈ [0, 1]`. Both shapes move and spin at 0–10 rad per unit time about random axes; \
         B starts 1–2 bounding radii away and heads near A (`crates/gjk-bench/src/toi.rs`).\n\n",
    );
    speed_table(out, "time_of_impact", &TOI_WORKLOADS, &[("parry", "parry")], estimates);
    out.push_str(
        "\nAccuracy against a reference contact time: the first of 20,000 samples of the \
         motion at which parry3d-f64's distance is 0, refined by bisection. A **late** answer \
         (after the reference by more than 1e-6) lets the shapes overlap; a **missed** one \
         tunnels. Ours answers the first time within the slop, so it is early by about the slop \
         over the closing speed, by design; an answer at the iteration cap counts as a hit \
         (its time is a lower bound).\n\n\
         | workload | library | precision | queries | contacts (reference) | missed | extra | late | max early | mean abs error |\n\
         |---|---|---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in &tables.tois {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {:.1e} | {:.1e} |",
            r.workload,
            r.library,
            r.precision,
            r.cases,
            r.hits,
            r.missed,
            r.extra,
            r.late,
            r.max_early,
            r.mean_error
        );
    }
}

/// Microseconds with three significant digits, or a dash.
fn format_us(ns: Option<f64>) -> String {
    match ns.map(|ns| ns / 1000.0) {
        Some(us) if us >= 100.0 => format!("{us:.0}"),
        Some(us) if us >= 10.0 => format!("{us:.1}"),
        Some(us) => format!("{us:.2}"),
        None => "—".to_owned(),
    }
}

/// `numerator / denominator` as a speed-up factor (`12×`), or a dash.
fn speedup(denominator: Option<f64>, numerator: Option<f64>) -> String {
    match (denominator, numerator) {
        (Some(d), Some(n)) if d > 0.0 => {
            let r = n / d;
            if r >= 10.0 {
                format!("{r:.0}×")
            } else {
                format!("{r:.1}×")
            }
        }
        _ => "—".to_owned(),
    }
}

/// The "Convex hulls" section: construction against parry, and support by scan against hill
/// climbing (from `benches/hulls.rs`).
fn render_hulls(out: &mut String, estimates: &Estimates) {
    let get = |group: &str, function: &str| {
        estimates.get(&(group.to_owned(), function.to_owned())).copied()
    };
    let _ = write!(
        out,
        "\n## Convex hulls\n\n\
         From `{HULL_BENCH_COMMAND}` (same run for both libraries, same points; \
         `crates/gjk-bench/src/hulls.rs`, fixed seeds).\n\n\
         ### Construction\n\n\
         `gjk::hull::Hull::new` (Quickhull with vertex adjacency) against parry's plain hull \
         construction `transformation::convex_hull` (parry3d for `f32`, parry3d-f64 for \
         `f64`; `ConvexPolyhedron::from_convex_hull` runs it and then merges coplanar faces \
         and builds its own adjacency, so it would measure more than the hull). `ball`: points \
         uniform in the unit ball (most are interior); `sphere`: uniform on the unit sphere \
         (every point is a vertex). Both libraries return the same vertices on these sets \
         (checked by `crates/gjk-bench/src/tests/hulls.rs`). Times are per hull; \
         **parry / gjk > 1 means we are faster.**\n\n\
         | points | n | precision | vertices | gjk µs/hull | parry µs/hull | parry / gjk |\n\
         |---|---:|---|---:|---:|---:|---:|\n"
    );
    for set in hulls::construction_sets() {
        let vertices = match set.distribution {
            Distribution::Sphere => set.points.len(),
            Distribution::Ball => {
                gjk::hull::Hull::new(&set.points).map_or(0, |h| h.vertices().len())
            }
        };
        for precision in ["f32", "f64"] {
            let group = format!("{}/hull/{precision}", set.name);
            let (ours, parry) = (get(&group, "gjk"), get(&group, "parry"));
            let _ = writeln!(
                out,
                "| {} | {} | {precision} | {vertices} | {} | {} | **{}** |",
                set.distribution.name(),
                set.points.len(),
                format_us(ours),
                format_us(parry),
                ratio(ours, parry),
            );
        }
    }
    let _ = write!(
        out,
        "\n### Support on large hulls: scan against hill climbing\n\n\
         One support call on the hull of n points on the unit sphere (all n are vertices), \
         averaged over {batch} random directions. `scan`: `Hull::scan`, a dot product with \
         every vertex; `cold`: `Polytope::support`, hill climbing on the vertex graph from the \
         seed table's vertex for the direction; `warm`: `Polytope::support_hinted` started from the \
         answer for a direction {angle} rad away (what the previous frame or GJK iteration \
         leaves); `parry`: `SupportMap::local_support_point` of parry's `ConvexPolyhedron` of \
         the same points (a scan). Speed-ups are scan time / climb time.\n\n\
         | vertices | precision | scan ns | cold ns | warm ns | parry ns | scan / cold | scan / warm |\n\
         |---:|---|---:|---:|---:|---:|---:|---:|\n",
        batch = hulls::SUPPORT_BATCH,
        angle = hulls::WARM_ANGLE,
    );
    for set in hulls::support_sets() {
        for precision in ["f32", "f64"] {
            let group = format!("{}/support/{precision}", set.name);
            let [scan, cold, warm, parry] =
                ["scan", "cold", "warm", "parry"].map(|f| get(&group, f));
            let _ = writeln!(
                out,
                "| {} | {precision} | {} | {} | {} | {} | **{}** | **{}** |",
                set.points.len(),
                format_ns(scan),
                format_ns(cold),
                format_ns(warm),
                format_ns(parry),
                speedup(cold, scan),
                speedup(warm, scan),
            );
        }
    }
}

fn render(estimates: &Estimates, tables: &Tables) -> String {
    let accuracy = &tables.accuracy;
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
         * Regenerate: `{REGENERATE}` — it runs `{BENCH_COMMAND}` and \
           `{HULL_BENCH_COMMAND}`, then `cargo run --release -p gjk-bench --bin report`.\n\n\
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
    let rows = standard_rows();
    out.push_str("## Intersection test\n\n");
    speed_table(&mut out, "intersects", &rows, &PAIR_PEERS, estimates);
    out.push_str("\n## Distance\n\n");
    speed_table(&mut out, "distance", &rows, &PAIR_PEERS, estimates);
    out.push_str(
        "\n## Closest points\n\n\
         `gjk::closest_points` (distance, witness points and normal) against parry's public \
         `query::closest_points` (no distance limit) and its \
         `query::details::closest_points_support_map_support_map`; the loop adds up the distance \
         and both points' coordinates.\n\n",
    );
    speed_table(&mut out, "closest_points", &rows, &PAIR_PEERS, estimates);
    out.push_str("\n## Workloads\n\n");
    workload_table(&mut out, accuracy);
    out.push_str(
        "\nPlacements: A at a random rotation and a translation in [−10, 10]ⁿ, B offset from \
         it along a random direction by a uniform fraction of a per-workload reach, tuned so \
         about half the pairs intersect. Hull and polygon points lie on ellipsoids / ellipses \
         (semi-axes 0.5–2), so every point is a hull vertex: both libraries build the hull \
         first (our `Polytope`: Quickhull, then a scan of up to 64 vertices or hill climbing \
         on the vertex graph beyond; parry's `ConvexPolyhedron` / `ConvexPolygon`: a scan of \
         the vertices).\n",
    );
    out.push_str("\n## Accuracy\n\n");
    out.push_str(
        "Largest distance error over each workload's pairs, relative to max(distance, 1) \
         (the shapes are 0.5–2 units). The intersection answers of gjk and parry agree on \
         every pair in both precisions (checked by `cargo test -p gjk-bench`).\n\n",
    );
    accuracy_table(&mut out, accuracy);
    render_contact(&mut out, estimates, tables);
    render_casts(&mut out, estimates, tables);
    render_tois(&mut out, estimates, tables);
    render_hulls(&mut out, estimates);
    out
}

/// The line after which `docs/benchmarks.md` holds sections measured by hand.
const HAND_MEASURED: &str = "<!-- hand-measured:";

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
    let tables = match Tables::compute() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot build the workloads: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut report = render(&estimates, &tables);
    // Sections measured by hand (instruction counts, iteration statistics) follow a marker
    // in the file; a regenerated report keeps them.
    if let Ok(previous) = std::fs::read_to_string(&output) {
        if let Some(at) = previous.find(HAND_MEASURED) {
            report.push('\n');
            report.push_str(&previous[at..]);
        }
    }
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
