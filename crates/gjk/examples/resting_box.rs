//! A box resting on a table: the contact manifold a physics solver needs (four points under one
//! normal, each with its depth and a feature id stable from frame to frame).
//!
//! Run with `cargo run -p gjk --example resting_box`.

use gjk::{manifold, Cuboid, ManifoldOptions, ManifoldStatus, Pose};
use glam::{DQuat, DVec3};

/// A crate turned about the vertical, sunk 0.01 into a table.
pub fn main() -> Result<(), gjk::ShapeError> {
    let table = Cuboid::new(DVec3::new(2.0, 0.5, 2.0))?;
    let crate_box = Cuboid::new(DVec3::splat(0.5))?;
    let turned = Pose::new(DQuat::from_rotation_y(0.3), DVec3::new(0.4, 0.99, -0.2))?;

    // A prediction distance also reports points up to that gap (negative depth).
    let options = ManifoldOptions { prediction: 0.02, ..Default::default() };
    let m = manifold(&table, &Pose::IDENTITY, &crate_box, &turned, &options);
    assert_eq!(m.status, ManifoldStatus::Clipped { reference_is_a: true }); // the table's top
    assert_eq!(m.points().len(), 4); // the crate's four bottom corners
    assert!((m.normal - DVec3::Y).length() < 1e-12); // from A (table) toward B (crate)
    for p in m.points() {
        assert!((p.depth - 0.01).abs() < 1e-12 && (p.point_a.y - 0.5).abs() < 1e-12);
        println!("{:?} at {:.3}, depth {:.3}", p.id, p.point_b, p.depth);
    }
    Ok(())
}
