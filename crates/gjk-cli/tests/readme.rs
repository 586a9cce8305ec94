//! README.md shows only real output: its demo table, its CLI example and its library example
//! are checked here against the program, and the library example is run.
//! If a check fails after a deliberate change, update README.md with the new real output.

use crate::common;

use common::gjk;

#[path = "../../gjk/examples/quickstart.rs"]
mod quickstart;

#[path = "../../gjk/examples/resting_box.rs"]
mod resting_box;
#[path = "../../gjk/examples/spinning_bar.rs"]
mod spinning_bar;

const README: &str = include_str!("../../../README.md");

/// The fenced code block that follows the line starting with `<!-- {marker}`.
fn block(marker: &str) -> String {
    let mut lines = README.lines().skip_while(|l| !l.starts_with(&format!("<!-- {marker}")));
    assert!(lines.next().is_some(), "README.md has no <!-- {marker} --> block");
    let fence = lines.next().expect("a fence after the marker");
    assert!(fence.starts_with("```"), "the marker {marker} must precede a fenced block");
    let body: Vec<&str> = lines.take_while(|l| !l.starts_with("```")).collect();
    body.join("\n") + "\n"
}

#[test]
fn readme_demo_table_is_the_real_output() {
    let run = gjk(&["demo"], b"");
    assert_eq!(run.status, 0);
    assert_eq!(block("demo-output"), run.stdout, "README.md's demo table is stale");
}

#[test]
fn readme_cli_example_is_the_real_output() {
    let run = gjk(&["query"], block("cli-input").as_bytes());
    assert_eq!(run.status, 1, "the README example has two failing lines");
    assert_eq!(block("cli-output"), run.stdout, "README.md's query output is stale");
}

#[test]
fn readme_library_example_is_the_example_file() {
    let example = include_str!("../../gjk/examples/quickstart.rs");
    let code: Vec<&str> =
        example.lines().skip_while(|l| l.starts_with("//!")).skip_while(|l| l.is_empty()).collect();
    assert_eq!(block("library-example"), code.join("\n") + "\n");
}

#[test]
fn readme_library_example_runs() {
    quickstart::main().unwrap();
}

#[test]
fn readme_time_of_impact_example_is_the_example_file_and_runs() {
    let example = include_str!("../../gjk/examples/spinning_bar.rs");
    let code: Vec<&str> =
        example.lines().skip_while(|l| l.starts_with("//!")).skip_while(|l| l.is_empty()).collect();
    assert_eq!(block("toi-example"), code.join("\n") + "\n");
    spinning_bar::main().unwrap();
}

#[test]
fn readme_manifold_example_is_the_example_file_and_runs() {
    let example = include_str!("../../gjk/examples/resting_box.rs");
    let code: Vec<&str> =
        example.lines().skip_while(|l| l.starts_with("//!")).skip_while(|l| l.is_empty()).collect();
    assert_eq!(block("manifold-example"), code.join("\n") + "\n");
    resting_box::main().unwrap();
}

#[test]
fn readme_names_the_two_commands() {
    assert!(README.contains("\ncargo run --release -p gjk-cli -- demo\ncargo test --workspace\n"));
}
