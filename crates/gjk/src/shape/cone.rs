use super::cylinder::{cap, rim_point, CAP_CORNERS};
use super::{check_non_negative, Core, Feature, Support};
use crate::bounds::Aabb;
use crate::error::ShapeError;
use crate::math::Pose;
use crate::math::{Real, Vector3};

/// A solid circular cone (3D) with its axis along local `y`: apex at `y = +half_height`,
/// base disc of `radius` at `y = −half_height`.
///
/// ```
/// use gjk::{Cone, Support};
/// use glam::Vec3;
/// let c = Cone::<Vec3>::new(1.0, 0.5).unwrap();
/// assert_eq!(c.support(Vec3::Y), Vec3::Y);
/// assert_eq!(c.support(Vec3::new(1.0, -1.0, 0.0)), Vec3::new(0.5, -1.0, 0.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cone<V: Vector3> {
    half_height: V::Real,
    radius: V::Real,
}

impl<V: Vector3> Cone<V> {
    /// The cone of the given half height and base radius (an error on negative or non-finite
    /// sizes).
    pub fn new(half_height: V::Real, radius: V::Real) -> Result<Self, ShapeError> {
        Ok(Self {
            half_height: check_non_negative("half height", half_height)?,
            radius: check_non_negative("radius", radius)?,
        })
    }

    /// Half the height along `y`.
    pub fn half_height(&self) -> V::Real {
        self.half_height
    }

    /// The radius of the base disc.
    pub fn radius(&self) -> V::Real {
        self.radius
    }
}

impl<V: Vector3> Support<V> for Cone<V> {
    fn support(&self, dir: V) -> V {
        let h = self.half_height;
        let (x, z) = rim_point(dir, self.radius);
        let apex = V::from_components([V::Real::ZERO, h, V::Real::ZERO]);
        let rim = V::from_components([x, -h, z]);
        if apex.dot(dir) >= rim.dot(dir) {
            apex
        } else {
            rim
        }
    }
    fn center(&self) -> V {
        // The centroid of a cone lies a quarter of the height above its base.
        let y = -self.half_height * V::Real::HALF;
        V::from_components([V::Real::ZERO, y, V::Real::ZERO])
    }
    #[inline]
    fn extent(&self) -> V::Real {
        // Apex 1.5 h above the centroid, the rim's circle 0.5 h below it.
        // (The rim's distance bounded by the sum of its legs.)
        let h = self.half_height;
        (h * V::Real::from_f64(1.5)).max(h * V::Real::HALF + self.radius)
    }
    /// The hull of the apex `t + h a` and the base disc about `t − h a` (`a = R e_y`), whose
    /// rim reaches `r √(1 − a_j²)` along world axis `j`.
    fn aabb(&self, pose: &Pose<V>) -> Aabb<V> {
        let axis = pose.transform_vector(V::axis(1));
        let apex = pose.translation() + axis * self.half_height;
        let base = pose.translation() - axis * self.half_height;
        let reach = axis.map(|a| self.radius * super::cylinder::disc_reach(a));
        Aabb::new(base - reach, base + reach).with_point(apex)
    }

    /// The base when `dir` is closer to its normal (`−y`) than to the side's normal under
    /// `dir`, as the inscribed polygon of [`CAP_CORNERS`] corners (ids `CAP_CORNERS + k`, face
    /// id 1, as a cylinder's bottom cap); otherwise the side's segment from the apex to the rim
    /// under `dir` (vertex ids `2 CAP_CORNERS` and one more, face id 2).
    fn feature(&self, dir: V) -> Feature<V> {
        let (h, r) = (self.half_height, self.radius);
        let (x, z) = (dir.component(0), dir.component(2));
        let across = (x * x + z * z).sqrt();
        // The side's outward normal under `dir` is along (2h ρ̂, r) in (radial, y): compare the
        // cosines with the base's normal (0, −1), without normalising `dir`.
        let slant = (h * h * V::Real::from_f64(4.0) + r * r).sqrt();
        let side = if slant.is_positive() {
            (h * V::Real::TWO * across + r * dir.component(1)) / slant
        } else {
            V::Real::ZERO
        };
        if -dir.component(1) >= side && r.is_positive() {
            if let Some(f) = cap(r, -h, false) {
                return f;
            }
        }
        let (rx, rz) = rim_point(dir, r);
        let apex = V::from_components([V::Real::ZERO, h, V::Real::ZERO]);
        let rim = V::from_components([rx, -h, rz]);
        let first = 2 * CAP_CORNERS as u32;
        Feature::segment(rim, apex, [first, first + 1], 2, dir)
    }

    #[inline]
    fn core(&self) -> Core<'_, V> {
        Core::Cone { half_height: self.half_height, radius: self.radius }
    }
}
