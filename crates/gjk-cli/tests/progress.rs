//! The progress line of `gjk query`: on standard error when it is a terminal and the run is
//! long (over a second), never otherwise. The input arrives in two parts 1.5 s apart, so the
//! run is long whatever the machine's speed; a pseudo-terminal comes from util-linux `script`
//! (Debian's essential `bsdutils`).

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

/// A line with a known answer (distance 1).
const LINE: &str =
    r#"{"a":{"type":"sphere","radius":1},"b":{"type":"sphere","radius":1,"center":[3,0,0]}}"#;

/// The pause between the two parts of the input: longer than the progress line's quiet start.
const PAUSE: Duration = Duration::from_millis(1500);

fn lines(n: usize) -> String {
    format!("{LINE}\n").repeat(n)
}

#[test]
fn no_progress_line_when_stderr_is_not_a_terminal() {
    let mut child = common::spawn(&["query"]);
    let mut input = child.stdin.take().unwrap();
    // Fed from a thread while the answers are read here: a full pipe cannot stall either side.
    let feeder = std::thread::spawn(move || {
        input.write_all(lines(1000).as_bytes()).unwrap();
        input.flush().unwrap();
        std::thread::sleep(PAUSE);
        input.write_all(lines(1000).as_bytes()).unwrap();
    });
    let output = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "", "stderr must stay silent");
    assert_eq!(output.stdout.iter().filter(|&&b| b == b'\n').count(), 2000);
}

/// The positive control: the same slow run with standard error on a pseudo-terminal draws the
/// line (so the test above is silent because of the pipe, not because nothing is drawn).
#[cfg(target_os = "linux")]
#[test]
fn progress_line_on_a_terminal_for_a_long_run() {
    let dir = std::env::temp_dir().join(format!("gjk-progress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let part = dir.join("part.jsonl");
    std::fs::write(&part, lines(1000)).unwrap();
    let answers = dir.join("answers.jsonl");
    // Standard input and output are files and pipes; only standard error is the terminal.
    let shell = format!(
        "(cat '{part}'; sleep {pause}; cat '{part}') | '{gjk}' query > '{answers}'",
        part = part.display(),
        pause = PAUSE.as_secs_f64(),
        gjk = env!("CARGO_BIN_EXE_gjk"),
        answers = answers.display(),
    );
    let output = Command::new("script")
        .args(["-qec", &shell, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("util-linux `script` runs (Debian package bsdutils)");
    let terminal = String::from_utf8_lossy(&output.stdout).into_owned();
    let answered = std::fs::read_to_string(&answers).unwrap_or_default();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(output.status.code(), Some(0), "{terminal}");
    assert_eq!(answered.lines().count(), 2000);
    // Drawn (at the latest with the first line after the pause), then the final count with
    // the total time on a line of its own.
    assert!(terminal.starts_with("\rgjk query: "), "{terminal:?}");
    let last = terminal.rsplit('\r').nth(1).unwrap_or_default();
    assert!(last.starts_with("gjk query: 2000 lines (0 failed), "), "{terminal:?}");
    assert!(last.contains(" lines/s in ") && terminal.ends_with("\n"), "{terminal:?}");
}
