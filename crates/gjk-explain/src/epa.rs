//! A recorded penetration-depth run (EPA) for 2D pairs whose cores overlap, in world
//! coordinates, so the walkthrough and the playground can show the polygon growing.
//!
//! The library's EPA (`gjk::epa`) has no observer, so this module runs the textbook polygon
//! expansion of van den Bergen (2001) on the same support function, and the walkthrough sets its
//! answer beside the library's own contact query (`gjk::contact`) so that a reader sees both
//! agree (or, if they ever do not, sees it):
//! 1. the polygon starts as GJK's final simplex (a triangle around the origin; a point or a
//!    segment is first completed with support points across it);
//! 2. take its edge closest to the origin: outward unit normal `n`, plane distance `d`;
//! 3. ask the Minkowski difference of the cores for its support point `w` along `n`. The depth
//!    lies between `d` and `n·w`; stop when they agree within the relative tolerance, else insert
//!    `w` between the ends of that edge.
//!
//! The witness points come from the closest edge: the origin's projection `d·n` onto it is the
//! same combination of the edge ends' points of A and of B. Rounded shapes (margins) add their
//! radii along `n` afterwards.

use gjk::Real;
use glam::DVec2;

use crate::body::Body;
use crate::space::Space;

/// The most support points the expansion adds; curved cores need a few dozen.
const MAX_ITERATIONS: u32 = 64;

/// A vertex of the polygon: `w = a − b` and the point `a` of A's core it came from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Vertex {
    pub w: DVec2,
    pub a: DVec2,
}

/// One expansion step.
#[derive(Clone, Debug)]
pub(crate) struct EpaStep {
    /// 1 for the first step.
    pub iteration: u32,
    /// The polygon before the step, counter-clockwise.
    pub polygon: Vec<DVec2>,
    /// The closest edge: indices into `polygon` of its ends.
    pub edge: (usize, usize),
    /// The edge's outward unit normal.
    pub normal: DVec2,
    /// The distance of the edge's line from the origin (the lower bound of the depth).
    pub distance: f64,
    /// The new support point: on A's core, on B's core, and their difference.
    pub a: DVec2,
    /// The support point on B's core along `−n`.
    pub b: DVec2,
    /// `w = a − b`.
    pub w: DVec2,
    /// `n·w`, the upper bound of the depth.
    pub bound: f64,
    /// What the step did.
    pub action: EpaAction,
}

/// What an expansion step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EpaAction {
    /// `w` went into the polygon.
    Added,
    /// The bounds met: the closest edge is on the boundary of the difference.
    Converged,
    /// `w` is already a vertex: rounding allows no progress; the edge is the answer.
    Repeated,
}

/// How the penetration was found.
#[derive(Clone, Debug)]
pub(crate) enum EpaEnd {
    /// The expansion ran (its steps say how it ended).
    Expanded,
    /// The expansion reached its iteration cap; the last edge is the best answer.
    IterationCap,
    /// The cores' difference has no area (a point or segment): depth 0 across it.
    Flat,
    /// The cores are apart; only the margins overlap: depth = margins − core distance.
    MarginsOnly {
        /// The distance between the cores.
        core_distance: f64,
    },
}

/// The penetration run and its answer, in world coordinates.
#[derive(Clone, Debug)]
pub(crate) struct EpaRecord {
    /// The starting polygon (GJK's simplex, completed to a triangle).
    pub start: Vec<DVec2>,
    /// Whether GJK's simplex had to be completed with support points.
    pub completed: bool,
    /// The expansion steps.
    pub steps: Vec<EpaStep>,
    /// How it ended.
    pub end: EpaEnd,
    /// The depth of the whole shapes (margins included).
    pub depth: f64,
    /// The unit normal from A toward B.
    pub normal: DVec2,
    /// The deepest point of A inside B.
    pub point_a: DVec2,
    /// The deepest point of B inside A.
    pub point_b: DVec2,
    /// The library's own answer (`gjk::contact`), when it gives one.
    pub library: Option<gjk::Contact<DVec2>>,
}

/// The support point of a body's core along the world direction `d` (2D bodies only).
fn core_support<V: Space>(body: &Body<'_, V>, d: DVec2) -> DVec2 {
    let local = body.shape.support(body.pose.inverse_transform_vector(V::lift(d)));
    body.pose.transform_point(local).screen()
}

/// The library's contact answer for the pair, in world coordinates.
fn library<V: Space>(a: &Body<'_, V>, b: &Body<'_, V>) -> Option<gjk::Contact<DVec2>> {
    let c = gjk::contact(a.shape, &a.pose, b.shape, &b.pose, 0.0)?;
    Some(gjk::Contact {
        depth: c.depth,
        normal: c.normal.screen(),
        point_a: c.point_a.screen(),
        point_b: c.point_b.screen(),
        status: c.status,
    })
}

/// Runs the expansion on 2D bodies whose cores overlap, from GJK's final simplex `simplex`
/// (world-frame pairs `(w, a)`: a point of the cores' difference and the point of A's core it
/// came from). `core_gap`: the distance between the cores
/// when GJK found them apart but within the margins (then no expansion runs).
pub(crate) fn run<V: Space>(
    a: &Body<'_, V>,
    b: &Body<'_, V>,
    simplex: &[(V, V)],
    core_gap: Option<(f64, DVec2, DVec2)>,
) -> Option<EpaRecord> {
    if V::DIM != 2 {
        return None;
    }
    let (ra, rb) = (a.shape.margin(), b.shape.margin());
    let library = library(a, b);
    if let Some((core_distance, core_a, core_b)) = core_gap {
        // The cores are apart by `core_distance` along `n`; the margins cover the gap.
        let normal = (core_b - core_a).normalize_or(DVec2::X);
        return Some(EpaRecord {
            start: Vec::new(),
            completed: false,
            steps: Vec::new(),
            end: EpaEnd::MarginsOnly { core_distance },
            depth: ra + rb - core_distance,
            normal,
            point_a: core_a + ra * normal,
            point_b: core_b - rb * normal,
            library,
        });
    }
    let support = |d: DVec2| {
        let (pa, pb) = (core_support(a, d), core_support(b, -d));
        Vertex { w: pa - pb, a: pa }
    };
    let mut polygon: Vec<Vertex> =
        simplex.iter().map(|&(w, pa)| Vertex { w: w.screen(), a: pa.screen() }).collect();
    let size = polygon.iter().map(|v| v.w.length()).fold(0.0, f64::max);
    let from_gjk = polygon.len();
    complete(&mut polygon, &support, size);
    let completed = polygon.len() != from_gjk;
    let start: Vec<DVec2> = polygon.iter().map(|v| v.w).collect();
    if polygon.len() < 3 {
        let normal = flat_normal(&polygon, a, b);
        let witness = polygon.first().copied().unwrap_or(Vertex { w: DVec2::ZERO, a: DVec2::ZERO });
        let (core_a, core_b) = (witness.a, witness.a - witness.w);
        return Some(EpaRecord {
            start,
            completed,
            steps: Vec::new(),
            end: EpaEnd::Flat,
            depth: ra + rb,
            normal,
            point_a: core_a + ra * normal,
            point_b: core_b - rb * normal,
            library,
        });
    }
    let tolerance = f64::DEFAULT_TOLERANCE;
    let mut steps = Vec::new();
    let mut end = EpaEnd::IterationCap;
    for iteration in 1..=MAX_ITERATIONS {
        let (i, normal, distance) = closest_edge(&polygon);
        let j = (i + 1) % polygon.len();
        let p = support(normal);
        let bound = normal.dot(p.w);
        let size = polygon.iter().map(|v| v.w.length()).fold(size, f64::max);
        let converged = bound - distance <= tolerance * distance.abs().max(1e-6 * size);
        let repeated = polygon.iter().any(|v| v.w == p.w);
        let action = if converged {
            EpaAction::Converged
        } else if repeated {
            EpaAction::Repeated
        } else {
            EpaAction::Added
        };
        steps.push(EpaStep {
            iteration,
            polygon: polygon.iter().map(|v| v.w).collect(),
            edge: (i, j),
            normal,
            distance,
            a: p.a,
            b: p.a - p.w,
            w: p.w,
            bound,
            action,
        });
        if action != EpaAction::Added {
            end = EpaEnd::Expanded;
            break;
        }
        polygon.insert(i + 1, p);
    }
    let last = steps.last().expect("a full polygon takes at least one step");
    let (ea, eb) = (polygon[last.edge.0], polygon[last.edge.1]);
    let (core_a, core_b) = witnesses(ea, eb, last.normal * last.distance);
    Some(EpaRecord {
        start,
        completed,
        depth: last.distance + ra + rb,
        normal: last.normal,
        point_a: core_a + ra * last.normal,
        point_b: core_b - rb * last.normal,
        steps,
        end,
        library,
    })
}

/// Completes a point or a segment to a triangle around the origin with support points across
/// it, as the library's EPA does; leaves it short when the difference has no area.
fn complete(polygon: &mut Vec<Vertex>, support: &impl Fn(DVec2) -> Vertex, size: f64) {
    let tiny = 1e-12 * size.max(f64::MIN_POSITIVE);
    if let [p, q, r] = polygon[..] {
        // A flat triangle (the origin on a line of three points): keep its two ends.
        if (q.w - p.w).perp_dot(r.w - p.w).abs() <= tiny * size {
            let span = |x: Vertex, y: Vertex| (x.w - y.w).length_squared();
            let ends = [(p, q), (q, r), (p, r)]
                .into_iter()
                .max_by(|x, y| span(x.0, x.1).total_cmp(&span(y.0, y.1)))
                .unwrap_or((p, r));
            *polygon = vec![ends.0, ends.1];
        }
    }
    if polygon.is_empty() {
        polygon.push(support(DVec2::X));
    }
    if polygon.len() == 1 {
        for d in [DVec2::X, DVec2::NEG_X, DVec2::Y, DVec2::NEG_Y] {
            let p = support(d);
            if (p.w - polygon[0].w).length() > tiny {
                polygon.push(p);
                break;
            }
        }
    }
    if polygon.len() == 2 {
        let edge = polygon[1].w - polygon[0].w;
        for d in [edge.perp(), -edge.perp()] {
            let p = support(d);
            if (p.w - polygon[0].w).perp_dot(edge).abs() > tiny * edge.length() {
                polygon.push(p);
                break;
            }
        }
    }
    if polygon.len() == 3 {
        let turn = (polygon[1].w - polygon[0].w).perp_dot(polygon[2].w - polygon[0].w);
        if turn < 0.0 {
            polygon.swap(1, 2);
        }
    }
}

/// The edge closest to the origin of a counter-clockwise polygon: its first vertex, outward
/// unit normal and plane distance.
fn closest_edge(polygon: &[Vertex]) -> (usize, DVec2, f64) {
    let mut best = (0, DVec2::X, f64::INFINITY);
    for i in 0..polygon.len() {
        let (p, q) = (polygon[i].w, polygon[(i + 1) % polygon.len()].w);
        let e = q - p;
        // Counter-clockwise: the outward normal is the edge turned clockwise.
        let Some(n) = DVec2::new(e.y, -e.x).try_normalize() else { continue };
        let distance = n.dot(p);
        if distance < best.2 {
            best = (i, n, distance);
        }
    }
    best
}

/// The points of A's and B's cores whose difference is `target`, a point of the edge `p`–`q`
/// (clamped to it).
fn witnesses(p: Vertex, q: Vertex, target: DVec2) -> (DVec2, DVec2) {
    let e = q.w - p.w;
    let t = if e.length_squared() > 0.0 {
        ((target - p.w).dot(e) / e.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let a = p.a + t * (q.a - p.a);
    let w = p.w + t * e;
    (a, a - w)
}

/// The normal across a flat difference (a point or segment): orthogonal to it, oriented from
/// A's centre toward B's.
fn flat_normal<V: Space>(polygon: &[Vertex], a: &Body<'_, V>, b: &Body<'_, V>) -> DVec2 {
    let towards_b = (b.pose.transform_point(b.shape.center())
        - a.pose.transform_point(a.shape.center()))
    .screen();
    let along = match polygon {
        [p, q, ..] => (q.w - p.w).perp(),
        _ => towards_b,
    };
    let n = along.normalize_or(DVec2::X);
    if n.dot(towards_b) < 0.0 {
        -n
    } else {
        n
    }
}
