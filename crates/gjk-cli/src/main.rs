//! `gjk`: convex collision queries from the command line.
//!
//! * `gjk query [FILE]` answers JSON-lines queries (see [`query`] and README.md);
//! * `gjk demo` answers a built-in scene of 2D and 3D pairs and prints a table;
//! * `gjk explain PAIR` walks through one GJK run in words, and draws it with `--svg`.
//!
//! Arguments are parsed by hand: one subcommand word, then that subcommand's own arguments,
//! so a new subcommand is one arm in [`run`]. Exit status: 0 success, 1 some query lines
//! failed, 2 usage or I/O error. No output path panics, also not when the reader of standard
//! output goes away (broken pipe).

mod demo;
mod explain;
mod json;
mod output;
mod query;
mod shapes;
mod status;

use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;

/// The exit status when some input lines could not be answered.
pub(crate) const EXIT_LINES_FAILED: u8 = 1;
/// The exit status of usage and I/O errors.
pub(crate) const EXIT_TROUBLE: u8 = 2;

/// The help text of `gjk`.
const USAGE: &str = "\
gjk — convex collision queries (GJK) from the command line

usage:
  gjk query [FILE]   answer JSON-lines queries from FILE or standard input
  gjk demo           answer a built-in scene of 2D and 3D pairs, printed as a table
  gjk explain PAIR   walk through one GJK run step by step (`gjk explain --help`); --svg draws it
  gjk help           show this text (also -h, --help; `gjk query --help` for the format)
  gjk --version      show the version

Exit status: 0 success, 1 some query lines could not be answered, 2 usage or I/O error.
";

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    run(&args)
}

/// Dispatches on the subcommand word.
fn run(args: &[OsString]) -> ExitCode {
    let Some((command, rest)) = args.split_first() else {
        return usage_error("missing command");
    };
    match command.to_str() {
        Some("query") => query::run(rest),
        Some("demo") => demo::run(rest),
        Some("explain") => explain::run(rest),
        Some("help" | "-h" | "--help") => print_stdout(USAGE),
        Some("-V" | "--version") => print_stdout(concat!("gjk ", env!("CARGO_PKG_VERSION"), "\n")),
        _ => usage_error(&format!("unknown command {}", command.to_string_lossy())),
    }
}

/// Prints `text` on standard output; a closed pipe is not an error.
pub(crate) fn print_stdout(text: &str) -> ExitCode {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => fail(&format!("cannot write: {e}")),
        _ => ExitCode::SUCCESS,
    }
}

/// Reports a usage error with the help text; exit status 2.
pub(crate) fn usage_error(message: &str) -> ExitCode {
    // Nothing sensible is left to do if standard error is gone too.
    let _ = write!(io::stderr(), "gjk: {message}\n\n{USAGE}");
    ExitCode::from(EXIT_TROUBLE)
}

/// Reports an I/O error; exit status 2.
pub(crate) fn fail(message: &str) -> ExitCode {
    let _ = writeln!(io::stderr(), "gjk: {message}");
    ExitCode::from(EXIT_TROUBLE)
}
