//! A thin bar spinning fast past a small post: stepping the poses frame by frame tunnels
//! through it; the time of impact under rotation finds the contact.
//! Shown in README.md and run by crates/gjk-cli/tests/readme.rs.

use gjk::{intersects, time_of_impact, CastStatus, Cuboid, Motion, Pose};
use glam::DVec2;

/// A bar of length 4 turning half a turn in one step, its tip sweeping through a post.
pub fn main() -> Result<(), gjk::ShapeError> {
    let bar = Cuboid::new(DVec2::new(2.0, 0.05))?;
    let post = Cuboid::new(DVec2::new(0.1, 0.1))?;
    let post_pose = Pose::from_translation(DVec2::new(0.0, 1.5))?;
    let spinning = Motion::new(Pose::IDENTITY, DVec2::ZERO, std::f64::consts::PI); // rad per step
    let fixed = Motion::stationary(post_pose);

    // Frame by frame, the bar is apart from the post at both ends of the step: it tunnels.
    for t in [0.0, 1.0] {
        assert!(!intersects(&bar, &spinning.pose_at(t), &post, &post_pose));
    }

    // The time of impact follows the rotation: the first time within the slop of the post.
    let hit = time_of_impact(&bar, &spinning, &post, &fixed, 1.0);
    assert_eq!(hit.status, CastStatus::Hit);
    assert!(hit.toi > 0.46 && hit.toi < 0.47); // the bar turned about 84 degrees
    assert!(hit.distance <= hit.linear_slop); // apart by at most the slop, never overlapping
    println!("contact at t = {:.4}, normal {:.3}, {} steps", hit.toi, hit.normal, hit.iterations);
    Ok(())
}
