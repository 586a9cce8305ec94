//! The built-in examples: the tutorials' worked examples and a few more.

use gjk::{Ball, Cuboid, Polytope, Pose, Support};
use glam::{DQuat, DVec2, DVec3};

use crate::body::Body;
use crate::format::Style;
use crate::space::Space;

/// A shape the example owns, with its pose and description.
pub(crate) struct Owned<V: Space> {
    shape: Box<dyn Support<V>>,
    pose: Pose<V>,
    vertices: Option<Vec<V>>,
    description: String,
}

impl<V: Space> Owned<V> {
    /// The shape to explain.
    pub fn body(&self) -> Body<'_, V> {
        Body {
            shape: self.shape.as_ref(),
            pose: self.pose,
            vertices: self.vertices.clone(),
            description: self.description.clone(),
        }
    }
}

/// A built-in example.
pub(crate) struct Example<V: Space> {
    pub title: &'static str,
    pub a: Owned<V>,
    pub b: Owned<V>,
    /// The example's own first search direction.
    pub first_direction: Option<V>,
}

/// Which space an example lives in.
pub(crate) enum AnyExample {
    Two(Example<DVec2>),
    Three(Example<DVec3>),
}

/// The names of the built-in examples.
pub const NAMES: &[&str] = &["tutorial-triangles", "dyn4j", "tetrahedron-box", "circle-polygon"];

/// The example called `name`.
pub(crate) fn example(name: &str) -> Option<AnyExample> {
    Some(match name {
        "tutorial-triangles" => AnyExample::Two(tutorial_triangles()),
        "dyn4j" => AnyExample::Two(dyn4j()),
        "tetrahedron-box" => AnyExample::Three(tetrahedron_box()),
        "circle-polygon" => AnyExample::Two(circle_polygon()),
        _ => return None,
    })
}

fn point_set<V: Space>(kind: &str, points: Vec<V>) -> Owned<V> {
    let shown: Vec<String> = points.iter().map(|p| p.show(Style::Text)).collect();
    Owned {
        // The points are finite literals: construction cannot fail.
        shape: Box::new(Polytope::new(points.clone()).expect("finite, non-empty point set")),
        pose: Pose::IDENTITY,
        vertices: Some(points),
        description: format!("the {kind} {}", shown.join(", ")),
    }
}

fn v2(points: &[(f64, f64)]) -> Vec<DVec2> {
    points.iter().map(|&(x, y)| DVec2::new(x, y)).collect()
}

/// The two triangles of the classic tutorial: they overlap in a hexagon around the origin.
fn tutorial_triangles() -> Example<DVec2> {
    Example {
        title: "tutorial-triangles",
        a: point_set("triangle", v2(&[(0.0, 1.0), (1.0, -1.0), (-1.0, -1.0)])),
        b: point_set("triangle", v2(&[(0.0, -1.0), (1.0, 1.0), (-1.0, 1.0)])),
        first_direction: Some(DVec2::new(0.0, 1.0)),
    }
}

/// The shapes of William Bittle's dyn4j GJK article.
fn dyn4j() -> Example<DVec2> {
    Example {
        title: "dyn4j",
        a: point_set("triangle", v2(&[(4.0, 11.0), (4.0, 5.0), (9.0, 9.0)])),
        b: point_set("quadrilateral", v2(&[(5.0, 7.0), (12.0, 7.0), (10.0, 2.0), (7.0, 3.0)])),
        first_direction: Some(DVec2::new(1.0, -1.0)),
    }
}

/// A tetrahedron and a turned box that overlap a corner.
fn tetrahedron_box() -> Example<DVec3> {
    let tetrahedron = point_set(
        "tetrahedron",
        vec![
            DVec3::new(0.0, 2.0, 0.0),
            DVec3::new(-1.5, -0.5, -1.0),
            DVec3::new(1.5, -0.5, -1.0),
            DVec3::new(0.0, -0.5, 1.5),
        ],
    );
    let half = DVec3::new(0.8, 0.5, 0.6);
    let angle = 30f64.to_radians();
    let translation = DVec3::new(1.3, 0.7, 0.6);
    let pose =
        Pose::new(DQuat::from_rotation_y(angle), translation).expect("unit rotation, finite");
    let corners = (0..8)
        .map(|i| {
            let sign = |bit: usize| if i & (1 << bit) == 0 { -1.0 } else { 1.0 };
            pose.transform_point(DVec3::new(sign(0) * half.x, sign(1) * half.y, sign(2) * half.z))
        })
        .collect();
    let boxed = Owned {
        shape: Box::new(Cuboid::new(half).expect("positive half extents")),
        pose,
        vertices: Some(corners),
        description: format!(
            "a box with half extents {}, turned 30 degrees about y, centred at {}",
            half.show(Style::Text),
            translation.show(Style::Text)
        ),
    };
    Example { title: "tetrahedron-box", a: tetrahedron, b: boxed, first_direction: Some(DVec3::X) }
}

/// A disc and a pentagon apart: the robust method finds the distance and closest points.
fn circle_polygon() -> Example<DVec2> {
    let centre = DVec2::new(-1.0, -0.5);
    let disc = Owned {
        shape: Box::new(Ball::<DVec2>::new(1.2).expect("positive radius")),
        pose: Pose::from_translation(centre).expect("finite"),
        vertices: None,
        description: format!("a disc of radius 1.2 centred at {}", centre.show(Style::Text)),
    };
    let pentagon =
        point_set("pentagon", v2(&[(1.5, 0.5), (3.0, 0.0), (3.8, 1.4), (2.7, 2.6), (1.4, 1.9)]));
    Example { title: "circle-polygon", a: disc, b: pentagon, first_direction: None }
}
