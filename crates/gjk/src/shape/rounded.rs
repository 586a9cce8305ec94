use super::{check_non_negative, Core, Feature, Support};
use crate::bounds::Aabb;
use crate::error::ShapeError;
use crate::math::Pose;
use crate::math::Vector;

/// A shape with its corners rounded: the shape swept by a ball of `margin`.
///
/// GJK runs on the inner shape and adds the margin afterwards.
///
/// ```
/// use gjk::{Cuboid, Rounded, Support};
/// use glam::Vec3;
/// let r = Rounded::new(Cuboid::new(Vec3::ONE).unwrap(), 0.1).unwrap();
/// assert_eq!(r.margin(), 0.1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rounded<S, V: Vector> {
    shape: S,
    margin: V::Real,
}

impl<S: Support<V>, V: Vector> Rounded<S, V> {
    /// `shape` swept by a ball of radius `margin` (an error if negative or not finite).
    pub fn new(shape: S, margin: V::Real) -> Result<Self, ShapeError> {
        Ok(Self { shape, margin: check_non_negative("margin", margin)? })
    }

    /// The inner shape.
    pub fn shape(&self) -> &S {
        &self.shape
    }

    /// The radius this rounding adds (the whole shape's margin is the inner shape's plus
    /// this).
    pub fn rounding(&self) -> V::Real {
        self.margin
    }
}

impl<S: Support<V>, V: Vector> Support<V> for Rounded<S, V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.shape.support(dir)
    }
    #[inline]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        self.shape.support_hinted(dir, hint)
    }
    #[inline]
    fn margin(&self) -> V::Real {
        self.shape.margin() + self.margin
    }
    #[inline]
    fn center(&self) -> V {
        self.shape.center()
    }
    #[inline]
    fn extent(&self) -> V::Real {
        self.shape.extent()
    }
    /// The inner shape's core: rounding adds to the margin only.
    #[inline]
    fn core(&self) -> Core<'_, V> {
        self.shape.core()
    }
    /// The inner shape's box, grown by the margin.
    #[inline]
    fn aabb(&self, pose: &Pose<V>) -> Aabb<V> {
        self.shape.aabb(pose).loosened(self.margin)
    }

    /// The inner shape's feature: the manifold pushes it out by the margin.
    #[inline]
    fn feature(&self, dir: V) -> Feature<V> {
        self.shape.feature(dir)
    }
}
