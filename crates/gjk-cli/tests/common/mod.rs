//! Runs the built `gjk` binary and reads its JSON-lines output.

#![allow(dead_code)] // Each test file uses its own part of these helpers.

use std::io::Write;
use std::process::{Child, Command, Stdio};

use serde_json::Value;

/// What one run of `gjk` did.
pub struct Run {
    /// The exit status (`-1` if killed by a signal).
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Standard output parsed as one JSON value per line.
    pub fn records(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
            .collect()
    }
}

/// Runs `gjk args…` with `stdin` as its standard input (fed from a thread, so large inputs and
/// outputs cannot deadlock).
pub fn gjk(args: &[&str], stdin: &[u8]) -> Run {
    let mut child = spawn(args);
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        // The program may stop reading early (usage errors); that is not the test's concern.
        let _ = input.write_all(&data);
    });
    let output = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    Run {
        status: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// `gjk args…` started with all three standard streams piped, for tests that stream input or
/// watch the process while it runs.
pub fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_gjk"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the gjk binary runs")
}

/// `gjk query` on standard input.
pub fn query(input: &str) -> Run {
    gjk(&["query"], input.as_bytes())
}

/// A number field of a record.
pub fn num(record: &Value, field: &str) -> f64 {
    record[field].as_f64().unwrap_or_else(|| panic!("{field} is not a number in {record}"))
}

/// A coordinate array field of a record.
pub fn vector(record: &Value, field: &str) -> Vec<f64> {
    record[field]
        .as_array()
        .unwrap_or_else(|| panic!("{field} is not an array in {record}"))
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// Asserts `actual` is within `tolerance` of `expected`, coordinate by coordinate.
pub fn assert_close(actual: &[f64], expected: &[f64], tolerance: f64) {
    assert_eq!(actual.len(), expected.len(), "{actual:?} vs {expected:?}");
    for (a, e) in actual.iter().zip(expected) {
        assert!((a - e).abs() <= tolerance, "{actual:?} vs {expected:?} (tolerance {tolerance})");
    }
}
