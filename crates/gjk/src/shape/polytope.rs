use alloc::vec::Vec;

use super::{argmax_dot, check_point, Support};
use crate::error::ShapeError;
use crate::math::{Real, Vector};

/// The convex hull of a finite point set: a convex polygon in 2D, a convex polytope in 3D.
///
/// The points need not be in any order nor all be vertices of the hull; repeated, collinear and
/// coplanar points are fine (a flat point set is a flat polytope). Support scans every point.
///
/// ```
/// use gjk::{Polytope, Support};
/// use glam::DVec2;
/// let square = Polytope::new(vec![
///     DVec2::new(0.0, 0.0), DVec2::new(1.0, 0.0), DVec2::new(1.0, 1.0), DVec2::new(0.0, 1.0),
/// ]).unwrap();
/// assert_eq!(square.support(DVec2::new(1.0, 0.1)), DVec2::new(1.0, 1.0));
/// assert!(Polytope::<DVec2>::new(vec![]).is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Polytope<V> {
    points: Vec<V>,
    center: V,
}

impl<V: Vector> Polytope<V> {
    /// The convex hull of `points`: an error if there are none or a coordinate is not finite.
    pub fn new(points: Vec<V>) -> Result<Self, ShapeError> {
        if points.is_empty() {
            return Err(ShapeError::EmptyPointSet);
        }
        // The mean of the points, summed as pᵢ/n so that points near the largest float do not
        // overflow the sum (the centre aims the first search and scales the tolerances).
        let weight = V::Real::ONE / V::Real::from_f64(points.len() as f64);
        let mut center = V::ZERO;
        for &p in &points {
            center = center + check_point("point", p)? * weight;
        }
        Ok(Self { points, center })
    }

    /// The points the hull was built from.
    pub fn points(&self) -> &[V] {
        &self.points
    }
}

impl<V: Vector> Support<V> for Polytope<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.points[argmax_dot(&self.points, dir)]
    }
    #[inline]
    fn center(&self) -> V {
        self.center
    }
}
