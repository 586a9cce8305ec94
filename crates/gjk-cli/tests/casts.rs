//! `gjk query` ray casts and shape casts, checked against closed forms computed here:
//! ray–sphere by the quadratic `|o + t·d − c|² = r²`, ray–box by the slab method (in the box's
//! frame for turned boxes), two moving balls by the quadratic `|Δc + t·Δv| = r_a + r_b`, and a
//! box sliding onto a wall by gap / speed. Tolerance 1e-9 on scenes of size ~1 (the casts
//! converge to 1e-10 relative); exact statuses, `null`s and field order.

use crate::common;

use common::{assert_close, num, query, vector};
use serde_json::{json, Value};

/// The field names of a record line, in the order printed.
fn field_order(line: &str) -> Vec<String> {
    let record: Value = serde_json::from_str(line).unwrap();
    let mut names: Vec<(usize, String)> = record
        .as_object()
        .unwrap()
        .keys()
        .map(|k| (line.find(&format!("\"{k}\":")).unwrap(), k.clone()))
        .collect();
    names.sort();
    names.into_iter().map(|(_, k)| k).collect()
}

/// Answers one line and returns its record (exit status 0 required).
fn answer(line: &Value) -> Value {
    let run = query(&format!("{line}\n"));
    assert_eq!(run.status, 0, "stderr: {}\nstdout: {}", run.stderr, run.stdout);
    let mut records = run.records();
    assert_eq!(records.len(), 1);
    records.remove(0)
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn sub(a: &[f64], b: &[f64]) -> Vec<f64> {
    a.iter().zip(b).map(|(x, y)| x - y).collect()
}

/// `a + t·b`.
fn along(a: &[f64], t: f64, b: &[f64]) -> Vec<f64> {
    a.iter().zip(b).map(|(x, y)| x + t * y).collect()
}

fn unit(a: &[f64]) -> Vec<f64> {
    let length = dot(a, a).sqrt();
    a.iter().map(|x| x / length).collect()
}

/// The smaller root of `|o + t·d − c|² = r²` (entry), or the larger (exit); `None` if the line
/// misses the ball.
fn ray_sphere(o: &[f64], d: &[f64], c: &[f64], r: f64, exit: bool) -> Option<f64> {
    let oc = sub(o, c);
    let (a, b, k) = (dot(d, d), dot(d, &oc), dot(&oc, &oc) - r * r);
    let disc = b * b - a * k;
    (disc >= 0.0).then(|| if exit { (-b + disc.sqrt()) / a } else { (-b - disc.sqrt()) / a })
}

/// The slab method for the axis-aligned box `|x_i| <= h_i`: the entry time and the axis of the
/// entered face with its sign, or `None` when the line misses.
fn ray_box(o: &[f64], d: &[f64], h: &[f64]) -> Option<(f64, usize, f64)> {
    let (mut enter, mut leave, mut face) = (f64::NEG_INFINITY, f64::INFINITY, (0, 0.0));
    for i in 0..o.len() {
        if d[i] == 0.0 {
            if o[i].abs() > h[i] {
                return None;
            }
            continue;
        }
        let (t1, t2) = ((-h[i] - o[i]) / d[i], (h[i] - o[i]) / d[i]);
        let (near, far) = if t1 < t2 { (t1, t2) } else { (t2, t1) };
        if near > enter {
            // Entering through the face that faces the ray: its normal opposes the direction.
            enter = near;
            face = (i, -d[i].signum());
        }
        leave = leave.min(far);
    }
    (enter <= leave && leave >= 0.0).then_some((enter, face.0, face.1))
}

/// Checks a hit record: toi, point on the ray, unit normal, status, field order.
fn assert_ray_hit(r: &Value, toi: f64, origin: &[f64], direction: &[f64], normal: &[f64]) {
    assert_eq!(r["hit"], true, "{r}");
    assert_eq!(r["status"], "hit", "{r}");
    assert!((num(r, "toi") - toi).abs() < 1e-9, "toi {} vs {toi}: {r}", num(r, "toi"));
    assert_close(&vector(r, "point"), &along(origin, toi, direction), 1e-9);
    assert_close(&vector(r, "normal"), normal, 1e-9);
}

#[test]
fn ray_against_spheres_hits_at_the_quadratics_root() {
    // (origin, direction, centre, radius): head-on, off-centre, slanted, long direction.
    type Case = ([f64; 3], [f64; 3], [f64; 3], f64);
    let cases: [Case; 4] = [
        ([-5.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0], 1.0),
        ([-5.0, 0.6, 0.0], [2.0, 0.0, 0.0], [0.0, 0.0, 0.0], 1.0),
        ([1.0, 2.0, 3.0], [0.3, -0.5, -0.9], [2.0, 0.5, 0.5], 0.75),
        ([10.0, -3.0, 4.0], [-40.0, 10.0, -9.0], [0.0, 0.0, 0.0], 2.5),
    ];
    for (o, d, c, r) in cases {
        let line = json!({"id": "s", "query": "ray_cast", "shape": {"type": "sphere", "radius": r},
            "pose": {"translation": c}, "origin": o, "direction": d, "max_toi": 100});
        let toi = ray_sphere(&o, &d, &c, r, false).expect("the cases hit");
        let normal = unit(&sub(&along(&o, toi, &d), &c));
        assert_ray_hit(&answer(&line), toi, &o, &d, &normal);
    }
}

#[test]
fn ray_against_a_circle_in_2d() {
    let (o, d, c, r) = ([-3.0, 1.0], [1.0, -0.25], [1.0, 0.5], 1.5);
    let line = json!({"query": "ray_cast", "shape": {"type": "circle", "radius": r, "center": c},
        "origin": o, "direction": d, "max_toi": 10});
    let toi = ray_sphere(&o, &d, &c, r, false).unwrap();
    let normal = unit(&sub(&along(&o, toi, &d), &c));
    assert_ray_hit(&answer(&line), toi, &o, &d, &normal);
}

#[test]
fn ray_against_boxes_hits_at_the_slab_entry() {
    let cases: [([f64; 3], [f64; 3], [f64; 3]); 3] = [
        ([-5.0, 0.5, 0.2], [2.0, 0.0, 0.0], [1.0, 1.0, 1.0]),
        ([0.3, 6.0, -0.4], [0.02, -1.0, 0.05], [0.5, 2.0, 1.0]),
        ([3.0, 3.0, 3.0], [-1.0, -1.1, -1.2], [1.0, 1.0, 1.0]),
    ];
    for (o, d, h) in cases {
        let line = json!({"query": "ray_cast", "shape": {"type": "box", "half_extents": h},
            "origin": o, "direction": d, "max_toi": 50});
        let (toi, axis, sign) = ray_box(&o, &d, &h).expect("the cases hit");
        let mut normal = [0.0; 3];
        normal[axis] = sign;
        assert_ray_hit(&answer(&line), toi, &o, &d, &normal);
    }
}

/// A box turned by θ about z and moved: the slab method runs in the box's frame, where the
/// ray is turned by −θ; the normal is turned back by θ.
#[test]
fn ray_against_a_turned_and_moved_box() {
    let theta: f64 = 0.4;
    let (s, c) = theta.sin_cos();
    let (t, h) = ([1.0, -2.0, 0.5], [1.0, 0.5, 0.75]);
    let (o, d) = ([-4.0, -1.0, 0.6], [1.0, -0.2, 0.0]);
    let turn_back = |v: &[f64]| [c * v[0] + s * v[1], -s * v[0] + c * v[1], v[2]];
    let local_o = turn_back(&sub(&o, &t));
    let local_d = turn_back(&d);
    let (toi, axis, sign) = ray_box(&local_o, &local_d, &h).expect("hits");
    let mut local_n = [0.0; 3];
    local_n[axis] = sign;
    let normal = [c * local_n[0] - s * local_n[1], s * local_n[0] + c * local_n[1], local_n[2]];
    let half = theta / 2.0;
    let line = json!({"query": "ray_cast", "shape": {"type": "cuboid", "half_extents": h},
        "pose": {"translation": t, "rotation": [0, 0, half.sin(), half.cos()]},
        "origin": o, "direction": d, "max_toi": 10});
    assert_ray_hit(&answer(&line), toi, &o, &d, &normal);
}

/// A ray that misses, one that points away, and one too short: no hit, `toi` is `max_toi`,
/// no point and no normal.
#[test]
fn ray_misses_report_no_hit_with_nulls() {
    let square = json!({"type": "rectangle", "half_extents": [1, 1]});
    for (o, d, max_toi) in [
        ([-5.0, 3.0], [1.0, 0.0], 20.0),
        ([-5.0, 0.0], [-1.0, 0.0], 20.0),
        ([-5.0, 0.0], [1.0, 0.0], 3.5),
    ] {
        let line = json!({"id": 4, "query": "ray_cast", "shape": square, "origin": o,
            "direction": d, "max_toi": max_toi});
        let r = answer(&line);
        assert_eq!(
            field_order(&query(&format!("{line}\n")).stdout),
            ["id", "hit", "toi", "point", "normal", "iterations", "status"],
        );
        assert_eq!(
            (&r["hit"], num(&r, "toi"), &r["point"], &r["normal"], &r["status"]),
            (&json!(false), max_toi, &Value::Null, &Value::Null, &json!("no_hit")),
            "{r}"
        );
    }
}

#[test]
fn ray_starting_inside_a_solid_shape_hits_at_zero_without_normal() {
    let line = json!({"query": "ray_cast", "shape": {"type": "sphere", "radius": 2},
        "origin": [0.5, 0.25, 0], "direction": [1, 0, 0], "max_toi": 10});
    let r = answer(&line);
    assert_eq!((&r["hit"], &r["status"]), (&json!(true), &json!("initially_overlapping")));
    assert_eq!((num(&r, "toi"), &r["normal"]), (0.0, &Value::Null), "{r}");
    assert_close(&vector(&r, "point"), &[0.5, 0.25, 0.0], 0.0);
}

#[test]
fn hollow_ray_from_inside_hits_where_it_leaves() {
    let (o, d, r) = ([0.5, 0.25, 0.0], [1.0, 0.5, 0.0], 2.0);
    let line = json!({"query": "ray_cast", "shape": {"type": "sphere", "radius": r},
        "origin": o, "direction": d, "max_toi": 10, "solid": false});
    let record = answer(&line);
    let toi = ray_sphere(&o, &d, &[0.0; 3], r, true).unwrap();
    assert_eq!(record["status"], "initially_overlapping", "{record}");
    assert!((num(&record, "toi") - toi).abs() < 1e-9, "{record} vs {toi}");
    let exit = along(&o, toi, &d);
    assert_close(&vector(&record, "point"), &exit, 1e-9);
    assert_close(&vector(&record, "normal"), &unit(&exit), 1e-9);
}

/// Checks a shape-cast hit: time, contact points, normal.
fn assert_cast_hit(r: &Value, toi: f64, point: &[f64], normal: &[f64]) {
    assert_eq!((&r["hit"], &r["status"]), (&json!(true), &json!("hit")), "{r}");
    assert!((num(r, "toi") - toi).abs() < 1e-9, "toi {} vs {toi}: {r}", num(r, "toi"));
    assert_close(&vector(r, "point_a"), point, 1e-9);
    assert_close(&vector(r, "point_b"), point, 1e-9);
    assert_close(&vector(r, "normal"), normal, 1e-9);
}

/// Balls approaching head-on: they touch when the gap between their surfaces is closed,
/// toi = gap / relative speed.
#[test]
fn balls_moving_toward_each_other_touch_after_gap_over_speed() {
    let (ra, rb) = (1.0, 0.5);
    let (ca, cb) = ([0.0, 0.0, 0.0], [10.0, 0.0, 0.0]);
    let (va, vb) = ([1.0, 0.0, 0.0], [-2.0, 0.0, 0.0]);
    let line = json!({"id": "balls", "query": "shape_cast",
        "a": {"type": "sphere", "radius": ra}, "b": {"type": "sphere", "radius": rb},
        "pose_a": {"translation": ca}, "pose_b": {"translation": cb},
        "velocity_a": va, "velocity_b": vb, "max_toi": 10});
    let toi = (10.0 - ra - rb) / 3.0;
    let r = answer(&line);
    assert_eq!(
        field_order(&query(&format!("{line}\n")).stdout),
        ["id", "hit", "toi", "point_a", "point_b", "normal", "iterations", "status"]
    );
    assert_cast_hit(&r, toi, &[toi + ra, 0.0, 0.0], &[1.0, 0.0, 0.0]);
}

/// Balls passing at an angle: the smaller root of `|Δc + t·Δv| = r_a + r_b`; the contact point
/// lies on the line of centres at that time, `r_a` from A's centre.
#[test]
fn balls_passing_at_an_angle_touch_at_the_quadratics_root() {
    let (ra, rb) = (0.75, 1.25);
    let (ca, cb) = ([1.0, -1.0, 2.0], [6.0, 3.0, 1.0]);
    let (va, vb) = ([0.5, 1.0, 0.0], [-1.5, -0.5, 0.25]);
    let dc = sub(&cb, &ca);
    let dv = sub(&vb, &va);
    // The "ray" Δc + t·Δv hits the ball of radius r_a + r_b about the origin.
    let toi = ray_sphere(&dc, &dv, &[0.0; 3], ra + rb, false).expect("the balls meet");
    let centre_a = along(&ca, toi, &va);
    let normal = unit(&along(&dc, toi, &dv));
    let point = along(&centre_a, ra, &normal);
    let line = json!({"query": "shape_cast", "a": {"type": "sphere", "radius": ra},
        "b": {"type": "sphere", "radius": rb, "center": cb}, "pose_a": {"translation": ca},
        "velocity_a": va, "velocity_b": vb, "max_toi": 20});
    assert_cast_hit(&answer(&line), toi, &point, &normal);
}

/// A 2D square sliding onto a wall (a thin rectangle): toi = gap / speed; the normal is the
/// wall's face normal. The contact point is on the face, anywhere along the touching edge.
#[test]
fn square_slides_onto_a_wall_after_gap_over_speed() {
    let line = json!({"query": "shape_cast",
        "a": {"type": "rectangle", "half_extents": [0.5, 0.5]},
        "b": {"type": "rectangle", "half_extents": [0.1, 5]},
        "pose_a": {"translation": [-3, 0.25]}, "pose_b": {"translation": [2, 0]},
        "velocity_a": [4, 0], "velocity_b": [0, 0], "max_toi": 1});
    let r = answer(&line);
    // Gap from the square's face at x = -2.5 to the wall's at x = 1.9: 4.4, at speed 4.
    let toi = 4.4 / 4.0;
    assert_eq!(r["status"], "no_hit", "1.1 is beyond max_toi 1: {r}");
    let mut longer = line.clone();
    longer["max_toi"] = json!(2);
    let r = answer(&longer);
    assert_eq!((&r["hit"], &r["status"]), (&json!(true), &json!("hit")), "{r}");
    assert!((num(&r, "toi") - toi).abs() < 1e-9, "{r}");
    assert_close(&vector(&r, "normal"), &[1.0, 0.0], 1e-9);
    for field in ["point_a", "point_b"] {
        let p = vector(&r, field);
        assert!((p[0] - 1.9).abs() < 1e-9 && (-0.25..=0.75).contains(&p[1]), "{field}: {r}");
    }
}

#[test]
fn shapes_moving_apart_or_standing_still_never_touch() {
    for (va, vb) in [([-1.0, 0.0, 0.0], [1.0, 0.0, 0.0]), ([0.0; 3], [0.0; 3])] {
        let line = json!({"query": "shape_cast", "a": {"type": "box", "half_extents": [1, 1, 1]},
            "b": {"type": "sphere", "radius": 1, "center": [5, 0, 0]},
            "velocity_a": va, "velocity_b": vb, "max_toi": 7.5});
        let r = answer(&line);
        assert_eq!(
            (&r["hit"], num(&r, "toi"), &r["status"]),
            (&json!(false), 7.5, &json!("no_hit")),
            "{r}"
        );
        for field in ["point_a", "point_b", "normal"] {
            assert_eq!(r[field], Value::Null, "{field}: {r}");
        }
    }
}

/// Overlapping at the start: toi 0 and the penetration's normal and deepest points, whatever
/// the motion (here the balls even move apart).
#[test]
fn initially_overlapping_shapes_report_the_penetration() {
    let line = json!({"query": "shape_cast", "a": {"type": "sphere", "radius": 1},
        "b": {"type": "sphere", "radius": 1, "center": [0, 1.5, 0]},
        "velocity_a": [0, -1, 0], "velocity_b": [0, 1, 0], "max_toi": 1});
    let r = answer(&line);
    assert_eq!((&r["hit"], &r["status"]), (&json!(true), &json!("initially_overlapping")));
    assert_eq!(num(&r, "toi"), 0.0);
    assert_close(&vector(&r, "normal"), &[0.0, 1.0, 0.0], 1e-9);
    assert_close(&vector(&r, "point_a"), &[0.0, 1.0, 0.0], 1e-9);
    assert_close(&vector(&r, "point_b"), &[0.0, 0.5, 0.0], 1e-9);
}

/// Casts and proximity queries mix freely in one stream, each answered in its own format.
#[test]
fn kinds_mix_in_one_stream() {
    let lines = [
        json!({"id": 1, "a": {"type": "sphere", "radius": 1}, "b": {"type": "sphere", "radius": 1,
            "center": [3, 0, 0]}}),
        json!({"id": 2, "query": "ray_cast", "shape": {"type": "sphere", "radius": 1},
            "origin": [-3, 0, 0], "direction": [1, 0, 0], "max_toi": 5}),
        json!({"id": 3, "query": "proximity", "a": {"type": "circle", "radius": 1},
            "b": {"type": "circle", "radius": 1, "center": [0, 4]}}),
    ];
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let run = query(&input);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let records = run.records();
    assert_eq!((num(&records[0], "distance"), num(&records[2], "distance")), (1.0, 2.0));
    assert!((num(&records[1], "toi") - 2.0).abs() < 1e-9, "{}", records[1]);
    assert_eq!(records[0]["status"], "converged");
}

#[test]
fn cast_numbers_print_with_full_precision() {
    // The ray enters at x = -1 after 1 of travel, a third of its direction (3, 0, 0): toi is
    // 1/3, whose shortest round-trip form has all 16-17 digits (not a rounded 0.333333).
    let line = json!({"query": "ray_cast", "shape": {"type": "sphere", "radius": 1},
        "origin": [-2, 0, 0], "direction": [3, 0, 0], "max_toi": 1});
    let run = query(&format!("{line}\n"));
    let text = run.stdout.split("\"toi\":").nth(1).unwrap().split(',').next().unwrap();
    let toi: f64 = text.parse().unwrap();
    assert!((toi - 1.0 / 3.0).abs() < 1e-12, "{text}");
    assert!(text.len() >= 17, "shortest round-trip form of a non-terminating value: {text}");
}
