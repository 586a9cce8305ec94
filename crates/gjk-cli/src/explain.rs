//! `gjk explain`: watch GJK work on one pair, step by step, in words and in a picture.
//!
//! The pair is a built-in example by name (`gjk explain --list`), a JSON pair in the format of
//! `gjk query` given inline, or `-` to read that JSON line from standard input. The walkthrough
//! goes to standard output; `--svg FILE` also draws the iterations as SVG panels.

use std::ffi::OsString;
use std::io::{self, BufRead};
use std::process::ExitCode;

use gjk_explain::{ExplainOptions, Explanation, Method, BUILTIN_NAMES};

use crate::shapes::{parse_line, ParsedPair};
use crate::{fail, print_stdout, usage_error};

/// The help text of `gjk explain`.
const USAGE: &str = "\
usage: gjk explain PAIR [--method robust|classic] [--direction X,Y[,Z]] [--svg FILE]
       gjk explain --list

PAIR is a built-in example name, a JSON pair as `gjk query` reads it
({\"a\":SHAPE,\"b\":SHAPE,\"pose_a\":POSE,\"pose_b\":POSE}), or - to read that line from
standard input.
  --method      robust (the library's GJK, default) or classic (the tutorials' version)
  --direction   the first search direction, e.g. 0,1 (default: the example's own, or from
                A's centre toward B's)
  --svg FILE    also draw every iteration into FILE (SVG)
";

/// What the command line asked for.
struct Request {
    pair: String,
    options: ExplainOptions,
    svg: Option<OsString>,
}

/// Runs `gjk explain` with the arguments after the subcommand word.
pub(crate) fn run(args: &[OsString]) -> ExitCode {
    let request = match parse_args(args) {
        Ok(Some(request)) => request,
        Ok(None) => return ExitCode::SUCCESS,
        Err(message) => return usage_error(&message),
    };
    let explanation = match explain(&request) {
        Ok(explanation) => explanation,
        Err(message) => return fail(&message),
    };
    if let Some(path) = &request.svg {
        if let Err(e) = std::fs::write(path, explanation.svg()) {
            return fail(&format!("cannot write {}: {e}", path.to_string_lossy()));
        }
    }
    print_stdout(explanation.text())
}

/// Reads the arguments; `Ok(None)` when a listing or help was printed instead.
fn parse_args(args: &[OsString]) -> Result<Option<Request>, String> {
    let mut pair = None;
    let mut options = ExplainOptions::default();
    let mut svg = None;
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let text = word.to_str().ok_or("arguments must be UTF-8")?;
        let mut value =
            |flag: &str| words.next().ok_or_else(|| format!("{flag} needs a value")).cloned();
        match text {
            "-h" | "--help" => {
                print_stdout(USAGE);
                return Ok(None);
            }
            "--list" => {
                print_stdout(&format!("{}\n", BUILTIN_NAMES.join("\n")));
                return Ok(None);
            }
            "--method" => {
                let method = value("--method")?;
                options.method = method
                    .to_str()
                    .unwrap_or_default()
                    .parse::<Method>()
                    .map_err(|e| e.to_string())?;
            }
            "--direction" => {
                options.first_direction = Some(parse_direction(&value("--direction")?)?)
            }
            "--svg" => svg = Some(value("--svg")?),
            _ if pair.is_none() => pair = Some(text.to_string()),
            _ => return Err(format!("unexpected argument {text}")),
        }
    }
    let pair = pair.ok_or("missing PAIR: a built-in name (see --list), a JSON pair or -")?;
    Ok(Some(Request { pair, options, svg }))
}

/// `"0,1"` or `"1, -1, 0"` → coordinates (the explainer checks their count and length).
fn parse_direction(value: &OsString) -> Result<Vec<f64>, String> {
    let text = value.to_str().unwrap_or_default();
    text.split(',')
        .map(|part| {
            let x: f64 =
                part.trim().parse().map_err(|_| format!("--direction: bad number '{part}'"))?;
            if x.is_finite() {
                Ok(x)
            } else {
                Err(format!("--direction: {part} is not finite"))
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
