//! Every kind of line `gjk query` cannot answer: each gets an error record naming the line, the
//! id (null when unknown) and the field, the lines around it are still answered, and the exit
//! status is 1.

use crate::common;

use common::{gjk, num, query};
use serde_json::{json, Value};

/// Two balls of radius 1, centres 3 apart: distance 1.
const BEFORE: &str = r#"{"id":"before","a":{"type":"sphere","radius":1},"b":{"type":"sphere","radius":1},"pose_b":{"translation":[3,0,0]}}"#;
/// A 2×2 square and a unit circle centred at (4, 0): distance 2.
const AFTER: &str = r#"{"id":"after","a":{"type":"rectangle","half_extents":[1,1]},"b":{"type":"circle","radius":1,"center":[4,0]}}"#;

/// Runs BEFORE, `bad`, AFTER and checks the error record of line 2 and the answers around it.
fn assert_rejected_bytes(bad: &[u8], id: Value, message: &str) {
    let mut input = Vec::new();
    input.extend_from_slice(BEFORE.as_bytes());
    input.push(b'\n');
    input.extend_from_slice(bad);
    input.push(b'\n');
    input.extend_from_slice(AFTER.as_bytes());
    input.push(b'\n');
    let run = gjk(&["query"], &input);
    assert_eq!(run.status, 1, "stderr: {}", run.stderr);
    assert_eq!(run.stderr, "");
    let records = run.records();
    assert_eq!(records.len(), 3, "{}", run.stdout);
    assert_eq!(records[1], json!({"id": id, "line": 2, "error": message}));
    assert_eq!(records[0]["id"], "before");
    assert!((num(&records[0], "distance") - 1.0).abs() < 1e-12);
    assert_eq!(records[2]["id"], "after");
    assert!((num(&records[2], "distance") - 2.0).abs() < 1e-12);
}

fn assert_rejected(bad: &str, id: Value, message: &str) {
    assert_rejected_bytes(bad.as_bytes(), id, message);
}

#[test]
fn error_record_has_id_line_error_in_that_order() {
    let run = query("{\"id\":[1,\"x\"],\"a\":{}}\n");
    assert_eq!(run.status, 1);
    assert_eq!(run.stdout, "{\"id\":[1,\"x\"],\"line\":1,\"error\":\"a.type: missing\"}\n");
}

#[test]
fn bad_json() {
    assert_rejected(
        r#"{"id": 7, "a": {"type": "sphere""#,
        Value::Null,
        "invalid JSON at column 32: EOF while parsing an object",
    );
}

#[test]
fn nan_is_not_json() {
    assert_rejected(
        r#"{"id":1,"a":{"type":"sphere","radius":NaN},"b":{"type":"sphere","radius":1}}"#,
        Value::Null,
        "invalid JSON at column 39: expected value",
    );
}

#[test]
fn infinity_is_not_json() {
    assert_rejected(
        r#"{"id":1,"a":{"type":"sphere","radius":1},"b":{"type":"sphere","radius":-Infinity}}"#,
        Value::Null,
        "invalid JSON at column 73: invalid number",
    );
}

#[test]
fn number_beyond_f64() {
    assert_rejected(
        r#"{"id":1,"a":{"type":"sphere","radius":1e400},"b":{"type":"sphere","radius":1}}"#,
        Value::Null,
        "invalid JSON at column 43: number out of range",
    );
}

#[test]
fn number_beyond_the_accepted_magnitude() {
    assert_rejected(
        r#"{"id":1,"a":{"type":"sphere","radius":1},"b":{"type":"sphere","radius":1},"pose_b":{"translation":[0,-2e16,0]}}"#,
        json!(1),
        "pose_b.translation[1]: magnitude must be at most 1e15, got -2e16",
    );
}

#[test]
fn unknown_shape_type() {
    assert_rejected(
        r#"{"id":"u","a":{"type":"blob","radius":1},"b":{"type":"sphere","radius":1}}"#,
        json!("u"),
        "a.type: unknown shape type \"blob\" (expected one of points, polygon, polytope, sphere, \
         circle, ellipsoid, ellipse, cuboid, box, rectangle, segment, triangle, capsule, \
         cylinder, cone)",
    );
}

#[test]
fn shape_type_not_a_string() {
    assert_rejected(
        r#"{"id":2,"a":{"type":"sphere","radius":1},"b":{"type":["sphere"],"radius":1}}"#,
        json!(2),
        "b.type: expected a string, got an array of 1 items",
    );
}

#[test]
fn too_many_coordinates() {
    assert_rejected(
        r#"{"id":3,"a":{"type":"sphere","radius":1,"center":[1,2,3,4]},"b":{"type":"sphere","radius":1}}"#,
        json!(3),
        "a.center: expected 2 or 3 coordinates, got 4",
    );
}

#[test]
fn too_few_coordinates() {
    assert_rejected(
        r#"{"id":3,"a":{"type":"segment","a":[1],"b":[2]},"b":{"type":"sphere","radius":1}}"#,
        json!(3),
        "a.a: expected 2 or 3 coordinates, got 1",
    );
}

#[test]
fn quaternion_with_three_numbers() {
    assert_rejected(
        r#"{"id":4,"a":{"type":"sphere","radius":1},"b":{"type":"sphere","radius":1},"pose_b":{"rotation":[0,0,1]}}"#,
        json!(4),
        "pose_b.rotation: expected an angle in radians (2D) or a quaternion [x, y, z, w] (3D), \
         got an array of 3 items",
    );
}

#[test]
fn zero_quaternion() {
    assert_rejected(
        r#"{"id":4,"a":{"type":"box","half_extents":[1,1,1]},"b":{"type":"sphere","radius":1},"pose_a":{"rotation":[0,0,0,0]}}"#,
        json!(4),
        "pose_a.rotation: the zero quaternion is not a rotation",
    );
}

#[test]
fn empty_point_set() {
    assert_rejected(
        r#"{"id":5,"a":{"type":"polygon","points":[]},"b":{"type":"circle","radius":1}}"#,
        json!(5),
        "a.points: needs at least one point, got none",
    );
}

#[test]
fn point_not_an_array() {
    assert_rejected(
        r#"{"id":5,"a":{"type":"points","points":[[0,0],7]},"b":{"type":"circle","radius":1}}"#,
        json!(5),
        "a.points[1]: expected an array of numbers, got the number 7",
    );
}

#[test]
fn negative_sphere_radius() {
    assert_rejected(
        r#"{"id":6,"a":{"type":"sphere","radius":-1},"b":{"type":"sphere","radius":1}}"#,
        json!(6),
        "a.radius: must be positive, got -1",
    );
}

#[test]
fn zero_circle_radius() {
    assert_rejected(
        r#"{"id":6,"a":{"type":"circle","radius":1},"b":{"type":"circle","radius":0}}"#,
        json!(6),
        "b.radius: must be positive, got 0",
    );
}

#[test]
fn negative_capsule_radius() {
    assert_rejected(
        r#"{"id":6,"a":{"type":"capsule","a":[0,0],"b":[1,0],"radius":-0.5},"b":{"type":"circle","radius":1}}"#,
        json!(6),
        "a.radius: must not be negative, got -0.5",
    );
}

#[test]
fn negative_cylinder_height() {
    assert_rejected(
        r#"{"id":6,"a":{"type":"cylinder","half_height":-1,"radius":1},"b":{"type":"sphere","radius":1}}"#,
        json!(6),
        "a.half_height: must not be negative, got -1",
    );
}

#[test]
fn negative_half_extent() {
    assert_rejected(
        r#"{"id":6,"a":{"type":"sphere","radius":1},"b":{"type":"box","half_extents":[1,-2,1]}}"#,
        json!(6),
        "b.half_extents[1]: must not be negative, got -2",
    );
}

#[test]
fn zero_ellipse_radius() {
    assert_rejected(
        r#"{"id":6,"a":{"type":"ellipse","radii":[0,1]},"b":{"type":"circle","radius":1}}"#,
        json!(6),
        "a.radii[0]: must be positive, got 0",
    );
}

#[test]
fn negative_margin() {
    assert_rejected(
        r#"{"id":6,"a":{"type":"triangle","a":[0,0],"b":[1,0],"c":[0,1],"margin":-0.1},"b":{"type":"circle","radius":1}}"#,
        json!(6),
        "a.margin: must not be negative, got -0.1",
    );
}

#[test]
fn mixed_dimensions_between_shapes() {
    assert_rejected(
        r#"{"id":7,"a":{"type":"circle","radius":1,"center":[0,0]},"b":{"type":"sphere","radius":1,"center":[0,0,3]}}"#,
        json!(7),
        "b.center: has 3 coordinates, but a.center has 2 coordinates: 2D and 3D cannot be mixed",
    );
}

#[test]
fn mixed_dimensions_within_a_point_set() {
    assert_rejected(
        r#"{"id":7,"a":{"type":"points","points":[[0,0],[1,0],[0,1,2]]},"b":{"type":"circle","radius":1}}"#,
        json!(7),
        "a.points[2]: has 3 coordinates, but a.points[0] has 2 coordinates: 2D and 3D cannot be \
         mixed",
    );
}

#[test]
fn mixed_dimensions_within_a_segment() {
    assert_rejected(
        r#"{"id":7,"a":{"type":"segment","a":[0,0,0],"b":[1,0]},"b":{"type":"circle","radius":1}}"#,
        json!(7),
        "a.b: has 2 coordinates, but a.a has 3 coordinates: 2D and 3D cannot be mixed",
    );
}

#[test]
fn mixed_dimensions_within_a_pose() {
    assert_rejected(
        r#"{"id":7,"a":{"type":"sphere","radius":1},"b":{"type":"sphere","radius":1},"pose_b":{"translation":[3,0],"rotation":[0,0,0,1]}}"#,
        json!(7),
        "pose_b.rotation: is a 3D quaternion, but pose_b.translation has 2 coordinates: 2D and \
         3D cannot be mixed",
    );
}

#[test]
fn angle_with_a_3d_shape() {
    assert_rejected(
        r#"{"id":7,"a":{"type":"box","half_extents":[1,1,1]},"b":{"type":"sphere","radius":1},"pose_a":{"rotation":0.5}}"#,
        json!(7),
        "pose_a.rotation: is a 2D angle, but a.half_extents has 3 coordinates: 2D and 3D cannot \
         be mixed",
    );
}

#[test]
fn cone_in_2d() {
    assert_rejected(
        r#"{"id":7,"a":{"type":"circle","radius":1,"center":[0,0]},"b":{"type":"cone","half_height":1,"radius":1}}"#,
        json!(7),
        "b.type: is a 3D-only shape, but a.center has 2 coordinates: 2D and 3D cannot be mixed",
    );
}

#[test]
fn missing_shape() {
    assert_rejected(r#"{"id":8,"a":{"type":"sphere","radius":1}}"#, json!(8), "b: missing");
}

#[test]
fn null_shape_counts_as_missing() {
    assert_rejected(
        r#"{"id":8,"a":null,"b":{"type":"sphere","radius":1}}"#,
        json!(8),
        "a: missing",
    );
}

#[test]
fn missing_radius() {
    assert_rejected(
        r#"{"id":8,"a":{"type":"capsule","a":[0,0,0],"b":[0,1,0]},"b":{"type":"sphere","radius":1}}"#,
        json!(8),
        "a.radius: missing",
    );
}

#[test]
fn missing_type() {
    assert_rejected(
        r#"{"id":{"run":3},"a":{"radius":1},"b":{"type":"sphere","radius":1}}"#,
        json!({"run": 3}),
        "a.type: missing",
    );
}

#[test]
fn number_given_as_string() {
    assert_rejected(
        r#"{"id":9,"a":{"type":"sphere","radius":"1"},"b":{"type":"sphere","radius":1}}"#,
        json!(9),
        "a.radius: expected a number, got the string \"1\"",
    );
}

#[test]
fn shape_not_an_object() {
    assert_rejected(
        r#"{"id":9,"a":{"type":"sphere","radius":1},"b":5}"#,
        json!(9),
        "b: expected an object, got the number 5",
    );
}

#[test]
fn pose_not_an_object() {
    assert_rejected(
        r#"{"id":9,"a":{"type":"sphere","radius":1},"b":{"type":"sphere","radius":1},"pose_a":[0,0,0]}"#,
        json!(9),
        "pose_a: expected an object, got an array of 3 items",
    );
}

#[test]
fn line_is_an_array() {
    assert_rejected(
        "[1, 2]",
        Value::Null,
        "expected a JSON object per line, got an array of 2 items",
    );
}

#[test]
fn line_is_a_number() {
    assert_rejected("42", Value::Null, "expected a JSON object per line, got the number 42");
}

#[test]
fn line_is_not_utf8() {
    assert_rejected_bytes(b"{\"id\":\"\xff\"}", Value::Null, "line is not valid UTF-8");
}

/// The limit `gjk query --help` states for one line, in bytes.
const LINE_LIMIT: usize = 1 << 20;

#[test]
fn too_long_line() {
    let long = format!("{BEFORE}{}", " ".repeat(LINE_LIMIT));
    assert_rejected(
        &long,
        Value::Null,
        &format!(
            "line 2 is longer than {LINE_LIMIT} bytes (the limit of gjk query); it was skipped"
        ),
    );
}

/// 50 MiB of zero bytes without a newline, then a newline and a good line: one error record
/// for line 1, the answer for line 2, and the process's peak memory stays far below the
/// line's size. The peak is `VmHWM` in `/proc/PID/status`, read once all input is written
/// (the pipe holds at most 64 KiB, so gjk has read the long line) but before the input is
/// closed, while the process still lives; its answers wait in its output buffer until then.
#[cfg(target_os = "linux")]
#[test]
fn endless_line_costs_bounded_memory() {
    use std::io::Write;

    const ZEROS: usize = 50 << 20;
    let mut child = common::spawn(&["query"]);
    let mut input = child.stdin.take().unwrap();
    let chunk = vec![0u8; 1 << 20];
    for _ in 0..ZEROS / chunk.len() {
        input.write_all(&chunk).unwrap();
    }
    writeln!(input, "\n{AFTER}").unwrap();
    input.flush().unwrap();
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let peak_kib: usize = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/PID/status");
    drop(input);
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let records: Vec<Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records.len(), 2, "{stdout}");
    assert_eq!(
        records[0],
        json!({"id": null, "line": 1, "error": format!(
            "line 1 is longer than {LINE_LIMIT} bytes (the limit of gjk query); it was skipped"
        )})
    );
    assert_eq!(records[1]["id"], "after");
    assert!((num(&records[1], "distance") - 2.0).abs() < 1e-12);
    assert_eq!(output.status.code(), Some(1));
    assert!(peak_kib < 20 << 10, "peak memory {peak_kib} KiB for a {ZEROS}-byte line");
}

// Query kinds and casts. RAY and CAST are valid lines; each test breaks one field.

/// A valid 3D ray cast line; `field` replaced by `value` (or removed when `value` is None).
fn ray(field: &str, value: Option<Value>) -> String {
    with(
        json!({"id": "r", "query": "ray_cast", "shape": {"type": "sphere", "radius": 1},
            "pose": {"translation": [0, 0, 1]}, "origin": [-5, 0, 0], "direction": [1, 0, 0],
            "max_toi": 10}),
        field,
        value,
    )
}

/// A valid 3D shape cast line, with `field` replaced or removed.
fn cast(field: &str, value: Option<Value>) -> String {
    with(
        json!({"id": "c", "query": "shape_cast", "a": {"type": "sphere", "radius": 1},
            "b": {"type": "box", "half_extents": [1, 1, 1]}, "pose_b": {"translation": [5, 0, 0]},
            "velocity_a": [1, 0, 0], "velocity_b": [0, 0, 0], "max_toi": 10}),
        field,
        value,
    )
}

fn with(mut line: Value, field: &str, value: Option<Value>) -> String {
    match value {
        Some(value) => line[field] = value,
        None => {
            line.as_object_mut().unwrap().remove(field);
        }
    }
    line.to_string()
}

#[test]
fn valid_cast_lines_are_answered() {
    // The baselines of the tests below: nothing else in them is wrong.
    let input = format!("{}\n{}\n", ray("id", Some(json!("r"))), cast("id", Some(json!("c"))));
    let run = query(&input);
    assert_eq!(run.status, 0, "{}", run.stdout);
    let records = run.records();
    assert_eq!((&records[0]["status"], &records[1]["status"]), (&json!("hit"), &json!("hit")));
}

#[test]
fn unknown_query_kind() {
    assert_rejected(
        &ray("query", Some(json!("raycast"))),
        json!("r"),
        "query: unknown query kind \"raycast\" (expected one of proximity, ray_cast, shape_cast, \
         manifold, time_of_impact)",
    );
}

#[test]
fn query_kind_not_a_string() {
    assert_rejected(
        &ray("query", Some(json!(["ray_cast"]))),
        json!("r"),
        "query: expected a string, got an array of 1 items",
    );
}

#[test]
fn ray_without_shape() {
    assert_rejected(&ray("shape", None), json!("r"), "shape: missing");
}

#[test]
fn ray_with_a_bad_shape() {
    assert_rejected(
        &ray("shape", Some(json!({"type": "sphere", "radius": 0}))),
        json!("r"),
        "shape.radius: must be positive, got 0",
    );
}

#[test]
fn ray_without_origin() {
    assert_rejected(&ray("origin", None), json!("r"), "origin: missing");
}

#[test]
fn ray_without_direction() {
    assert_rejected(&ray("direction", None), json!("r"), "direction: missing");
}

#[test]
fn ray_without_max_toi() {
    assert_rejected(&ray("max_toi", None), json!("r"), "max_toi: missing");
}

#[test]
fn ray_origin_not_an_array() {
    assert_rejected(
        &ray("origin", Some(json!("0,0,0"))),
        json!("r"),
        "origin: expected an array of numbers, got the string \"0,0,0\"",
    );
}

#[test]
fn ray_direction_with_a_string_coordinate() {
    assert_rejected(
        &ray("direction", Some(json!([1, "0", 0]))),
        json!("r"),
        "direction[1]: expected a number, got the string \"0\"",
    );
}

#[test]
fn ray_max_toi_not_a_number() {
    assert_rejected(
        &ray("max_toi", Some(json!(true))),
        json!("r"),
        "max_toi: expected a number, got true",
    );
}

#[test]
fn ray_solid_not_a_bool() {
    assert_rejected(
        &ray("solid", Some(json!("yes"))),
        json!("r"),
        "solid: expected true or false, got the string \"yes\"",
    );
}

/// JSON has no infinity: a number beyond `f64` is refused by the JSON reader.
#[test]
fn ray_max_toi_beyond_f64() {
    let line = ray("max_toi", Some(json!(1))).replace("\"max_toi\":1", "\"max_toi\":1e999");
    let column = line.find("1e999").unwrap() + 5;
    assert_rejected(
        &line,
        Value::Null,
        &format!("invalid JSON at column {column}: number out of range"),
    );
}

#[test]
fn ray_direction_beyond_the_accepted_magnitude() {
    assert_rejected(
        &ray("direction", Some(json!([1e16, 0, 0]))),
        json!("r"),
        "direction[0]: magnitude must be at most 1e15, got 1e16",
    );
}

#[test]
fn ray_zero_direction() {
    assert_rejected(
        &ray("direction", Some(json!([0, 0, 0]))),
        json!("r"),
        "direction: must not be zero: a ray needs a direction",
    );
}

#[test]
fn ray_zero_direction_in_2d() {
    let line = json!({"id": 5, "query": "ray_cast", "shape": {"type": "circle", "radius": 1},
        "origin": [3, 0], "direction": [0, -0.0], "max_toi": 1});
    assert_rejected(
        &line.to_string(),
        json!(5),
        "direction: must not be zero: a ray needs a direction",
    );
}

#[test]
fn ray_negative_max_toi() {
    assert_rejected(
        &ray("max_toi", Some(json!(-0.5))),
        json!("r"),
        "max_toi: must not be negative, got -0.5",
    );
}

#[test]
fn ray_origin_and_shape_of_different_dimensions() {
    assert_rejected(
        &ray("origin", Some(json!([-5, 0]))),
        json!("r"),
        "origin: has 2 coordinates, but pose.translation has 3 coordinates: 2D and 3D cannot be \
         mixed",
    );
}

#[test]
fn ray_direction_and_origin_of_different_dimensions() {
    let line = json!({"id": 6, "query": "ray_cast", "shape": {"type": "sphere", "radius": 1},
        "origin": [3, 0], "direction": [-1, 0, 0], "max_toi": 1});
    assert_rejected(
        &line.to_string(),
        json!(6),
        "direction: has 3 coordinates, but origin has 2 coordinates: 2D and 3D cannot be mixed",
    );
}

#[test]
fn ray_against_a_cone_in_2d() {
    let line = json!({"id": 7, "query": "ray_cast",
        "shape": {"type": "cone", "half_height": 1, "radius": 1},
        "origin": [3, 0], "direction": [-1, 0], "max_toi": 1});
    assert_rejected(
        &line.to_string(),
        json!(7),
        "origin: has 2 coordinates, but shape.type is a 3D-only shape: 2D and 3D cannot be mixed",
    );
}

#[test]
fn shape_cast_without_b() {
    assert_rejected(&cast("b", None), json!("c"), "b: missing");
}

#[test]
fn shape_cast_without_velocity_a() {
    assert_rejected(&cast("velocity_a", None), json!("c"), "velocity_a: missing");
}

#[test]
fn shape_cast_without_velocity_b() {
    assert_rejected(&cast("velocity_b", None), json!("c"), "velocity_b: missing");
}

#[test]
fn shape_cast_without_max_toi() {
    assert_rejected(&cast("max_toi", None), json!("c"), "max_toi: missing");
}

#[test]
fn shape_cast_velocity_not_an_array() {
    assert_rejected(
        &cast("velocity_b", Some(json!({"x": 1}))),
        json!("c"),
        "velocity_b: expected an array of numbers, got an object",
    );
}

#[test]
fn shape_cast_velocity_with_null_coordinate() {
    assert_rejected(
        &cast("velocity_a", Some(json!([1, null, 0]))),
        json!("c"),
        "velocity_a[1]: expected a number, got null",
    );
}

#[test]
fn shape_cast_max_toi_as_string() {
    assert_rejected(
        &cast("max_toi", Some(json!("10"))),
        json!("c"),
        "max_toi: expected a number, got the string \"10\"",
    );
}

#[test]
fn shape_cast_velocity_beyond_the_accepted_magnitude() {
    assert_rejected(
        &cast("velocity_a", Some(json!([0, -3e15, 0]))),
        json!("c"),
        "velocity_a[1]: magnitude must be at most 1e15, got -3e15",
    );
}

#[test]
fn shape_cast_negative_max_toi() {
    assert_rejected(
        &cast("max_toi", Some(json!(-1))),
        json!("c"),
        "max_toi: must not be negative, got -1",
    );
}

#[test]
fn shape_cast_velocity_and_shapes_of_different_dimensions() {
    assert_rejected(
        &cast("velocity_b", Some(json!([0, 0]))),
        json!("c"),
        "velocity_b: has 2 coordinates, but b.half_extents has 3 coordinates: 2D and 3D cannot \
         be mixed",
    );
}

#[test]
fn shape_cast_with_a_bad_pose() {
    assert_rejected(
        &cast("pose_a", Some(json!({"rotation": [0, 0, 0, 0]}))),
        json!("c"),
        "pose_a.rotation: the zero quaternion is not a rotation",
    );
}
