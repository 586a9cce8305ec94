//! `"query": "manifold"`: the contact patch of two shapes, as up to 2 (2D) or 4 (3D) points
//! under one normal, each with its depth and feature id.

use std::io::Write;

use gjk::{manifold, ContactStatus, ManifoldOptions, ManifoldResult, ManifoldStatus, Vector};
use serde_json::Value;

use super::{Failure, QueryKind, NON_FINITE};
use crate::json::Object;
use crate::output::Record;
use crate::shapes::{parse_pair, ParsedPair, PosedPair};
use crate::status::Status;

/// The row of [`super::KINDS`].
pub(super) const KIND: QueryKind = QueryKind {
    name: "manifold",
    input: r#"{"a": SHAPE, "b": SHAPE, "pose_a": POSE, "pose_b": POSE, "prediction": d}
               the contact patch of A and B: points where they overlap or are at most d
               apart (prediction >= 0, default 0); poses optional"#,
    answer: r#"  {"id": 1, "normal": [..], "points": [{"point_a": [..], "point_b": [..], "depth": 0.01,
   "id": [1073741824, 3]}, ..], "contact_status": "exact", "status": "clipped_a"}
  normal             unit, from A toward B, shared by the points; null when apart
  points             up to 2 (2D) or 4 (3D); none when apart. Each: point_a on A's surface,
                     point_b on B's (world coordinates); depth > 0 overlap, < 0 a gap within
                     the prediction, point_a - point_b = depth x normal for clipped patches;
                     id = [A's feature, B's feature], the same from frame to frame while the
                     same features touch (top two bits: 0 vertex, 1 edge, 2 face)
  contact_status     how the contact query that found the normal ended (exact, or a GJK or
                     EPA ending as in proximity answers); null when apart
  status             how the points were found:
"#,
    statuses: &Status::MANIFOLD,
    run,
};

fn run(line: &Object<'_>, id: &Value, out: &mut dyn Write) -> Result<(), Failure> {
    let prediction = match line.optional("prediction") {
        None | Some(Value::Null) => 0.0,
        Some(_) => line.non_negative("prediction")?,
    };
    let options = ManifoldOptions { prediction, ..ManifoldOptions::default() };
    match parse_pair(line)? {
        ParsedPair::Two(pair) => write(out, id, &solve(&pair, &options)),
        ParsedPair::Three(pair) => write(out, id, &solve(&pair, &options)),
    }
}

fn solve<V: Vector<Real = f64>>(
    pair: &PosedPair<V>,
    options: &ManifoldOptions<f64>,
) -> ManifoldResult<V> {
    manifold(&*pair.a, &pair.pose_a, &*pair.b, &pair.pose_b, options)
}

/// Writes the answer record: `{"id","normal","points","contact_status","status"}`.
fn write<V: Vector<Real = f64>>(
    out: &mut dyn Write,
    id: &Value,
    m: &ManifoldResult<V>,
) -> Result<(), Failure> {
    if !is_finite(m) {
        return Err(Failure::Line(NON_FINITE.to_owned()));
    }
    let apart = m.status == ManifoldStatus::Apart;
    let mut record = Record::begin(out, id)?;
    record.optional_vector("normal", (!apart).then_some(m.normal))?;
    record.field("points", points_json(m))?;
    match m.contact_status {
        Some(status) => record.string("contact_status", contact_word(status))?,
        None => record.field("contact_status", "null")?,
    }
    record.string("status", Status::Manifold(m.status).name())?;
    Ok(record.end()?)
}

/// Whether every number of the manifold is finite (a record never prints a NaN).
pub(crate) fn is_finite<V: Vector<Real = f64>>(m: &ManifoldResult<V>) -> bool {
    m.normal.is_finite()
        && m.points()
            .iter()
            .all(|p| p.point_a.is_finite() && p.point_b.is_finite() && p.depth.is_finite())
}

/// The points as a JSON array: `[{"point_a","point_b","depth","id":[a, b]}, ..]` (`gjk scene`
/// prints the same).
pub(crate) fn points_json<V: Vector<Real = f64>>(m: &ManifoldResult<V>) -> String {
    let points: Vec<String> = m
        .points()
        .iter()
        .map(|p| {
            format!(
                "{{\"point_a\":{},\"point_b\":{},\"depth\":{},\"id\":[{},{}]}}",
                coordinates(p.point_a),
                coordinates(p.point_b),
                Value::from(p.depth),
                p.id.a,
                p.id.b
            )
        })
        .collect();
    format!("[{}]", points.join(","))
}

/// A point as a JSON array, numbers in shortest round-trip form.
fn coordinates<V: Vector<Real = f64>>(v: V) -> Value {
    Value::Array((0..V::DIM).map(|i| Value::from(v.component(i))).collect())
}

/// The word of the contact query's ending: `exact`, or the proximity answer's word.
pub(crate) fn contact_word(status: ContactStatus) -> &'static str {
    match status {
        ContactStatus::Exact => "exact",
        ContactStatus::Gjk(t) => Status::Gjk(t).name(),
        ContactStatus::Epa(t) => Status::Epa(t).name(),
    }
}
