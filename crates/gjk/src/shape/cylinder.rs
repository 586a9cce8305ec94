use super::{check_non_negative, Core, Feature, Support};
use crate::bounds::Aabb;
use crate::error::ShapeError;
use crate::math::Pose;
use crate::math::{Real, Vector3};

/// A solid circular cylinder (3D) centred at the origin with its axis along local `y`.
///
/// ```
/// use gjk::{Cylinder, Support};
/// use glam::DVec3;
/// let c = Cylinder::<DVec3>::new(1.0, 0.5).unwrap();
/// assert_eq!(c.support(DVec3::new(1.0, 1.0, 0.0)), DVec3::new(0.5, 1.0, 0.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cylinder<V: Vector3> {
    half_height: V::Real,
    radius: V::Real,
}

impl<V: Vector3> Cylinder<V> {
    /// The cylinder `|y| ≤ half_height`, `x² + z² ≤ radius²` (an error on negative or
    /// non-finite sizes).
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

    /// The radius of the circular cross-section.
    pub fn radius(&self) -> V::Real {
        self.radius
    }
}

/// The point at `radius` along the `xz` part of `dir` (the origin when that part is zero).
pub(crate) fn rim_point<V: Vector3>(dir: V, radius: V::Real) -> (V::Real, V::Real) {
    let m = dir.component(0).abs().max(dir.component(2).abs());
    if !m.is_positive() {
        return (V::Real::ZERO, V::Real::ZERO);
    }
    let (x, z) = (dir.component(0) / m, dir.component(2) / m);
    let scale = radius / (x * x + z * z).sqrt();
    (x * scale, z * scale)
}

/// `√(1 − a²)` for a coordinate `a` of a unit axis: how far a unit disc orthogonal to the axis
/// reaches along that coordinate (clamped at 0 where rounding makes `|a|` exceed 1).
#[inline]
pub(crate) fn disc_reach<R: Real>(a: R) -> R {
    let rest = R::ONE - a * a;
    if rest.is_positive() {
        rest.sqrt()
    } else {
        R::ZERO
    }
}

impl<V: Vector3> Support<V> for Cylinder<V> {
    #[inline]
    fn extent(&self) -> V::Real {
        // The rim's distance, bounded by the sum of its legs.
        self.half_height + self.radius
    }
    fn support(&self, dir: V) -> V {
        let (x, z) = rim_point(dir, self.radius);
        let y = if dir.component(1) < V::Real::ZERO { -self.half_height } else { self.half_height };
        V::from_components([x, y, z])
    }
    /// With `a = R e_y` the axis: half extent `h |a_j| + r √(1 − a_j²)` along world axis
    /// `j` (the end discs' rim reaches `r √(1 − a_j²)` beyond their centres).
    fn aabb(&self, pose: &Pose<V>) -> Aabb<V> {
        let axis = pose.transform_vector(V::axis(1));
        let half = axis.map(|a| self.half_height * a.abs() + self.radius * disc_reach(a));
        let c = pose.translation();
        Aabb::new(c - half, c + half)
    }

    /// A cap when `dir` is closer to the axis than to the side (`|dir_y| ≥ |dir_xz|`), as the
    /// regular polygon of [`CAP_CORNERS`] corners on its rim (inscribed: its points lie on the
    /// cap, a patch slightly smaller than the disc), ids `k` on top and `CAP_CORNERS + k` on the
    /// bottom, face ids 0 (top) and 1 (bottom); otherwise the side's segment under `dir`
    /// (vertex ids `2 CAP_CORNERS` and one more, face id 2).
    fn feature(&self, dir: V) -> Feature<V> {
        let (x, z) = (dir.component(0), dir.component(2));
        let along = dir.component(1);
        let (h, r) = (self.half_height, self.radius);
        if along.abs() >= (x * x + z * z).sqrt() && r.is_positive() {
            let top = along >= V::Real::ZERO;
            if let Some(f) = cap(r, if top { h } else { -h }, top) {
                return f;
            }
        }
        let (x, z) = rim_point(dir, r);
        let (low, high) = (V::from_components([x, -h, z]), V::from_components([x, h, z]));
        let first = 2 * CAP_CORNERS as u32;
        Feature::segment(low, high, [first, first + 1], 2, dir)
    }

    #[inline]
    fn core(&self) -> Core<'_, V> {
        Core::Cylinder { half_height: self.half_height, radius: self.radius }
    }
}

/// The cap of radius `r` in the plane `y` facing up (`top`) or down, as the regular polygon of
/// [`CAP_CORNERS`] corners on its rim: ids `k` on top and `CAP_CORNERS + k` below, face id 0
/// (top) or 1.
pub(crate) fn cap<V: Vector3>(r: V::Real, y: V::Real, top: bool) -> Option<Feature<V>> {
    let mut corners = [V::ZERO; CAP_CORNERS];
    let mut ids = [0u32; CAP_CORNERS];
    let step = V::Real::from_f64(core::f64::consts::TAU / CAP_CORNERS as f64);
    for (k, (c, id)) in corners.iter_mut().zip(&mut ids).enumerate() {
        let (sin, cos) = (step * V::Real::from_f64(k as f64)).sin_cos();
        *c = V::from_components([r * cos, y, r * sin]);
        *id = k as u32 + if top { 0 } else { CAP_CORNERS as u32 };
    }
    let normal = if top { V::axis(1) } else { -V::axis(1) };
    Feature::face(&corners, &ids, normal, !top as u32)
}

/// The corners of the polygon that stands for a cylinder's cap in contact manifolds.
pub const CAP_CORNERS: usize = 8;
