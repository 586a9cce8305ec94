//! # gjk-playground — the browser playground's engine
//!
//! [`gjk_explain`] compiled to WebAssembly behind a small JSON API, so that the page in
//! `playground/www` shows exactly the steps and words of `gjk explain`. One call: a request
//! (JSON text) in, an answer (JSON text) out.
//!
//! Request: `{"example": NAME}` for a built-in example of `gjk explain`, or
//! `{"pair": {"a": SHAPE, "b": SHAPE, "pose_a": POSE, "pose_b": POSE}}` with the shapes and poses
//! of `gjk query` (read by the same parser), plus `"method": "robust" | "classic"` (default
//! robust) and an optional first search direction `"direction": [x, y]`.
//!
//! Answer: `{"ok": true, "title", "dimension", "method", "intersecting", "text", "intro",
//! "steps": [...], "result", "epa_intro", "epa_result", "separation", "penetration",
//! "outlines": {"a", "b", "difference", "core_difference"}, "meshes"}` — `text` is the whole
//! walkthrough of `gjk explain`, the other text fields are its paragraphs — or
//! `{"ok": false, "error": "why"}`. EPA steps carry the polytope's `faces` (edges in 2D,
//! triangles in 3D), the closest one's index `face` and the depth's `bounds` `[lower, upper]`;
//! 3D answers carry `meshes` `{"a", "b", "difference", "core_difference"}`, each
//! `{"vertices", "triangles"}` (`core_difference` only for rounded shapes, else `null`), for a
//! view that turns the scene (`meshes` is `null` in 2D).
//!
//! The binding is three exported functions over linear memory (module `exports`), with no
//! binding generator: the page's loader is a few lines of JavaScript, and CI needs only the
//! `wasm32-unknown-unknown` target.
//!
//! ```
//! let answer = gjk_playground::answer(r#"{"example":"tutorial-triangles","method":"classic"}"#);
//! let value: serde_json::Value = serde_json::from_str(&answer).unwrap();
//! assert_eq!(value["ok"], true);
//! assert_eq!(value["steps"][0]["w"], serde_json::json!([0.0, 2.0]));
//! ```

mod exports;

use gjk_explain::{
    ExplainOptions, Explanation, Mesh, Method, PenetrationView, SeparationView, Stage, StepView,
};
// The shape and pose reader of `gjk query`, so that the page accepts exactly the JSON that the
// command line reads, with the same error messages.
use gjk_json::shapes::{self, ParsedPair};
use serde_json::{json, Value};

/// The longest request read, in bytes: a page's scene is a few kilobytes; anything far larger
/// is a mistake, answered with an error instead of parsed.
pub const MAX_REQUEST_BYTES: usize = 1 << 20;

/// The most points a polygon of the request may have: the Minkowski difference outline takes
/// the hull of all pairwise differences, so this bounds its work.
pub const MAX_POINTS: usize = 256;

/// Answers one request (JSON text) with one answer (JSON text); never panics on bad input.
pub fn answer(request: &str) -> String {
    let value = match explain_request(request) {
        Ok(explanation) => explanation_json(&explanation),
        Err(error) => json!({ "ok": false, "error": error }),
    };
    value.to_string()
}

/// Reads the request and explains it.
fn explain_request(request: &str) -> Result<Explanation, String> {
    if request.len() > MAX_REQUEST_BYTES {
        return Err(format!(
            "the request has {} bytes, more than the {MAX_REQUEST_BYTES} accepted",
            request.len()
        ));
    }
    let value: Value =
        serde_json::from_str(request).map_err(|e| format!("the request is not JSON: {e}"))?;
    let Value::Object(fields) = &value else {
        return Err("the request must be a JSON object".to_string());
    };
    let mut options = ExplainOptions::default();
    if let Some(method) = fields.get("method") {
        let name = method.as_str().ok_or("method: must be \"robust\" or \"classic\"")?;
        options.method = name.parse::<Method>().map_err(|e| e.to_string())?;
    }
    if let Some(direction) = fields.get("direction").filter(|d| !d.is_null()) {
        let numbers = direction.as_array().ok_or("direction: must be an array of numbers")?;
        let coordinates = numbers
            .iter()
            .map(|x| x.as_f64().ok_or("direction: must be an array of numbers"))
            .collect::<Result<Vec<f64>, _>>()?;
        options.first_direction = Some(coordinates);
    }
    match (fields.get("example"), fields.get("pair")) {
        (Some(name), None) => {
            let name = name.as_str().ok_or("example: must be a name")?;
            Explanation::builtin(name, &options).map_err(|e| e.to_string())
        }
        (None, Some(pair)) => explain_pair(pair, &options),
        _ => Err("the request needs exactly one of \"example\" and \"pair\"".to_string()),
    }
}

/// Explains a pair given in the JSON of `gjk query`.
fn explain_pair(pair: &Value, options: &ExplainOptions) -> Result<Explanation, String> {
    for side in ["a", "b"] {
        let points = pair.get(side).and_then(|s| s.get("points")).and_then(Value::as_array);
        if points.is_some_and(|p| p.len() > MAX_POINTS) {
            return Err(format!("{side}.points: more than {MAX_POINTS} points"));
        }
    }
    let parsed = shapes::parse_line(&pair.to_string()).map_err(|e| e.message)?;
    match &parsed.pair {
        ParsedPair::Two(p) => Explanation::for_pair_2d(&*p.a, &p.pose_a, &*p.b, &p.pose_b, options),
        ParsedPair::Three(p) => {
            Explanation::for_pair_3d(&*p.a, &p.pose_a, &*p.b, &p.pose_b, options)
        }
    }
    .map_err(|e| e.to_string())
}

/// A number for JSON: non-finite numbers (never expected) become `null`, not invalid JSON.
fn number(x: f64) -> Value {
    serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
}

fn point(p: &[f64]) -> Value {
    Value::Array(p.iter().map(|&x| number(x)).collect())
}

fn points(ps: &[Vec<f64>]) -> Value {
    Value::Array(ps.iter().map(|p| point(p)).collect())
}

fn step_json(step: &StepView) -> Value {
    json!({
        "stage": match step.stage { Stage::Gjk => "gjk", Stage::Epa => "epa" },
        "iteration": step.iteration,
        "direction": point(&step.direction),
        "support_a": point(&step.support_a),
        "support_b": point(&step.support_b),
        "w": point(&step.w),
        "simplex": points(&step.simplex),
        "closest": step.closest.as_deref().map(point),
        "next_direction": step.next_direction.as_deref().map(point),
        "edge": step.edge,
        "faces": step.faces.iter().map(|f| points(f)).collect::<Vec<_>>(),
        "face": step.face,
        "bounds": step.bounds.map(|[l, u]| json!([number(l), number(u)])),
        "stopped": step.stopped,
        "text": step.text,
    })
}

fn separation_json(s: &SeparationView) -> Value {
    json!({
        "distance": number(s.distance),
        "point_a": point(&s.point_a),
        "point_b": point(&s.point_b),
        "normal": point(&s.normal),
    })
}

fn penetration_json(p: &PenetrationView) -> Value {
    json!({
        "depth": number(p.depth),
        "normal": point(&p.normal),
        "point_a": point(&p.point_a),
        "point_b": point(&p.point_b),
        "how": p.how,
        "library_depth": p.library_depth.map(number),
        "library_normal": p.library_normal.as_deref().map(point),
    })
}

fn mesh_json(mesh: &Mesh) -> Value {
    json!({
        "vertices": mesh.vertices.iter().map(|p| point(p)).collect::<Vec<_>>(),
        "triangles": mesh.triangles,
    })
}

fn outline_json(outline: &[[f64; 2]]) -> Value {
    Value::Array(outline.iter().map(|p| point(p)).collect())
}

fn explanation_json(e: &Explanation) -> Value {
    let view = e.view();
    json!({
        "ok": true,
        "title": e.title(),
        "dimension": e.dimension(),
        "method": e.method().to_string(),
        "intersecting": e.intersecting(),
        "text": e.text(),
        "intro": view.intro,
        "steps": view.steps.iter().map(step_json).collect::<Vec<_>>(),
        "result": view.result,
        "epa_intro": view.epa_intro,
        "epa_result": view.epa_result,
        "separation": view.separation.as_ref().map(separation_json),
        "penetration": view.penetration.as_ref().map(penetration_json),
        "outlines": {
            "a": outline_json(&view.outlines[0]),
            "b": outline_json(&view.outlines[1]),
            "difference": outline_json(&view.outlines[2]),
            "core_difference": view.core_difference.as_deref().map(outline_json),
        },
        "meshes": view.meshes.as_ref().map(|[a, b, d]| json!({
            "a": mesh_json(a),
            "b": mesh_json(b),
            "difference": mesh_json(d),
            "core_difference": view.core_difference_mesh.as_ref().map(mesh_json),
        })),
    })
}
