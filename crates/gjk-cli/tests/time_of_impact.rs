//! `gjk query` time of impact under rotation, checked against closed forms computed here:
//! two moving balls (spinning or not) by the quadratic `|Δc + t·Δv| = r_a + r_b + g`, and a
//! thin bar spinning about its centre until its face meets a post's corner, at the angle
//! `θ* = φ − asin(h/ρ)` (the corner at polar angle `φ` and radius `ρ`, the bar's half
//! thickness `h`). The answer must lie within the slop before the exact contact time:
//! between the times the gap reaches `slop` and `slop/2` (balls), or within `slop` over the
//! closing speed of contact (bar). Errors name the field.

use crate::common;

use common::{num, query, vector};
use serde_json::{json, Value};

/// Answers one line and returns its record (exit status 0 required).
fn answer(line: &Value) -> Value {
    let run = query(&format!("{line}\n"));
    assert_eq!(run.status, 0, "stderr: {}\nstdout: {}", run.stderr, run.stdout);
    let mut records = run.records();
    assert_eq!(records.len(), 1);
    records.remove(0)
}

/// The error message of a line that cannot be answered.
fn error(line: &Value) -> String {
    let run = query(&format!("{line}\n"));
    assert_eq!(run.status, 1, "stdout: {}", run.stdout);
    run.records()[0]["error"].as_str().unwrap().to_owned()
}

/// The first `t ≥ 0` with `|d + t e| = g` (the quadratic's smaller root).
fn gap_time(d: &[f64], e: &[f64], g: f64) -> Option<f64> {
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let (a, b, c) = (dot(e, e), 2.0 * dot(d, e), dot(d, d) - g * g);
    let disc = b * b - 4.0 * a * c;
    (disc >= 0.0).then(|| (-b - disc.sqrt()) / (2.0 * a))
}

#[test]
fn spinning_balls_in_2d_and_3d() {
    for (dim, spin_a, spin_b) in
        [(2, json!(3.0), json!(-1.0)), (3, json!([0, 5, 1]), json!([2, 0, 0]))]
    {
        let (ca, cb) = if dim == 2 {
            (vec![-3.0, 0.5], vec![2.0, 0.0])
        } else {
            (vec![-3.0, 0.5, 0.2], vec![2.0, 0.0, -0.1])
        };
        let (va, vb) = if dim == 2 {
            (vec![4.0, 0.0], vec![-1.0, 0.0])
        } else {
            (vec![4.0, 0.0, 0.1], vec![-1.0, 0.0, 0.0])
        };
        let r = answer(&json!({
            "id": dim, "query": "time_of_impact",
            "a": {"type": "sphere", "radius": 0.5}, "b": {"type": "sphere", "radius": 1.0},
            "pose_a": {"translation": ca}, "pose_b": {"translation": cb},
            "velocity_a": va, "velocity_b": vb,
            "angular_velocity_a": spin_a, "angular_velocity_b": spin_b, "max_toi": 2.0
        }));
        assert_eq!(r["status"], "hit", "{r}");
        assert_eq!(r["hit"], true);
        let slop = num(&r, "slop");
        assert!((slop - 0.5e-3).abs() < 1e-12, "1/1000 of the smaller ball: {slop}");
        let d: Vec<f64> = cb.iter().zip(&ca).map(|(b, a)| b - a).collect();
        let e: Vec<f64> = vb.iter().zip(&va).map(|(b, a)| b - a).collect();
        let early = gap_time(&d, &e, 1.5 + slop).unwrap();
        let late = gap_time(&d, &e, 1.5 + slop / 2.0).unwrap();
        let toi = num(&r, "toi");
        assert!(toi >= early - 1e-9 && toi <= late + 1e-9, "{toi} not in [{early}, {late}]");
        let distance = num(&r, "distance");
        assert!(distance >= slop / 2.0 - 1e-9 && distance <= slop + 1e-9, "{distance}");
        // The normal joins the centres at toi.
        let normal = vector(&r, "normal");
        let at: Vec<f64> = d.iter().zip(&e).map(|(d, e)| d + toi * e).collect();
        let length = at.iter().map(|x| x * x).sum::<f64>().sqrt();
        for (n, x) in normal.iter().zip(&at) {
            assert!((n - x / length).abs() < 1e-9, "{r}");
        }
        assert_eq!(normal.len(), dim);
    }
}

#[test]
fn spinning_bar_does_not_tunnel() {
    // A bar of half size 2 × 0.05 spinning half a turn per unit time about its centre; a post
    // of half size 0.1 at (0, 1.5). At t = 0 and t = 1 the bar lies along x, far from it.
    let (h, corner) = (0.05_f64, [0.1_f64, 1.4_f64]);
    let rho = corner[0].hypot(corner[1]);
    let exact = (corner[1].atan2(corner[0]) - (h / rho).asin()) / std::f64::consts::PI;
    for (bar, post, spin, pose_b) in [
        (
            json!({"type": "rectangle", "half_extents": [2.0, 0.05]}),
            json!({"type": "rectangle", "half_extents": [0.1, 0.1]}),
            json!(std::f64::consts::PI),
            json!({"translation": [0, 1.5]}),
        ),
        (
            json!({"type": "box", "half_extents": [2.0, 0.05, 0.05]}),
            json!({"type": "box", "half_extents": [0.1, 0.1, 0.1]}),
            json!([0, 0, std::f64::consts::PI]),
            json!({"translation": [0, 1.5, 0]}),
        ),
    ] {
        let zero = if spin.is_number() { json!([0, 0]) } else { json!([0, 0, 0]) };
        let r = answer(&json!({
            "query": "time_of_impact", "a": bar, "b": post, "pose_b": pose_b,
            "velocity_a": zero, "velocity_b": zero, "angular_velocity_a": spin, "max_toi": 1.0
        }));
        assert_eq!(r["status"], "hit", "{r}");
        let (toi, slop) = (num(&r, "toi"), num(&r, "slop"));
        // The face closes on the corner at about ρ·π per unit time.
        let early = exact - slop / (rho * std::f64::consts::PI * 0.99);
        assert!(toi <= exact + 1e-9 && toi >= early - 1e-9, "{toi} not in [{early}, {exact}]");
        let point_b = vector(&r, "point_b");
        assert!((point_b[0] - corner[0]).abs() < 1e-6 && (point_b[1] - corner[1]).abs() < 1e-6);
    }
}

#[test]
fn miss_overlap_and_field_order() {
    let base = json!({
        "id": "m", "query": "time_of_impact",
        "a": {"type": "box", "half_extents": [1, 1, 1]}, "b": {"type": "box", "half_extents": [1, 1, 1]},
        "pose_b": {"translation": [5, 0, 0]},
        "velocity_a": [0, 0, 0], "velocity_b": [1, 0, 0], "angular_velocity_b": [0, 0, 9],
        "max_toi": 3
    });
    let run = query(&format!("{base}\n"));
    let line = run.stdout.lines().next().unwrap().to_owned();
    let r: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(r["status"], "no_hit", "{r}");
    assert_eq!((num(&r, "toi"), r["hit"].clone()), (3.0, json!(false)));
    for field in ["point_a", "point_b", "normal", "distance"] {
        assert!(r[field].is_null(), "{field}: {r}");
    }
    let order = [
        "\"id\"",
        "\"hit\"",
        "\"toi\"",
        "\"point_a\"",
        "\"point_b\"",
        "\"normal\"",
        "\"distance\"",
        "\"slop\"",
        "\"iterations\"",
        "\"status\"",
    ];
    let positions: Vec<usize> = order.iter().map(|k| line.find(k).unwrap()).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{line}");

    let mut overlap = base.clone();
    overlap["pose_b"] = json!({"translation": [1.5, 0, 0]});
    let r = answer(&overlap);
    assert_eq!(r["status"], "initially_overlapping", "{r}");
    assert_eq!(num(&r, "toi"), 0.0);
    assert!((num(&r, "distance") + 0.5).abs() < 1e-9, "{r}");
    assert_eq!(vector(&r, "normal"), vec![1.0, 0.0, 0.0]);
}

#[test]
fn bad_fields_are_named() {
    let line = |extra: Value| {
        let mut l = json!({
            "query": "time_of_impact", "a": {"type": "circle", "radius": 1},
            "b": {"type": "circle", "radius": 1}, "pose_b": {"translation": [3, 0]},
            "velocity_a": [1, 0], "velocity_b": [0, 0], "max_toi": 1
        });
        for (k, v) in extra.as_object().unwrap() {
            l[k] = v.clone();
        }
        l
    };
    assert_eq!(
        error(&line(json!({"angular_velocity_a": [1, 2]}))),
        "angular_velocity_a: expected a number (2D) or a vector of 3 numbers (3D), got an array \
         of 2 items"
    );
    assert_eq!(
        error(&line(json!({"angular_velocity_b": "fast"}))),
        "angular_velocity_b: expected a number (2D) or a vector of 3 numbers (3D), got the \
         string \"fast\""
    );
    assert!(error(&line(json!({"angular_velocity_a": [0, 0, 1]})))
        .contains("2D and 3D cannot be mixed"));
    assert_eq!(
        error(&line(json!({"angular_velocity_a": [0, "x", 1]}))),
        "angular_velocity_a[1]: expected a number, got the string \"x\""
    );
    assert_eq!(error(&line(json!({"max_toi": -1}))), "max_toi: must not be negative, got -1");
    let mut no_velocity = line(json!({}));
    no_velocity.as_object_mut().unwrap().remove("velocity_b");
    assert_eq!(error(&no_velocity), "velocity_b: missing");
    // A 3D angular velocity with 3D shapes, and none at all, are fine.
    let r = answer(&json!({
        "query": "time_of_impact", "a": {"type": "sphere", "radius": 1},
        "b": {"type": "sphere", "radius": 1}, "pose_b": {"translation": [3, 0, 0]},
        "velocity_a": [1, 0, 0], "velocity_b": [0, 0, 0], "angular_velocity_a": [0, 0, 1e6],
        "max_toi": 1
    }));
    assert_eq!(r["status"], "hit");
}
