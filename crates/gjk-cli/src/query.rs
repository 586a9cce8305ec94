//! `gjk query [FILE]`: answers one JSON query per line, streaming (constant memory apart from
//! the longest line).

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::process::ExitCode;

use gjk::{ContactOptions, GjkOptions, Goal, Pair, Real, Termination, Vector, WarmStart};

use crate::output;
use crate::shapes::{self, ParsedPair, PosedPair};
use crate::{fail, usage_error, EXIT_LINES_FAILED};

/// The help text of `gjk query`.
pub(crate) const USAGE: &str = "\
usage: gjk query [FILE]

Answers one query per line of FILE (or standard input when FILE is absent or '-'):
  {\"id\": 1, \"a\": SHAPE, \"b\": SHAPE, \"pose_a\": POSE, \"pose_b\": POSE}
and writes one JSON object per line:
  {\"id\": 1, \"intersects\": false, \"distance\": 1.0, \"point_a\": [..], \"point_b\": [..],
   \"normal\": [..], \"penetration_depth\": 0.0, \"iterations\": 3}
A line that cannot be answered gives {\"id\": .., \"line\": n, \"error\": \"why\"}.
Exit status: 0 all lines answered, 1 some lines failed, 2 usage or I/O error.
See README.md for the shapes and poses.
";

/// Runs `gjk query` with the arguments after `query`.
pub(crate) fn run(args: &[OsString]) -> ExitCode {
    let path = match args {
        [] => None,
        [flag] if flag == "-h" || flag == "--help" => return crate::print_stdout(USAGE),
        [path] if path == "-" => None,
        [path] if path.to_string_lossy().starts_with('-') && path.len() > 1 => {
            return usage_error(&format!("query: unknown option {}", path.to_string_lossy()))
        }
        [path] => Some(path),
        _ => return usage_error("query: expected at most one FILE"),
    };
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let outcome = match path {
        Some(path) => match File::open(path) {
            Ok(file) => answer_stream(BufReader::with_capacity(1 << 16, file), &mut out),
            Err(e) => return fail(&format!("cannot open {}: {e}", path.to_string_lossy())),
        },
        None => answer_stream(io::stdin().lock(), &mut out),
    };
    let outcome = outcome.and_then(|summary| {
        out.flush().map_err(StreamError::Write)?;
        Ok(summary)
    });
    match outcome {
        Ok(summary) if summary.failed > 0 => ExitCode::from(EXIT_LINES_FAILED),
        Ok(_) => ExitCode::SUCCESS,
        // The reader went away (`gjk query big.jsonl | head`): stop quietly.
        Err(StreamError::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(StreamError::Write(e)) => fail(&format!("cannot write the answers: {e}")),
        Err(StreamError::Read(e)) => {
            let name = path.map_or("standard input".into(), |p| p.to_string_lossy());
            fail(&format!("cannot read {name}: {e}"))
        }
    }
}

/// What [`answer_stream`] did.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Summary {
    /// Lines answered.
    pub answered: u64,
    /// Lines that could not be answered.
    pub failed: u64,
}

/// An I/O failure while streaming, on either side.
#[derive(Debug)]
pub(crate) enum StreamError {
    /// Reading the input failed.
    Read(io::Error),
    /// Writing the answers failed.
    Write(io::Error),
}

/// Longest line buffer kept between lines; a longer line's buffer is released after it.
const KEPT_LINE_CAPACITY: usize = 1 << 20;

/// Answers every non-blank line of `input` on `out`, one record per line.
pub(crate) fn answer_stream<R: BufRead, W: Write>(
    mut input: R,
    out: &mut W,
) -> Result<Summary, StreamError> {
    let mut summary = Summary::default();
    let mut line = Vec::new();
    let mut number = 0u64;
    loop {
        line.clear();
        if line.capacity() > KEPT_LINE_CAPACITY {
            line.shrink_to(KEPT_LINE_CAPACITY);
        }
        if input.read_until(b'\n', &mut line).map_err(StreamError::Read)? == 0 {
            return Ok(summary);
        }
        number += 1;
        let answered = answer_line(&line, number, out).map_err(StreamError::Write)?;
        match answered {
            Some(true) => summary.answered += 1,
            Some(false) => summary.failed += 1,
            None => {}
        }
    }
}

/// Answers one raw line: `Some(true)` answered, `Some(false)` error record, `None` blank.
fn answer_line<W: Write>(raw: &[u8], number: u64, out: &mut W) -> io::Result<Option<bool>> {
    let Ok(text) = std::str::from_utf8(raw) else {
        output::write_error(out, &serde_json::Value::Null, number, "line is not valid UTF-8")?;
        return Ok(Some(false));
    };
    if text.trim().is_empty() {
        return Ok(None);
    }
    // Without its line ending, JSON syntax errors point at the right column.
    let text = text.trim_end_matches(['\n', '\r']);
    let parsed = match shapes::parse_line(text) {
        Ok(parsed) => parsed,
        Err(e) => {
            output::write_error(out, &e.id, number, &e.message)?;
            return Ok(Some(false));
        }
    };
    let written = match &parsed.pair {
        ParsedPair::Two(pair) => write_result(out, &parsed.id, number, &solve(pair))?,
        ParsedPair::Three(pair) => write_result(out, &parsed.id, number, &solve(pair))?,
    };
    Ok(Some(written))
}

/// Writes the answer, or an error record if the query produced a non-finite number (which
/// would be a bug in the library; JSON could not carry it anyway).
fn write_result<V: Vector<Real = f64>, W: Write>(
    out: &mut W,
    id: &serde_json::Value,
    number: u64,
    result: &Answer<V>,
) -> io::Result<bool> {
    if output::is_finite(result) {
        output::write_answer(out, id, result)?;
        Ok(true)
    } else {
        let message = "the query produced a non-finite number (a bug: please report this line)";
        output::write_error(out, id, number, message)?;
        Ok(false)
    }
}

/// The answer to one pair, in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Answer<V: Vector> {
    /// Whether the shapes touch or overlap.
    pub intersecting: bool,
    /// The gap between them (0 when intersecting).
    pub distance: f64,
    /// Separated: the closest point of A. Intersecting: A's deepest point (EPA witness).
    pub point_a: V,
    /// Separated: the closest point of B. Intersecting: B's deepest point.
    pub point_b: V,
    /// The unit normal from A toward B (for intersecting pairs: moving B by
    /// `penetration_depth × normal` separates them).
    pub normal: V,
    /// How deep the shapes overlap (0 when separated or just touching).
    pub penetration_depth: f64,
    /// Support calls of GJK plus those of EPA.
    pub iterations: u32,
    /// How GJK ended.
    pub termination: Termination,
}

/// The query of one pair: GJK distance, then, for intersecting pairs, the contact query (EPA on
/// the cores, warm-started from GJK's simplex) for the depth and normal. Default options.
pub(crate) fn solve<V: Vector<Real = f64>>(pair: &PosedPair<V>) -> Answer<V> {
    let pair = Pair::new(&*pair.a, pair.pose_a, &*pair.b, pair.pose_b);
    let mut cache = WarmStart::default();
    let gjk = pair.gjk(Goal::Distance, &GjkOptions::default(), &mut cache);
    let mut answer = Answer {
        intersecting: gjk.intersecting,
        distance: gjk.distance,
        point_a: gjk.point_a,
        point_b: gjk.point_b,
        normal: gjk.normal,
        penetration_depth: 0.0,
        iterations: gjk.iterations,
        termination: gjk.termination,
    };
    if gjk.intersecting {
        let contact = pair.contact_with(&ContactOptions::default(), &mut cache);
        if let Some(c) = contact.contact {
            answer.point_a = c.point_a;
            answer.point_b = c.point_b;
            answer.normal = c.normal;
            answer.penetration_depth = c.depth.max(f64::ZERO);
        }
        answer.iterations += contact.gjk_iterations + contact.epa_iterations;
    }
    answer
}
