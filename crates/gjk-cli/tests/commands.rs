//! The command words, help texts, usage errors (clap's: exit status 2, a reason and the usage),
//! shell completions and the demo.

use crate::common;

use common::gjk;

/// The subcommands `gjk --help` must list, each as a word at the start of a line.
const SUBCOMMANDS: [&str; 4] = ["query", "demo", "explain", "completions"];

#[test]
fn help_lists_the_commands() {
    for flag in ["help", "-h", "--help"] {
        let run = gjk(&[flag], b"");
        assert_eq!(run.status, 0);
        assert!(run.stdout.contains("Usage: gjk <COMMAND>"), "{}", run.stdout);
        for name in SUBCOMMANDS {
            let listed =
                run.stdout.lines().any(|l| l.trim_start().starts_with(&format!("{name} ")));
            assert!(listed, "gjk {flag} misses {name}: {}", run.stdout);
        }
        assert!(run.stdout.contains("Exit status: 0 success, 1 "), "{}", run.stdout);
    }
}

#[test]
fn query_help_describes_the_format() {
    let run = gjk(&["query", "--help"], b"");
    assert_eq!(run.status, 0);
    assert!(run.stdout.contains("Usage: gjk query [FILE]"), "{}", run.stdout);
    assert!(run.stdout.contains("\nINPUT, one JSON object per line:"), "{}", run.stdout);
    // `gjk help query` is the same text; `-h` is the summary without the format.
    assert_eq!(gjk(&["help", "query"], b"").stdout, run.stdout);
    let short = gjk(&["query", "-h"], b"");
    assert_eq!(short.status, 0);
    assert!(short.stdout.contains("Usage: gjk query [FILE]") && !short.stdout.contains("INPUT"));
}

/// Every query kind is in `gjk query --help`: named in the KIND list with its fields, and with
/// an ANSWER section. The kinds come from the program's own answer to an unknown kind, so a
/// kind added without help fails here.
#[test]
fn query_help_describes_every_kind() {
    let help = gjk(&["query", "--help"], b"").stdout;
    let rejected = gjk(&["query"], br#"{"query":"no such kind"}"#);
    assert_eq!(rejected.status, 1);
    let error = rejected.records()[0]["error"].as_str().unwrap().to_owned();
    let list = error.split_once("expected one of ").expect(&error).1.trim_end_matches(')');
    let kinds: Vec<&str> = list.split(", ").collect();
    assert_eq!(kinds, ["proximity", "ray_cast", "shape_cast", "manifold", "time_of_impact"]);
    let kind_section = &help[help.find("KIND, ").unwrap()..help.find("SHAPE:").unwrap()];
    for kind in kinds {
        assert!(kind_section.contains(&format!("\n  {kind} ")), "--help misses the kind {kind}");
        assert!(help.contains(&format!("ANSWER to {kind}, ")), "--help misses {kind}'s answer");
    }
    for field in [
        "\"origin\"",
        "\"direction\"",
        "\"max_toi\"",
        "\"velocity_a\"",
        "\"toi\"",
        "\"angular_velocity_a\"",
        "\"slop\"",
        "\"prediction\"",
    ] {
        assert!(help.contains(field), "--help misses {field}");
    }
}

/// The help names every shape type the parser accepts: the list comes from the program's own
/// answer to an unknown type, so a type added to the parser without help fails here.
#[test]
fn query_help_names_every_accepted_shape_type() {
    let help = gjk(&["query", "--help"], b"").stdout;
    let rejected =
        gjk(&["query"], br#"{"a":{"type":"no such type"},"b":{"type":"sphere","radius":1}}"#);
    let error = rejected.records()[0]["error"].as_str().unwrap().to_owned();
    let list = error.split_once("expected one of ").expect(&error).1.trim_end_matches(')');
    let names: Vec<&str> = list.split(", ").collect();
    assert!(names.len() >= 15, "{error}");
    let shape_section = &help[help.find("SHAPE:").unwrap()..help.find("POSE:").unwrap()];
    for name in names {
        let word = |w: &&str| *w == name;
        assert!(
            shape_section.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| word(&w)),
            "--help misses the shape type {name}"
        );
    }
    for field in ["\"center\"", "\"margin\"", "\"translation\"", "\"rotation\"", "\"status\""] {
        assert!(help.contains(field), "--help misses {field}");
    }
}

/// Every help text reads in a terminal of 100 columns (clap does not wrap: the texts are
/// broken by hand).
#[test]
fn every_help_fits_100_columns() {
    let mut commands: Vec<Vec<&str>> = vec![vec!["--help"]];
    commands.extend(SUBCOMMANDS.iter().map(|name| vec![*name, "--help"]));
    commands.extend(SUBCOMMANDS.iter().map(|name| vec![*name, "-h"]));
    for args in commands {
        let run = gjk(&args, b"");
        assert_eq!(run.status, 0, "{args:?}");
        for line in run.stdout.lines() {
            assert!(line.chars().count() <= 100, "{args:?}: too wide: {line}");
        }
    }
}

#[test]
fn version() {
    let run = gjk(&["--version"], b"");
    assert_eq!(
        (run.status, run.stdout.as_str()),
        (0, concat!("gjk ", env!("CARGO_PKG_VERSION"), "\n"))
    );
}

/// clap's errors: exit status 2, nothing on standard output, and on standard error the
/// reason (prefixed `gjk: ` like every error of the program) followed by the usage.
#[test]
fn usage_errors_are_exit_2_with_the_usage() {
    let cases: [(&[&str], &str, &str); 7] = [
        (&[], "requires a subcommand", "Usage: gjk <COMMAND>"),
        (&["frobnicate"], "unrecognized subcommand 'frobnicate'", "Usage: gjk <COMMAND>"),
        (&["query", "a", "b"], "unexpected argument 'b'", "Usage: gjk query [FILE]"),
        (&["query", "--fast"], "unexpected argument '--fast'", "Usage: gjk query [FILE]"),
        (&["demo", "x"], "unexpected argument 'x'", "Usage: gjk demo"),
        (&["completions"], "<SHELL>", "Usage: gjk completions <SHELL>"),
        (&["completions", "cmd"], "invalid value 'cmd'", "[possible values: bash,"),
    ];
    for (args, reason, usage) in cases {
        let run = gjk(args, b"");
        assert_eq!(run.status, 2, "{args:?}");
        assert_eq!(run.stdout, "", "{args:?}");
        assert!(run.stderr.starts_with("gjk: "), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(reason), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(usage), "{args:?}: {}", run.stderr);
    }
}

/// Each shell's completion script names the subcommands and the options of `explain`.
#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let run = gjk(&["completions", shell], b"");
        assert_eq!(run.status, 0, "{shell}: {}", run.stderr);
        for word in ["query", "demo", "explain", "method", "svg"] {
            assert!(run.stdout.contains(word), "{shell} completions miss {word}");
        }
    }
    let bash = gjk(&["completions", "bash"], b"").stdout;
    assert!(bash.contains("complete -F _gjk"), "{bash}");
}

#[test]
fn demo_prints_an_aligned_table() {
    let run = gjk(&["demo"], b"");
    assert_eq!(run.status, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    let header = lines[0];
    for column in [
        "pair",
        "dim",
        "intersects",
        "distance",
        "point_a",
        "point_b",
        "normal",
        "iters",
        "termination",
    ] {
        assert!(header.contains(column), "{header}");
    }
    let distance_column = header.find("distance").unwrap();
    let rows: Vec<&str> =
        lines[1..].iter().copied().take_while(|l| l.contains("2D") || l.contains("3D")).collect();
    assert_eq!(rows.len(), 15, "{}", run.stdout);
    for row in &rows {
        // Distances sit in their column and are numbers with 3 decimals.
        let cell: String = row.chars().skip(distance_column).take_while(|c| *c != ' ').collect();
        assert!(cell.parse::<f64>().is_ok() && cell.contains('.'), "{row}");
    }
    assert!(rows[0].starts_with("tutorial triangles") && rows[0].contains("yes"));
    assert!(rows.iter().any(|r| r.starts_with("dyn4j polygons") && r.contains("yes")));
    assert!(rows.iter().any(|r| r.starts_with("cylinder, cone") && r.contains("1.500")));
}
