//! The output records of `gjk query`: one JSON object per line, fields in a fixed order,
//! numbers in their shortest round-trip form (serde_json prints `f64` with ryu). Each query
//! kind ([`crate::kinds`]) writes its answer with a [`Record`].

use std::io::{self, Write};

use gjk::Vector;

use serde_json::{Number, Value};

/// Writes the record of a line that could not be answered: `{"id","line","error"}`.
pub(crate) fn write_error<W: Write + ?Sized>(
    out: &mut W,
    id: &Value,
    line: u64,
    message: &str,
) -> io::Result<()> {
    let mut record = Record::begin(out, id)?;
    record.field("line", line)?;
    record.string("error", message)?;
    record.end()
}

/// A JSON object being written field by field, in order, starting with `id`.
pub(crate) struct Record<'w, W: Write + ?Sized> {
    out: &'w mut W,
}

impl<'w, W: Write + ?Sized> Record<'w, W> {
    /// Starts the object with its `id` field.
    pub(crate) fn begin(out: &'w mut W, id: &Value) -> io::Result<Self> {
        write!(out, "{{\"id\":{id}")?;
        Ok(Self { out })
    }

    /// Starts an object whose first field is `name` (records without an `id`).
    pub(crate) fn begin_with(out: &'w mut W, name: &str, value: &Value) -> io::Result<Self> {
        write!(out, "{{\"{name}\":{value}")?;
        Ok(Self { out })
    }

    /// A field whose value prints as JSON through `Display` (bools, integers, `Value`s).
    pub(crate) fn field(&mut self, name: &str, value: impl std::fmt::Display) -> io::Result<()> {
        write!(self.out, ",\"{name}\":{value}")
    }

    /// A string field (escaped as JSON).
    pub(crate) fn string(&mut self, name: &str, text: &str) -> io::Result<()> {
        write!(self.out, ",\"{name}\":")?;
        serde_json::to_writer(&mut *self.out, text).map_err(io::Error::from)
    }

    /// A finite number in shortest round-trip form.
    pub(crate) fn number(&mut self, name: &str, x: f64) -> io::Result<()> {
        write!(self.out, ",\"{name}\":")?;
        write_number(self.out, x)
    }

    /// A finite number, or `null` when it is not defined.
    pub(crate) fn optional_number(&mut self, name: &str, x: Option<f64>) -> io::Result<()> {
        match x {
            Some(x) => self.number(name, x),
            None => write!(self.out, ",\"{name}\":null"),
        }
    }

    /// A point or vector, or `null` when it is not defined.
    pub(crate) fn optional_vector<V: Vector<Real = f64>>(
        &mut self,
        name: &str,
        v: Option<V>,
    ) -> io::Result<()> {
        match v {
            Some(v) => self.vector(name, v),
            None => write!(self.out, ",\"{name}\":null"),
        }
    }

    /// A point or vector as an array of its coordinates.
    pub(crate) fn vector<V: Vector<Real = f64>>(&mut self, name: &str, v: V) -> io::Result<()> {
        write!(self.out, ",\"{name}\":[")?;
        for i in 0..V::DIM {
            if i > 0 {
                self.out.write_all(b",")?;
            }
            write_number(self.out, v.component(i))?;
        }
        self.out.write_all(b"]")
    }

    /// Closes the object and its line.
    pub(crate) fn end(self) -> io::Result<()> {
        self.out.write_all(b"}\n")
    }
}

/// `x` in shortest round-trip form (`0.30000000000000004`, `1.0`, `1e-7`); JSON has no NaN or
/// infinity, so those print as `null` (the query kinds check finiteness first).
fn write_number<W: Write + ?Sized>(out: &mut W, x: f64) -> io::Result<()> {
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
