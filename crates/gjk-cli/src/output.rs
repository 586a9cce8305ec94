//! The output records of `gjk query`: one JSON object per line, fields in a fixed order,
//! numbers in their shortest round-trip form (serde_json prints `f64` with ryu).

use std::io::{self, Write};

use gjk::Vector;

use crate::query::Answer;
use serde_json::{Number, Value};

/// Writes the answer record of one query.
///
/// `{"id","intersects","distance","point_a","point_b","normal","penetration_depth",
/// "iterations","status"}`. Separated: the closest points, `penetration_depth` 0. Intersecting:
/// `distance` 0, the deepest points of the overlap (EPA witnesses), and the normal along which
/// B moves out by `penetration_depth`. `status` is a word of [`crate::status::Status`].
///
/// Every number of `result` must be finite (see [`is_finite`]).
pub(crate) fn write_answer<V: Vector<Real = f64>, W: Write>(
    out: &mut W,
    id: &Value,
    result: &Answer<V>,
) -> io::Result<()> {
    let mut record = Record::begin(out, id)?;
    record.field("intersects", result.intersecting)?;
    record.number("distance", result.distance)?;
    record.vector("point_a", result.point_a)?;
    record.vector("point_b", result.point_b)?;
    record.vector("normal", result.normal)?;
    record.number("penetration_depth", result.penetration_depth)?;
    record.field("iterations", result.iterations)?;
    record.field("status", Value::String(result.status.name().to_owned()))?;
    record.end()
}

/// Whether every number [`write_answer`] prints is finite.
pub(crate) fn is_finite<V: Vector<Real = f64>>(result: &Answer<V>) -> bool {
    result.distance.is_finite()
        && result.penetration_depth.is_finite()
        && result.point_a.is_finite()
        && result.point_b.is_finite()
        && result.normal.is_finite()
}

/// Writes the record of a line that could not be answered: `{"id","line","error"}`.
pub(crate) fn write_error<W: Write>(
    out: &mut W,
    id: &Value,
    line: u64,
    message: &str,
) -> io::Result<()> {
    let mut record = Record::begin(out, id)?;
    record.field("line", line)?;
    record.field("error", Value::String(message.to_owned()))?;
    record.end()
}

/// A JSON object being written field by field, in order.
struct Record<'w, W: Write> {
    out: &'w mut W,
}

impl<'w, W: Write> Record<'w, W> {
    /// Starts the object with its `id` field.
    fn begin(out: &'w mut W, id: &Value) -> io::Result<Self> {
        write!(out, "{{\"id\":{id}")?;
        Ok(Self { out })
    }

    /// A field whose value prints as JSON through `Display` (bools, integers, `Value`s).
    fn field(&mut self, name: &str, value: impl std::fmt::Display) -> io::Result<()> {
        write!(self.out, ",\"{name}\":{value}")
    }

    /// A finite number in shortest round-trip form.
    fn number(&mut self, name: &str, x: f64) -> io::Result<()> {
        write!(self.out, ",\"{name}\":")?;
        write_number(self.out, x)
    }

    /// A point or vector as an array of its coordinates.
    fn vector<V: Vector<Real = f64>>(&mut self, name: &str, v: V) -> io::Result<()> {
        write!(self.out, ",\"{name}\":[")?;
        for i in 0..V::DIM {
            if i > 0 {
                self.out.write_all(b",")?;
            }
            write_number(self.out, v.component(i))?;
        }
        self.out.write_all(b"]")
    }

    fn end(self) -> io::Result<()> {
        self.out.write_all(b"}\n")
    }
}

/// `x` in shortest round-trip form (`0.30000000000000004`, `1.0`, `1e-7`); JSON has no NaN or
/// infinity, so those print as `null` (callers check [`is_finite`] first).
fn write_number<W: Write>(out: &mut W, x: f64) -> io::Result<()> {
    match Number::from_f64(x) {
        Some(n) => write!(out, "{n}"),
        None => out.write_all(b"null"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn error_records_escape_the_message() {
        let mut out = Vec::new();
        write_error(&mut out, &json!({"k": [1]}), 7, "a.type: unknown \"x\"").unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"id\":{\"k\":[1]},\"line\":7,\"error\":\"a.type: unknown \\\"x\\\"\"}\n"
        );
    }

    #[test]
    fn numbers_print_shortest_round_trip() {
        let mut out = Vec::new();
        for x in [0.1 + 0.2, 1.0, 1e-7, -2.5e300, 0.0] {
            write_number(&mut out, x).unwrap();
            out.push(b' ');
        }
        assert_eq!(String::from_utf8(out).unwrap(), "0.30000000000000004 1.0 1e-7 -2.5e+300 0.0 ");
    }
}
