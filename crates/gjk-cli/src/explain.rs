//! `gjk explain`: watch GJK work on one pair, step by step, in words and in a picture.
//!
//! The pair is a built-in example by name (`gjk explain --list`), a JSON pair in the format of
//! `gjk query` given inline, or `-` to read that JSON line from standard input. The walkthrough
//! goes to standard output; `--svg FILE` also draws the iterations as SVG panels.

use std::io::{self, BufRead};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Arg, ArgAction, ArgMatches, Command};
use gjk_explain::{ExplainOptions, Explanation, Method, BUILTIN_NAMES};

use crate::shapes::{parse_line, ParsedPair};
use crate::{fail, print_stdout};

/// What the command line asked for.
struct Request {
    pair: String,
    options: ExplainOptions,
}

/// `gjk explain PAIR [--method M] [--direction X,Y[,Z]] [--svg FILE]`, or `gjk explain --list`.
pub(crate) fn command() -> Command {
    Command::new("explain")
        .about("Walk through one GJK run step by step; --svg draws it")
        .long_about(
            "Walks through one GJK run step by step, in words on standard output and, with \
             --svg, as a picture.",
        )
        .arg(
            Arg::new("pair")
                .value_name("PAIR")
                .required_unless_present("list")
                .help("A built-in example (--list), a JSON pair as `gjk query` reads it, or -")
                .long_help(
                    "A built-in example name (see --list), a JSON pair as `gjk query` reads it\n\
                     ({\"a\":SHAPE,\"b\":SHAPE,\"pose_a\":POSE,\"pose_b\":POSE}), or - to read \
                     that line from\nstandard input",
                ),
        )
        .arg(
            Arg::new("method")
                .long("method")
                .value_name("METHOD")
                .value_parser(
                    PossibleValuesParser::new(["robust", "classic"])
                        .try_map(|name| name.parse::<Method>()),
                )
                .default_value("robust")
                // Named in the help itself, which then fits one line.
                .hide_possible_values(true)
                .hide_default_value(true)
                .help("robust (the library's GJK, default) or classic (the tutorials')"),
        )
        .arg(
            Arg::new("direction")
                .long("direction")
                .value_name("X,Y[,Z]")
                // `--direction -1,0` is a value, not a flag.
                .allow_hyphen_values(true)
                .value_parser(parse_direction)
                .help("The first search direction, e.g. 0,1 (default: the example's own)")
                .long_help(
                    "The first search direction, e.g. 0,1\n\
                     [default: the example's own, or from A's centre toward B's]",
                ),
        )
        .arg(
            Arg::new("svg")
                .long("svg")
                .value_name("FILE")
                .value_parser(clap::value_parser!(PathBuf))
                .help("Also draw every iteration into FILE (SVG)"),
        )
        .arg(
            Arg::new("list")
                .long("list")
                .action(ArgAction::SetTrue)
                .conflicts_with_all(["pair", "direction", "svg"])
                .help("List the built-in examples"),
        )
}

/// Runs `gjk explain`.
pub(crate) fn run(matches: &ArgMatches) -> ExitCode {
    if matches.get_flag("list") {
        return print_stdout(&format!("{}\n", BUILTIN_NAMES.join("\n")));
    }
    let request = request(matches);
    let explanation = match explain(&request) {
        Ok(explanation) => explanation,
        Err(message) => return fail(&message),
    };
    if let Some(path) = matches.get_one::<PathBuf>("svg") {
        if let Err(e) = std::fs::write(path, explanation.svg()) {
            return fail(&format!("cannot write {}: {e}", path.display()));
        }
    }
    print_stdout(explanation.text())
}

/// The request clap has checked.
fn request(matches: &ArgMatches) -> Request {
    let mut options = ExplainOptions::default();
    if let Some(&method) = matches.get_one::<Method>("method") {
        options.method = method;
    }
    options.first_direction = matches.get_one::<Vec<f64>>("direction").cloned();
    let pair = matches.get_one::<String>("pair").cloned().unwrap_or_default();
    Request { pair, options }
}

/// `"0,1"` or `"1, -1, 0"` → coordinates (the explainer checks their count and length).
fn parse_direction(text: &str) -> Result<Vec<f64>, String> {
    text.split(',')
        .map(|part| {
            let x: f64 = part.trim().parse().map_err(|_| format!("bad number '{part}'"))?;
            if x.is_finite() {
                Ok(x)
            } else {
                Err(format!("{part} is not finite"))
            }
        })
        .collect()
}

/// Builds the explanation of a built-in example or of a JSON pair.
fn explain(request: &Request) -> Result<Explanation, String> {
    let json = match request.pair.as_str() {
        "-" => read_stdin_line()?,
        text if text.trim_start().starts_with('{') => text.to_string(),
        name => return Explanation::builtin(name, &request.options).map_err(|e| e.to_string()),
    };
    let parsed = parse_line(&json).map_err(|e| format!("the pair: {}", e.message))?;
    let options = &request.options;
    let explained = match &parsed.pair {
        ParsedPair::Two(p) => Explanation::for_pair_2d(&*p.a, &p.pose_a, &*p.b, &p.pose_b, options),
        ParsedPair::Three(p) => {
            Explanation::for_pair_3d(&*p.a, &p.pose_a, &*p.b, &p.pose_b, options)
        }
    };
    explained.map_err(|e| e.to_string())
}

/// The first non-blank line of standard input.
fn read_stdin_line() -> Result<String, String> {
    for line in io::stdin().lock().lines() {
        let line = line.map_err(|e| format!("cannot read standard input: {e}"))?;
        if !line.trim().is_empty() {
            return Ok(line);
        }
    }
    Err("standard input holds no pair".to_string())
}
