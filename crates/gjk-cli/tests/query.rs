//! `gjk query` answers: checked against analytic distances and closest points (tolerance 1e-9
//! on scenes of size ~1, where the library converges to 1e-10 relative), plus the streaming,
//! input and output conventions.

use crate::common;

use std::io::{BufRead, BufReader, Write};

use common::{assert_close, gjk, num, query, vector};
use serde_json::{json, Value};

const TOL: f64 = 1e-9;

/// Answers one line and returns its record (exit status 0 required).
fn answer(line: &str) -> Value {
    let run = query(&format!("{line}\n"));
    assert_eq!(run.status, 0, "stdout: {} stderr: {}", run.stdout, run.stderr);
    let mut records = run.records();
    assert_eq!(records.len(), 1);
    records.remove(0)
}

/// Checks a separated answer: distance, closest points, normal, and the record's invariants.
fn assert_separated(r: &Value, distance: f64, point_a: &[f64], point_b: &[f64], normal: &[f64]) {
    assert_eq!(r["intersects"], false, "{r}");
    assert_close(&[num(r, "distance")], &[distance], TOL);
    assert_close(&vector(r, "point_a"), point_a, TOL);
    assert_close(&vector(r, "point_b"), point_b, TOL);
    assert_close(&vector(r, "normal"), normal, TOL);
    assert_eq!(num(r, "penetration_depth"), 0.0);
    assert!(r["iterations"].as_u64().unwrap() >= 1);
}

#[test]
fn ball_ball_distance_and_closest_points() {
    // Centres (1,2,3) and (4,6,3): 5 apart along (0.6, 0.8, 0); radii 1 and 0.5.
    let r = answer(
        r#"{"id":1,"a":{"type":"sphere","radius":1},"pose_a":{"translation":[1,2,3]},"b":{"type":"sphere","radius":0.5,"center":[4,6,3]}}"#,
    );
    assert_separated(&r, 3.5, &[1.6, 2.8, 3.0], &[3.7, 5.6, 3.0], &[0.6, 0.8, 0.0]);
}

#[test]
fn box_box_distance() {
    // Faces x = 1 and x = 3.5; the boxes' y and z ranges overlap.
    let r = answer(
        r#"{"id":1,"a":{"type":"cuboid","half_extents":[1,1,1]},"b":{"type":"box","half_extents":[0.5,0.5,0.5]},"pose_b":{"translation":[4,0.25,-0.25]}}"#,
    );
    assert_eq!(r["intersects"], false);
    assert_close(&[num(&r, "distance")], &[2.5], TOL);
    let (a, b) = (vector(&r, "point_a"), vector(&r, "point_b"));
    assert_close(&[a[0], b[0]], &[1.0, 3.5], TOL);
    // Same y and z on both faces, inside both boxes' ranges.
    assert_close(&[b[1] - a[1], b[2] - a[2]], &[0.0, 0.0], TOL);
    assert!(
        (-0.25 - TOL..=0.75 + TOL).contains(&a[1]) && (-0.75 - TOL..=0.25 + TOL).contains(&a[2])
    );
    assert_close(&vector(&r, "normal"), &[1.0, 0.0, 0.0], TOL);
}

#[test]
fn tutorial_triangles_report_a_penetration_that_separates_them() {
    let a = r#"{"type":"polygon","points":[[0,1],[1,-1],[-1,-1]]}"#;
    let b = r#"{"type":"polygon","points":[[0,-1],[1,1],[-1,1]]}"#;
    let line = |offset: [f64; 2]| {
        format!(
            r#"{{"id":"tut","a":{a},"b":{b},"pose_b":{{"translation":[{},{}]}}}}"#,
            offset[0], offset[1]
        )
    };
    let r = answer(&line([0.0, 0.0]));
    assert_eq!(r["intersects"], true);
    assert_eq!(num(&r, "distance"), 0.0);
    let depth = num(&r, "penetration_depth");
    let n = vector(&r, "normal");
    // Analytic: the Minkowski difference A − B is the triangle (0, 2), (2, −2), (−2, −2) (the
    // hull of all nine corner differences); its slanted edges lie at 2/√5 from the origin, its
    // base at 2, so the depth is 2/√5.
    assert!((depth - 2.0 / 5f64.sqrt()).abs() < 1e-9, "depth {depth}");
    assert!(((n[0] * n[0] + n[1] * n[1]).sqrt() - 1.0).abs() < 1e-12);
    // The witnesses are `depth` apart along the normal: point_a − point_b = depth × normal.
    let (pa, pb) = (vector(&r, "point_a"), vector(&r, "point_b"));
    assert_close(&[pa[0] - pb[0], pa[1] - pb[1]], &[depth * n[0], depth * n[1]], 1e-9);
    // Moving B by slightly more than depth × normal separates; slightly less does not.
    let moved = |scale: f64| answer(&line([depth * n[0] * scale, depth * n[1] * scale]));
    assert_eq!(moved(1.0 + 1e-6)["intersects"], false);
    assert_eq!(moved(1.0 - 1e-3)["intersects"], true);
}

#[test]
fn dyn4j_polygons_intersect() {
    let r = answer(
        r#"{"id":0,"a":{"type":"polygon","points":[[4,11],[4,5],[9,9]]},"b":{"type":"polygon","points":[[5,7],[12,7],[10,2],[7,3]]}}"#,
    );
    assert_eq!(r["intersects"], true);
}

#[test]
fn quaternion_pose_is_applied() {
    // A 4 × 0.2 × 0.2 bar turned 90° about z lies along y: its end face at y = 2 is 0.5 from the
    // ball (unturned, the gap would be 2.4).
    let r = answer(
        r#"{"id":1,"a":{"type":"box","half_extents":[2,0.1,0.1]},"pose_a":{"rotation":[0,0,0.7071067811865476,0.7071067811865476]},"b":{"type":"sphere","radius":0.5},"pose_b":{"translation":[0,3,0]}}"#,
    );
    assert_separated(&r, 0.5, &[0.0, 2.0, 0.0], &[0.0, 2.5, 0.0], &[0.0, 1.0, 0.0]);
}

#[test]
fn angle_pose_is_applied() {
    // The same bar in 2D, turned by π/2 and moved to (1, 1): its end at (1, 3).
    let r = answer(
        r#"{"id":1,"a":{"type":"rectangle","half_extents":[2,0.1]},"pose_a":{"rotation":1.5707963267948966,"translation":[1,1]},"b":{"type":"circle","radius":0.5},"pose_b":{"translation":[1,4]}}"#,
    );
    assert_separated(&r, 0.5, &[1.0, 3.0], &[1.0, 3.5], &[0.0, 1.0]);
}

#[test]
fn both_poses_rotate_and_translate() {
    // B's segment, turned by −π/2 about z and moved, runs from (5,1,0) to (5,−1,0): 4 from A's
    // point at (1, 0, 0) (itself A's local (0,1,0) turned by −π/2 about z).
    let r = answer(
        r#"{"id":1,"a":{"type":"points","points":[[0,1,0]]},"pose_a":{"rotation":[0,0,-0.7071067811865476,0.7071067811865476]},"b":{"type":"segment","a":[-1,0,0],"b":[1,0,0]},"pose_b":{"rotation":[0,0,-0.7071067811865476,0.7071067811865476],"translation":[5,0,0]}}"#,
    );
    assert_separated(&r, 4.0, &[1.0, 0.0, 0.0], &[5.0, 0.0, 0.0], &[1.0, 0.0, 0.0]);
}

#[test]
fn center_and_margin() {
    // Square [9, 11] × [−1, 1] rounded by 0.5 reaches x = 11.5; the circle starts at 13.
    let r = answer(
        r#"{"id":1,"a":{"type":"rectangle","half_extents":[1,1],"center":[10,0],"margin":0.5},"b":{"type":"circle","radius":1,"center":[14,0]}}"#,
    );
    assert_separated(&r, 1.5, &[11.5, 0.0], &[13.0, 0.0], &[1.0, 0.0]);
}

#[test]
fn ellipse_and_point() {
    let r = answer(
        r#"{"id":1,"a":{"type":"ellipse","radii":[2,1]},"b":{"type":"points","points":[[5,0]]}}"#,
    );
    assert_separated(&r, 3.0, &[2.0, 0.0], &[5.0, 0.0], &[1.0, 0.0]);
}

#[test]
fn ellipsoid_and_point_3d() {
    let r = answer(
        r#"{"id":1,"a":{"type":"ellipsoid","radii":[1,3,1]},"b":{"type":"points","points":[[0,-5,0]]}}"#,
    );
    assert_separated(&r, 2.0, &[0.0, -3.0, 0.0], &[0.0, -5.0, 0.0], &[0.0, -1.0, 0.0]);
}

#[test]
fn cylinder_side_and_ball() {
    let r = answer(
        r#"{"id":1,"a":{"type":"cylinder","half_height":2,"radius":1},"b":{"type":"sphere","radius":1,"center":[0,0.5,3]}}"#,
    );
    assert_separated(&r, 1.0, &[0.0, 0.5, 1.0], &[0.0, 0.5, 2.0], &[0.0, 0.0, 1.0]);
}

#[test]
fn cone_apex_and_ball() {
    let r = answer(
        r#"{"id":1,"a":{"type":"cone","half_height":1,"radius":1},"b":{"type":"sphere","radius":0.5},"pose_b":{"translation":[0,3,0]}}"#,
    );
    assert_separated(&r, 1.5, &[0.0, 1.0, 0.0], &[0.0, 2.5, 0.0], &[0.0, 1.0, 0.0]);
}

#[test]
fn triangle_and_segment() {
    let r = answer(
        r#"{"id":1,"a":{"type":"triangle","a":[0,0,0],"b":[2,0,0],"c":[0,2,0]},"b":{"type":"segment","a":[0.5,0.5,1],"b":[0.5,0.5,3]}}"#,
    );
    assert_separated(&r, 1.0, &[0.5, 0.5, 0.0], &[0.5, 0.5, 1.0], &[0.0, 0.0, 1.0]);
}

#[test]
fn skew_capsules() {
    let r = answer(
        r#"{"id":1,"a":{"type":"capsule","a":[-2,0,0],"b":[2,0,0],"radius":0.5},"b":{"type":"capsule","a":[0,-2,3],"b":[0,2,3],"radius":0.25}}"#,
    );
    assert_separated(&r, 2.25, &[0.0, 0.0, 0.5], &[0.0, 0.0, 2.75], &[0.0, 0.0, 1.0]);
}

#[test]
fn polytope_face_and_ball() {
    // Octahedron face x + y + z = 1 to the centre (2, 2, 2): 5/√3; the foot is (1/3, 1/3, 1/3).
    let r = answer(
        r#"{"id":1,"a":{"type":"polytope","points":[[1,0,0],[-1,0,0],[0,1,0],[0,-1,0],[0,0,1],[0,0,-1]]},"b":{"type":"sphere","radius":0.5,"center":[2,2,2]}}"#,
    );
    let s = 1.0 / 3f64.sqrt();
    let foot = 2.0 - 0.5 * s;
    assert_separated(&r, 5.0 * s - 0.5, &[1.0 / 3.0; 3], &[foot; 3], &[s; 3]);
}

#[test]
fn touching_counts_as_intersecting() {
    let r = answer(
        r#"{"id":1,"a":{"type":"rectangle","half_extents":[1,1]},"b":{"type":"rectangle","half_extents":[1,1]},"pose_b":{"translation":[2,0.5]}}"#,
    );
    assert_eq!(r["intersects"], true);
    assert_eq!(num(&r, "distance"), 0.0);
}

#[test]
fn dimension_from_names_when_nothing_else_tells() {
    let run = query(concat!(
        r#"{"id":"2d","a":{"type":"circle","radius":1},"b":{"type":"circle","radius":1}}"#,
        "\n",
        r#"{"id":"3d","a":{"type":"sphere","radius":1},"b":{"type":"circle","radius":1}}"#,
        "\n"
    ));
    let records = run.records();
    assert_eq!(vector(&records[0], "point_a").len(), 2);
    assert_eq!(vector(&records[1], "point_a").len(), 3);
}

#[test]
fn separated_record_fields_in_contract_order() {
    let run = query(
        "{\"id\":\"k\",\"a\":{\"type\":\"sphere\",\"radius\":1},\"b\":{\"type\":\"sphere\",\"radius\":1},\"pose_b\":{\"translation\":[3,0,0]}}\n",
    );
    let line = run.stdout.trim_end();
    let expected_start = "{\"id\":\"k\",\"intersects\":false,\"distance\":1.0,\"point_a\":[1.0,0.0,0.0],\
                          \"point_b\":[2.0,0.0,0.0],\"normal\":[1.0,0.0,0.0],\"penetration_depth\":0.0,\
                          \"iterations\":";
    assert!(line.starts_with(expected_start), "{line}");
    let (iterations, rest) = line[expected_start.len()..].split_once(',').expect(line);
    assert!(iterations.parse::<u32>().is_ok(), "{line}");
    assert_eq!(rest, "\"status\":\"converged\"}", "{line}");
}

/// The status of the one answer to `line`.
fn status(line: &str) -> String {
    answer(line)["status"].as_str().expect("status is a string").to_owned()
}

#[test]
fn every_answer_carries_a_status_from_the_help() {
    let help = gjk(&["query", "--help"], b"").stdout;
    let inputs = [
        r#"{"a":{"type":"circle","radius":1},"b":{"type":"circle","radius":1,"center":[3,0]}}"#,
        r#"{"a":{"type":"circle","radius":1},"b":{"type":"circle","radius":1,"center":[1,0]}}"#,
        r#"{"a":{"type":"cylinder","half_height":1,"radius":1},"b":{"type":"cone","half_height":1,"radius":1},"pose_b":{"translation":[0.3,0.5,0.2]}}"#,
        r#"{"a":{"type":"ellipse","radii":[1,2]},"b":{"type":"triangle","a":[0,0],"b":[5,0],"c":[0,5]}}"#,
    ];
    for input in inputs {
        let word = status(input);
        assert!(help.contains(&format!("  {word} ")), "{word} is not explained in --help");
    }
}

#[test]
fn crossing_segments_are_flat() {
    // The Minkowski difference of two crossing segments is a square in the plane z = 0: no
    // interior, so EPA reports it flat and the depth is 0.
    let r = answer(
        r#"{"id":1,"a":{"type":"segment","a":[-1,0,0],"b":[1,0,0]},"b":{"type":"segment","a":[0,-1,0],"b":[0,1,0]}}"#,
    );
    assert_eq!((r["intersects"].as_bool(), r["status"].as_str()), (Some(true), Some("epa_flat")));
    assert_eq!(num(&r, "penetration_depth"), 0.0);
}

#[test]
fn overlapping_polytopes_report_epas_ending() {
    // Two octahedra, the second moved by (0.5, 0.3, 0.1): the cores overlap and 3D polytopes
    // have no closed form, so the depth comes from EPA.
    let octahedron =
        r#"{"type":"polytope","points":[[1,0,0],[-1,0,0],[0,1,0],[0,-1,0],[0,0,1],[0,0,-1]]}"#;
    let word = status(&format!(
        r#"{{"a":{octahedron},"b":{octahedron},"pose_b":{{"translation":[0.5,0.3,0.1]}}}}"#
    ));
    assert!(word.starts_with("epa_"), "{word}");
}

#[test]
fn overlapping_boxes_need_no_epa() {
    // Two boxes: the separating-axis test gives the depth exactly, without EPA.
    let r = answer(
        r#"{"a":{"type":"box","half_extents":[1,1,1]},"b":{"type":"box","half_extents":[1,1,1]},"pose_b":{"translation":[1.5,0,0]}}"#,
    );
    assert_eq!(r["status"], "contained");
    assert_close(&[num(&r, "penetration_depth")], &[0.5], TOL);
}

#[test]
fn separated_pairs_report_gjks_ending() {
    for line in [
        r#"{"a":{"type":"polygon","points":[[0,1],[1,-1],[-1,-1]]},"b":{"type":"circle","radius":1,"center":[5,0]}}"#,
        r#"{"a":{"type":"ellipsoid","radii":[1,2,3]},"b":{"type":"box","half_extents":[1,1,1]},"pose_b":{"translation":[4,1,0.5]}}"#,
    ] {
        let word = status(line);
        assert!(["converged", "no_progress"].contains(&word.as_str()), "{word}: {line}");
    }
}

#[test]
fn numbers_print_with_full_precision() {
    let gap: f64 = 0.1 + 0.2; // 0.30000000000000004
    let run = query(&format!(
        "{{\"id\":1,\"a\":{{\"type\":\"points\",\"points\":[[0,0]]}},\"b\":{{\"type\":\"points\",\"points\":[[{gap:?},0]]}}}}\n"
    ));
    assert!(run.stdout.contains("\"distance\":0.30000000000000004"), "{}", run.stdout);
    let r = &run.records()[0];
    assert_eq!(num(r, "distance").to_bits(), gap.to_bits());
    assert_eq!(vector(r, "point_b")[0].to_bits(), gap.to_bits());
}

#[test]
fn ids_are_echoed_as_given() {
    let shapes =
        r#""a":{"type":"circle","radius":1},"b":{"type":"circle","radius":1,"center":[5,0]}"#;
    let ids = [
        json!("text"),
        json!(12345678901234567u64),
        json!(-3),
        json!(0.25),
        json!({"k": [1, null]}),
        Value::Null,
    ];
    let mut input = String::new();
    for id in &ids {
        input.push_str(&format!("{{\"id\":{id},{shapes}}}\n"));
    }
    input.push_str(&format!("{{{shapes}}}\n"));
    let records = query(&input).records();
    for (record, id) in records.iter().zip(ids.iter().chain([&Value::Null])) {
        assert_eq!(&record["id"], id);
        assert!((num(record, "distance") - 3.0).abs() < TOL);
    }
    assert_eq!(records.len(), ids.len() + 1);
}

#[test]
fn unknown_fields_are_ignored() {
    let r = answer(
        r#"{"id":1,"note":"x","a":{"type":"circle","radius":1,"color":"red"},"b":{"type":"circle","radius":1,"center":[3,0]},"pose_a":{"scale":2}}"#,
    );
    assert_close(&[num(&r, "distance")], &[1.0], TOL);
}

#[test]
fn blank_lines_are_skipped_but_counted() {
    let good = r#"{"id":1,"a":{"type":"circle","radius":1},"b":{"type":"circle","radius":1,"center":[3,0]}}"#;
    let run = query(&format!("\n{good}\n   \n\t\n{{\"id\":2}}\n\n"));
    assert_eq!(run.status, 1);
    let records = run.records();
    assert_eq!(records.len(), 2);
    assert_eq!(records[1], json!({"id": 2, "line": 5, "error": "a: missing"}));
}

#[test]
fn crlf_line_endings() {
    let good = r#"{"id":1,"a":{"type":"circle","radius":1},"b":{"type":"circle","radius":1,"center":[3,0]}}"#;
    let run = query(&format!("{good}\r\n{good}\r\n"));
    assert_eq!(run.status, 0);
    assert_eq!(run.records().len(), 2);
}

#[test]
fn last_line_without_newline() {
    let good = r#"{"id":1,"a":{"type":"circle","radius":1},"b":{"type":"circle","radius":1,"center":[3,0]}}"#;
    let run = query(good);
    assert_eq!(run.status, 0);
    assert_eq!(run.records().len(), 1);
}

#[test]
fn reads_standard_input_with_dash_and_files() {
    let good = r#"{"id":"f","a":{"type":"circle","radius":1},"b":{"type":"circle","radius":1,"center":[3,0]}}"#;
    let dash = gjk(&["query", "-"], format!("{good}\n").as_bytes());
    assert_eq!(dash.status, 0);
    assert_eq!(dash.records()[0]["id"], "f");

    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("gjk-cli-clean.jsonl");
    std::fs::write(&path, format!("{good}\n{good}\n")).unwrap();
    let from_file = gjk(&["query", path.to_str().unwrap()], b"ignored stdin\n");
    assert_eq!(from_file.status, 0, "{}", from_file.stderr);
    assert_eq!(from_file.records().len(), 2);
    assert_eq!(from_file.stderr, "");
}

#[test]
fn missing_file_is_exit_2() {
    let run = gjk(&["query", "/nonexistent/dir/queries.jsonl"], b"");
    assert_eq!(run.status, 2);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.starts_with("gjk: cannot open /nonexistent/dir/queries.jsonl: "),
        "{}",
        run.stderr
    );
}

#[test]
fn empty_input_is_exit_0() {
    let run = query("");
    assert_eq!((run.status, run.stdout.as_str()), (0, ""));
}

/// A pair of balls whose distance is known: line `i` has gap `i / 1000`.
fn ball_line(i: usize) -> String {
    let x = 2.0 + i as f64 / 1000.0;
    format!(
        r#"{{"id":{i},"a":{{"type":"sphere","radius":1}},"b":{{"type":"sphere","radius":1,"center":[{x},0,0]}}}}"#
    )
}

#[test]
fn large_input_streams_in_order() {
    const LINES: usize = 20_000;
    let mut input = String::with_capacity(LINES * 100);
    for i in 0..LINES {
        input.push_str(&ball_line(i));
        input.push('\n');
    }
    let run = query(&input);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let records = run.records();
    assert_eq!(records.len(), LINES);
    for (i, r) in records.iter().enumerate() {
        assert_eq!(r["id"], i);
        let expected = (2.0 + i as f64 / 1000.0) - 2.0;
        assert!((num(r, "distance") - expected).abs() < TOL, "line {i}: {r}");
        assert_eq!(r["intersects"], i == 0);
    }
}

#[test]
fn closed_output_pipe_ends_quietly() {
    let mut child = common::spawn(&["query"]);
    let mut input = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        for i in 0..200_000 {
            if writeln!(input, "{}", ball_line(i % 1000)).is_err() {
                break; // gjk stopped reading: expected.
            }
        }
    });
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    output.read_line(&mut first).unwrap();
    assert!(first.starts_with("{\"id\":0,"), "{first}");
    drop(output);
    let result = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(stderr.is_empty(), "stderr: {stderr}");
    assert_eq!(result.status.code(), Some(0));
}

#[test]
fn unreadable_input_is_exit_2() {
    // A directory opens but cannot be read.
    let dir = env!("CARGO_TARGET_TMPDIR");
    let run = gjk(&["query", dir], b"");
    assert_eq!(run.status, 2);
    assert!(run.stderr.starts_with(&format!("gjk: cannot read {dir}: ")), "{}", run.stderr);
}
