use super::{Core, Feature, Support};
use crate::bounds::Aabb;
use crate::math::{Pose, Vector};

/// A shape placed in a parent frame by a pose: its support is `R s(Rᵀ d) + t`.
///
/// Use it to offset a shape inside a compound, or to give a ball a centre.
///
/// ```
/// use gjk::{Ball, Pose, Posed, Support};
/// use glam::DVec2;
/// let moved = Posed::new(Ball::<DVec2>::new(1.0).unwrap(),
///     Pose::from_translation(DVec2::new(5.0, 0.0)).unwrap());
/// assert_eq!(moved.center(), DVec2::new(5.0, 0.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Posed<S, V: Vector> {
    shape: S,
    pose: Pose<V>,
}

impl<S: Support<V>, V: Vector> Posed<S, V> {
    /// `shape` moved by `pose` (poses are validated when built).
    pub fn new(shape: S, pose: Pose<V>) -> Self {
        Self { shape, pose }
    }

    /// The shape in its own frame.
    pub fn shape(&self) -> &S {
        &self.shape
    }

    /// The pose.
    pub fn pose(&self) -> &Pose<V> {
        &self.pose
    }
}

impl<S: Support<V>, V: Vector> Support<V> for Posed<S, V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        let local = self.shape.support(self.pose.inverse_transform_vector(dir));
        self.pose.transform_point(local)
    }
    #[inline]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        let local = self.shape.support_hinted(self.pose.inverse_transform_vector(dir), hint);
        self.pose.transform_point(local)
    }
    #[inline]
    fn margin(&self) -> V::Real {
        self.shape.margin()
    }
    #[inline]
    fn center(&self) -> V {
        self.pose.transform_point(self.shape.center())
    }
    #[inline]
    fn extent(&self) -> V::Real {
        self.shape.extent()
    }
    /// The inner shape's core moved by the pose, when its kind survives the move
    /// ([`Core::moved`]).
    #[inline]
    fn core(&self) -> Core<'_, V> {
        self.shape.core().moved(|p| self.pose.transform_point(p))
    }
    /// The inner shape's box under the composed pose.
    #[inline]
    fn aabb(&self, pose: &Pose<V>) -> Aabb<V> {
        self.shape.aabb(&pose.compose(&self.pose))
    }

    /// The inner shape's feature moved by the pose.
    #[inline]
    fn feature(&self, dir: V) -> Feature<V> {
        let pose = &self.pose;
        self.shape
            .feature(pose.inverse_transform_vector(dir))
            .mapped(|p| pose.transform_point(p), |v| pose.transform_vector(v))
    }
}
