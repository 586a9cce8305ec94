//! The two spaces an explanation can live in, and how each is put on paper.
//!
//! 2D is drawn as it is. 3D is drawn in the isometric orthographic projection: the viewer looks
//! from `(1, 1, 1)` toward the origin, the screen's right is `(1, 0, −1)/√2` and its up
//! `(−1, 2, −1)/√6`, so the y axis points up and x and z go down-right and down-left.
//!
//! The outline of a convex body on screen is again convex, and its support along a screen
//! direction `u` is the projection of the body's support along the lifted direction
//! `u.x·right + u.y·up` (the component along the view direction does not change the projection).
//! So 2D and 3D outlines are drawn by the same code.

use gjk::Vector;
use glam::{DVec2, DVec3};

use crate::format::{num, Style};

/// A space an explanation runs in: `DVec2` or `DVec3`.
pub(crate) trait Space: Vector<Real = f64> {
    /// "2D" or "3D".
    const NAME: &'static str;
    /// The point on screen (in the space's own units; y up).
    fn screen(self) -> DVec2;
    /// The direction of space whose projection is the screen direction `u` (and that has no
    /// component along the view direction).
    fn lift(u: DVec2) -> Self;
    /// The vector from its coordinates (exactly `DIM` of them).
    fn from_slice(c: &[f64]) -> Option<Self>;
    /// `(x, y)` or `(x, y, z)` with short numbers.
    fn show(self, style: Style) -> String {
        let parts: Vec<String> = (0..Self::DIM).map(|i| num(self.component(i), style)).collect();
        format!("({})", parts.join(", "))
    }
}

const RIGHT: DVec3 =
    DVec3::new(core::f64::consts::FRAC_1_SQRT_2, 0.0, -core::f64::consts::FRAC_1_SQRT_2);

fn up() -> DVec3 {
    DVec3::new(-1.0, 2.0, -1.0) / 6f64.sqrt()
}

impl Space for DVec2 {
    const NAME: &'static str = "2D";
    fn screen(self) -> DVec2 {
        self
    }
    fn lift(u: DVec2) -> Self {
        u
    }
    fn from_slice(c: &[f64]) -> Option<Self> {
        match *c {
            [x, y] => Some(DVec2::new(x, y)),
            _ => None,
        }
    }
}

impl Space for DVec3 {
    const NAME: &'static str = "3D";
    fn screen(self) -> DVec2 {
        DVec2::new(self.dot(RIGHT), self.dot(up()))
    }
    fn lift(u: DVec2) -> Self {
        RIGHT * u.x + up() * u.y
    }
    fn from_slice(c: &[f64]) -> Option<Self> {
        match *c {
            [x, y, z] => Some(DVec3::new(x, y, z)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isometric_projection_is_orthonormal_and_lift_inverts_it() {
        let u = DVec2::new(0.3, -1.7);
        assert!((DVec3::lift(u).screen() - u).length() < 1e-15);
        // The view direction (1, 1, 1) collapses to a point.
        assert!(DVec3::ONE.screen().length() < 1e-15);
        assert!((RIGHT.length() - 1.0).abs() < 1e-15 && RIGHT.dot(up()).abs() < 1e-15);
    }
}
