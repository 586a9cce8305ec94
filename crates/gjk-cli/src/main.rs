//! `gjk`: convex collision queries from the command line.
//!
//! * `gjk query [FILE]` answers JSON-lines queries (see [`query`] and README.md);
//! * `gjk scene FILE` finds every pair in contact among many bodies (see [`scene`]);
//! * `gjk demo` answers a built-in scene of 2D and 3D pairs and prints a table;
//! * `gjk explain PAIR` walks through one GJK run in words, and draws it with `--svg`;
//! * `gjk completions SHELL` prints a shell completion script.
//!
//! Arguments are parsed by clap (builder API, no derive: no proc-macro to compile). Each
//! subcommand module owns its `command()` (arguments and help) and its `run(&ArgMatches)`, so
//! a new subcommand is one module and one row of [`SUBCOMMANDS`]. Exit status: 0 success, 1
//! some query lines failed, 2 usage or I/O error. No output path panics, also not when the
//! reader of standard output goes away (broken pipe).

mod demo;
mod explain;
mod kinds;
mod output;
mod progress;
mod query;
mod scene;
mod status;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{ArgMatches, Command};
// The shape and pose reader lives in its own crate, shared with the browser playground; the
// subcommands reach it as `crate::json` and `crate::shapes`.
use gjk_json::{fields as json, shapes};

/// The exit status when some input lines could not be answered.
pub(crate) const EXIT_LINES_FAILED: u8 = 1;
/// The exit status of usage and I/O errors.
pub(crate) const EXIT_TROUBLE: u8 = 2;

/// A subcommand: its arguments and help, and what runs it.
struct Subcommand {
    name: &'static str,
    command: fn() -> Command,
    run: fn(&ArgMatches) -> ExitCode,
}

/// Every subcommand, in the order `gjk --help` lists them.
const SUBCOMMANDS: [Subcommand; 5] = [
    Subcommand { name: "query", command: query::command, run: query::run },
    Subcommand { name: "scene", command: scene::command, run: scene::run },
    Subcommand { name: "demo", command: demo::command, run: demo::run },
    Subcommand { name: "explain", command: explain::command, run: explain::run },
    Subcommand { name: "completions", command: completions_command, run: completions },
];

/// The whole command line of `gjk`.
pub(crate) fn command() -> Command {
    Command::new("gjk")
        .about("Convex collision queries (GJK) from the command line")
        .version(env!("CARGO_PKG_VERSION"))
        .subcommand_required(true)
        .subcommands(SUBCOMMANDS.iter().map(|s| (s.command)()))
        .after_help(
            "Exit status: 0 success, 1 some query lines could not be answered, 2 usage or I/O \
             error.\n`gjk query --help` describes the JSON-lines format in full.",
        )
}

fn main() -> ExitCode {
    let matches = match command().try_get_matches() {
        Ok(matches) => matches,
        Err(e) => return clap_error(&e),
    };
    let Some((name, sub)) = matches.subcommand() else {
        unreachable!("clap requires a subcommand")
    };
    match SUBCOMMANDS.iter().find(|s| s.name == name) {
        Some(subcommand) => (subcommand.run)(sub),
        None => unreachable!("clap accepts only the listed subcommands"),
    }
}

/// Prints what clap has to say: help and version on standard output (exit 0), usage errors
/// on standard error as `gjk: why` with the usage (exit 2), like every other error of `gjk`.
fn clap_error(e: &clap::Error) -> ExitCode {
    let text = e.render().to_string();
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => print_stdout(&text),
        _ => {
            let why = text.strip_prefix("error: ").unwrap_or(&text);
            let _ = write!(io::stderr(), "gjk: {why}");
            ExitCode::from(EXIT_TROUBLE)
        }
    }
}

/// `gjk completions SHELL`.
fn completions_command() -> Command {
    Command::new("completions")
        .about("Print a shell completion script (e.g. `gjk completions bash > ~/.gjk.bash`)")
        .arg(
            clap::Arg::new("shell")
                .value_name("SHELL")
                .help("The shell to complete for")
                .required(true)
                .value_parser(clap::value_parser!(clap_complete::Shell)),
        )
}

fn completions(matches: &ArgMatches) -> ExitCode {
    let Some(&shell) = matches.get_one::<clap_complete::Shell>("shell") else {
        unreachable!("SHELL is required")
    };
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command(), "gjk", &mut script);
    print_stdout(&String::from_utf8_lossy(&script))
}

/// Prints `text` on standard output; a closed pipe is not an error.
pub(crate) fn print_stdout(text: &str) -> ExitCode {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => fail(&format!("cannot write: {e}")),
        _ => ExitCode::SUCCESS,
    }
}

/// Reports an error (bad input to a subcommand, I/O); exit status 2.
pub(crate) fn fail(message: &str) -> ExitCode {
    // Nothing sensible is left to do if standard error is gone too.
    let _ = writeln!(io::stderr(), "gjk: {message}");
    ExitCode::from(EXIT_TROUBLE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_consistent() {
        // clap's own checks: no clashing names, every reference to an argument resolves.
        command().debug_assert();
    }

    #[test]
    fn every_subcommand_is_named_as_its_command() {
        for subcommand in &SUBCOMMANDS {
            assert_eq!((subcommand.command)().get_name(), subcommand.name);
        }
    }
}
