//! `gjk query` contact manifolds, checked against closed forms computed here: a box resting on
//! a box (the overlap rectangle's corners, the sink as depth), a square on a square in 2D (the
//! overlap interval's ends), a ball on a box (one point), a gap within and beyond the
//! prediction; field order, statuses, ids and errors. Tolerance 1e-12 (exact kernels).

use crate::common;

use common::{assert_close, query};
use serde_json::{json, Value};

/// Answers one line and returns its record (exit status 0 required).
fn answer(line: &Value) -> Value {
    let run = query(&format!("{line}\n"));
    assert_eq!(run.status, 0, "stderr: {}\nstdout: {}", run.stderr, run.stdout);
    let mut records = run.records();
    assert_eq!(records.len(), 1);
    records.remove(0)
}

fn coords(v: &Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()
}

/// The points' `field`, sorted by coordinates for comparison with a closed form.
fn sorted(record: &Value, field: &str) -> Vec<Vec<f64>> {
    let mut points: Vec<Vec<f64>> =
        record["points"].as_array().unwrap().iter().map(|p| coords(&p[field])).collect();
    points.sort_by(|a, b| a.partial_cmp(b).unwrap());
    points
}

#[test]
fn a_box_resting_on_a_box_gives_the_four_corners_of_the_overlap() {
    let line = json!({"id": "stack", "query": "manifold",
        "a": {"type": "box", "half_extents": [2, 0.5, 2]},
        "b": {"type": "box", "half_extents": [0.5, 0.5, 0.5]},
        "pose_a": {"translation": [10, 0, 0]},
        "pose_b": {"translation": [11.8, 0.98, -0.2]}});
    let record = answer(&line);
    let text = record.to_string();
    assert_eq!(record["id"], "stack");
    assert_eq!(record["status"], "clipped_a", "{text}");
    assert_eq!(record["contact_status"], "exact");
    assert_close(&coords(&record["normal"]), &[0.0, 1.0, 0.0], 1e-12);
    // B spans x in [11.3, 12.3], A up to 12: the overlap is [11.3, 12] x [-0.7, 0.3].
    let expected = [[11.3, -0.7], [11.3, 0.3], [12.0, -0.7], [12.0, 0.3]];
    for (found, [x, z]) in sorted(&record, "point_a").iter().zip(expected) {
        assert_close(found, &[x, 0.5, z], 1e-12);
    }
    for (found, [x, z]) in sorted(&record, "point_b").iter().zip(expected) {
        assert_close(found, &[x, 0.48, z], 1e-12);
    }
    let points = record["points"].as_array().unwrap();
    assert_eq!(points.len(), 4);
    let mut ids = Vec::new();
    for p in points {
        assert!((p["depth"].as_f64().unwrap() - 0.02).abs() < 1e-12, "{text}");
        let id = p["id"].as_array().unwrap();
        assert_eq!(id.len(), 2);
        ids.push((id[0].as_u64().unwrap(), id[1].as_u64().unwrap()));
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 4, "distinct ids: {text}");
}

#[test]
fn fields_come_in_the_documented_order() {
    let line = json!({"query": "manifold", "a": {"type": "box", "half_extents": [1, 1]},
        "b": {"type": "box", "half_extents": [1, 1]}, "pose_b": {"translation": [0.5, 1.9]}});
    let run = query(&format!("{line}\n"));
    let out = run.stdout.trim_end();
    let order: Vec<usize> =
        ["\"id\"", "\"normal\"", "\"points\"", "\"contact_status\"", "\"status\""]
            .iter()
            .map(|k| out.find(k).unwrap_or_else(|| panic!("{k} missing from {out}")))
            .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{out}");
    let first = out.find("\"point_a\"").unwrap();
    assert!(
        first < out.find("\"point_b\"").unwrap()
            && out.find("\"depth\"").unwrap() < out.rfind("\"id\"").unwrap()
    );
}

#[test]
fn squares_in_2d_give_the_two_ends_of_the_overlap() {
    let line = json!({"query": "manifold", "a": {"type": "rectangle", "half_extents": [1, 1]},
        "b": {"type": "polygon", "points": [[-1, -1], [1, -1], [1, 1], [-1, 1]]},
        "pose_b": {"translation": [0.5, 1.9]}});
    let record = answer(&line);
    let points = sorted(&record, "point_a");
    assert_eq!(points.len(), 2);
    assert_close(&points[0], &[-0.5, 1.0], 1e-12);
    assert_close(&points[1], &[1.0, 1.0], 1e-12);
    let b = sorted(&record, "point_b");
    assert_close(&b[0], &[-0.5, 0.9], 1e-12);
    assert_close(&b[1], &[1.0, 0.9], 1e-12);
}

#[test]
fn a_ball_gives_one_point_and_a_gap_depends_on_the_prediction() {
    let ball_on_box = json!({"query": "manifold", "a": {"type": "box", "half_extents": [1, 1, 1]},
        "b": {"type": "sphere", "radius": 0.5}, "pose_b": {"translation": [0.2, 1.4, 0]}});
    let record = answer(&ball_on_box);
    assert_eq!(record["status"], "single_point");
    let points = record["points"].as_array().unwrap();
    assert_eq!(points.len(), 1);
    assert_close(&coords(&points[0]["point_a"]), &[0.2, 1.0, 0.0], 1e-12);
    assert!((points[0]["depth"].as_f64().unwrap() - 0.1).abs() < 1e-12);

    let gap = |prediction: f64| {
        answer(&json!({"query": "manifold", "a": {"type": "box", "half_extents": [1, 1]},
            "b": {"type": "box", "half_extents": [0.5, 0.5]},
            "pose_b": {"translation": [0, 1.55]}, "prediction": prediction}))
    };
    let near = gap(0.1);
    assert_eq!(near["status"], "clipped_a");
    for p in near["points"].as_array().unwrap() {
        assert!((p["depth"].as_f64().unwrap() + 0.05).abs() < 1e-12);
    }
    let far = gap(0.01);
    assert_eq!(far["status"], "apart");
    assert_eq!(far["normal"], Value::Null);
    assert_eq!(far["contact_status"], Value::Null);
    assert_eq!(far["points"], json!([]));
}

#[test]
fn a_bad_prediction_is_an_error_naming_the_field() {
    let input = concat!(
        r#"{"id": 1, "query": "manifold", "a": {"type": "sphere", "radius": 1}, "b": {"type": "sphere", "radius": 1}, "prediction": -1}"#,
        "\n",
        r#"{"id": 2, "query": "manifold", "a": {"type": "sphere", "radius": 1}, "b": {"type": "sphere", "radius": 1}, "prediction": "far"}"#,
        "\n",
        r#"{"id": 3, "query": "manifold", "a": {"type": "sphere", "radius": 1}, "b": {"type": "sphere", "radius": 1}, "pose_b": {"translation": [1, 0, 0]}}"#,
        "\n",
    );
    let run = query(input);
    assert_eq!(run.status, 1);
    let records = run.records();
    assert_eq!(records.len(), 3);
    for record in &records[..2] {
        let error = record["error"].as_str().unwrap();
        assert!(error.starts_with("prediction:"), "{error}");
    }
    assert_eq!(records[2]["status"], "single_point");
}

#[test]
fn the_help_documents_the_manifold_query() {
    let run = common::gjk(&["query", "--help"], b"");
    assert_eq!(run.status, 0);
    for word in ["manifold", "prediction", "clipped_a", "single_point", "tilted", "apart"] {
        assert!(run.stdout.contains(word), "{word} missing from the help");
    }
}
