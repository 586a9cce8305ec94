//! `gjk scene`: the pairs in contact against `gjk query` on every pair of the same bodies.
//!
//! Oracle: the query command answers each pair on its own (no boxes, no tree, no cache, no
//! world); a pair is in contact when it answers `"intersects": true` (or, with a prediction,
//! `distance ≤ prediction`). The scene's answers must be exactly those pairs, in file order.

mod common;

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

/// Every pair `i < j` answered by `gjk query`: `(i, j)` for those in contact.
fn oracle(bodies: &[Value], prediction: f64) -> Vec<(String, String)> {
    let mut lines = String::new();
    for (i, a) in bodies.iter().enumerate() {
        for b in &bodies[i + 1..] {
            let line = json!({"id": [a["id"], b["id"]], "a": a["shape"], "b": b["shape"],
                              "pose_a": a["pose"], "pose_b": b["pose"]});
            lines.push_str(&line.to_string());
            lines.push('\n');
        }
    }
    let run = gjk(&["query", "-"], lines.as_bytes());
    assert_eq!(run.status, 0, "{}", run.stderr);
    run.records()
        .into_iter()
        .filter(|r| r["intersects"] == json!(true) || r["distance"].as_f64().unwrap() <= prediction)
        .map(|r| (r["id"][0].as_str().unwrap().to_owned(), r["id"][1].as_str().unwrap().to_owned()))
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
        assert_eq!(scene_pairs(&records), want);
        for r in &records {
            let n: Vec<f64> =
                r["normal"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
            assert!((n.iter().map(|x| x * x).sum::<f64>() - 1.0).abs() < 1e-9, "{r}");
            let depth = r["points"][0]["depth"].as_f64().unwrap();
            match (r.get("depth"), r.get("distance")) {
                (Some(d), None) => assert_eq!(d.as_f64().unwrap(), depth),
                (None, Some(g)) => {
                    assert_eq!(-g.as_f64().unwrap(), depth);
                    assert!(g.as_f64().unwrap() <= prediction);
                }
                other => panic!("depth or distance: {other:?}"),
            }
            assert!(r["status"].is_string());
        }
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
    for needle in ["\"dim\"", "\"bodies\"", "prediction", "\"distance\"", "cuboid", "EXIT STATUS"] {
        assert!(run.stdout.contains(needle), "{needle} missing from the help");
    }
}
