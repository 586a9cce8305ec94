//! `gjk query [FILE]`: answers one JSON query per line, streaming in constant memory (lines are
//! at most [`MAX_LINE_BYTES`] long). The `"query"` field of a line picks its kind
//! ([`crate::kinds`]); this module reads lines, writes error records and counts.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Arg, ArgMatches, Command};

use crate::kinds::{self, Failure, KINDS};
use crate::output;
use crate::progress::{Counts, Progress};
use crate::shapes::{self, line_id, line_object, parse_json};
use crate::{fail, EXIT_LINES_FAILED};

/// `gjk query [FILE]`: clap's usage and arguments, then the whole format ([`usage`]), so
/// that the binary alone is enough.
pub(crate) fn command() -> Command {
    Command::new("query")
        .about("Answer JSON-lines queries from FILE or standard input (--help: the format)")
        .long_about(
            "Answers one query per line of FILE (standard input when FILE is absent or '-') and\n\
             writes one JSON answer per line, in the same order, streaming. On a terminal,\n\
             standard error shows the progress of long runs.",
        )
        .arg(
            Arg::new("file")
                .value_name("FILE")
                .value_parser(clap::value_parser!(PathBuf))
                .help("The queries, one JSON object per line; - or absent: standard input"),
        )
        .after_long_help(usage())
}

/// The format part of `gjk query --help`. The kinds, the shape table and the status words come
/// from the tables the program runs on, so none of them can drift from what it does.
pub(crate) fn usage() -> String {
    let mut text = String::from(USAGE_INPUT);
    text.push_str(&format!(
        "  A line may hold at most {MAX_LINE_BYTES} bytes ({} MiB) besides its line ending; a longer \
         line gets\n  an error record and is skipped without being stored.\n\n",
        MAX_LINE_BYTES >> 20
    ));
    text.push_str("KIND, and the fields of a line of that kind (the first is the default):\n");
    for kind in &KINDS {
        text.push_str(&format!("  {:<12} {}\n", kind.name, kind.input));
    }
    text.push('\n');
    text.push_str(&shapes_and_poses());
    for kind in &KINDS {
        text.push_str(&format!("\nANSWER to {}, fields in this order:\n", kind.name));
        text.push_str(kind.answer);
        for status in kind.statuses {
            text.push_str(&format!("    {:<21} {}\n", status.name(), status.meaning()));
        }
    }
    text.push_str(USAGE_ERRORS);
    text
}

/// The help's SHAPE, POSE and DIMENSION sections (shared with `gjk scene --help`).
pub(crate) fn shapes_and_poses() -> String {
    let mut text = String::from(USAGE_SHAPES);
    for shape_type in &shapes::SHAPE_TYPES {
        text.push_str(&shape_row(shape_type));
    }
    text.push_str(USAGE_POSES);
    text
}

/// One row of the help's shape table: `  cuboid (box, rectangle)    "half_extents": ...`, with
/// the note in its own column, or under the fields when they are too wide to leave room.
fn shape_row(shape_type: &shapes::ShapeType) -> String {
    const NAMES_WIDTH: usize = 28;
    const FIELDS_WIDTH: usize = 34;
    let names = match shape_type.names {
        [name] => (*name).to_owned(),
        [name, aliases @ ..] => format!("{name} ({})", aliases.join(", ")),
        [] => String::new(),
    };
    let mut row = format!("  {names:<NAMES_WIDTH$}{}", shape_type.fields);
    if !shape_type.note.is_empty() {
        let fields = shape_type.fields.chars().count();
        let beside = 2 + NAMES_WIDTH + FIELDS_WIDTH + shape_type.note.chars().count() <= 96;
        if fields < FIELDS_WIDTH && beside {
            row.push_str(&" ".repeat(FIELDS_WIDTH - fields));
        } else {
            row.push('\n');
            row.push_str(&" ".repeat(2 + NAMES_WIDTH));
        }
        row.push_str(shape_type.note);
    }
    row.push('\n');
    row
}

/// The help up to the line-length limit.
const USAGE_INPUT: &str = "\
FORMAT

INPUT, one JSON object per line:
  {\"id\": ANY, \"query\": KIND, ...the fields of KIND}
  id is echoed in the answer (null when absent); query is optional (proximity). Unknown
  fields are ignored, null counts as absent, blank lines are skipped (but counted).
";

/// The help's shape section, before the table.
const USAGE_SHAPES: &str = "\
SHAPE: {\"type\": TYPE, fields...}, in its own frame. P is a point: [x, y] or [x, y, z].
  TYPE (aliases)              fields                            what it is
";

/// The help from after the shape table to the answers.
const USAGE_POSES: &str =
    "  Every shape may also carry \"center\": P (moves it in its own frame; default the origin)
  and \"margin\": m >= 0 (rounds it by a ball of radius m; default 0).

POSE: where a shape sits in the world: rotated about its origin, then translated.
  2D  {\"translation\": [x, y], \"rotation\": angle}            angle in radians, counter-clockwise
  3D  {\"translation\": [x, y, z], \"rotation\": [x, y, z, w]}  unit quaternion (normalised if not)
  Both fields are optional (no translation, no rotation).

DIMENSION: 2D or 3D, from the number of coordinates, a 2D angle, a 3D quaternion or a
  3D-only type; all of a line must agree. When nothing tells (two spheres without centres
  or poses), the 2D names circle, ellipse, rectangle, polygon on both shapes mean 2D, else
  3D. Numbers must be finite, of magnitude at most 1e15.
";

/// The help's end: number format, error records and exit statuses.
const USAGE_ERRORS: &str = "
Numbers print in their shortest round-trip form.

ERRORS: a line that cannot be answered gives
  {\"id\": ID or null, \"line\": n, \"error\": \"why, naming the field\"}
  and the lines after it are still answered.

EXIT STATUS: 0 every line answered, 1 some lines failed, 2 usage or I/O error.
";

/// Runs `gjk query [FILE]`.
pub(crate) fn run(matches: &ArgMatches) -> ExitCode {
    let path = matches.get_one::<PathBuf>("file").filter(|p| p.as_os_str() != "-");
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut progress = Progress::on_stderr();
    let outcome = match path {
        Some(path) => match File::open(path) {
            Ok(file) => {
                answer_stream(BufReader::with_capacity(1 << 16, file), &mut out, &mut progress)
            }
            Err(e) => return fail(&format!("cannot open {}: {e}", path.display())),
        },
        None => answer_stream(io::stdin().lock(), &mut out, &mut progress),
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
            let name = path.map_or("standard input".into(), |p| p.display().to_string());
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

/// The longest input line `gjk query` accepts, in bytes, not counting its line ending.
///
/// Without a bound, input without newlines (`gjk query /dev/zero`) grows the line buffer until
/// the process is killed. Parsed, a line takes up to about 16 times its size in JSON values
/// (`[0,0],` is 6 bytes and three 32-byte values), so 1 MiB keeps one line near 20 MB, while
/// it still holds some 16,000 3D points printed at full precision: far more than the largest
/// shapes of the standard workloads (1,000 points).
pub(crate) const MAX_LINE_BYTES: usize = 1 << 20;

/// Answers every non-blank line of `input` on `out`, one record per line. Memory stays
/// bounded by [`MAX_LINE_BYTES`] whatever the input.
pub(crate) fn answer_stream<R: BufRead, W: Write, P: Write>(
    mut input: R,
    out: &mut W,
    progress: &mut Progress<P>,
) -> Result<Summary, StreamError> {
    let mut summary = Summary::default();
    let mut line = Vec::new();
    let mut number = 0u64;
    loop {
        progress.update(Counts { lines: number, failed: summary.failed });
        let answered = match read_line(&mut input, &mut line).map_err(StreamError::Read)? {
            LineRead::End => {
                progress.finish(Counts { lines: number, failed: summary.failed });
                return Ok(summary);
            }
            LineRead::Line => {
                number += 1;
                answer_line(&line, number, out)
            }
            LineRead::TooLong => {
                number += 1;
                let message = format!(
                    "line {number} is longer than {MAX_LINE_BYTES} bytes (the limit of gjk \
                     query); it was skipped"
                );
                output::write_error(out, &serde_json::Value::Null, number, &message)
                    .map(|()| Some(false))
            }
        };
        match answered.map_err(StreamError::Write)? {
            Some(true) => summary.answered += 1,
            Some(false) => summary.failed += 1,
            None => {}
        }
    }
}

/// What [`read_line`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
enum LineRead {
    /// The input is exhausted: no line.
    End,
    /// A line, now in the buffer (with its line ending, if it had one).
    Line,
    /// A line longer than [`MAX_LINE_BYTES`]: it was read to its end and dropped, the buffer
    /// is empty.
    TooLong,
}

/// Reads the next line (up to and including `\n`, or to the end of the input) into `line`.
///
/// At most `MAX_LINE_BYTES + 2` bytes (the line and its `\r\n`) are ever stored: past that the
/// line is known to be too long, and the rest of it is consumed straight from `input`'s buffer
/// without being kept, so an endless line costs constant memory.
fn read_line<R: BufRead>(input: &mut R, line: &mut Vec<u8>) -> io::Result<LineRead> {
    const STORED: usize = MAX_LINE_BYTES + 2;
    line.clear();
    let mut seen_any = false;
    let mut too_long = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        seen_any = true;
        let newline = chunk.iter().position(|&b| b == b'\n');
        let end = newline.map_or(chunk.len(), |i| i + 1);
        if !too_long {
            let needed = line.len() + end;
            if needed > STORED {
                too_long = true;
                line.clear();
            } else {
                if needed > line.capacity() {
                    // Grow by doubling, but never past STORED (plain `extend` could double
                    // a 0.6 MiB buffer to 1.2 MiB).
                    let target = needed.max(2 * line.capacity()).min(STORED);
                    line.reserve_exact(target - line.len());
                }
                line.extend_from_slice(&chunk[..end]);
            }
        }
        input.consume(end);
        if newline.is_some() {
            break;
        }
    }
    let content = line.strip_suffix(b"\n").unwrap_or(line);
    let content = content.strip_suffix(b"\r").unwrap_or(content);
    Ok(match (seen_any, too_long || content.len() > MAX_LINE_BYTES) {
        (false, _) => LineRead::End,
        (true, false) => LineRead::Line,
        (true, true) => {
            line.clear();
            LineRead::TooLong
        }
    })
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
    let value = match parse_json(text) {
        Ok(value) => value,
        Err(e) => {
            output::write_error(out, &e.id, number, &e.message)?;
            return Ok(Some(false));
        }
    };
    let id = line_id(&value);
    let answered =
        line_object(&value).map_err(Failure::Line).and_then(|line| kinds::answer(&line, &id, out));
    match answered {
        Ok(()) => Ok(Some(true)),
        Err(Failure::Line(message)) => {
            output::write_error(out, &id, number, &message)?;
            Ok(Some(false))
        }
        Err(Failure::Write(e)) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::Status;
    use std::io::{Cursor, Read};

    /// A query with a known answer: balls of radius 1 with centres 3 apart, distance 1.
    const GOOD: &str = r#"{"id":"good","a":{"type":"sphere","radius":1},"b":{"type":"sphere","radius":1,"center":[3,0,0]}}"#;

    /// `zeros` zero bytes without a newline, then `tail`; counts the bytes it hands out, so a
    /// test can tell that the long line was really read through (not just abandoned).
    struct Zeros {
        zeros: u64,
        tail: Cursor<Vec<u8>>,
        produced: u64,
    }

    impl Zeros {
        fn new(zeros: usize, tail: &str) -> Self {
            Self { zeros: zeros as u64, tail: Cursor::new(tail.as_bytes().to_vec()), produced: 0 }
        }
    }

    impl Read for Zeros {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = if self.zeros > 0 {
                let n = buf.len().min(usize::try_from(self.zeros).unwrap_or(usize::MAX));
                buf[..n].fill(0);
                self.zeros -= n as u64;
                n
            } else {
                self.tail.read(buf)?
            };
            self.produced += n as u64;
            Ok(n)
        }
    }

    fn answer_all(input: impl BufRead) -> (Summary, Vec<serde_json::Value>) {
        let mut out = Vec::new();
        let summary = answer_stream(input, &mut out, &mut Progress::silent()).unwrap();
        let text = String::from_utf8(out).unwrap();
        (summary, text.lines().map(|l| serde_json::from_str(l).unwrap()).collect())
    }

    /// The help's section from `start` to `end` (exclusive).
    fn help_section(start: &str, end: &str) -> String {
        let help = usage();
        let from = help.find(start).unwrap_or_else(|| panic!("no {start} in the help"));
        let to = from + help[from..].find(end).unwrap_or_else(|| panic!("no {end} after {start}"));
        help[from..to].to_owned()
    }

    #[test]
    fn help_lists_every_shape_type_the_parser_accepts() {
        let shapes = help_section("SHAPE:", "POSE:");
        let words: Vec<&str> =
            shapes.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').collect();
        for name in shapes::shape_type_names() {
            assert!(words.contains(&name), "the help's shape table misses {name}");
        }
        for shape_type in &shapes::SHAPE_TYPES {
            assert!(shapes.contains(shape_type.fields), "{}", shape_type.fields);
        }
        for common in ["\"center\": P", "\"margin\": m >= 0"] {
            assert!(shapes.contains(common), "{common}");
        }
    }

    #[test]
    fn help_lists_every_status_with_its_meaning() {
        let answers = help_section("ANSWER", "ERRORS:");
        for status in Status::PROXIMITY.iter().chain(&Status::CAST) {
            let row = format!("    {:<21} {}\n", status.name(), status.meaning());
            assert!(answers.contains(&row), "{row}");
        }
    }

    #[test]
    fn help_describes_every_kind_with_its_fields_and_answer() {
        let kinds = help_section("KIND,", "SHAPE:");
        for kind in &KINDS {
            assert!(
                kinds.contains(&format!("  {:<12} {}\n", kind.name, kind.input)),
                "{}",
                kind.name
            );
            let answer = help_section(&format!("ANSWER to {},", kind.name), "\n\n");
            assert!(answer.contains(kind.answer.trim_end()), "{}", kind.name);
        }
    }

    #[test]
    fn help_is_self_contained_and_fits_100_columns() {
        let help = usage();
        for needle in [
            "\"translation\": [x, y]",
            "\"rotation\": [x, y, z, w]",
            "radians",
            "quaternion",
            &format!("at most {MAX_LINE_BYTES} bytes"),
            "\"line\": n, \"error\"",
            "EXIT STATUS: 0",
            "\"status\": \"converged\"",
            "\"query\": KIND",
        ] {
            assert!(help.contains(needle), "the help misses {needle}");
        }
        assert!(!help.contains("README"), "the help must not send the reader elsewhere");
        for line in help.lines() {
            assert!(line.chars().count() <= 100, "too wide: {line}");
        }
    }

    #[test]
    fn an_endless_line_is_read_through_in_bounded_memory() {
        let zeros = 10 * MAX_LINE_BYTES;
        let tail = format!("\n{GOOD}\n");
        let mut input = BufReader::new(Zeros::new(zeros, &tail));
        let mut line = Vec::new();
        assert_eq!(read_line(&mut input, &mut line).unwrap(), LineRead::TooLong);
        // Read through to the newline: every zero was produced and none was kept. The buffer
        // only ever grows, so its capacity now is the most it held during the line.
        assert!(input.get_ref().produced > zeros as u64);
        assert!(line.is_empty());
        assert!(line.capacity() <= MAX_LINE_BYTES + 2, "capacity {}", line.capacity());
        assert_eq!(read_line(&mut input, &mut line).unwrap(), LineRead::Line);
        assert_eq!(line, format!("{GOOD}\n").as_bytes());
        assert_eq!(read_line(&mut input, &mut line).unwrap(), LineRead::End);
        assert_eq!(input.get_ref().produced, (zeros + tail.len()) as u64);
    }

    #[test]
    fn the_line_after_a_too_long_one_is_answered() {
        let input = BufReader::new(Zeros::new(3 * MAX_LINE_BYTES, &format!("\n{GOOD}\n")));
        let (summary, records) = answer_all(input);
        assert_eq!(summary, Summary { answered: 1, failed: 1 });
        assert_eq!(records.len(), 2);
        assert_eq!(
            records[0],
            serde_json::json!({"id": null, "line": 1, "error": format!(
                "line 1 is longer than {MAX_LINE_BYTES} bytes (the limit of gjk query); it was \
                 skipped"
            )})
        );
        assert_eq!(records[1]["id"], "good");
        assert_eq!(records[1]["distance"], 1.0);
    }

    #[test]
    fn a_too_long_last_line_without_newline_ends_cleanly() {
        let good_first = format!("{GOOD}\n");
        let input =
            BufReader::new(Cursor::new(good_first).chain(Zeros::new(2 * MAX_LINE_BYTES, "")));
        let (summary, records) = answer_all(input);
        assert_eq!(summary, Summary { answered: 1, failed: 1 });
        assert_eq!(records.len(), 2);
        assert_eq!(records[1]["line"], 2);
        assert!(records[1]["error"].as_str().unwrap().contains("longer than"), "{}", records[1]);
    }

    #[test]
    fn the_limit_counts_the_line_without_its_ending() {
        // Padded with spaces (valid JSON whitespace) to exactly the limit: still answered.
        let at_limit = GOOD.to_owned() + &" ".repeat(MAX_LINE_BYTES - GOOD.len());
        let over = format!("{at_limit} ");
        let input = format!("{at_limit}\r\n{at_limit}\n{over}\n{at_limit}");
        let (summary, records) = answer_all(Cursor::new(input));
        assert_eq!(summary, Summary { answered: 3, failed: 1 });
        let lines: Vec<_> = records.iter().map(|r| r["line"].as_u64()).collect();
        assert_eq!(lines, [None, None, Some(3), None]);
    }
}
