//! `gjk scene`: the pairs in contact against `gjk query` on every pair of the same bodies.
//!
//! Oracle: the query command answers each pair on its own (no boxes, no tree, no cache, no
//! world); a pair is in contact when it answers `"intersects": true` (or, with a prediction,
//! `distance ≤ prediction`). The scene's answers must be exactly those pairs, in file order,
//! and each pair's normal, points (with ids) and statuses exactly the `"query": "manifold"`
//! answer for the pair (one update of a world starts from fresh caches, as a lone query does,
//! so the numbers agree to the bit); its depth or distance the deepest of those points.

use crate::common;

use common::gjk;
use gjk_testkit::SplitMix64;
use serde_json::{json, Value};

fn random_body(rng: &mut SplitMix64, i: usize) -> Value {
    let p = |rng: &mut SplitMix64| {
        json!([rng.range(0.0, 8.0), rng.range(0.0, 8.0), rng.range(0.0, 8.0)])
    };
    let shape = match rng.below(5) {
        0 => {
            json!({"type": "cuboid", "half_extents": [rng.range(0.2, 0.8), rng.range(0.2, 0.8), 0.5]})
        }
        1 => json!({"type": "sphere", "radius": rng.range(0.2, 0.8)}),
        2 => json!({"type": "capsule", "a": [0, -0.5, 0], "b": [0, 0.5, 0], "radius": 0.3}),
        3 => json!({"type": "cylinder", "half_height": 0.5, "radius": 0.4, "margin": 0.05}),
        _ => {
            let points: Vec<Value> =
                (0..12).map(|_| json!(rng.unit_vector3().map(|c| c * 0.7))).collect();
            json!({"type": "points", "points": points})
        }
    };
    let [x, y, z, w] = rng.rotation3();
    json!({"id": format!("body{i}"), "shape": shape,
           "pose": {"translation": p(rng), "rotation": [x, y, z, w]}})
}

/// Every pair `i < j` answered by `gjk query`: for those in contact (by the proximity
/// answer), `(i, j)` and the pair's manifold answer.
fn oracle(bodies: &[Value], prediction: f64) -> Vec<((String, String), Value)> {
    let mut lines = String::new();
    for (i, a) in bodies.iter().enumerate() {
        for b in &bodies[i + 1..] {
            let mut line = json!({"id": [a["id"], b["id"]], "a": a["shape"], "b": b["shape"],
                                  "pose_a": a["pose"], "pose_b": b["pose"]});
            lines.push_str(&line.to_string());
            lines.push('\n');
            line["query"] = json!("manifold");
            line["prediction"] = json!(prediction);
            lines.push_str(&line.to_string());
            lines.push('\n');
        }
    }
    let run = gjk(&["query", "-"], lines.as_bytes());
    assert_eq!(run.status, 0, "{}", run.stderr);
    let records = run.records();
    records
        .chunks(2)
        .filter(|r| {
            r[0]["intersects"] == json!(true) || r[0]["distance"].as_f64().unwrap() <= prediction
        })
        .map(|r| {
            let id = |k: usize| r[0]["id"][k].as_str().unwrap().to_owned();
            ((id(0), id(1)), r[1].clone())
        })
        .collect()
}

fn scene_pairs(records: &[Value]) -> Vec<(String, String)> {
    records
        .iter()
        .map(|r| (r["a"].as_str().unwrap().to_owned(), r["b"].as_str().unwrap().to_owned()))
        .collect()
}

#[test]
fn scene_pairs_equal_gjk_query_on_every_pair() {
    let mut rng = SplitMix64::new(2015);
    let bodies: Vec<Value> = (0..150).map(|i| random_body(&mut rng, i)).collect();
    for prediction in [0.0, 0.3] {
        let scene = json!({"dim": 3, "prediction": prediction, "bodies": bodies});
        let run = gjk(&["scene", "-"], scene.to_string().as_bytes());
        assert_eq!(run.status, 0, "{}", run.stderr);
        let records = run.records();
        let want = oracle(&bodies, prediction);
        assert!(want.len() > 50, "a crowded scene: {} pairs", want.len());
        let want_pairs: Vec<_> = want.iter().map(|(pair, _)| pair.clone()).collect();
        assert_eq!(scene_pairs(&records), want_pairs);
        let mut patches = 0;
        for (r, (_, manifold)) in records.iter().zip(&want) {
            for field in ["normal", "points", "contact_status", "status"] {
                assert_eq!(r[field], manifold[field], "{field}: {r} against {manifold}");
            }
            let points = r["points"].as_array().unwrap();
            assert!((1..=4).contains(&points.len()), "{r}");
            patches += usize::from(points.len() > 1);
            let depth =
                points.iter().map(|p| p["depth"].as_f64().unwrap()).fold(f64::MIN, f64::max);
            match (r.get("depth"), r.get("distance")) {
                (Some(d), None) => assert_eq!(d.as_f64().unwrap(), depth),
                (None, Some(g)) => {
                    assert_eq!(-g.as_f64().unwrap(), depth);
                    assert!(g.as_f64().unwrap() <= prediction);
                }
                other => panic!("depth or distance: {other:?}"),
            }
        }
        assert!(patches > 10, "faces against faces: {patches} patches of several points");
    }
}

#[test]
fn a_2d_scene_in_file_order() {
    let scene = json!({"dim": 2, "bodies": [
        {"id": "c", "shape": {"type": "circle", "radius": 1.0}, "pose": {"translation": [1.5, 0.0]}},
        {"id": "a", "shape": {"type": "rectangle", "half_extents": [1.0, 1.0]}},
        {"id": "far", "shape": {"type": "circle", "radius": 1.0}, "pose": {"translation": [9.0, 0.0]}},
        {"id": "b", "shape": {"type": "polygon", "points": [[0, 0], [1, 0], [0, 1]]},
         "pose": {"translation": [0.5, 0.5], "rotation": 0.3}}
    ]});
    let run = gjk(&["scene", "-"], scene.to_string().as_bytes());
    assert_eq!(run.status, 0, "{}", run.stderr);
    let records = run.records();
    let pairs: Vec<(String, String)> = scene_pairs(&records);
    let p = |a: &str, b: &str| (a.to_owned(), b.to_owned());
    assert_eq!(pairs, [p("c", "a"), p("c", "b"), p("a", "b")]);
    // The disc against the square: 0.5 deep along −x (from the disc toward the square).
    assert_eq!(records[0]["depth"].as_f64().unwrap(), 0.5);
    assert_eq!(records[0]["normal"], json!([-1.0, 0.0]));
    assert_eq!(records[0]["status"], "single_point");
    assert_eq!(records[0]["points"].as_array().unwrap().len(), 1);
}

#[test]
fn a_square_on_a_floor_touches_at_its_two_bottom_corners() {
    // The square sinks 0.25 into the floor's top (y = 0): the patch is its bottom edge, from
    // x = 1 to x = 3, seen from the floor (the reference face, its top edge).
    let scene = json!({"dim": 2, "bodies": [
        {"id": "floor", "shape": {"type": "rectangle", "half_extents": [10.0, 1.0]},
         "pose": {"translation": [0.0, -1.0]}},
        {"id": "square", "shape": {"type": "rectangle", "half_extents": [1.0, 1.0]},
         "pose": {"translation": [2.0, 0.75]}}
    ]});
    let run = gjk(&["scene", "-"], scene.to_string().as_bytes());
    assert_eq!(run.status, 0, "{}", run.stderr);
    let records = run.records();
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_eq!(r["normal"], json!([0.0, 1.0]));
    assert_eq!(r["depth"].as_f64().unwrap(), 0.25);
    assert_eq!(r["status"], "clipped_a");
    let points = r["points"].as_array().unwrap();
    assert_eq!(points.len(), 2, "{r}");
    let mut xs: Vec<f64> = points.iter().map(|p| p["point_b"][0].as_f64().unwrap()).collect();
    xs.sort_by(f64::total_cmp);
    assert_eq!(xs, [1.0, 3.0]);
    for p in points {
        assert_eq!(p["depth"].as_f64().unwrap(), 0.25);
        assert_eq!(p["point_a"][1].as_f64().unwrap(), 0.0);
        assert_eq!(p["point_b"][1].as_f64().unwrap(), -0.25);
        assert_eq!(p["id"].as_array().unwrap().len(), 2);
    }
}

#[test]
fn bad_bodies_get_error_records_and_the_rest_is_answered() {
    let scene = r#"{"dim": 3, "bodies": [
        {"id": 0, "shape": {"type": "sphere", "radius": 1}},
        {"id": 1, "shape": {"type": "sphere", "radius": -1}},
        {"id": 2, "shape": {"type": "sphere", "radius": 1}, "pose": {"rotation": 0.5}},
        {"id": 3, "shape": {"type": "sphere", "radius": 1}, "pose": {"translation": [1, 0, 0]}},
        {"shape": {"type": "circle", "radius": 1, "center": [0, 0]}}
    ]}"#;
    let run = gjk(&["scene", "-"], scene.as_bytes());
    assert_eq!(run.status, 1);
    let records = run.records();
    assert_eq!(records.len(), 4);
    assert_eq!(records[0]["body"], 1);
    assert_eq!(records[0]["error"], "bodies[1].shape.radius: must be positive, got -1");
    assert_eq!(records[1]["body"], 2);
    assert!(records[1]["error"].as_str().unwrap().starts_with("bodies[2].pose.rotation"));
    assert_eq!(records[2]["body"], 4);
    assert_eq!(records[2]["id"], Value::Null);
    assert!(records[2]["error"].as_str().unwrap().contains("but dim is 3"), "{}", records[2]);
    assert_eq!((records[3]["a"].clone(), records[3]["b"].clone()), (json!(0), json!(3)));
}

#[test]
fn files_that_are_not_scenes_are_usage_errors() {
    for (input, message) in [
        ("{\"dim\": 2,\n \"bodies\": [}", "invalid JSON at line 2"),
        ("{\"dim\": 4, \"bodies\": []}", "dim: must be 2 or 3"),
        ("{\"bodies\": []}", "dim"),
        ("{\"dim\": 2}", "bodies"),
        ("{\"dim\": 2, \"bodies\": {}}", "bodies: must be an array"),
        ("{\"dim\": 2, \"bodies\": [], \"prediction\": -1}", "prediction"),
        ("[1, 2]", "expected a JSON object"),
    ] {
        let run = gjk(&["scene", "-"], input.as_bytes());
        assert_eq!(run.status, 2, "{input}");
        assert!(run.stdout.is_empty());
        assert!(run.stderr.starts_with("gjk: -: "), "{}", run.stderr);
        assert!(run.stderr.contains(message), "{input}: {}", run.stderr);
    }
    let run = gjk(&["scene", "/no/such/scene.json"], b"");
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("cannot read /no/such/scene.json"));
}

#[test]
fn scene_help_documents_the_format() {
    let run = gjk(&["scene", "--help"], b"");
    assert_eq!(run.status, 0);
    for needle in [
        "\"dim\"",
        "\"bodies\"",
        "prediction",
        "\"distance\"",
        "\"id\"",
        "contact_status",
        "clipped_a",
        "cuboid",
        "EXIT STATUS",
    ] {
        assert!(run.stdout.contains(needle), "{needle} missing from the help");
    }
}
