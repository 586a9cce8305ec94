//! The command words, help texts, usage errors and the demo.

mod common;

use common::gjk;

#[test]
fn help_lists_the_commands() {
    for flag in ["help", "-h", "--help"] {
        let run = gjk(&[flag], b"");
        assert_eq!(run.status, 0);
        assert!(run.stdout.contains("gjk query [FILE]") && run.stdout.contains("gjk demo"));
    }
}

#[test]
fn query_help_describes_the_format() {
    let run = gjk(&["query", "--help"], b"");
    assert_eq!(run.status, 0);
    assert!(run.stdout.starts_with("usage: gjk query [FILE]"));
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

#[test]
fn version() {
    let run = gjk(&["--version"], b"");
    assert_eq!(
        (run.status, run.stdout.as_str()),
        (0, concat!("gjk ", env!("CARGO_PKG_VERSION"), "\n"))
    );
}

#[test]
fn usage_errors_are_exit_2() {
    for args in
        [&[][..], &["frobnicate"], &["query", "a", "b"], &["query", "--fast"], &["demo", "x"]]
    {
        let run = gjk(args, b"");
        assert_eq!(run.status, 2, "{args:?}");
        assert_eq!(run.stdout, "", "{args:?}");
        assert!(run.stderr.starts_with("gjk: "), "{args:?}: {}", run.stderr);
    }
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
