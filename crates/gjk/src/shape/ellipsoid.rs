use super::{check_positive, Core, Support};
use crate::bounds::Aabb;
use crate::error::ShapeError;
use crate::math::Pose;
use crate::math::{Real, Vector};

/// An axis-aligned ellipse (2D) or ellipsoid (3D) centred at the origin: `Σ (xᵢ/rᵢ)² ≤ 1`.
///
/// Support along `d` is `R² d / |R d|` with `R = diag(radii)`.
///
/// ```
/// use gjk::{Ellipsoid, Support};
/// use glam::DVec2;
/// let e = Ellipsoid::new(DVec2::new(2.0, 1.0)).unwrap();
/// assert_eq!(e.support(DVec2::X), DVec2::new(2.0, 0.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ellipsoid<V> {
    radii: V,
}

impl<V: Vector> Ellipsoid<V> {
    /// The ellipsoid with the given semi-axes (an error unless all are finite and positive).
    pub fn new(radii: V) -> Result<Self, ShapeError> {
        for i in 0..V::DIM {
            check_positive("ellipsoid radius", radii.component(i))?;
        }
        Ok(Self { radii })
    }

    /// The semi-axes.
    pub fn radii(&self) -> V {
        self.radii
    }
}

impl<V: Vector> Support<V> for Ellipsoid<V> {
    #[inline]
    fn extent(&self) -> V::Real {
        self.radii.max_abs()
    }
    fn support(&self, dir: V) -> V {
        // Scale by the largest coordinate first so |R d| neither underflows nor overflows.
        let m = dir.max_abs();
        if !m.is_positive() {
            return V::ZERO;
        }
        let rd = dir.zip_map(self.radii, |d, r| d / m * r);
        // Scale again: with very unequal radii (1e-300 next to 1) `R d` itself can be tiny and
        // its squared length underflow to 0 (then 0/0 = NaN).
        let n = rd.max_abs();
        let rd = rd.map(|x| x / n);
        let len = rd.length();
        rd.zip_map(self.radii, |x, r| x * r / len)
    }
    /// Half extent `√(Σ_i (R_ji r_i)²)` along world axis `j`: the support value
    /// `|diag(r) Rᵀ e_j|`.
    fn aabb(&self, pose: &Pose<V>) -> Aabb<V> {
        let columns = crate::bounds::rotated_axes(pose);
        let mut half = [V::Real::ZERO; 3];
        for (j, h) in half.iter_mut().enumerate().take(V::DIM) {
            // Scaled by the largest term so the squares neither overflow nor underflow.
            let terms: [V::Real; 3] = core::array::from_fn(|i| {
                if i < V::DIM {
                    (columns[i].component(j) * self.radii.component(i)).abs()
                } else {
                    V::Real::ZERO
                }
            });
            let m = terms[0].max(terms[1]).max(terms[2]);
            if m.is_positive() {
                let sum = terms.iter().fold(V::Real::ZERO, |s, &t| s + (t / m) * (t / m));
                *h = m * sum.sqrt();
            }
        }
        let half = V::from_components(half);
        let c = pose.translation();
        Aabb::new(c - half, c + half)
    }

    #[inline]
    fn core(&self) -> Core<'_, V> {
        Core::Ellipsoid(self.radii)
    }
}
