//! The query kinds of `gjk query`: the `"query"` field of a line picks one row of [`KINDS`],
//! which reads the rest of the line, asks the library and writes the answer.
//!
//! Every kind reads its shapes, poses and vectors with the same parsers ([`crate::shapes`],
//! [`crate::json`]), so a field means the same thing and fails with the same words in every
//! kind, and the dimension comes from all of a line's fields together.

mod manifold;
mod proximity;
mod ray_cast;
mod shape_cast;
mod time_of_impact;

use std::io::{self, Write};

use serde_json::Value;

use crate::json::{self, Object};
use crate::status::Status;

pub(crate) use manifold::{contact_word, is_finite as manifold_is_finite, points_json};
pub(crate) use proximity::{solve, Answer};

/// One kind of query: its name, its help, and what answers it.
pub(crate) struct QueryKind {
    /// The value of the `"query"` field.
    pub name: &'static str,
    /// The line's fields besides `id` and `query`, as the help shows them.
    pub input: &'static str,
    /// The answer's fields in order, each explained, as the help shows them.
    pub answer: &'static str,
    /// The words the answer's `status` can take.
    pub statuses: &'static [Status],
    /// Reads the line's fields, answers and writes the answer record to `out`.
    pub run: fn(line: &Object<'_>, id: &Value, out: &mut dyn Write) -> Result<(), Failure>,
}

/// Every query kind; the first is the default when a line has no `"query"` field.
pub(crate) static KINDS: [QueryKind; 5] =
    [proximity::KIND, ray_cast::KIND, shape_cast::KIND, manifold::KIND, time_of_impact::KIND];

/// Why a line got no answer record.
#[derive(Debug)]
pub(crate) enum Failure {
    /// The line cannot be answered (nothing was written): the message names the field.
    Line(String),
    /// Writing the answer failed.
    Write(io::Error),
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Line(message)
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Write(e)
    }
}

/// The message for an answer that would hold a non-finite number: a library bug, and JSON
/// could not carry it anyway.
pub(crate) const NON_FINITE: &str =
    "the query produced a non-finite number (a bug: please report this line)";

/// The kind a line asks for: its `"query"` field, the first of [`KINDS`] when absent.
pub(crate) fn kind_of(line: &Object<'_>) -> Result<&'static QueryKind, String> {
    if line.optional("query").is_none() {
        return Ok(&KINDS[0]);
    }
    let name = line.string("query")?;
    KINDS.iter().find(|kind| kind.name == name).ok_or_else(|| {
        let names: Vec<&str> = KINDS.iter().map(|kind| kind.name).collect();
        json::at(
            "query",
            format!(
                "unknown query kind {} (expected one of {})",
                Value::String(name.to_owned()),
                names.join(", ")
            ),
        )
    })
}

/// Answers `line` with its kind.
pub(crate) fn answer(line: &Object<'_>, id: &Value, out: &mut dyn Write) -> Result<(), Failure> {
    (kind_of(line)?.run)(line, id, out)
}

/// The required `max_toi` of the casts: the end of the time interval, not negative.
fn max_toi(line: &Object<'_>) -> Result<f64, String> {
    line.non_negative("max_toi")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kind(line: Value) -> Result<&'static str, String> {
        kind_of(&Object::new(&line, "")?).map(|k| k.name)
    }

    #[test]
    fn the_query_field_picks_the_kind() {
        assert_eq!(kind(json!({})), Ok("proximity"));
        assert_eq!(kind(json!({"query": null})), Ok("proximity"));
        for name in ["proximity", "ray_cast", "shape_cast", "manifold", "time_of_impact"] {
            assert_eq!(kind(json!({ "query": name })), Ok(name));
        }
        assert_eq!(
            kind(json!({"query": "raycast"})),
            Err("query: unknown query kind \"raycast\" (expected one of proximity, ray_cast, \
                 shape_cast, manifold, time_of_impact)"
                .into())
        );
        assert_eq!(
            kind(json!({"query": 1})),
            Err("query: expected a string, got the number 1".into())
        );
    }

    #[test]
    fn every_kind_has_help_and_statuses() {
        for kind in &KINDS {
            assert!(!kind.input.is_empty() && !kind.answer.is_empty(), "{}", kind.name);
            assert!(!kind.statuses.is_empty(), "{}", kind.name);
        }
    }
}
