//! Every peer on the same pairs in one run: ours (f32, f64), parry's dispatcher and its GJK
//! path (f32, f64), libccd's GJK and MPR and coal's one-shot and cached queries (both `f64`
//! only), on the 3D workloads box_box, sphere_box, capsule_capsule, hull_32 and cylinder_cone,
//! with each implementation's accuracy next to its time. Built with the `peers` feature (it
//! links libccd); `scripts/bench-peers.sh` checks the prerequisites and runs it.
//!
//! ```text
//! peers pairs FILE                  writes the pairs for the coal driver (gjk_bench::peers)
//! peers run COAL_ANSWERS [ROUNDS]   times every Rust-callable implementation, reads coal's
//!                                   timings and answers, prints the markdown tables
//! ```
//!
//! Timing: one pass answers every pair of a workload once; passes are repeated so that a round
//! lasts about 1 ms, and the time per query is the best of ROUNDS rounds (default 30): on a
//! shared machine the minimum is the least disturbed estimate. The coal driver times the same
//! way.
//!
//! Accuracy, against the references of `gjk_bench::check` and `gjk_bench::depth`:
//! * intersects: verdicts that differ from the reference's (distance 0 or not);
//! * distance: the largest error relative to `max(reference, 1)`;
//! * contact: the largest depth error, the largest normal angle, the pairs whose depth is off
//!   by more than `depth::OFF` and the verdicts that differ from the exact ones, against the
//!   exact penetration on box_box, sphere_box, capsule_capsule and hull_32, and on
//!   cylinder_cone (no exact depth) against the best upper bound the implementations' normals
//!   certify (see `best_bounds`).
//!
//! The closing lists name the cells where a peer of the same precision is faster than ours,
//! split by accuracy: a peer counts as at least as accurate when it has no more wrong verdicts
//! or contacts off, and an error at most twice ours or round-off (1e-12 in `f64`, 1e-5 in
//! `f32`), whichever is larger.

use std::fmt::Write as _;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use gjk_bench::ccd::{CcdPair, CcdShape};
use gjk_bench::check::{self, relative_error};
use gjk_bench::depth::{self, DepthErrors};
use gjk_bench::peers::{self, AsPeerShape, PeerAnswers, PeerRuns};
use gjk_bench::spec::Placement3;
use gjk_bench::{workload, ContactQuery, Depth, ParryGjk, Query, Workload};
use glam::{DVec3, Vec3};

/// One query's answers and best time per query.
struct Timed<T> {
    ns: f64,
    answers: Vec<T>,
}

/// What one implementation answered on one workload (`None`: it does not offer the query).
struct Measured {
    intersects: Option<Timed<bool>>,
    distance: Option<Timed<f64>>,
    contact: Option<Timed<Option<Depth>>>,
}

/// One row of the tables.
struct Implementation {
    name: &'static str,
    precision: &'static str,
    measured: Measured,
}

/// The best time per query, in ns, of `batch` (which answers `pairs` queries) over `rounds`
/// rounds of about 1 ms each: long against the clock's resolution, short against a scheduler
/// time slice, so that on a loaded machine some rounds run uninterrupted.
fn best_ns(pairs: usize, rounds: usize, mut batch: impl FnMut()) -> f64 {
    let mut seconds = |reps: u32| {
        let start = Instant::now();
        (0..reps).for_each(|_| batch());
        start.elapsed().as_secs_f64()
    };
    let reps = (0.001 / seconds(1).max(1e-7)).ceil() as u32;
    let best = (0..rounds).map(|_| seconds(reps) / f64::from(reps)).fold(f64::INFINITY, f64::min);
    best * 1e9 / pairs as f64
}

/// Answers every pair (untimed), then times the same calls.
fn timed<C, T>(cases: &[C], rounds: usize, query: impl Fn(&C) -> T) -> Timed<T> {
    let answers = cases.iter().map(&query).collect();
    let ns = best_ns(cases.len(), rounds, || {
        for c in cases {
            black_box(query(black_box(c)));
        }
    });
    Timed { ns, answers }
}

/// The three queries of a library that offers them all (ours, parry).
fn all_queries<C: Query + ContactQuery>(cases: &[C], rounds: usize) -> Measured {
    Measured {
        intersects: Some(timed(cases, rounds, Query::intersects)),
        distance: Some(timed(cases, rounds, Query::distance)),
        contact: Some(timed(cases, rounds, ContactQuery::contact)),
    }
}

/// coal's runs of one method on one workload, from the driver's answers file (the queries the
/// method has runs for; at least one, each with one answer per pair).
fn coal(runs: &PeerRuns, workload: &str, pairs: usize, method: &str) -> Result<Measured, String> {
    let mut m = Measured { intersects: None, distance: None, contact: None };
    for query in ["intersects", "distance", "contact"] {
        let key = (workload.to_owned(), query.to_owned(), method.to_owned());
        let Some(r) = runs.get(&key) else { continue };
        let count = match &r.answers {
            PeerAnswers::Intersects(a) => {
                m.intersects = Some(Timed { ns: r.ns, answers: a.clone() });
                a.len()
            }
            PeerAnswers::Distance(a) => {
                m.distance = Some(Timed { ns: r.ns, answers: a.clone() });
                a.len()
            }
            PeerAnswers::Contact(a) => {
                m.contact = Some(Timed { ns: r.ns, answers: a.clone() });
                a.len()
            }
        };
        if count != pairs {
            return Err(format!(
                "coal's {workload} {query} {method} has {count} answers for {pairs} pairs"
            ));
        }
    }
    if m.intersects.is_none() && m.distance.is_none() && m.contact.is_none() {
        return Err(format!("the coal answers hold no {workload} {method} run"));
    }
    Ok(m)
}

/// A workload's rows and the references they are scored against.
struct Report {
    name: &'static str,
    pairs: usize,
    rows: Vec<Implementation>,
    /// The reference distance per pair (`None`: not certified, not scored).
    reference: Vec<Option<f64>>,
    /// The exact contact per pair, where it is known.
    exact: Option<Vec<Option<Depth>>>,
}

fn measure<A: AsPeerShape, B: AsPeerShape>(
    w: &Workload<A, B, Placement3>,
    reference: Vec<Option<f64>>,
    exact: Option<Vec<Option<Depth>>>,
    coal_runs: &PeerRuns,
    rounds: usize,
) -> Result<Report, String> {
    let build = |e: gjk_bench::spec::BuildError| e.to_string();
    let (o32, o64) = (w.ours::<Vec3>().map_err(build)?, w.ours::<DVec3>().map_err(build)?);
    let (p32, p64) = (w.parry().map_err(build)?, w.parry_f64().map_err(build)?);
    let ccd: Vec<CcdPair> = w
        .cases
        .iter()
        .map(|c| CcdPair {
            a: CcdShape::new(c.a.peer_shape(), &c.pose_a),
            b: CcdShape::new(c.b.peer_shape(), &c.pose_b),
        })
        .collect();
    let row = |name, precision, measured| Implementation { name, precision, measured };
    let pairs = w.cases.len();
    let (gjk32, gjk64): (Vec<_>, Vec<_>) =
        (p32.iter().map(ParryGjk).collect(), p64.iter().map(ParryGjk).collect());
    let rows = vec![
        row("gjk", "f32", all_queries(&o32, rounds)),
        row("gjk", "f64", all_queries(&o64, rounds)),
        row("parry", "f32", all_queries(&p32, rounds)),
        row("parry", "f64", all_queries(&p64, rounds)),
        row("parry GJK", "f32", all_queries(&gjk32, rounds)),
        row("parry GJK", "f64", all_queries(&gjk64, rounds)),
        row(
            "libccd GJK",
            "f64",
            Measured {
                intersects: Some(timed(&ccd, rounds, CcdPair::gjk_intersects)),
                distance: None,
                contact: Some(timed(&ccd, rounds, CcdPair::gjk_contact)),
            },
        ),
        row(
            "libccd MPR",
            "f64",
            Measured {
                intersects: Some(timed(&ccd, rounds, CcdPair::mpr_intersects)),
                distance: None,
                contact: Some(timed(&ccd, rounds, CcdPair::mpr_contact)),
            },
        ),
        row("coal", "f64", coal(coal_runs, w.name, pairs, "coal")?),
        row("coal cached", "f64", coal(coal_runs, w.name, pairs, "coal_cached")?),
        row(
            "coal cached, unsigned",
            "f64",
            coal(coal_runs, w.name, pairs, "coal_cached_unsigned")?,
        ),
    ];
    eprintln!("peers: {} measured", w.name);
    Ok(Report { name: w.name, pairs: w.cases.len(), rows, reference, exact })
}

/// The parry-f64 distances, exact on polytopes and a ball against a box.
fn parry_reference<A: AsPeerShape, B: AsPeerShape>(
    w: &Workload<A, B, Placement3>,
) -> Result<Vec<Option<f64>>, String> {
    let cases = w.parry_f64().map_err(|e| e.to_string())?;
    Ok(cases.iter().map(|c| Some(c.distance())).collect())
}

fn measure_all(coal_runs: &PeerRuns, rounds: usize) -> Result<Vec<Report>, String> {
    let boxes = workload::box_box();
    let balls = workload::sphere_box();
    let capsules = workload::capsule_capsule();
    let hulls = workload::hull_32();
    let cones = workload::cylinder_cone();
    let capsule_reference = capsules.cases.iter().map(|c| Some(check::capsule_reference(c)));
    Ok(vec![
        measure(
            &boxes,
            parry_reference(&boxes)?,
            Some(boxes.cases.iter().map(depth::box_box_depth).collect()),
            coal_runs,
            rounds,
        )?,
        measure(
            &balls,
            parry_reference(&balls)?,
            Some(balls.cases.iter().map(depth::ball_box_depth).collect()),
            coal_runs,
            rounds,
        )?,
        measure(
            &capsules,
            capsule_reference.collect(),
            Some(capsules.cases.iter().map(depth::capsule_capsule_depth).collect()),
            coal_runs,
            rounds,
        )?,
        measure(
            &hulls,
            parry_reference(&hulls)?,
            Some(
                hulls
                    .cases
                    .iter()
                    .map(depth::hull_hull_depth)
                    .collect::<Result<_, _>>()
                    .map_err(|e| e.to_string())?,
            ),
            coal_runs,
            rounds,
        )?,
        {
            let reference = check::certified_reference(&cones).map_err(|e| e.to_string())?;
            let mut report = measure(&cones, reference, None, coal_runs, rounds)?;
            report.exact = Some(best_bounds(&cones, &report)?);
            report
        },
    ])
}

/// Depths to score the contacts of curved shapes against, where no exact depth is known: for
/// each pair the reference calls intersecting, the smallest `d(n) = h_A(n) + h_B(−n)` (support
/// functions of parry-f64, the depth along `n`) over the normals every implementation reported.
/// Moving B by `d(n)` along `n` separates the shapes, so each `d(n)` bounds the exact depth from
/// above and the smallest is the best answer any of them found; an implementation is scored
/// by how far its depth is from that bound (not from the exact depth, which may lie below it).
fn best_bounds<A: AsPeerShape, B: AsPeerShape>(
    w: &Workload<A, B, Placement3>,
    report: &Report,
) -> Result<Vec<Option<Depth>>, String> {
    use parry3d_f64::shape::SupportMap as _;
    let cases = w.parry_f64().map_err(|e| e.to_string())?;
    let normals = |i: usize| {
        report.rows.iter().filter_map(move |row| {
            let contact = row.measured.contact.as_ref()?.answers[i]?;
            let n = DVec3::from_array(contact.normal);
            (contact.depth > 0.0 && n.is_finite()).then(|| n.normalize_or_zero())
        })
    };
    Ok(cases
        .iter()
        .zip(&report.reference)
        .enumerate()
        .map(|(i, (c, reference))| {
            if *reference != Some(0.0) {
                return None;
            }
            normals(i)
                .filter(|n| *n != DVec3::ZERO)
                .map(|n| {
                    let d = c.a.support_point(&c.pose_a, n).dot(n)
                        - c.b.support_point(&c.pose_b, -n).dot(n);
                    Depth { depth: d, normal: n.to_array() }
                })
                .min_by(|x, y| x.depth.total_cmp(&y.depth))
        })
        .collect())
}

/// The queries, in table order.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Intersects,
    Distance,
    Contact,
}

/// How close an implementation's answers are to the reference on one workload.
#[derive(Clone, Copy)]
struct Score {
    /// Verdicts (intersecting or not) that differ from the reference's.
    wrong: usize,
    /// The largest error (relative distance error, or absolute depth error), where scored.
    error: Option<f64>,
    /// The largest normal angle (contact with an exact answer).
    angle: Option<f64>,
    /// Contacts whose depth is off by more than `depth::OFF` (contact with an exact answer).
    off: usize,
}

impl Score {
    /// At least as accurate as `ours`: no more wrong verdicts or contacts off, and an error at
    /// most twice ours or `round_off` (the error of an exact algorithm in the precision: two
    /// such answers count as equal).
    fn as_accurate_as(&self, ours: &Score, round_off: f64) -> bool {
        let close = match (self.error, ours.error) {
            (Some(e), Some(o)) => e <= (2.0 * o).max(round_off),
            _ => true,
        };
        self.wrong <= ours.wrong && self.off <= ours.off && close
    }

    fn text(&self, kind: Kind) -> String {
        match (kind, self.error, self.angle) {
            (Kind::Intersects, ..) => format!("{} wrong", self.wrong),
            (Kind::Distance, Some(e), _) => format!("{e:.0e}"),
            (Kind::Contact, Some(e), Some(a)) => {
                format!("{e:.0e} / {a:.0e} rad / {} off / {} wrong", self.off, self.wrong)
            }
            _ => format!("{} wrong", self.wrong),
        }
    }
}

impl Report {
    fn verdict(&self) -> impl Iterator<Item = Option<bool>> + '_ {
        self.reference.iter().map(|r| r.map(|d| d <= 0.0))
    }

    fn wrong_verdicts(&self, answers: impl Iterator<Item = bool>) -> usize {
        answers.zip(self.verdict()).filter(|(a, r)| r.is_some_and(|r| r != *a)).count()
    }

    /// An implementation's time and score on one query, if it offers the query.
    fn cell(&self, row: &Implementation, kind: Kind) -> Option<(f64, Score)> {
        let m = &row.measured;
        Some(match kind {
            Kind::Intersects => {
                let t = m.intersects.as_ref()?;
                let wrong = self.wrong_verdicts(t.answers.iter().copied());
                (t.ns, Score { wrong, error: None, angle: None, off: 0 })
            }
            Kind::Distance => {
                let t = m.distance.as_ref()?;
                let error = t
                    .answers
                    .iter()
                    .zip(&self.reference)
                    .filter_map(|(&d, r)| r.map(|r| relative_error(d, r)))
                    .fold(0.0, f64::max);
                (t.ns, Score { wrong: 0, error: Some(error), angle: None, off: 0 })
            }
            Kind::Contact => {
                let t = m.contact.as_ref()?;
                let score = if let Some(exact) = &self.exact {
                    let e: DepthErrors = depth::score_answers(
                        (self.name, row.name, row.precision),
                        t.answers.iter().copied(),
                        exact,
                    );
                    Score {
                        wrong: e.disagreements,
                        error: Some(e.max_error),
                        angle: Some(e.max_angle),
                        off: e.off,
                    }
                } else {
                    let found = t.answers.iter().map(|c| c.is_some_and(|c| c.depth > 0.0));
                    Score { wrong: self.wrong_verdicts(found), error: None, angle: None, off: 0 }
                };
                (t.ns, score)
            }
        })
    }
}

fn ns_text(ns: f64) -> String {
    if ns < 100.0 {
        format!("{ns:.1}")
    } else {
        format!("{ns:.0}")
    }
}

/// One query's table: implementations down, workloads across; each cell the time per query,
/// its ratio to the fastest implementation on that workload, and the accuracy.
fn table(out: &mut String, reports: &[Report], kind: Kind) {
    let _ = write!(out, "| implementation |");
    for r in reports {
        let _ = write!(out, " {} |", r.name);
    }
    let _ = write!(out, "\n|---|");
    for _ in reports {
        out.push_str("---|");
    }
    out.push('\n');
    let fastest: Vec<f64> = reports
        .iter()
        .map(|r| {
            r.rows
                .iter()
                .filter_map(|row| r.cell(row, kind))
                .map(|c| c.0)
                .fold(f64::INFINITY, f64::min)
        })
        .collect();
    for (i, row) in reports[0].rows.iter().enumerate() {
        let _ = write!(out, "| {} {} |", row.name, row.precision);
        for (r, best) in reports.iter().zip(&fastest) {
            match r.cell(&r.rows[i], kind) {
                Some((ns, score)) => {
                    let _ = write!(
                        out,
                        " {} ns ({:.2}×), {} |",
                        ns_text(ns),
                        ns / best,
                        score.text(kind)
                    );
                }
                None => out.push_str(" — |"),
            }
        }
        out.push('\n');
    }
}

/// The cells where a peer of the same precision is faster than ours: with `as_accurate`, the
/// fastest peer at least as accurate as ours; without, the fastest of the less accurate ones,
/// listed only when no peer as accurate beats ours.
fn behind(out: &mut String, reports: &[Report], kind: Kind, label: &str, as_accurate: bool) {
    for r in reports {
        for precision in ["f32", "f64"] {
            let Some(ours) = r.rows.iter().find(|x| x.name == "gjk" && x.precision == precision)
            else {
                continue;
            };
            let Some((ours_ns, ours_score)) = r.cell(ours, kind) else { continue };
            let round_off = if precision == "f32" { 1e-5 } else { 1e-12 };
            let peers: Vec<(&str, f64, Score)> = r
                .rows
                .iter()
                .filter(|x| x.name != "gjk" && x.precision == precision)
                .filter_map(|x| r.cell(x, kind).map(|(ns, s)| (x.name, ns, s)))
                .filter(|(_, ns, _)| *ns < ours_ns)
                .collect();
            let fastest = |accurate: bool| {
                peers
                    .iter()
                    .filter(|(_, _, s)| s.as_accurate_as(&ours_score, round_off) == accurate)
                    .min_by(|a, b| a.1.total_cmp(&b.1))
            };
            let shown = if as_accurate {
                fastest(true)
            } else {
                fastest(true).is_none().then(|| fastest(false)).flatten()
            };
            let Some(&(name, ns, score)) = shown else { continue };
            let note = if as_accurate {
                String::new()
            } else {
                format!(" (its accuracy {}, ours {})", score.text(kind), ours_score.text(kind))
            };
            let _ = writeln!(
                out,
                "- {label}, {}, {precision}: {name} {} ns, ours {} ns ({:.2}× slower){note}",
                r.name,
                ns_text(ns),
                ns_text(ours_ns),
                ours_ns / ns
            );
        }
    }
}

/// The 1-, 5- and 15-minute load averages (the machine is shared: they say how disturbed the
/// timings may be), or `unknown`.
fn load_average() -> String {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let fields: Vec<&str> = text.split_whitespace().take(3).collect();
    if fields.len() == 3 {
        fields.join(" ")
    } else {
        "unknown".to_owned()
    }
}

/// How the intersection table scores accuracy.
const INTERSECTS_NOTE: &str = "accuracy: verdicts that differ from the reference's";
/// How the distance table scores accuracy.
const DISTANCE_NOTE: &str = "accuracy: largest error relative to max(reference, 1); \
     libccd 2.1 has no distance query";
/// How the contact table scores accuracy.
const CONTACT_NOTE: &str = "accuracy: largest depth error / largest normal angle / pairs whose \
     depth is off by more than 1e-3 / verdicts that differ from the exact ones; on cylinder_cone \
     (no exact depth) the depth is compared with the best upper bound any implementation's \
     normal certifies";

fn markdown(reports: &[Report], rounds: usize) -> String {
    let mut out = String::new();
    let pairs: Vec<String> = reports.iter().map(|r| format!("{} {}", r.name, r.pairs)).collect();
    let _ = writeln!(
        out,
        "Pairs: {}. Time: best of {rounds} rounds of about 1 ms each. \
         Load average at the end: {}.\n",
        pairs.join(", "),
        load_average()
    );
    let sections = [
        (Kind::Intersects, "Intersection test", "intersects", INTERSECTS_NOTE),
        (Kind::Distance, "Distance", "distance", DISTANCE_NOTE),
        (Kind::Contact, "Contact (penetration)", "contact", CONTACT_NOTE),
    ];
    for (kind, title, _, note) in sections {
        let _ = writeln!(
            out,
            "### {title}\n\nns per query (ratio to the fastest on the workload), {note}.\n"
        );
        table(&mut out, reports, kind);
        out.push('\n');
    }
    let lists = [
        (true, "Where a peer at equal or better accuracy is faster than ours (same precision)"),
        (false, "Where only a less accurate peer is faster than ours (same precision)"),
    ];
    for (as_accurate, title) in lists {
        let _ = writeln!(out, "### {title}\n");
        let start = out.len();
        for (kind, _, label, _) in sections {
            behind(&mut out, reports, kind, label, as_accurate);
        }
        if out.len() == start {
            out.push_str("- none\n");
        }
        out.push('\n');
    }
    out
}

fn run(coal_answers: &str, rounds: usize) -> Result<String, String> {
    let text = std::fs::read_to_string(coal_answers)
        .map_err(|e| format!("cannot read the coal answers {coal_answers}: {e}"))?;
    let runs = peers::parse_answers(&text).map_err(|e| e.to_string())?;
    let reports = measure_all(&runs, rounds)?;
    Ok(markdown(&reports, rounds))
}

fn write_pairs(path: &str) -> Result<(), String> {
    let mut text = String::new();
    peers::write_pairs(&mut text, &workload::box_box());
    peers::write_pairs(&mut text, &workload::sphere_box());
    peers::write_pairs(&mut text, &workload::capsule_capsule());
    peers::write_pairs(&mut text, &workload::hull_32());
    peers::write_pairs(&mut text, &workload::cylinder_cone());
    std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))
}

const USAGE: &str = "usage: peers pairs FILE | peers run COAL_ANSWERS [ROUNDS]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["pairs", path] => write_pairs(path),
        ["run", answers] => run(answers, 30).map(|md| print!("{md}")),
        ["run", answers, rounds] => match rounds.parse::<usize>() {
            Ok(n) if n > 0 => run(answers, n).map(|md| print!("{md}")),
            _ => Err(format!("ROUNDS must be a positive integer, not {rounds:?}")),
        },
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("peers: {e}");
            ExitCode::FAILURE
        }
    }
}
