//! The explanations: the worked examples' numbers in the walkthroughs, the pictures as XML.

use gjk::{Ball, Capsule, Cuboid, Pose};
use gjk_explain::{ExplainError, ExplainOptions, Explanation, Method, BUILTIN_NAMES};
use glam::{DVec2, DVec3};

fn classic() -> ExplainOptions {
    ExplainOptions { method: Method::Classic, ..Default::default() }
}

/// Parses the SVG and counts the elements carrying `class` (as one of their classes).
fn count_class(doc: &roxmltree::Document<'_>, class: &str) -> usize {
    doc.descendants()
        .filter(|n| n.attribute("class").is_some_and(|c| c.split_whitespace().any(|x| x == class)))
        .count()
}

fn check_svg(e: &Explanation) {
    let doc = roxmltree::Document::parse(e.svg()).expect("the SVG is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    for class in ["shape-a", "shape-b", "minkowski", "simplex", "direction", "origin"] {
        assert!(count_class(&doc, class) > 0, "{}: no element of class {class}", e.title());
    }
    // One panel for the shapes and one per support call.
    for k in 0..=e.support_calls() {
        let id = format!("panel-{k}");
        assert!(doc.descendants().any(|n| n.attribute("id") == Some(id.as_str())), "{id} missing");
    }
    // One Minkowski difference per iteration panel.
    assert_eq!(count_class(&doc, "minkowski"), e.support_calls() + 1 /* legend swatch */);
}

#[test]
fn tutorial_triangles_classic_walkthrough_has_the_worked_numbers() {
    let e = Explanation::builtin("tutorial-triangles", &classic()).unwrap();
    let text = e.text();
    for expected in [
        "Iteration 1: search direction d = (0, 1); support on A = (0, 1), on B = (0, -1), w = (0, 2)",
        "Iteration 2: search direction d = (0, -1); support on A = (1, -1), on B = (1, 1), w = (0, -2)",
        "Next search direction: (-4, 0).",
        "Iteration 3: search direction d = (-4, 0); support on A = (-1, -1), on B = (1, 1), w = (-2, -2)",
        "encloses the origin",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    assert_eq!(e.intersecting(), Some(true));
    assert_eq!(e.support_calls(), 3);
    check_svg(&e);
}

#[test]
fn dyn4j_classic_walkthrough_has_the_articles_points() {
    let e = Explanation::builtin("dyn4j", &classic()).unwrap();
    for w in ["w = (4, 2)", "w = (-6, 9)", "w = (-8, -2)", "w = (-1, -2)"] {
        assert!(e.text().contains(w), "missing {w}");
    }
    assert_eq!(e.support_calls(), 4);
    check_svg(&e);
}

#[test]
fn robust_method_stops_early_on_the_tutorial_examples() {
    // Tutorial triangles: after (0, 2) and (0, −2) the origin lies on the segment between them
    // (λ = ½, ½): the robust method stops there, contained, without a triangle.
    let e = Explanation::builtin("tutorial-triangles", &ExplainOptions::default()).unwrap();
    assert_eq!(e.support_calls(), 2);
    assert!(e.text().contains("lambda = (0.5, 0.5)"), "{}", e.text());
    assert!(e.text().contains("Termination: Contained after 2 support calls"));
    // dyn4j: (4, 2), then along −v = (−4, −2) to (−8, −2), then along (0.2, −0.6) to (−1, −2):
    // the triangle holds the origin.
    let e = Explanation::builtin("dyn4j", &ExplainOptions::default()).unwrap();
    for expected in
        ["w = (4, 2)", "w = (-8, -2)", "v = (-0.2, 0.6)", "w = (-1, -2)", "Contained after 3"]
    {
        assert!(e.text().contains(expected), "missing {expected:?} in\n{}", e.text());
    }
    check_svg(&e);
}

#[test]
fn every_builtin_explains_with_both_methods() {
    for name in BUILTIN_NAMES {
        for method in [Method::Robust, Method::Classic] {
            let e = Explanation::builtin(name, &ExplainOptions { method, ..Default::default() })
                .unwrap();
            assert!(e.support_calls() >= 1);
            assert!(e.text().contains("Iteration 1:"));
            check_svg(&e);
        }
    }
    let e = Explanation::builtin("tetrahedron-box", &ExplainOptions::default()).unwrap();
    assert_eq!(e.dimension(), 3);
    assert_eq!(e.intersecting(), Some(true));
}

#[test]
fn circle_polygon_distance_is_right() {
    // The disc (centre (−1, −0.5), radius 1.2) is closest to the pentagon's vertex (1.5, 0.5):
    // distance = |(2.5, 1)| − 1.2 = √7.25 − 1.2, checked here by hand.
    let e = Explanation::builtin("circle-polygon", &ExplainOptions::default()).unwrap();
    let expected = format!("Distance = {:.4}", (7.25f64).sqrt() - 1.2);
    assert!(e.text().contains(expected.trim_end_matches('0')), "{expected} in\n{}", e.text());
    assert_eq!(e.intersecting(), Some(false));
}

#[test]
fn custom_pairs_in_2d_and_3d() {
    let capsule = Capsule::new(DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0), 0.5).unwrap();
    let square = Cuboid::new(DVec2::splat(0.5)).unwrap();
    let there = Pose::<DVec2>::from_angle_translation(0.4, DVec2::new(0.5, 2.0)).unwrap();
    let options = ExplainOptions { first_direction: Some(vec![0.0, 1.0]), ..Default::default() };
    let e = Explanation::for_pair_2d(&capsule, &Pose::IDENTITY, &square, &there, &options).unwrap();
    assert!(e.text().contains("First search direction: (0, 1)."));
    assert_eq!(e.intersecting(), Some(false));
    check_svg(&e);

    let ball = Ball::<DVec3>::new(1.0).unwrap();
    let cube = Cuboid::new(DVec3::ONE).unwrap();
    let near = Pose::from_translation(DVec3::new(1.5, 0.5, 0.2)).unwrap();
    let e = Explanation::for_pair_3d(&ball, &Pose::IDENTITY, &cube, &near, &classic()).unwrap();
    assert_eq!(e.intersecting(), Some(true));
    check_svg(&e);
}

#[test]
fn bad_input_is_an_error() {
    assert!(matches!(
        Explanation::builtin("nope", &classic()),
        Err(ExplainError::UnknownExample(_))
    ));
    let wrong = ExplainOptions { first_direction: Some(vec![1.0, 0.0, 0.0]), ..Default::default() };
    assert!(matches!(Explanation::builtin("dyn4j", &wrong), Err(ExplainError::BadDirection(_))));
    let zero = ExplainOptions { first_direction: Some(vec![0.0, 0.0]), ..Default::default() };
    assert!(matches!(Explanation::builtin("dyn4j", &zero), Err(ExplainError::BadDirection(_))));
    let nan = ExplainOptions { first_direction: Some(vec![f64::NAN, 1.0]), ..Default::default() };
    assert!(Explanation::builtin("dyn4j", &nan).is_err());
    assert_eq!("classic".parse::<Method>(), Ok(Method::Classic));
    assert!("fast".parse::<Method>().is_err());
}
