use super::{check_non_negative, CoreBoundary, Support};
use crate::error::ShapeError;
use crate::math::{Real, Vector};

/// An axis-aligned rectangle (2D) or box (3D) centred at the origin.
///
/// Zero half extents are allowed (a flat box); negative ones are not.
///
/// ```
/// use gjk::{Cuboid, Support};
/// use glam::Vec3;
/// let b = Cuboid::new(Vec3::new(1.0, 2.0, 3.0)).unwrap();
/// assert_eq!(b.support(Vec3::new(1.0, -1.0, 1.0)), Vec3::new(1.0, -2.0, 3.0));
/// assert!(Cuboid::new(Vec3::new(1.0, -2.0, 3.0)).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cuboid<V> {
    half_extents: V,
}

impl<V: Vector> Cuboid<V> {
    /// The box `[-h, h]` per axis (an error if a half extent is negative or not finite).
    pub fn new(half_extents: V) -> Result<Self, ShapeError> {
        for i in 0..V::DIM {
            check_non_negative("half extent", half_extents.component(i))?;
        }
        Ok(Self { half_extents })
    }

    /// The half extents.
    pub fn half_extents(&self) -> V {
        self.half_extents
    }
}

impl<V: Vector> Support<V> for Cuboid<V> {
    #[inline]
    fn extent(&self) -> V::Real {
        // The sum norm bounds the half diagonal without a square root.
        self.half_extents.abs_sum()
    }
    #[inline]
    fn support(&self, dir: V) -> V {
        dir.zip_map(self.half_extents, |d, h| if d < V::Real::ZERO { -h } else { h })
    }
    #[inline]
    fn core_box(&self) -> Option<V> {
        Some(self.half_extents)
    }
    /// Clamping each coordinate to `[−h, h]`.
    #[inline]
    fn closest_core_point(&self, p: V) -> Option<V> {
        Some(p.zip_map(self.half_extents, |x, h| x.max(-h).min(h)))
    }
    /// The nearest face. From `p` inside the box, face `±i` (the plane `xᵢ = ±hᵢ`) is
    /// `hᵢ ∓ pᵢ` away, so the nearest face is the one of the smallest `hᵢ − |pᵢ|`, on the
    /// side of `pᵢ`'s sign. Its nearest point is `p` with coordinate `i` set to `±hᵢ` — inside
    /// that face, since every other `|pⱼ| ≤ hⱼ`, hence on the boundary — and no boundary point
    /// is nearer: the boundary is the union of the faces, and every face's points are at least
    /// their plane's distance away. The point is exact (one coordinate replaced) and so is the
    /// depth (one subtraction).
    ///
    /// Ties go to the lowest axis, then to the `+` side (`pᵢ = 0`, `−0` included): the centre
    /// of a cube exits through `+x`. For a point outside the box this returns the face it is
    /// farthest outside of, with `depth = −`(that excess).
    ///
    /// ```
    /// use gjk::{Cuboid, Support};
    /// use glam::Vec3;
    /// let cube = Cuboid::new(Vec3::ONE)?;
    /// let centre = cube.nearest_core_boundary(Vec3::ZERO).unwrap();
    /// assert_eq!((centre.normal, centre.depth), (Vec3::X, 1.0)); // the tie goes to +x
    /// let near_top = cube.nearest_core_boundary(Vec3::new(0.5, 0.5, 0.875)).unwrap();
    /// assert_eq!((near_top.normal, near_top.depth), (Vec3::Z, 0.125));
    /// # Ok::<(), gjk::ShapeError>(())
    /// ```
    #[inline]
    fn nearest_core_boundary(&self, p: V) -> Option<CoreBoundary<V>> {
        let h = self.half_extents;
        let mut axis = 0;
        let mut depth = h.component(0) - p.component(0).abs();
        for i in 1..V::DIM {
            let d = h.component(i) - p.component(i).abs();
            if d < depth {
                axis = i;
                depth = d;
            }
        }
        let side = if p.component(axis) < V::Real::ZERO { -V::Real::ONE } else { V::Real::ONE };
        let exit = h.component(axis) * side;
        let coords = [0, 1, 2].map(|i| if i == axis { exit } else { p.component(i) });
        Some(CoreBoundary {
            point: V::from_components(coords),
            normal: V::axis(axis) * side,
            depth,
        })
    }
}
