//! # gjk-explain — watch GJK work
//!
//! Explanations of a GJK run for learners: a **text walkthrough** in words and numbers, as a
//! tutorial would tell it ("Iteration 2: search direction (0, -1); support on A = (1, -1), on
//! B = (1, 1), w = (0, -2); …"), and an **SVG picture** with a panel for the shapes and a panel
//! per iteration showing the Minkowski difference `A − B`, the origin, the simplex, the search
//! direction and the closest point.
//!
//! Two methods can be explained: the library's robust GJK ([`gjk::Pair::gjk_observed`] recorded
//! by a [`gjk::Trace`]) and the classic boolean GJK of the tutorials ([`classic`]), so the
//! tutorials' worked examples can be followed number for number and compared.
//!
//! When a pair overlaps, the walkthrough goes on with the penetration depth: the library's own
//! EPA ([`gjk::epa::penetration_observed`]) watched step by step — the polygon (2D) or
//! polytope (3D), its face closest to the origin, the support point, the bounds — and its
//! answer beside the library's contact query.
//!
//! [`Explanation::view`] gives the same run as data — each step's geometry with its own
//! paragraph of the walkthrough, the outlines, the separation or penetration — for steppers
//! such as the browser playground (`crates/gjk-playground`).
//!
//! ```
//! use gjk_explain::{ExplainOptions, Explanation, Method};
//!
//! let options = ExplainOptions { method: Method::Classic, ..Default::default() };
//! let explanation = Explanation::builtin("tutorial-triangles", &options)?;
//! assert!(explanation.text().contains("w = (0, -2)"));
//! assert_eq!(explanation.intersecting(), Some(true));
//! assert!(explanation.svg().starts_with("<svg"));
//! # Ok::<(), gjk_explain::ExplainError>(())
//! ```
//!
//! Any pair of shapes can be explained too, in 2D or 3D:
//!
//! ```
//! use gjk::{Ball, Cuboid, Pose};
//! use gjk_explain::{ExplainOptions, Explanation};
//! use glam::DVec3;
//!
//! let ball = Ball::<DVec3>::new(1.0).unwrap();
//! let cube = Cuboid::new(DVec3::ONE).unwrap();
//! let there = Pose::from_translation(DVec3::new(3.0, 0.5, 0.0)).unwrap();
//! let e = Explanation::for_pair_3d(&ball, &Pose::IDENTITY, &cube, &there, &ExplainOptions::default())?;
//! assert_eq!(e.intersecting(), Some(false));
//! assert!(e.text().contains("Distance = 1;"));
//! # Ok::<(), gjk_explain::ExplainError>(())
//! ```

mod body;
mod builtin;
pub mod classic;
mod epa;
mod format;
mod record;
mod space;
mod svg;
mod text;
mod view;

use core::fmt;
use core::str::FromStr;

use gjk::{Pose, Support};
use glam::{DVec2, DVec3};

use crate::body::Body;
use crate::builtin::{AnyExample, Example};
use crate::space::Space;

pub use crate::builtin::NAMES as BUILTIN_NAMES;
pub use crate::view::{Coords, Mesh, PenetrationView, RunView, SeparationView, Stage, StepView};

/// Which GJK to explain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// The library's GJK: distance and closest points with the signed-volumes sub-algorithm.
    #[default]
    Robust,
    /// The tutorials' boolean GJK with triple-product region tests (teaching only).
    Classic,
}

impl FromStr for Method {
    type Err = ExplainError;
    /// `"robust"` or `"classic"`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "robust" => Ok(Method::Robust),
            "classic" => Ok(Method::Classic),
            other => Err(ExplainError::UnknownMethod(other.to_string())),
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Method::Robust => "robust",
            Method::Classic => "classic",
        })
    }
}

/// How to explain.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExplainOptions {
    /// The method to run.
    pub method: Method,
    /// The first search direction in world coordinates (2 or 3 numbers, matching the space).
    /// `None`: a built-in example's own, else from A's centre toward B's.
    pub first_direction: Option<Vec<f64>>,
    /// The title (`None`: the example's name, or "custom pair").
    pub title: Option<String>,
}

/// Why an explanation could not be made.
#[derive(Clone, Debug, PartialEq)]
pub enum ExplainError {
    /// No built-in example has this name (see [`BUILTIN_NAMES`]).
    UnknownExample(String),
    /// The method is neither `robust` nor `classic`.
    UnknownMethod(String),
    /// The first direction has the wrong number of coordinates, is not finite or is zero.
    BadDirection(String),
}

impl fmt::Display for ExplainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExplainError::UnknownExample(name) => {
                write!(f, "no built-in example '{name}' (try one of: {})", BUILTIN_NAMES.join(", "))
            }
            ExplainError::UnknownMethod(name) => {
                write!(f, "unknown method '{name}' (use 'robust' or 'classic')")
            }
            ExplainError::BadDirection(why) => write!(f, "bad first direction: {why}"),
        }
    }
}

impl std::error::Error for ExplainError {}

/// An explained GJK run: its walkthrough and its picture.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    title: String,
    dimension: usize,
    method: Method,
    text: String,
    svg: String,
    intersecting: Option<bool>,
    support_calls: usize,
    view: RunView,
}

impl Explanation {
    /// Explains the built-in example `name` (one of [`BUILTIN_NAMES`]).
    pub fn builtin(name: &str, options: &ExplainOptions) -> Result<Self, ExplainError> {
        match builtin::example(name)
            .ok_or_else(|| ExplainError::UnknownExample(name.to_string()))?
        {
            AnyExample::Two(example) => explain_example(&example, options),
            AnyExample::Three(example) => explain_example(&example, options),
        }
    }

    /// Explains a pair of 2D shapes at their poses.
    pub fn for_pair_2d(
        a: &dyn Support<DVec2>,
        pose_a: &Pose<DVec2>,
        b: &dyn Support<DVec2>,
        pose_b: &Pose<DVec2>,
        options: &ExplainOptions,
    ) -> Result<Self, ExplainError> {
        explain_custom(a, pose_a, b, pose_b, options)
    }

    /// Explains a pair of 3D shapes at their poses (drawn in isometric projection).
    pub fn for_pair_3d(
        a: &dyn Support<DVec3>,
        pose_a: &Pose<DVec3>,
        b: &dyn Support<DVec3>,
        pose_b: &Pose<DVec3>,
        options: &ExplainOptions,
    ) -> Result<Self, ExplainError> {
        explain_custom(a, pose_a, b, pose_b, options)
    }

    /// The walkthrough in words and numbers (plain text, several lines).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The picture: a standalone SVG document.
    pub fn svg(&self) -> &str {
        &self.svg
    }

    /// The title.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// 2 or 3.
    pub fn dimension(&self) -> usize {
        self.dimension
    }

    /// The method explained.
    pub fn method(&self) -> Method {
        self.method
    }

    /// The method's verdict: `Some(true)` intersecting, `Some(false)` apart, `None` when the
    /// classic method gave up.
    pub fn intersecting(&self) -> Option<bool> {
        self.intersecting
    }

    /// The run as data: every step's geometry and words, the outlines, the separation or
    /// penetration (for steppers such as the browser playground).
    pub fn view(&self) -> &RunView {
        &self.view
    }

    /// How many support calls the run made (the number of iteration panels).
    pub fn support_calls(&self) -> usize {
        self.support_calls
    }
}

fn direction<V: Space>(options: &ExplainOptions) -> Result<Option<V>, ExplainError> {
    let Some(c) = &options.first_direction else { return Ok(None) };
    let d = V::from_slice(c).ok_or_else(|| {
        ExplainError::BadDirection(format!("{} numbers for a {} pair", c.len(), V::NAME))
    })?;
    if d.direction().is_none() {
        return Err(ExplainError::BadDirection("it must be finite and not zero".to_string()));
    }
    Ok(Some(d))
}

fn explain_example<V: Space>(
    example: &Example<V>,
    options: &ExplainOptions,
) -> Result<Explanation, ExplainError> {
    let first = direction::<V>(options)?.or(example.first_direction);
    let title = options.title.clone().unwrap_or_else(|| example.title.to_string());
    Ok(explain(&title, &example.a.body(), &example.b.body(), options.method, first))
}

fn explain_custom<V: Space>(
    a: &dyn Support<V>,
    pose_a: &Pose<V>,
    b: &dyn Support<V>,
    pose_b: &Pose<V>,
    options: &ExplainOptions,
) -> Result<Explanation, ExplainError> {
    let first = direction::<V>(options)?;
    let title = options.title.clone().unwrap_or_else(|| "custom pair".to_string());
    let describe = |pose: &Pose<V>| {
        format!(
            "a shape given by its support function, placed at {}",
            pose.translation().show(format::Style::Text)
        )
    };
    let body_a = Body { shape: a, pose: *pose_a, vertices: None, description: describe(pose_a) };
    let body_b = Body { shape: b, pose: *pose_b, vertices: None, description: describe(pose_b) };
    Ok(explain(&title, &body_a, &body_b, options.method, first))
}

fn explain<V: Space>(
    title: &str,
    a: &Body<'_, V>,
    b: &Body<'_, V>,
    method: Method,
    first: Option<V>,
) -> Explanation {
    let record = record::run(a, b, method, first);
    let parts = text::walkthrough(title, a, b, &record);
    let text = parts.joined();
    let svg = svg::Picture::new(title, a, b, &record).render();
    let view = view::build(a, b, &record, &parts);
    Explanation {
        title: title.to_string(),
        dimension: V::DIM,
        method,
        text,
        svg,
        intersecting: record.intersecting(),
        support_calls: record.steps.len(),
        view,
    }
}
