//! `gjk explain`: built-in examples, JSON pairs, pictures, and its usage errors.

use crate::common;

use common::gjk;

#[test]
fn classic_tutorial_triangles_show_the_worked_example_numbers() {
    let run = gjk(&["explain", "tutorial-triangles", "--method", "classic"], b"");
    assert_eq!(run.status, 0, "{}", run.stderr);
    // The tutorial's support points (0,2), (0,-2), (-2,-2) and its next direction (-4,0).
    for expected in ["w = (0, 2)", "w = (0, -2)", "w = (-2, -2)", "(-4, 0)", "INTERSECTION"] {
        assert!(run.stdout.contains(expected), "missing {expected} in\n{}", run.stdout);
    }
}

#[test]
fn classic_dyn4j_shows_its_four_support_points() {
    let run = gjk(&["explain", "dyn4j", "--method", "classic"], b"");
    assert_eq!(run.status, 0, "{}", run.stderr);
    for expected in ["w = (4, 2)", "w = (-6, 9)", "w = (-8, -2)", "w = (-1, -2)"] {
        assert!(run.stdout.contains(expected), "missing {expected} in\n{}", run.stdout);
    }
}

#[test]
fn json_pair_inline_and_from_stdin_give_the_same_walkthrough() {
    let pair =
        r#"{"a":{"type":"circle","radius":1},"b":{"type":"circle","radius":1,"center":[4,0]}}"#;
    let inline = gjk(&["explain", pair], b"");
    let piped = gjk(&["explain", "-"], format!("\n{pair}\n").as_bytes());
    assert_eq!(inline.status, 0, "{}", inline.stderr);
    assert_eq!(inline.stdout, piped.stdout);
    assert!(inline.stdout.contains("Distance = 2"), "{}", inline.stdout);
}

#[test]
fn svg_is_written_for_a_3d_pair() {
    let path = std::env::temp_dir().join(format!("gjk-explain-test-{}.svg", std::process::id()));
    let pair = r#"{"a":{"type":"box","half_extents":[1,1,1]},"b":{"type":"sphere","radius":1,"center":[2.5,0,0]}}"#;
    let run = gjk(&["explain", pair, "--svg", path.to_str().unwrap()], b"");
    assert_eq!(run.status, 0, "{}", run.stderr);
    let svg = std::fs::read_to_string(&path).expect("the picture was written");
    std::fs::remove_file(&path).ok();
    assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"), "{}", &svg[..80]);
    assert!(svg.trim_end().ends_with("</svg>"));
}

#[test]
fn first_direction_is_honoured_and_checked() {
    let run = gjk(&["explain", "dyn4j", "--method", "classic", "--direction", "1,-1"], b"");
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.contains("First search direction: (1, -1)"), "{}", run.stdout);
    // A leading minus is a value of --direction, not an option.
    let run = gjk(&["explain", "dyn4j", "--direction", "-1,1"], b"");
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.contains("First search direction: (-1, 1)"), "{}", run.stdout);
    for bad in ["1,2,3", "0,0", "1,nan", "x"] {
        let run = gjk(&["explain", "dyn4j", "--direction", bad], b"");
        assert_eq!(run.status, 2, "--direction {bad} must be refused");
        assert!(run.stderr.contains("direction"), "{}", run.stderr);
    }
}

#[test]
fn usage_errors_exit_2_with_a_reason() {
    let cases: [(&[&str], &str); 6] = [
        (&["explain"], "required arguments were not provided:\n  <PAIR>"),
        (&["explain", "no-such-example"], "no built-in example"),
        (&["explain", "dyn4j", "--method", "fast"], "invalid value 'fast' for '--method"),
        (&["explain", "dyn4j", "--svg"], "a value is required for '--svg <FILE>'"),
        (&["explain", "--list", "dyn4j"], "cannot be used with"),
        (
            &["explain", r#"{"a":{"type":"circle","radius":-1},"b":{"type":"circle","radius":1}}"#],
            "a.radius",
        ),
    ];
    for (args, reason) in cases {
        let run = gjk(args, b"");
        assert_eq!(run.status, 2, "{args:?}");
        assert!(run.stderr.contains(reason), "{args:?}: {}", run.stderr);
    }
}

#[test]
fn list_names_every_builtin_example() {
    let run = gjk(&["explain", "--list"], b"");
    assert_eq!(run.status, 0);
    for name in ["tutorial-triangles", "dyn4j", "tetrahedron-box"] {
        assert!(run.stdout.lines().any(|l| l == name), "{}", run.stdout);
    }
}
