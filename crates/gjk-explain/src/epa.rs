//! The penetration run of the walkthrough: the library's own EPA
//! ([`gjk::epa::penetration_observed`]) watched by a [`gjk::Trace`], in world coordinates, so
//! that the walkthrough and the playground show the polytope growing (a polygon in 2D, a
//! triangulated polyhedron in 3D) exactly as the library expands it.
//!
//! The expansion runs on the cores, from the final simplex of the method explained (the robust
//! GJK's, or the classic one's when it enclosed the origin). Rounded shapes (margins) add their
//! radii along the normal afterwards. The library's contact query (`gjk::contact`) is set
//! beside the answer: it may take another path (a separating-axis test, a closed form) and
//! polishes curved shapes' normals, so a reader sees the paths agree.

use gjk::epa::{penetration_observed, EpaDecision};
use gjk::{EpaOptions, EpaTermination, Pair, SupportPoint, Trace};

use crate::body::Body;
use crate::space::Space;

/// One expansion step, in world coordinates.
#[derive(Clone, Debug)]
pub(crate) struct EpaStep<V> {
    /// 1 for the first step.
    pub iteration: u32,
    /// The polytope's faces before the step (edges in 2D, in counter-clockwise order around
    /// the polygon; triangles in 3D): their corners, points of the cores' difference.
    pub faces: Vec<Vec<V>>,
    /// The face closest to the origin: its index in `faces`.
    pub closest: usize,
    /// The closest face's outward unit normal.
    pub normal: V,
    /// The distance of the closest face's plane from the origin (the lower bound of the depth).
    pub distance: f64,
    /// The support point on A's core along the normal.
    pub a: V,
    /// The support point on B's core along the opposite direction.
    pub b: V,
    /// `w = a − b`.
    pub w: V,
    /// `n·w`, this direction's upper bound of the depth.
    pub bound: f64,
    /// The smallest upper bound so far.
    pub upper: f64,
    /// What the step decided.
    pub decision: EpaDecision,
}

impl<V: Space> EpaStep<V> {
    /// The polygon before the step, counter-clockwise (2D: each edge's start in turn), or the
    /// polytope's distinct vertices (3D).
    pub fn vertices(&self) -> Vec<V> {
        if V::DIM == 2 {
            return self.faces.iter().map(|f| f[0]).collect();
        }
        let mut out: Vec<V> = Vec::new();
        for &c in self.faces.iter().flatten() {
            if !out.contains(&c) {
                out.push(c);
            }
        }
        out
    }
}

/// How the penetration was found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum EpaEnd {
    /// The expansion ran and ended so (converged, iteration cap, degenerate).
    Expanded(EpaTermination),
    /// The cores' difference has no area or volume: depth 0 across it.
    Flat,
    /// The cores are apart; only the margins overlap: depth = margins − core distance.
    MarginsOnly {
        /// The distance between the cores.
        core_distance: f64,
    },
}

/// The penetration run and its answer, in world coordinates.
#[derive(Clone, Debug)]
pub(crate) struct EpaRecord<V: Space> {
    /// The simplex handed over by GJK (points of the cores' difference).
    pub start: Vec<V>,
    /// Whether the expansion completed the simplex with support points first (GJK ended on
    /// fewer than `DIM + 1` independent points).
    pub completed: bool,
    /// The expansion steps.
    pub steps: Vec<EpaStep<V>>,
    /// How it ended.
    pub end: EpaEnd,
    /// The depth of the whole shapes (margins included).
    pub depth: f64,
    /// The unit normal from A toward B.
    pub normal: V,
    /// The deepest point of A inside B.
    pub point_a: V,
    /// The deepest point of B inside A.
    pub point_b: V,
    /// The library's own answer (`gjk::contact`), when it gives one.
    pub library: Option<gjk::Contact<V>>,
}

/// Runs the library's EPA on bodies whose cores overlap, from `simplex` (support points in
/// A's frame). `core_gap`: the cores' distance and closest points (world) when GJK found them
/// apart but within the margins (then no expansion runs).
pub(crate) fn run<V: Space>(
    a: &Body<'_, V>,
    b: &Body<'_, V>,
    simplex: &[SupportPoint<V>],
    core_gap: Option<(f64, V, V)>,
) -> EpaRecord<V> {
    let (ra, rb) = (a.shape.margin(), b.shape.margin());
    let library = gjk::contact(a.shape, &a.pose, b.shape, &b.pose, 0.0);
    let turn = |v: V| a.pose.transform_vector(v);
    let world = |p: V| a.pose.transform_point(p);
    let start: Vec<V> = simplex.iter().map(|p| turn(p.w)).collect();
    if let Some((core_distance, core_a, core_b)) = core_gap {
        // The cores are apart by `core_distance` along `n`; the margins cover the gap.
        let normal = (core_b - core_a).direction().unwrap_or(V::axis(0));
        return EpaRecord {
            start: Vec::new(),
            completed: false,
            steps: Vec::new(),
            end: EpaEnd::MarginsOnly { core_distance },
            depth: ra + rb - core_distance,
            normal,
            point_a: core_a + normal * ra,
            point_b: core_b - normal * rb,
            library,
        };
    }
    let pair = Pair::new(a.shape, a.pose, b.shape, b.pose);
    let mut trace = Trace::new();
    let p = penetration_observed(&pair, simplex, &EpaOptions::default(), &mut trace);
    let steps: Vec<EpaStep<V>> = trace
        .epa_iterations()
        .map(|s| EpaStep {
            iteration: s.iteration,
            faces: s.faces.iter().map(|f| f.corners().iter().map(|&c| turn(c)).collect()).collect(),
            closest: s.faces.iter().position(|f| *f == s.closest).unwrap_or(0),
            normal: turn(s.closest.normal),
            distance: s.lower,
            a: world(s.a),
            b: world(s.b),
            w: turn(s.w),
            bound: s.bound,
            upper: s.upper,
            decision: s.decision,
        })
        .collect();
    let completed = steps.first().is_some_and(|s| s.vertices().len() != start.len());
    let normal = turn(p.normal);
    EpaRecord {
        start,
        completed,
        steps,
        end: match p.termination {
            EpaTermination::Flat => EpaEnd::Flat,
            other => EpaEnd::Expanded(other),
        },
        depth: p.depth + ra + rb,
        normal,
        point_a: world(p.point_a) + normal * ra,
        point_b: world(p.point_b) - normal * rb,
        library,
    }
}
