//! The explanation as data, for steppers such as the browser playground: every step with its
//! geometry (world coordinates, 2 or 3 numbers per point) and its own words from the
//! walkthrough, so a stepper shows exactly what `gjk explain` prints.

use gjk::epa::EpaDecision;
use gjk::EpaTermination;
use glam::DVec2;

use crate::body::{
    body_mesh, core_difference_mesh, core_difference_outline, difference_mesh, difference_outline,
    Body,
};
use crate::epa::{EpaEnd, EpaRecord};
use crate::record::{Outcome, Record};
use crate::space::Space;
use crate::text::Parts;

/// A point or vector: its 2 or 3 coordinates.
pub type Coords = Vec<f64>;

/// Which stage a step belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// A GJK support call.
    Gjk,
    /// An expansion step of the penetration run (EPA).
    Epa,
}

/// One step of the run, with its geometry and its words.
#[derive(Clone, Debug, PartialEq)]
pub struct StepView {
    /// GJK or EPA.
    pub stage: Stage,
    /// 1 for the first step of its stage.
    pub iteration: u32,
    /// The direction the support point was asked for (EPA: the closest edge's normal).
    pub direction: Coords,
    /// The support point on A.
    pub support_a: Coords,
    /// The support point on B (along the opposite direction).
    pub support_b: Coords,
    /// The new point of the Minkowski difference, `w = a − b`.
    pub w: Coords,
    /// GJK: the simplex after the step. EPA: the polygon before it, counter-clockwise (2D), or
    /// the polytope's vertices (3D).
    pub simplex: Vec<Coords>,
    /// GJK robust: the simplex's point closest to the origin.
    pub closest: Option<Coords>,
    /// GJK classic: the next search direction.
    pub next_direction: Option<Coords>,
    /// EPA: the closest edge, as indices into `simplex` (2D).
    pub edge: Option<[usize; 2]>,
    /// EPA: the polytope's faces before the step (edges in 2D, triangles in 3D), each as its
    /// corners; empty for GJK steps.
    pub faces: Vec<Vec<Coords>>,
    /// EPA: the closest face, as an index into `faces`.
    pub face: Option<usize>,
    /// EPA: the lower bound of the depth (the closest face's distance) and the smallest upper
    /// bound so far (of the cores).
    pub bounds: Option<[f64; 2]>,
    /// GJK robust: the point was refused (the loop stopped before adding it). EPA: the
    /// expansion stopped at this step.
    pub stopped: bool,
    /// The step's own paragraph of the walkthrough.
    pub text: String,
}

/// The penetration found for an intersecting pair.
#[derive(Clone, Debug, PartialEq)]
pub struct PenetrationView {
    /// The depth of the whole shapes (margins included).
    pub depth: f64,
    /// The unit normal from A toward B.
    pub normal: Coords,
    /// The deepest point of A inside B.
    pub point_a: Coords,
    /// The deepest point of B inside A.
    pub point_b: Coords,
    /// How it was found: `converged`, `iteration cap`, `degenerate` (EPA's ends), `flat` or
    /// `margins only`.
    pub how: &'static str,
    /// The library's own contact depth (`gjk::contact`), when it gives one.
    pub library_depth: Option<f64>,
    /// The library's contact normal.
    pub library_normal: Option<Coords>,
}

/// A closed triangle mesh in 3D: the convex hull of a shape's points (its vertices, or its
/// support points along many directions for curved shapes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// The vertices (world coordinates).
    pub vertices: Vec<[f64; 3]>,
    /// The triangles, as indices into `vertices`, counter-clockwise seen from outside.
    pub triangles: Vec<[u32; 3]>,
}

/// The distance and closest points found for a separated pair (robust method).
#[derive(Clone, Debug, PartialEq)]
pub struct SeparationView {
    /// The distance between the shapes.
    pub distance: f64,
    /// The closest point on A.
    pub point_a: Coords,
    /// The closest point on B.
    pub point_b: Coords,
    /// The unit normal from A toward B.
    pub normal: Coords,
}

/// Everything a stepper draws and says.
#[derive(Clone, Debug, PartialEq)]
pub struct RunView {
    /// The title, shapes, method and first direction (the walkthrough's opening).
    pub intro: String,
    /// The GJK steps, then the EPA steps.
    pub steps: Vec<StepView>,
    /// The GJK result paragraph.
    pub result: String,
    /// The penetration paragraphs: what EPA does (before its steps) and its answer.
    pub epa_intro: String,
    /// The penetration's answer beside the library's.
    pub epa_result: String,
    /// The separation, for a robust run that found the shapes apart.
    pub separation: Option<SeparationView>,
    /// The penetration, for a pair found intersecting.
    pub penetration: Option<PenetrationView>,
    /// 3D pairs: the meshes of A, B and the Minkowski difference `A − B`, for views that turn
    /// the scene (the outlines are one fixed projection).
    pub meshes: Option<[Mesh; 3]>,
    /// 3D pairs with rounded shapes (margins): the mesh of the cores' difference, where GJK and
    /// EPA find their support points.
    pub core_difference_mesh: Option<Mesh>,
    /// The outlines on screen (2D: the plane itself) of A, B and the Minkowski difference
    /// `A − B`, counter-clockwise.
    pub outlines: [Vec<[f64; 2]>; 3],
    /// For rounded shapes (margins), the outline of the cores' difference, where GJK and EPA
    /// find their support points.
    pub core_difference: Option<Vec<[f64; 2]>>,
}

fn coords<V: Space>(p: V) -> Coords {
    (0..V::DIM).map(|i| p.component(i)).collect()
}

fn flat(points: Vec<DVec2>) -> Vec<[f64; 2]> {
    points.into_iter().map(|p| [p.x, p.y]).collect()
}

/// Builds the view of a run from its record and its walkthrough in parts.
pub(crate) fn build<V: Space>(
    a: &Body<'_, V>,
    b: &Body<'_, V>,
    record: &Record<V>,
    parts: &Parts,
) -> RunView {
    let mut steps: Vec<StepView> = record
        .steps
        .iter()
        .zip(&parts.steps)
        .map(|(s, text)| StepView {
            stage: Stage::Gjk,
            iteration: s.iteration,
            direction: coords(s.direction),
            support_a: coords(s.a),
            support_b: coords(s.b),
            w: coords(s.w),
            simplex: s.kept.iter().map(|&p| coords(p)).collect(),
            closest: s.closest.map(coords),
            next_direction: s.next_direction.map(coords),
            edge: None,
            faces: Vec::new(),
            face: None,
            bounds: None,
            stopped: s.refused,
            text: text.clone(),
        })
        .collect();
    if let Some(epa) = &record.epa {
        let last = epa.steps.len();
        steps.extend(epa.steps.iter().zip(&parts.epa_steps).map(|(s, text)| StepView {
            stage: Stage::Epa,
            iteration: s.iteration,
            direction: coords(s.normal),
            support_a: coords(s.a),
            support_b: coords(s.b),
            w: coords(s.w),
            simplex: s.vertices().into_iter().map(coords).collect(),
            closest: Some(coords(s.normal * s.distance)),
            next_direction: None,
            edge: (V::DIM == 2).then(|| [s.closest, (s.closest + 1) % s.faces.len()]),
            faces: s.faces.iter().map(|f| f.iter().map(|&c| coords(c)).collect()).collect(),
            face: Some(s.closest),
            bounds: Some([s.distance, s.upper]),
            stopped: s.decision != EpaDecision::Grow || s.iteration as usize == last,
            text: text.clone(),
        }));
    }
    let separation = match &record.outcome {
        Outcome::Robust(r) if !r.intersecting => Some(SeparationView {
            distance: r.distance,
            point_a: coords(r.point_a),
            point_b: coords(r.point_b),
            normal: coords(r.normal),
        }),
        _ => None,
    };
    RunView {
        intro: parts.intro.clone(),
        steps,
        result: parts.result.clone(),
        epa_intro: parts.epa_intro.clone(),
        epa_result: parts.epa_result.clone(),
        separation,
        penetration: record.epa.as_ref().map(penetration),
        meshes: (V::DIM == 3).then(|| [body_mesh(a), body_mesh(b), difference_mesh(a, b)]),
        core_difference_mesh: (V::DIM == 3 && record.margins > 0.0)
            .then(|| core_difference_mesh(a, b)),
        outlines: [flat(a.outline()), flat(b.outline()), flat(difference_outline(a, b))],
        core_difference: (record.margins > 0.0).then(|| flat(core_difference_outline(a, b))),
    }
}

fn penetration<V: Space>(epa: &EpaRecord<V>) -> PenetrationView {
    PenetrationView {
        depth: epa.depth,
        normal: coords(epa.normal),
        point_a: coords(epa.point_a),
        point_b: coords(epa.point_b),
        how: match epa.end {
            EpaEnd::Expanded(EpaTermination::Converged) => "converged",
            EpaEnd::Expanded(EpaTermination::IterationCap) => "iteration cap",
            EpaEnd::Expanded(_) => "degenerate",
            EpaEnd::Flat => "flat",
            EpaEnd::MarginsOnly { .. } => "margins only",
        },
        library_depth: epa.library.map(|c| c.depth),
        library_normal: epa.library.map(|c| coords(c.normal)),
    }
}
