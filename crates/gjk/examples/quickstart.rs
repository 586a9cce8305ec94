//! The library example of README.md, verbatim below these lines (gjk-cli's `tests/readme.rs`
//! checks that the two agree and runs this file). Run it: `cargo run -p gjk --example quickstart`.

use gjk::{closest_points, intersects, Capsule, Cuboid, GjkOptions, Goal, Pair, Pose, Proximity};
use glam::{DQuat, DVec3};

/// A box and a capsule: placed, tested, measured.
pub fn main() -> Result<(), gjk::ShapeError> {
    // Shapes live in their own frame; constructors validate their input.
    let crate_box = Cuboid::new(DVec3::new(1.0, 0.5, 0.5))?; // half extents
    let pill = Capsule::new(DVec3::new(0.0, -1.0, 0.0), DVec3::new(0.0, 1.0, 0.0), 0.25)?;

    // Poses place them in the world: the capsule lies along x, 2 above the box's centre.
    let box_pose = Pose::IDENTITY;
    let turn = DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2);
    let pill_pose = Pose::new(turn, DVec3::new(0.0, 2.0, 0.0))?;

    assert!(!intersects(&crate_box, &box_pose, &pill, &pill_pose));
    match closest_points(&crate_box, &box_pose, &pill, &pill_pose) {
        Proximity::Separated(s) => {
            // Box top at y = 0.5, capsule bottom at y = 2 − 0.25.
            assert!((s.distance - 1.25).abs() < 1e-12);
            assert!((s.normal - DVec3::Y).length() < 1e-12); // from A toward B
            println!("distance {} between {} and {}", s.distance, s.point_a, s.point_b);
        }
        Proximity::Intersecting => unreachable!("they are 1.25 apart"),
    }

    // The full query: options, a warm-start cache for coherent motion, how the loop ended.
    let mut cache = Default::default();
    let result = Pair::new(&crate_box, box_pose, &pill, pill_pose).gjk(
        Goal::Distance,
        &GjkOptions::default(),
        &mut cache,
    );
    println!("{} iterations, {:?}", result.iterations, result.termination);
    Ok(())
}
