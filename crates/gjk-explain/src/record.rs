//! Runs a method on a pair and keeps what the walkthrough and the pictures need, in world
//! coordinates.

use crate::classic::{classic_gjk, ClassicEnd, ClassicOptions, Region};
use gjk::{
    GjkOptions, GjkResult, Goal, Pair, Support, SupportPoint, Termination, Trace, WarmStart,
};

use crate::body::Body;
use crate::epa::{self, EpaRecord};
use crate::space::Space;
use crate::Method;

/// One support call and what it did to the simplex, in world coordinates.
#[derive(Clone, Debug)]
pub(crate) struct Step<V> {
    /// 1 for the first support call.
    pub iteration: u32,
    /// The search direction `d`.
    pub direction: V,
    /// The support point of A along `d`.
    pub a: V,
    /// The support point of B along `−d`.
    pub b: V,
    /// `w = a − b`.
    pub w: V,
    /// `w·d`.
    pub progress: f64,
    /// The simplex the new point was tested with: the new point and the previous simplex
    /// (empty when the point was refused).
    pub tested: Vec<V>,
    /// The simplex after this step.
    pub kept: Vec<V>,
    /// The barycentric coordinates of the closest point over `kept` (robust method).
    pub lambdas: Vec<f64>,
    /// The closest point of the simplex to the origin (robust method).
    pub closest: Option<V>,
    /// The region decisions (classic method).
    pub regions: Vec<Region>,
    /// The next search direction (classic method).
    pub next_direction: Option<V>,
    /// The robust method refused the point before adding it (convergence or separation test).
    pub refused: bool,
}

/// How the run ended.
#[derive(Clone, Debug)]
pub(crate) enum Outcome<V: Space> {
    /// The robust method's result, in world coordinates.
    Robust(GjkResult<V>),
    /// The classic method's end.
    Classic(ClassicEnd),
}

/// A whole run.
pub(crate) struct Record<V: Space> {
    pub steps: Vec<Step<V>>,
    pub outcome: Outcome<V>,
    /// The first search direction (world).
    pub first_direction: V,
    /// The sum of the shapes' margins (radii swept around the cores).
    pub margins: f64,
    /// The penetration run, for pairs found intersecting (robust) or enclosing the origin
    /// (classic).
    pub epa: Option<EpaRecord<V>>,
}

impl<V: Space> Record<V> {
    /// Whether the method says the shapes intersect (`None`: the classic method gave up).
    pub fn intersecting(&self) -> Option<bool> {
        match &self.outcome {
            Outcome::Robust(r) => Some(r.intersecting),
            Outcome::Classic(end) => end.says_intersecting(),
        }
    }
}

/// Runs `method` on the pair from `first_direction` (world), or from the method's own start.
pub(crate) fn run<V: Space>(
    a: &Body<'_, V>,
    b: &Body<'_, V>,
    method: Method,
    first_direction: Option<V>,
) -> Record<V> {
    let default_direction =
        b.pose.transform_point(b.shape.center()) - a.pose.transform_point(a.shape.center());
    let first = first_direction
        .or(Some(default_direction).filter(|d| d.direction().is_some()))
        .unwrap_or(V::axis(0));
    let (mut record, simplex, core_gap) = match method {
        Method::Robust => robust(a, b, first),
        Method::Classic => classic(a, b, first),
    };
    if record.intersecting() == Some(true) {
        record.epa = Some(epa::run(a, b, &simplex, core_gap));
    }
    record
}

/// What a method leaves for the penetration run: its final simplex (support points in A's
/// frame), and, when the cores are apart but the margins overlap, the cores' distance and
/// closest points (world).
type Handover<V> = (Record<V>, Vec<SupportPoint<V>>, Option<(f64, V, V)>);

/// A shape whose centre is moved so that the robust solver's cold start searches along a chosen
/// direction. The solver starts along `d = c_B − c_A` (B's centre in A's frame minus A's
/// centre); giving A the centre `c_B − d` makes that any `d` we like. Nothing else changes: the
/// centre is only used for the first direction.
struct AimedAt<'s, V: Space> {
    shape: &'s dyn Support<V>,
    center: V,
}

impl<V: Space> Support<V> for AimedAt<'_, V> {
    fn support(&self, dir: V) -> V {
        self.shape.support(dir)
    }
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        self.shape.support_hinted(dir, hint)
    }
    fn margin(&self) -> f64 {
        self.shape.margin()
    }
    fn center(&self) -> V {
        self.center
    }
}

fn robust<V: Space>(a: &Body<'_, V>, b: &Body<'_, V>, first: V) -> Handover<V> {
    let first_local = a.pose.inverse_transform_vector(first);
    let relative = a.pose.relative(&b.pose);
    let aimed = AimedAt {
        shape: a.shape,
        center: relative.transform_point(b.shape.center()) - first_local,
    };
    let pair = Pair::new(&aimed, a.pose, b.shape, b.pose);
    let mut trace = Trace::new();
    let options = GjkOptions::default();
    let result = pair.gjk_observed(Goal::Distance, &options, &mut WarmStart::default(), &mut trace);
    let world = |p: V| a.pose.transform_point(p);
    let turn = |v: V| a.pose.transform_vector(v);
    let mut steps: Vec<Step<V>> = Vec::new();
    let mut previous: Vec<V> = Vec::new();
    for it in trace.iterations() {
        let kept: Vec<V> = it.simplex.points().iter().map(|p| turn(p.w)).collect();
        let mut tested = vec![turn(it.support.w)];
        tested.extend_from_slice(&previous);
        steps.push(Step {
            iteration: it.iteration,
            direction: turn(it.direction),
            a: world(it.support.a),
            b: world(it.support.b),
            w: turn(it.support.w),
            progress: it.support.w.dot(it.direction),
            tested,
            kept: kept.clone(),
            lambdas: it.simplex.barycentric().to_vec(),
            closest: Some(turn(it.closest)),
            regions: Vec::new(),
            next_direction: None,
            refused: false,
        });
        previous = kept;
    }
    // The last support call may have been refused before joining the simplex (converged, no
    // progress, separating axis): the observer did not see it, so recompute it — support is
    // deterministic — to show why the loop stopped.
    if (steps.len() as u32) < result.iterations {
        let direction_local = trace.iterations().last().map_or(first_local, |it| -it.closest);
        let p = pair.support(direction_local);
        let last = steps.last();
        steps.push(Step {
            iteration: result.iterations,
            direction: turn(direction_local),
            a: world(p.a),
            b: world(p.b),
            w: turn(p.w),
            progress: p.w.dot(direction_local),
            tested: Vec::new(),
            kept: last.map_or_else(Vec::new, |s| s.kept.clone()),
            lambdas: last.map_or_else(Vec::new, |s| s.lambdas.clone()),
            closest: last.and_then(|s| s.closest),
            regions: Vec::new(),
            next_direction: None,
            refused: true,
        });
    }
    // A no-progress exit after adding restores the previous simplex: show the final one.
    if result.termination == Termination::NoProgress {
        if let Some(last) = steps.last_mut() {
            if !last.refused {
                last.kept = result.simplex.points().iter().map(|p| turn(p.w)).collect();
                last.lambdas = result.simplex.barycentric().to_vec();
                last.closest = Some(turn(result.closest));
            }
        }
    }
    let mut world_result = result;
    world_result.closest = turn(result.closest);
    let simplex = result.simplex.points().to_vec();
    let core_gap = (result.termination != Termination::Contained).then(|| {
        let (pa, pb) = result.simplex.witnesses();
        (result.closest.length(), world(pa), world(pb))
    });
    let record = Record {
        steps,
        outcome: Outcome::Robust(world_result),
        first_direction: first,
        margins: a.shape.margin() + b.shape.margin(),
        epa: None,
    };
    (record, simplex, core_gap)
}

fn classic<V: Space>(a: &Body<'_, V>, b: &Body<'_, V>, first: V) -> Handover<V> {
    let pair = Pair::new(a.shape, a.pose, b.shape, b.pose);
    let options = ClassicOptions {
        first_direction: Some(a.pose.inverse_transform_vector(first)),
        ..Default::default()
    };
    let run = classic_gjk(&pair, &options);
    let world = |p: V| a.pose.transform_point(p);
    let turn = |v: V| a.pose.transform_vector(v);
    let ws = |points: &[gjk::SupportPoint<V>]| points.iter().map(|p| turn(p.w)).collect::<Vec<V>>();
    let simplex = run.steps.last().map_or_else(Vec::new, |s| s.kept.clone());
    let steps = run
        .steps
        .iter()
        .map(|s| Step {
            iteration: s.iteration,
            direction: turn(s.direction),
            a: world(s.support.a),
            b: world(s.support.b),
            w: turn(s.support.w),
            progress: s.progress,
            tested: ws(&s.tested),
            kept: ws(&s.kept),
            lambdas: Vec::new(),
            closest: None,
            regions: s.regions.clone(),
            next_direction: s.next_direction.map(turn),
            refused: false,
        })
        .collect();
    let record = Record {
        steps,
        outcome: Outcome::Classic(run.end),
        first_direction: first,
        margins: a.shape.margin() + b.shape.margin(),
        epa: None,
    };
    (record, simplex, None)
}
