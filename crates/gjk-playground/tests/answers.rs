//! The playground's answers, natively.
//!
//! Oracles: the tutorials' published support points (the classic method on the tutorial
//! triangles, and on the polygons of dyn4j's GJK article); `gjk_explain` called directly, which
//! the page's example scenes (`playground/www/examples.json`) must reproduce number for number;
//! and closed forms for a separated pair of boxes.

use serde_json::{json, Value};

fn ask(request: Value) -> Value {
    serde_json::from_str(&gjk_playground::answer(&request.to_string())).expect("answers are JSON")
}

fn supports(answer: &Value, stage: &str) -> Vec<Value> {
    answer["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter(|s| s["stage"] == stage)
        .map(|s| s["w"].clone())
        .collect()
}

#[test]
fn classic_method_gives_the_tutorials_support_points() {
    let triangles = ask(json!({"example": "tutorial-triangles", "method": "classic"}));
    assert_eq!(
        supports(&triangles, "gjk"),
        [json!([0.0, 2.0]), json!([0.0, -2.0]), json!([-2.0, -2.0])]
    );
    assert_eq!(triangles["intersecting"], true);
    let dyn4j = ask(json!({"example": "dyn4j", "method": "classic"}));
    assert_eq!(
        supports(&dyn4j, "gjk"),
        [json!([4.0, 2.0]), json!([-6.0, 9.0]), json!([-8.0, -2.0]), json!([-1.0, -2.0])]
    );
}

#[test]
fn the_answer_carries_the_words_of_gjk_explain() {
    use gjk_explain::{ExplainOptions, Explanation, Method};
    for name in ["tutorial-triangles", "dyn4j", "circle-polygon"] {
        for method in [Method::Robust, Method::Classic] {
            let options = ExplainOptions { method, ..Default::default() };
            let direct = Explanation::builtin(name, &options).unwrap();
            let answer = ask(json!({"example": name, "method": method.to_string()}));
            assert_eq!(answer["text"], direct.text(), "{name} {method}");
            // The step paragraphs are the walkthrough cut into pieces, in order.
            let text = direct.text();
            let mut at = 0;
            for step in answer["steps"].as_array().unwrap() {
                let piece = step["text"].as_str().unwrap();
                at = at + text[at..].find(piece).expect("each step's words are in the walkthrough");
            }
        }
    }
}

/// Whether two JSON values have the same shape and numbers within 1e-12 (relative to 1).
fn close(a: &[Value], b: &[Value]) -> bool {
    fn same(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
            }
            (Value::Number(x), Value::Number(y)) => {
                let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
                (x - y).abs() <= 1e-12 * x.abs().max(1.0)
            }
            _ => a == b,
        }
    }
    a.len() == b.len() && a.iter().zip(b).all(|(p, q)| same(p, q))
}

#[test]
fn the_pages_example_scenes_reproduce_the_built_in_examples() {
    let scenes: Value =
        serde_json::from_str(include_str!("../../../playground/www/examples.json")).unwrap();
    let mut builtins = 0;
    // The page's own examples (`"builtin": false`) have no built-in to match.
    let scenes = scenes.as_object().unwrap().iter().filter(|(_, s)| s["builtin"] != false);
    for (name, scene) in scenes {
        builtins += 1;
        for method in ["robust", "classic"] {
            let builtin = ask(json!({"example": name, "method": method}));
            let pair = json!({
                "a": scene["a"], "b": scene["b"],
                "pose_a": scene.get("pose_a").cloned().unwrap_or(Value::Null),
                "pose_b": scene.get("pose_b").cloned().unwrap_or(Value::Null),
            });
            let mut request = json!({"pair": pair, "method": method});
            if let Some(d) = scene.get("direction") {
                request["direction"] = d.clone();
            }
            let custom = ask(request);
            assert_eq!(custom["ok"], true, "{name}: {custom}");
            for field in ["w", "support_a", "support_b", "direction", "simplex"] {
                let pick = |a: &Value| -> Vec<Value> {
                    a["steps"].as_array().unwrap().iter().map(|s| s[field].clone()).collect()
                };
                if scene["dim"] == 3 {
                    // The built-in places the box's corners with its own quaternion (from an
                    // angle), which the page's JSON gives to 17 digits: equal up to rounding.
                    assert!(close(&pick(&custom), &pick(&builtin)), "{name} {method} {field}");
                } else {
                    assert_eq!(pick(&custom), pick(&builtin), "{name} {method} {field}");
                }
            }
            assert_eq!(custom["intersecting"], builtin["intersecting"]);
        }
    }
    assert_eq!(builtins, gjk_explain::BUILTIN_NAMES.len());
}

/// Every example scene of the page is answered; 3D ones carry the meshes the 3D view draws
/// (closed triangle meshes: each edge shared by two triangles) and, when the shapes overlap,
/// EPA steps whose polytope is made of triangles.
#[test]
fn the_pages_3d_scenes_carry_meshes_and_epa_polytopes() {
    let scenes: Value =
        serde_json::from_str(include_str!("../../../playground/www/examples.json")).unwrap();
    let mut three = 0;
    for (name, scene) in scenes.as_object().unwrap() {
        let pair = json!({
            "a": scene["a"], "b": scene["b"],
            "pose_a": scene.get("pose_a").cloned().unwrap_or(Value::Null),
            "pose_b": scene.get("pose_b").cloned().unwrap_or(Value::Null),
        });
        let answer = ask(json!({"pair": pair}));
        assert_eq!(answer["ok"], true, "{name}: {answer}");
        if scene["dim"] != 3 {
            assert!(answer["meshes"].is_null());
            continue;
        }
        three += 1;
        // Rounded shapes (the capsule) also carry their cores' difference.
        let rounded = [&scene["a"], &scene["b"]].iter().any(|s| s["type"] == "capsule");
        assert_eq!(answer["meshes"]["core_difference"].is_null(), !rounded, "{name}");
        let sides = ["a", "b", "difference", "core_difference"];
        for side in sides.into_iter().filter(|&s| s != "core_difference" || rounded) {
            let mesh = &answer["meshes"][side];
            let triangles = mesh["triangles"].as_array().unwrap();
            assert!(triangles.len() >= 4, "{name} {side}");
            let mut edges = std::collections::BTreeMap::new();
            for t in triangles {
                let t: Vec<u64> =
                    t.as_array().unwrap().iter().map(|i| i.as_u64().unwrap()).collect();
                for k in 0..3 {
                    let (p, q) = (t[k], t[(k + 1) % 3]);
                    *edges.entry((p.min(q), p.max(q))).or_insert(0) += 1;
                }
            }
            assert!(edges.values().all(|&n| n == 2), "{name} {side}: not closed");
        }
        assert_eq!(answer["intersecting"], true, "{name}: the 3D examples overlap");
        let epa: Vec<&Value> =
            answer["steps"].as_array().unwrap().iter().filter(|s| s["stage"] == "epa").collect();
        assert!(!epa.is_empty(), "{name}");
        for step in epa {
            let faces = step["faces"].as_array().unwrap();
            assert!(faces.len() >= 4 && faces.iter().all(|f| f.as_array().unwrap().len() == 3));
            let [lower, upper] = [0, 1].map(|i| step["bounds"][i].as_f64().unwrap());
            // Up to rounding: a converged step's bounds meet within a few ulps.
            assert!(lower <= upper + 1e-12 * upper.abs().max(1.0), "{name}: {step}");
        }
    }
    assert!(three >= 2, "{three}");
}

#[test]
fn separated_boxes_give_the_closed_form_distance() {
    // Unit squares (half extents 0.5) 3 apart along x: a gap of 2, closest points on the facing
    // sides, normal +x.
    let answer = ask(json!({"pair": {
        "a": {"type": "box", "half_extents": [0.5, 0.5]},
        "b": {"type": "box", "half_extents": [0.5, 0.5]},
        "pose_b": {"translation": [3.0, 0.0], "rotation": 0.0}
    }}));
    assert_eq!(answer["intersecting"], false);
    let s = &answer["separation"];
    assert!((s["distance"].as_f64().unwrap() - 2.0).abs() < 1e-12, "{s}");
    assert!((s["point_a"][0].as_f64().unwrap() - 0.5).abs() < 1e-12);
    assert!((s["point_b"][0].as_f64().unwrap() - 2.5).abs() < 1e-12);
    assert!(answer["penetration"].is_null());
}

#[test]
fn overlapping_capsule_and_box_get_an_epa_run() {
    // A horizontal capsule (core from -1 to 1, radius 0.5) whose bottom dips 0.3 into a box top
    // at y = 0: the depth is 0.3 along -y from A to B... B is the box below, so the normal from
    // A (capsule) to B (box) is (0, -1).
    let answer = ask(json!({"pair": {
        "a": {"type": "capsule", "a": [-1.0, 0.0], "b": [1.0, 0.0], "radius": 0.5},
        "pose_a": {"translation": [0.0, 0.2], "rotation": 0.0},
        "b": {"type": "box", "half_extents": [2.0, 1.0]},
        "pose_b": {"translation": [0.0, -1.0], "rotation": 0.0}
    }}));
    assert_eq!(answer["intersecting"], true, "{answer}");
    let p = &answer["penetration"];
    assert!((p["depth"].as_f64().unwrap() - 0.3).abs() < 1e-9, "{p}");
    assert!((p["normal"][1].as_f64().unwrap() + 1.0).abs() < 1e-9, "{p}");
}

#[test]
fn bad_requests_get_clear_errors() {
    let cases = [
        ("not json", "not JSON"),
        ("[]", "JSON object"),
        (r#"{"example":"nope"}"#, "no built-in example 'nope'"),
        (r#"{"example":"dyn4j","method":"fast"}"#, "unknown method 'fast'"),
        (r#"{"example":"dyn4j","direction":[0,0]}"#, "bad first direction"),
        (r#"{"example":"dyn4j","direction":"up"}"#, "direction"),
        (r#"{}"#, "exactly one of"),
        (
            r#"{"pair":{"a":{"type":"circle","radius":-1},"b":{"type":"circle","radius":1}}}"#,
            "a.radius",
        ),
    ];
    for (request, expected) in cases {
        let answer: Value = serde_json::from_str(&gjk_playground::answer(request)).unwrap();
        assert_eq!(answer["ok"], false, "{request}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.contains(expected), "{request}: {error}");
    }
    let many: Vec<[f64; 2]> = (0..300).map(|i| [f64::from(i).cos(), f64::from(i).sin()]).collect();
    let answer = ask(
        json!({"pair": {"a": {"type": "polygon", "points": many}, "b": {"type": "circle", "radius": 1}}}),
    );
    assert!(answer["error"].as_str().unwrap().contains("more than 256 points"));
}
