//! The small vector abstraction the algorithms are written against.
//!
//! One generic implementation of GJK serves 2D and 3D, `f32` and `f64`: the algorithms only ever
//! talk to [`Vector`] (implemented for glam's [`Vec2`], [`Vec3`], [`DVec2`], [`DVec3`]), its scalar
//! type [`Real`], and its rotation type [`Rotation`]. The few places where the dimension matters
//! (the signed area or volume of a full-dimensional simplex, the plane a triangle projects onto)
//! are methods of [`Vector`], so the GJK loop never exists twice.

use core::fmt::{Debug, Display};
use core::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

use glam::{DMat3, DQuat, DVec2, DVec3, Mat3, Mat3A, Quat, Vec2, Vec3, Vec3A};

use crate::error::ShapeError;

/// Keeps [`Real`] and [`Vector`] to the types this crate implements them for.
mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
    impl Sealed for glam::Vec2 {}
    impl Sealed for glam::Vec3 {}
    impl Sealed for glam::Vec3A {}
    impl Sealed for glam::DVec2 {}
    impl Sealed for glam::DVec3 {}
}

/// A floating-point scalar: `f32` or `f64`.
///
/// Sealed: the solver's numerics (tolerances, rounding bounds) are written for these two.
pub trait Real:
    sealed::Sealed
    + Copy
    + Debug
    + Display
    + Default
    + PartialEq
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
    + Send
    + Sync
    + 'static
{
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// 2.
    const TWO: Self;
    /// 1/2.
    const HALF: Self;
    /// Machine epsilon: the gap between 1 and the next representable number.
    const EPSILON: Self;
    /// The smallest positive normal number.
    const MIN_POSITIVE: Self;
    /// Positive infinity.
    const INFINITY: Self;
    /// The default relative tolerance of the queries: `1e-10` for `f64`, `1e-5` for `f32`.
    ///
    /// Distances are accurate to this fraction of the shapes' size; shapes closer than that
    /// count as touching.
    const DEFAULT_TOLERANCE: Self;
    /// Magnitudes `[low, high]` whose products of four (`x⁴`, as in a 2×2 determinant of dot
    /// products) stay normal numbers with a factor of at least 80 to spare: `[1e-75, 1e75]`
    /// for `f64`, `[1e-9, 1e9]` for `f32`. Closed forms of that order rescale input outside it.
    const QUARTIC_SAFE: [Self; 2];

    /// Square root (`libm` without `std`).
    fn sqrt(self) -> Self;
    /// Sine and cosine of an angle in radians.
    fn sin_cos(self) -> (Self, Self);
    /// Absolute value.
    #[inline]
    fn abs(self) -> Self {
        if self < Self::ZERO {
            -self
        } else {
            self
        }
    }
    /// The larger of two numbers (`self` when they compare equal or either is NaN).
    #[inline]
    fn max(self, other: Self) -> Self {
        if other > self {
            other
        } else {
            self
        }
    }
    /// The smaller of two numbers (`self` when they compare equal or either is NaN).
    #[inline]
    fn min(self, other: Self) -> Self {
        if other < self {
            other
        } else {
            self
        }
    }
    /// Neither NaN nor infinite.
    fn is_finite(self) -> bool;
    /// Strictly greater than zero (false for NaN): `!x.is_positive()` catches NaN too.
    #[inline]
    fn is_positive(self) -> bool {
        self > Self::ZERO
    }
    /// Conversion from `f64` (rounding for `f32`).
    fn from_f64(value: f64) -> Self;
    /// Conversion to `f64` (exact).
    fn to_f64(self) -> f64;
}

macro_rules! impl_real {
    ($t:ident, $tolerance:expr, $quartic:expr, $libm_sqrt:path, $libm_sincos:path) => {
        impl Real for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const TWO: Self = 2.0;
            const HALF: Self = 0.5;
            const EPSILON: Self = $t::EPSILON;
            const MIN_POSITIVE: Self = $t::MIN_POSITIVE;
            const INFINITY: Self = $t::INFINITY;
            const DEFAULT_TOLERANCE: Self = $tolerance;
            const QUARTIC_SAFE: [Self; 2] = [1.0 / $quartic, $quartic];

            #[inline]
            fn sqrt(self) -> Self {
                #[cfg(feature = "std")]
                {
                    $t::sqrt(self)
                }
                #[cfg(not(feature = "std"))]
                {
                    $libm_sqrt(self)
                }
            }
            #[inline]
            fn sin_cos(self) -> (Self, Self) {
                #[cfg(feature = "std")]
                {
                    $t::sin_cos(self)
                }
                #[cfg(not(feature = "std"))]
                {
                    $libm_sincos(self)
                }
            }
            #[inline]
            fn is_finite(self) -> bool {
                $t::is_finite(self)
            }
            /// Clears the sign bit: one `and`, no branch (`-0.0` gives `+0.0`).
            #[inline]
            fn abs(self) -> Self {
                $t::from_bits(self.to_bits() & !(1 << (core::mem::size_of::<$t>() * 8 - 1)))
            }
            #[inline]
            fn from_f64(value: f64) -> Self {
                value as $t
            }
            #[inline]
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    };
}

impl_real!(f32, 1e-5, 1e9, libm::sqrtf, libm::sincosf);
impl_real!(f64, 1e-10, 1e75, libm::sqrt, libm::sincos);

/// A rotation acting on vectors of type `V`: [`Rotation2`] in 2D, a unit quaternion in 3D.
pub trait Rotation<V>: Copy + Debug + PartialEq + Send + Sync + 'static {
    /// The rotation that does nothing.
    const IDENTITY: Self;
    /// Rotates `v`.
    fn rotate(&self, v: V) -> V;
    /// Applies the inverse rotation to `v`.
    fn inverse_rotate(&self, v: V) -> V;
    /// The inverse rotation.
    fn inverse(&self) -> Self;
    /// `self ∘ other`: first `other`, then `self`.
    fn compose(&self, other: &Self) -> Self;
    /// The same rotation scaled back to unit norm, or `None` when it has no direction
    /// (zero, NaN or infinite components).
    fn try_normalize(&self) -> Option<Self>;
    /// The images of the coordinate axes (the rotation matrix's columns; the third is zero
    /// in 2D), from the quaternion's closed form in 3D rather than three rotations.
    fn columns(&self) -> [V; 3];
}

/// A 2D rotation stored as the unit complex number `cos θ + i sin θ`.
///
/// ```
/// use gjk::{Rotation, Rotation2};
/// use glam::Vec2;
/// let quarter = Rotation2::<f32>::from_angle(core::f32::consts::FRAC_PI_2);
/// let v = quarter.rotate(Vec2::X);
/// assert!((v - Vec2::Y).length() < 1e-6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rotation2<R> {
    /// cos θ.
    pub cos: R,
    /// sin θ.
    pub sin: R,
}

impl<R: Real> Rotation2<R> {
    /// The rotation by `angle` radians, counter-clockwise.
    pub fn from_angle(angle: R) -> Self {
        let (sin, cos) = angle.sin_cos();
        Self { cos, sin }
    }
}

macro_rules! impl_rotation2 {
    ($r:ident, $v:ident) => {
        impl Rotation<$v> for Rotation2<$r> {
            #[inline]
            fn columns(&self) -> [$v; 3] {
                [self.rotate($v::X), self.rotate($v::Y), $v::ZERO]
            }
            const IDENTITY: Self = Self { cos: 1.0, sin: 0.0 };
            #[inline]
            fn rotate(&self, v: $v) -> $v {
                $v::new(self.cos * v.x - self.sin * v.y, self.sin * v.x + self.cos * v.y)
            }
            #[inline]
            fn inverse_rotate(&self, v: $v) -> $v {
                $v::new(self.cos * v.x + self.sin * v.y, -self.sin * v.x + self.cos * v.y)
            }
            #[inline]
            fn inverse(&self) -> Self {
                Self { cos: self.cos, sin: -self.sin }
            }
            #[inline]
            fn compose(&self, other: &Self) -> Self {
                Self {
                    cos: self.cos * other.cos - self.sin * other.sin,
                    sin: self.sin * other.cos + self.cos * other.sin,
                }
            }
            fn try_normalize(&self) -> Option<Self> {
                let norm = Real::sqrt(self.cos * self.cos + self.sin * self.sin);
                if !Real::is_finite(norm) || norm <= <$r>::MIN_POSITIVE {
                    return None;
                }
                Some(Self { cos: self.cos / norm, sin: self.sin / norm })
            }
        }
    };
}
impl_rotation2!(f32, Vec2);
impl_rotation2!(f64, DVec2);

macro_rules! impl_rotation3 {
    ($q:ident, $v:ident, $m:ident) => {
        impl Rotation<$v> for $q {
            const IDENTITY: Self = $q::IDENTITY;
            #[inline]
            fn columns(&self) -> [$v; 3] {
                let m = $m::from_quat(*self);
                [m.x_axis, m.y_axis, m.z_axis]
            }
            #[inline]
            fn rotate(&self, v: $v) -> $v {
                *self * v
            }
            #[inline]
            fn inverse_rotate(&self, v: $v) -> $v {
                self.conjugate() * v
            }
            #[inline]
            fn inverse(&self) -> Self {
                self.conjugate()
            }
            #[inline]
            fn compose(&self, other: &Self) -> Self {
                *self * *other
            }
            fn try_normalize(&self) -> Option<Self> {
                let norm = Real::sqrt(self.length_squared());
                if !Real::is_finite(norm) || norm <= 1e-12 {
                    return None;
                }
                Some(*self * (1.0 / norm))
            }
        }
    };
}
impl_rotation3!(Quat, Vec3, Mat3);
impl_rotation3!(Quat, Vec3A, Mat3A);
impl_rotation3!(DQuat, DVec3, DMat3);

/// A triangle and a point, seen in the 2D coordinate plane where the triangle's area is largest.
///
/// The signed-volumes sub-algorithm (Montanari, Petrinic & Barbieri 2017) computes barycentric
/// coordinates as ratios of signed areas in this plane, which stays well conditioned for thin and
/// nearly flat triangles.
#[derive(Clone, Copy, Debug)]
pub struct TriangleProjection<R> {
    /// The triangle's three corners in the chosen coordinate plane.
    pub corners: [[R; 2]; 3],
    /// The projection of the origin onto the triangle's plane, in the same coordinates.
    pub origin: [R; 2],
}

/// A point or direction in 2D or 3D: glam's `Vec2`, `Vec3`, `Vec3A`, `DVec2` or `DVec3`.
///
/// Sealed: besides vector arithmetic it carries the solver's per-dimension hooks (the
/// projection of a triangle for the signed-volumes solver, for one), which only these five
/// types implement. `Vec3A` (16 bytes, SIMD lanes) computes the same as `Vec3`, to the bit;
/// the closed-form ray casts and capsule kernels run `Vec3` queries on it.
pub trait Vector:
    sealed::Sealed
    + Copy
    + Debug
    + Default
    + PartialEq
    + Add<Output = Self>
    + Sub<Output = Self>
    + Neg<Output = Self>
    + Mul<<Self as Vector>::Real, Output = Self>
    + Send
    + Sync
    + 'static
{
    /// The scalar type.
    type Real: Real;
    /// The rotation type of poses in this space.
    type Rotation: Rotation<Self>;
    /// The number of coordinates: 2 or 3.
    const DIM: usize;
    /// The zero vector.
    const ZERO: Self;

    /// The dot product.
    fn dot(self, other: Self) -> Self::Real;
    /// Coordinate `i` (`0 ≤ i < DIM`; other indices give 0).
    fn component(self, i: usize) -> Self::Real;
    /// The vector built from its coordinates (extra entries of `c` are ignored).
    fn from_components(c: [Self::Real; 3]) -> Self;
    /// The unit vector along axis `i`.
    fn axis(i: usize) -> Self;
    /// Applies `f` to each coordinate.
    fn map(self, f: impl Fn(Self::Real) -> Self::Real) -> Self;
    /// Applies `f` to each pair of coordinates.
    fn zip_map(self, other: Self, f: impl Fn(Self::Real, Self::Real) -> Self::Real) -> Self;
    /// The triangle `a, b, c` and the origin projected onto the triangle's plane, in the coordinate
    /// plane where the triangle's projected area is largest (2D: the plane itself).
    fn project_triangle(a: Self, b: Self, c: Self) -> TriangleProjection<Self::Real>;
    /// Six times the signed volume of the tetrahedron `a, b, c, d` (3D); 0 in 2D, where no
    /// tetrahedron exists.
    fn tetrahedron_volume6(a: Self, b: Self, c: Self, d: Self) -> Self::Real;
    /// A unit vector orthogonal to the non-zero vector `self` (2D: rotated by +90°).
    fn any_orthogonal(self) -> Self;

    /// An angular velocity in this space, in radians per unit time: a scalar in 2D
    /// (counter-clockwise), a rotation vector in 3D (axis × rate, right-handed).
    type Angular: Copy + Debug + Default + PartialEq + Send + Sync + 'static;
    /// The rotation by `angular` over a time `t`: `exp(t ω)` (2D: the angle `ω t`; 3D: `|ω| t`
    /// radians about `ω`).
    fn spin(angular: Self::Angular, t: Self::Real) -> Self::Rotation;
    /// The fastest that rotating by `angular` moves a point at unit distance from the centre
    /// along the unit direction `n`: `max_{|x| = 1} n·(ω × x) = |n × ω|` in 3D (a spin about `n`
    /// itself moves nothing along it), `|ω|` in 2D.
    fn spin_rate_along(angular: Self::Angular, n: Self) -> Self::Real;
    /// `|ω|`, or NaN/infinity when a component is not finite.
    fn spin_rate(angular: Self::Angular) -> Self::Real;
    /// The part of `v` along the spin axis, `(ω̂·v) ω̂`, which a spin leaves alone (zero in 2D,
    /// where the axis is out of the plane, and for `ω = 0`).
    fn along_spin_axis(angular: Self::Angular, v: Self) -> Self;
    /// `ω̂ × v`: the direction in which spinning by `angular` moves the point `v`, at unit
    /// rate (2D: `v` turned by +90°, or by −90° for a clockwise spin); zero for `ω = 0`.
    fn spin_tangent(angular: Self::Angular, v: Self) -> Self;

    /// The type the closed-form ray casts compute in: glam's 16-byte SIMD `Vec3A` for `Vec3`
    /// (whose three scalars make the `f32` code shuffle lanes), the type itself otherwise.
    /// The arithmetic is the same, coordinate by coordinate and in the same order, so the
    /// answers are bit-identical.
    #[doc(hidden)]
    type Packed: Vector<Real = Self::Real, Rotation = Self::Rotation>;
    /// Whether a closed-form ray cast, which rotates three vectors by one pose, is cheaper
    /// through the rotation's matrix (built once) than by three rotations: `DVec3`'s
    /// quaternion rotation is scalar code, glam's `f32` one is vectorised (measured in
    /// docs/benchmarks.md, issue 16).
    #[doc(hidden)]
    const ROTATE_BY_MATRIX: bool;
    /// `self` as [`Vector::Packed`].
    #[doc(hidden)]
    fn to_packed(self) -> Self::Packed;
    /// `v` back from [`Vector::Packed`].
    #[doc(hidden)]
    fn from_packed(v: Self::Packed) -> Self;

    /// The squared length.
    #[inline]
    fn length_squared(self) -> Self::Real {
        self.dot(self)
    }
    /// The length, also of vectors so short that their squared length underflows (below
    /// about `1e-154` in `f64`, `1e-19` in `f32`): those are scaled by their largest
    /// coordinate first.
    #[inline]
    fn length(self) -> Self::Real {
        let ll = self.length_squared();
        if ll >= Self::Real::MIN_POSITIVE / Self::Real::EPSILON {
            return ll.sqrt();
        }
        let m = self.max_abs();
        if !m.is_positive() {
            return ll.sqrt();
        }
        // Divide by `m`, not multiply by `1/m`, which overflows for a subnormal `m`.
        m * self.map(|x| x / m).length_squared().sqrt()
    }
    /// The sum of the absolute coordinates (the 1-norm: at least the length, and at most
    /// `√d` times it, without a square root).
    #[inline]
    fn abs_sum(self) -> Self::Real {
        let mut sum = Self::Real::ZERO;
        for i in 0..Self::DIM {
            sum += self.component(i).abs();
        }
        sum
    }
    /// The coordinates' absolute values.
    #[inline]
    fn abs(self) -> Self {
        self.map(Real::abs)
    }
    /// The vector with every coordinate `r`.
    #[inline]
    fn splat(r: Self::Real) -> Self {
        Self::from_components([r; 3])
    }
    /// The largest coordinate (NaN coordinates are passed over unless all are NaN).
    #[inline]
    fn max_element(self) -> Self::Real {
        let mut m = self.component(0);
        for i in 1..Self::DIM {
            m = m.max(self.component(i));
        }
        m
    }
    /// The smallest coordinate (NaN coordinates are passed over unless all are NaN).
    #[inline]
    fn min_element(self) -> Self::Real {
        let mut m = self.component(0);
        for i in 1..Self::DIM {
            m = m.min(self.component(i));
        }
        m
    }
    /// The coordinate-wise minimum (for coordinates that are not NaN).
    #[inline]
    fn component_min(self, other: Self) -> Self {
        self.zip_map(other, Real::min)
    }
    /// The coordinate-wise maximum (for coordinates that are not NaN).
    #[inline]
    fn component_max(self, other: Self) -> Self {
        self.zip_map(other, Real::max)
    }
    /// The coordinate-wise product.
    #[inline]
    fn component_mul(self, other: Self) -> Self {
        self.zip_map(other, |a, b| a * b)
    }
    /// The coordinate-wise reciprocal (`±∞` for a zero coordinate).
    #[inline]
    fn recip(self) -> Self {
        self.map(|x| Self::Real::ONE / x)
    }
    /// The largest absolute coordinate (the ∞-norm).
    fn max_abs(self) -> Self::Real {
        let mut m = Self::Real::ZERO;
        for i in 0..Self::DIM {
            m = m.max(self.component(i).abs());
        }
        m
    }
    /// Whether every coordinate is finite.
    fn is_finite(self) -> bool {
        (0..Self::DIM).all(|i| self.component(i).is_finite())
    }
    /// The unit vector along `self`, or `None` for the zero vector and non-finite input.
    /// (Named apart from glam's `try_normalize`, which overflows on huge vectors.)
    ///
    /// Robust to tiny and huge inputs: the vector is first scaled by its largest coordinate,
    /// so its squared length neither underflows nor overflows.
    #[inline]
    fn direction(self) -> Option<Self> {
        let m = self.max_abs();
        if !m.is_positive() || !self.is_finite() {
            return None;
        }
        // Divide by `m` rather than multiply by `1/m`: for a subnormal `m`, `1/m` overflows and
        // the zero coordinates would become `0 × ∞ = NaN`.
        let scaled = self.map(|x| x / m);
        Some(scaled * (Self::Real::ONE / scaled.length()))
    }
}

/// The 3D vectors: adds the cross product.
pub trait Vector3: Vector {
    /// The cross product.
    fn cross(self, other: Self) -> Self;
}

macro_rules! impl_vector2 {
    ($v:ident, $r:ident) => {
        impl Vector for $v {
            type Real = $r;
            type Rotation = Rotation2<$r>;
            const DIM: usize = 2;
            const ZERO: Self = $v::ZERO;
            #[inline]
            fn dot(self, other: Self) -> $r {
                self.x * other.x + self.y * other.y
            }
            #[inline]
            fn component(self, i: usize) -> $r {
                match i {
                    0 => self.x,
                    1 => self.y,
                    _ => 0.0,
                }
            }
            #[inline]
            fn from_components(c: [$r; 3]) -> Self {
                $v::new(c[0], c[1])
            }
            #[inline]
            fn axis(i: usize) -> Self {
                if i == 0 {
                    $v::X
                } else {
                    $v::Y
                }
            }
            #[inline]
            fn abs(self) -> Self {
                $v::abs(self)
            }
            #[inline]
            fn splat(r: $r) -> Self {
                $v::splat(r)
            }
            #[inline]
            fn max_element(self) -> $r {
                $v::max_element(self)
            }
            #[inline]
            fn min_element(self) -> $r {
                $v::min_element(self)
            }
            #[inline]
            fn component_min(self, other: Self) -> Self {
                $v::min(self, other)
            }
            #[inline]
            fn component_max(self, other: Self) -> Self {
                $v::max(self, other)
            }
            #[inline]
            fn component_mul(self, other: Self) -> Self {
                self * other
            }
            #[inline]
            fn recip(self) -> Self {
                $v::recip(self)
            }
            #[inline]
            fn abs_sum(self) -> $r {
                $v::abs(self).element_sum()
            }
            /// glam's maximum, which passes over NaN as the default does; at least 0 as the
            /// default's fold from 0.
            #[inline]
            fn max_abs(self) -> $r {
                $v::abs(self).max_element().max(0.0)
            }
            #[inline]
            fn is_finite(self) -> bool {
                $v::is_finite(self)
            }
            #[inline]
            fn map(self, f: impl Fn($r) -> $r) -> Self {
                $v::new(f(self.x), f(self.y))
            }
            #[inline]
            fn zip_map(self, o: Self, f: impl Fn($r, $r) -> $r) -> Self {
                $v::new(f(self.x, o.x), f(self.y, o.y))
            }
            #[inline]
            fn project_triangle(a: Self, b: Self, c: Self) -> TriangleProjection<$r> {
                TriangleProjection {
                    corners: [[a.x, a.y], [b.x, b.y], [c.x, c.y]],
                    origin: [0.0, 0.0],
                }
            }
            #[inline]
            fn tetrahedron_volume6(_: Self, _: Self, _: Self, _: Self) -> $r {
                0.0
            }
            #[inline]
            fn any_orthogonal(self) -> Self {
                Vector::direction($v::new(-self.y, self.x)).unwrap_or($v::Y)
            }
            type Packed = Self;
            const ROTATE_BY_MATRIX: bool = false;
            #[inline(always)]
            fn to_packed(self) -> Self {
                self
            }
            #[inline(always)]
            fn from_packed(v: Self) -> Self {
                v
            }
            type Angular = $r;
            #[inline]
            fn spin(angular: $r, t: $r) -> Rotation2<$r> {
                Rotation2::from_angle(angular * t)
            }
            #[inline]
            fn spin_rate_along(angular: $r, _n: Self) -> $r {
                angular.abs()
            }
            #[inline]
            fn spin_rate(angular: $r) -> $r {
                if angular.is_finite() {
                    angular.abs()
                } else {
                    <$r>::NAN
                }
            }
            #[inline]
            fn along_spin_axis(_angular: $r, _v: Self) -> Self {
                $v::ZERO
            }
            #[inline]
            fn spin_tangent(angular: $r, v: Self) -> Self {
                if angular > 0.0 {
                    $v::new(-v.y, v.x)
                } else if angular < 0.0 {
                    $v::new(v.y, -v.x)
                } else {
                    $v::ZERO
                }
            }
        }
    };
}
impl_vector2!(Vec2, f32);
impl_vector2!(DVec2, f64);

macro_rules! impl_vector3 {
    ($v:ident, $r:ident, $q:ident, $packed:ident, $matrix:literal) => {
        impl Vector for $v {
            type Real = $r;
            type Rotation = $q;
            const DIM: usize = 3;
            const ZERO: Self = $v::ZERO;
            #[inline]
            fn dot(self, other: Self) -> $r {
                $v::dot(self, other)
            }
            #[inline]
            fn component(self, i: usize) -> $r {
                match i {
                    0 => self.x,
                    1 => self.y,
                    2 => self.z,
                    _ => 0.0,
                }
            }
            #[inline]
            fn from_components(c: [$r; 3]) -> Self {
                $v::new(c[0], c[1], c[2])
            }
            #[inline]
            fn axis(i: usize) -> Self {
                match i {
                    0 => $v::X,
                    1 => $v::Y,
                    _ => $v::Z,
                }
            }
            #[inline]
            fn abs(self) -> Self {
                $v::abs(self)
            }
            #[inline]
            fn splat(r: $r) -> Self {
                $v::splat(r)
            }
            #[inline]
            fn max_element(self) -> $r {
                $v::max_element(self)
            }
            #[inline]
            fn min_element(self) -> $r {
                $v::min_element(self)
            }
            #[inline]
            fn component_min(self, other: Self) -> Self {
                $v::min(self, other)
            }
            #[inline]
            fn component_max(self, other: Self) -> Self {
                $v::max(self, other)
            }
            #[inline]
            fn component_mul(self, other: Self) -> Self {
                self * other
            }
            #[inline]
            fn recip(self) -> Self {
                $v::recip(self)
            }
            #[inline]
            fn abs_sum(self) -> $r {
                $v::abs(self).element_sum()
            }
            /// glam's maximum, which passes over NaN as the default does; at least 0 as the
            /// default's fold from 0.
            #[inline]
            fn max_abs(self) -> $r {
                $v::abs(self).max_element().max(0.0)
            }
            #[inline]
            fn is_finite(self) -> bool {
                $v::is_finite(self)
            }
            #[inline]
            fn map(self, f: impl Fn($r) -> $r) -> Self {
                $v::new(f(self.x), f(self.y), f(self.z))
            }
            #[inline]
            fn zip_map(self, o: Self, f: impl Fn($r, $r) -> $r) -> Self {
                $v::new(f(self.x, o.x), f(self.y, o.y), f(self.z, o.z))
            }
            fn project_triangle(a: Self, b: Self, c: Self) -> TriangleProjection<$r> {
                let n = (b - a).cross(c - a);
                // Origin projected on the plane: p = n (a·n) / (n·n), through the unit normal
                // when n·n would overflow (n grows as the square of the coordinates). A zero normal
                // (collinear corners) leaves p at the origin; the solver then sees a zero area
                // and falls back to the edges.
                let p = along_normal(n, a).unwrap_or($v::ZERO);
                // Drop the axis along which the normal is largest: the projected area is largest.
                let (i, j) = if n.x.abs() >= n.y.abs() && n.x.abs() >= n.z.abs() {
                    (1, 2)
                } else if n.y.abs() >= n.z.abs() {
                    (2, 0)
                } else {
                    (0, 1)
                };
                let pick = |v: $v| [v.component(i), v.component(j)];
                TriangleProjection { corners: [pick(a), pick(b), pick(c)], origin: pick(p) }
            }
            #[inline]
            fn tetrahedron_volume6(a: Self, b: Self, c: Self, d: Self) -> $r {
                (b - a).dot((c - a).cross(d - a))
            }
            fn any_orthogonal(self) -> Self {
                // Cross with the axis least aligned with `self`.
                let a = self.abs();
                let other = if a.x <= a.y && a.x <= a.z {
                    $v::X
                } else if a.y <= a.z {
                    $v::Y
                } else {
                    $v::Z
                };
                Vector::direction(self.cross(other)).unwrap_or($v::Y)
            }
            type Packed = $packed;
            const ROTATE_BY_MATRIX: bool = $matrix;
            #[inline(always)]
            fn to_packed(self) -> $packed {
                self.into()
            }
            #[inline(always)]
            fn from_packed(v: $packed) -> Self {
                v.into()
            }
            type Angular = $v;
            #[inline]
            fn spin(angular: $v, t: $r) -> $q {
                // Axis and rate apart, through the scaled direction: `ω t` itself may
                // overflow or underflow where the angle `|ω| t` does not.
                match Vector::direction(angular) {
                    Some(axis) => $q::from_axis_angle(axis.into(), axis.dot(angular) * t),
                    None => $q::IDENTITY,
                }
            }
            #[inline]
            fn spin_rate_along(angular: $v, n: Self) -> $r {
                Vector::length(n.cross(angular))
            }
            #[inline]
            fn spin_rate(angular: $v) -> $r {
                if Vector::is_finite(angular) {
                    // `|ω|` as `ω̂·ω`: no square of a huge rate to overflow.
                    Vector::direction(angular).map_or(0.0, |axis| axis.dot(angular))
                } else {
                    <$r>::NAN
                }
            }
            #[inline]
            fn along_spin_axis(angular: $v, v: Self) -> Self {
                Vector::direction(angular).map_or($v::ZERO, |axis| axis * axis.dot(v))
            }
            #[inline]
            fn spin_tangent(angular: $v, v: Self) -> Self {
                Vector::direction(angular).map_or($v::ZERO, |axis| axis.cross(v))
            }
        }
        impl Vector3 for $v {
            #[inline]
            fn cross(self, other: Self) -> Self {
                $v::cross(self, other)
            }
        }
    };
}
impl_vector3!(Vec3, f32, Quat, Vec3A, false);
impl_vector3!(Vec3A, f32, Quat, Vec3A, false);
impl_vector3!(DVec3, f64, DQuat, DVec3, true);

/// A rigid motion: rotate, then translate. `p ↦ R p + t`.
///
/// ```
/// use gjk::Pose;
/// use glam::DVec2;
/// let pose = Pose::<DVec2>::from_angle_translation(0.0, DVec2::new(1.0, 2.0)).unwrap();
/// assert_eq!(pose.transform_point(DVec2::ZERO), DVec2::new(1.0, 2.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose<V: Vector> {
    rotation: V::Rotation,
    translation: V,
}

impl<V: Vector> Default for Pose<V> {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<V: Vector> Pose<V> {
    /// The identity pose.
    pub const IDENTITY: Self = Self { rotation: V::Rotation::IDENTITY, translation: V::ZERO };

    /// A pose from a rotation and a translation.
    ///
    /// The rotation is normalised; it is an error when it cannot be (zero, NaN or infinite), or
    /// when the translation is not finite.
    pub fn new(rotation: V::Rotation, translation: V) -> Result<Self, ShapeError> {
        if !translation.is_finite() {
            return Err(ShapeError::NonFinite { what: "translation" });
        }
        let rotation = rotation.try_normalize().ok_or(ShapeError::InvalidRotation)?;
        Ok(Self { rotation, translation })
    }

    /// A pose from a rotation and a translation that the program itself computed, as a game
    /// loop does every frame: no `Result` to unwrap. The rotation is normalised (integrated
    /// orientations drift from unit length).
    ///
    /// The caller vouches that both are finite and the rotation is not zero; otherwise queries
    /// on the pose answer with unspecified (possibly NaN) values, though they still end. For
    /// input from outside the program (files, network, user data) use the validated
    /// [`Pose::new`].
    ///
    /// ```
    /// use gjk::Pose;
    /// use glam::{DQuat, DVec3};
    /// let spin = DQuat::from_rotation_z(0.1) * 1.0001; // a little off unit length
    /// let pose = Pose::from_rotation_translation(spin, DVec3::X);
    /// assert!((pose.rotation().length() - 1.0).abs() < 1e-12);
    /// ```
    #[inline]
    pub fn from_rotation_translation(rotation: V::Rotation, translation: V) -> Self {
        let rotation = rotation.try_normalize().unwrap_or(rotation);
        Self { rotation, translation }
    }

    /// A pure translation (an error if it is not finite).
    pub fn from_translation(translation: V) -> Result<Self, ShapeError> {
        Self::new(V::Rotation::IDENTITY, translation)
    }

    /// The rotation part.
    #[inline]
    pub fn rotation(&self) -> V::Rotation {
        self.rotation
    }

    /// The translation part.
    #[inline]
    pub fn translation(&self) -> V {
        self.translation
    }

    /// The same pose on [`Vector::Packed`] (the rotation as it is).
    #[inline(always)]
    pub(crate) fn to_packed(self) -> Pose<V::Packed> {
        Pose { rotation: self.rotation, translation: self.translation.to_packed() }
    }

    /// Maps a point from the local frame to the outer frame: `R p + t`.
    #[inline]
    pub fn transform_point(&self, p: V) -> V {
        self.rotation.rotate(p) + self.translation
    }

    /// Maps a point from the outer frame back to the local frame: `Rᵀ (p − t)`.
    #[inline]
    pub fn inverse_transform_point(&self, p: V) -> V {
        self.rotation.inverse_rotate(p - self.translation)
    }

    /// Rotates a direction (no translation).
    #[inline]
    pub fn transform_vector(&self, v: V) -> V {
        self.rotation.rotate(v)
    }

    /// Rotates a direction back to the local frame.
    #[inline]
    pub fn inverse_transform_vector(&self, v: V) -> V {
        self.rotation.inverse_rotate(v)
    }

    /// The inverse motion.
    pub fn inverse(&self) -> Self {
        let rotation = self.rotation.inverse();
        Self { rotation, translation: -rotation.rotate(self.translation) }
    }

    /// `self ∘ other`: first `other`, then `self`.
    pub fn compose(&self, other: &Self) -> Self {
        Self {
            rotation: self.rotation.compose(&other.rotation),
            translation: self.transform_point(other.translation),
        }
    }

    /// The pose of `other` seen from `self`'s frame: `self⁻¹ ∘ other`.
    ///
    /// Queries run in shape A's frame with B's relative pose; coordinates then stay small near
    /// the shapes even when both sit far from the world origin.
    #[inline]
    pub fn relative(&self, other: &Self) -> Self {
        let rotation = self.rotation.inverse().compose(&other.rotation);
        let translation = self.rotation.inverse_rotate(other.translation - self.translation);
        Self { rotation, translation }
    }
}

impl<R: Real, V: Vector<Real = R, Rotation = Rotation2<R>>> Pose<V> {
    /// A 2D pose: rotation by `angle` radians (counter-clockwise), then translation (an error
    /// if either is not finite). The vector type comes from `translation`:
    ///
    /// ```
    /// use gjk::Pose;
    /// use glam::DVec2;
    /// let pose = Pose::from_angle_translation(0.5, DVec2::new(1.0, 2.0))?;
    /// assert_eq!(pose.translation(), DVec2::new(1.0, 2.0));
    /// # Ok::<(), gjk::ShapeError>(())
    /// ```
    pub fn from_angle_translation(angle: R, translation: V) -> Result<Self, ShapeError> {
        if !angle.is_finite() {
            return Err(ShapeError::NonFinite { what: "rotation angle" });
        }
        Self::new(Rotation2::from_angle(angle), translation)
    }
}

/// Whether `ll`, a vector's squared length `|w|²` as [`Vector::length_squared`] computes it,
/// proves [`Vector::length`]`(w) ≤ x` (`false` when it cannot: then take the length). `√` is
/// monotone and correctly rounded, and `√(x ⊗ x) = x` exactly, so `ll ≤ x ⊗ x` gives
/// `√ll ≤ x`. `x²` must be at least `MIN_POSITIVE / ε` (an `ll` below that may have
/// underflowed, and `length` then measures the vector scaled) and finite (an `ll` that
/// overflowed is `∞ ≤ ∞`).
#[inline(always)]
pub(crate) fn length_at_most<R: Real>(ll: R, x: R) -> bool {
    let xx = x * x;
    ll <= xx && xx >= R::MIN_POSITIVE / R::EPSILON && xx.is_finite()
}

/// Whether `ll` (as in [`length_at_most`]) proves [`Vector::length`]`(w) > x` (`false` when it
/// cannot). `ll > x² (1 + 8ε)` after the two roundings of the bound puts `√ll` above
/// `x (1 + 3ε)`, and its rounding still above `x` plus one unit in the last place of `x`.
/// `x²` must be at least `MIN_POSITIVE / ε`, where these relative bounds hold.
#[inline(always)]
pub(crate) fn length_beyond<R: Real>(ll: R, x: R) -> bool {
    let xx = x * x;
    ll > xx * (R::ONE + R::from_f64(8.0) * R::EPSILON) && xx >= R::MIN_POSITIVE / R::EPSILON
}

/// The component of `w` along `normal`: `n (n·w) / (n·n)`, the foot of the perpendicular from
/// the origin to the line or plane through `w` with that normal. `None` for a zero normal.
///
/// One division in the common case; when `n·n` would underflow or overflow (coordinates beyond
/// about 1e±9 in `f32`, 1e±77 in `f64`), the normal is first scaled to unit length.
#[inline(always)]
pub(crate) fn along_normal<V: Vector>(normal: V, w: V) -> Option<V> {
    let nn = normal.length_squared();
    if nn >= V::Real::MIN_POSITIVE / V::Real::EPSILON && nn.is_finite() {
        let v = normal * (normal.dot(w) / nn);
        if v.is_finite() {
            return Some(v);
        }
    }
    let n = normal.direction()?;
    let v = n * n.dot(w);
    v.is_finite().then_some(v)
}

/// [`along_normal`] with `1 / (n·n)` taken before `n·w` is known, for a `w` at the end of a
/// long dependency chain (the segment pair's gap): `n` and its reciprocal come from inputs
/// only, so the processor has them ready and only a multiplication follows `n·w`, where a
/// division would wait for it. Rounds once more than `along_normal` (the reciprocal): about
/// `ε` more relative error in the result.
#[inline(always)]
pub(crate) fn along_normal_by_reciprocal<V: Vector>(normal: V, w: V) -> Option<V> {
    let nn = normal.length_squared();
    // `nn < ∞` after `nn ≥ …` is `is_finite` (a NaN fails the first test) in one comparison.
    if nn >= V::Real::MIN_POSITIVE / V::Real::EPSILON && nn < V::Real::INFINITY {
        let v = normal * (normal.dot(w) * (V::Real::ONE / nn));
        if all_finite(v) {
            return Some(v);
        }
    }
    let n = normal.direction()?;
    let v = n * n.dot(w);
    v.is_finite().then_some(v)
}

/// Whether every coordinate of `v` is finite, as [`Vector::is_finite`], by `v · 0 = 0`: a
/// coordinate that is infinite or NaN makes the product NaN, finite ones make `±0`. A
/// multiply and two adds on the vector, where the coordinates' bit tests take a dozen
/// scalar instructions.
#[inline(always)]
pub(crate) fn all_finite<V: Vector>(v: V) -> bool {
    v.dot(V::ZERO) == V::Real::ZERO
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Vec3A` is `Vec3` in SIMD lanes ([`Vector::Packed`]): the operations the kernels run
    /// on it give glam `Vec3`'s results to the bit (checked against glam's own `Vec3`
    /// arithmetic, the reference the rest of the crate is tested with).
    #[test]
    fn packed_vec3_matches_vec3_to_the_bit() {
        use crate::test_rng::{Draw, Rng};
        let mut rng = Rng::new(16);
        let same =
            |a: Vec3, b: Vec3A| a.to_array().map(f32::to_bits) == b.to_array().map(f32::to_bits);
        for _ in 0..2000 {
            let [a, b] = [rng.in_cube().as_vec3() * 7.0, rng.in_cube().as_vec3() * 0.3];
            let q = Quat::from_axis_angle(rng.on_sphere().as_vec3(), rng.unit() as f32 * 6.0);
            let (pa, pb) = (a.to_packed(), b.to_packed());
            assert_eq!(Vector::dot(a, b).to_bits(), Vector::dot(pa, pb).to_bits());
            assert!(same(a.cross(b), Vector3::cross(pa, pb)));
            assert!(same(crate::geometry::cross(a, b), crate::geometry::cross(pa, pb)));
            assert!(same(Rotation::rotate(&q, a), Rotation::rotate(&q, pa)));
            assert!(same(Rotation::inverse_rotate(&q, a), Rotation::inverse_rotate(&q, pa)));
            let [x, y, z] = Rotation::<Vec3>::columns(&q);
            let [px, py, pz] = Rotation::<Vec3A>::columns(&q);
            assert!(same(x, px) && same(y, py) && same(z, pz));
            assert!(same(a * 0.37 - b, pa * 0.37 - pb));
            assert!(same(Vector::recip(a), Vector::recip(pa)));
            assert_eq!(Vector::max_abs(a).to_bits(), Vector::max_abs(pa).to_bits());
            assert_eq!(Vector::length(b).to_bits(), Vector::length(pb).to_bits());
            assert_eq!(a, Vec3::from_packed(pa));
        }
    }

    #[test]
    fn relative_pose_maps_b_into_a_frame() {
        let a =
            Pose::<DVec3>::new(DQuat::from_axis_angle(DVec3::Z, 0.7), DVec3::new(1.0, 2.0, 3.0))
                .unwrap();
        let b =
            Pose::<DVec3>::new(DQuat::from_axis_angle(DVec3::X, -0.3), DVec3::new(-4.0, 0.5, 9.0))
                .unwrap();
        let p = DVec3::new(0.3, -0.2, 0.9);
        let via_world = a.inverse_transform_point(b.transform_point(p));
        let via_relative = a.relative(&b).transform_point(p);
        assert!((via_world - via_relative).length() < 1e-12);
    }

    #[test]
    fn bad_rotations_and_translations_are_errors() {
        assert_eq!(
            Pose::<DVec3>::new(DQuat::from_xyzw(0.0, 0.0, 0.0, 0.0), DVec3::ZERO),
            Err(ShapeError::InvalidRotation)
        );
        assert!(Pose::<Vec3>::new(Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0), Vec3::ZERO).is_err());
        assert!(Pose::<DVec2>::from_translation(DVec2::new(f64::INFINITY, 0.0)).is_err());
        assert!(Pose::<Vec2>::from_angle_translation(f32::NAN, Vec2::ZERO).is_err());
        // A non-unit quaternion is normalised, not refused.
        let p = Pose::<DVec3>::new(DQuat::from_xyzw(0.0, 0.0, 0.0, 2.0), DVec3::ZERO).unwrap();
        assert_eq!(p.rotation(), DQuat::IDENTITY);
    }

    #[test]
    fn normalize_survives_tiny_and_huge_vectors() {
        let tiny = Vector::direction(DVec3::new(1e-300, 0.0, 1e-300)).unwrap();
        assert!((tiny.length() - 1.0).abs() < 1e-15);
        let huge = Vector::direction(DVec3::new(1e300, 1e300, 0.0)).unwrap();
        assert!((huge.length() - 1.0).abs() < 1e-15);
        assert!(Vector::direction(DVec3::ZERO).is_none());
        assert!(Vector::direction(DVec2::new(f64::NAN, 1.0)).is_none());
    }

    /// `length_at_most` and `length_beyond` never contradict the square root they skip:
    /// checked against `Vector::length` itself (the value the touching rule compares) on
    /// random gaps near the bound, within a few units in the last place of it, at the ends of
    /// the range (underflowing and overflowing squares) and on non-finite input.
    #[test]
    fn squared_length_tests_agree_with_the_length() {
        use crate::test_rng::{Draw, Rng};
        fn check<V: Vector>(w: V, x: V::Real) {
            let length = w.length();
            let ll = w.length_squared();
            if length_at_most(ll, x) {
                assert!(length <= x, "{w:?} {x:?}: {length:?} > x");
            }
            if length_beyond(ll, x) {
                assert!(length > x, "{w:?} {x:?}: {length:?} <= x");
            }
        }
        let mut rng = Rng::new(29);
        let mut decided = [0; 2];
        for i in 0..200_000 {
            let w = rng.in_cube() * 10f64.powf(rng.unit() * 8.0 - 4.0);
            let ulps = (rng.unit() * 16.0 - 8.0) as i64;
            // `x` a few units in the last place from `|w|`, or anywhere near it.
            let x = if i % 2 == 0 {
                f64::from_bits((w.length().to_bits() as i64 + ulps) as u64)
            } else {
                w.length() * (rng.unit() * 2.0)
            };
            check(w, x);
            check(w.as_vec3(), x as f32);
            decided[0] += usize::from(length_at_most(w.length_squared(), x));
            decided[1] += usize::from(length_beyond(w.length_squared(), x));
        }
        // The tests decide most pairs (the rest take the square root).
        assert!(decided[0] > 40_000 && decided[1] > 40_000, "{decided:?}");
        for (w, x) in [
            (DVec3::new(1e-170, 0.0, 0.0), 0.0),
            (DVec3::new(1e-170, 0.0, 0.0), 1e-170),
            (DVec3::new(1e-170, 0.0, 0.0), 2e-170),
            (DVec3::new(1e160, 1e160, 0.0), 1e160),
            (DVec3::new(1e160, 1e160, 0.0), 1e200),
            (DVec3::new(f64::NAN, 0.0, 0.0), 1.0),
            (DVec3::new(f64::INFINITY, 0.0, 0.0), f64::INFINITY),
            (DVec3::ZERO, 0.0),
        ] {
            check(w, x);
        }
        check(Vec3::new(1e-25, 0.0, 0.0), 1e-25);
        check(Vec3::new(1e25, 0.0, 0.0), 2e20);
    }

    /// `all_finite` is `Vector::is_finite` on every kind of coordinate.
    #[test]
    fn all_finite_is_is_finite() {
        let values = [0.0, -0.0, 1.0, -3e300, f64::MIN_POSITIVE, f64::INFINITY, f64::NAN];
        for x in values {
            for y in values {
                let v = DVec3::new(x, y, 1.0);
                assert_eq!(all_finite(v), Vector::is_finite(v), "{v:?}");
                let v = Vec3::new(y as f32, 1.0, x as f32);
                assert_eq!(all_finite(v), Vector::is_finite(v), "{v:?}");
                assert_eq!(all_finite(v.to_packed()), Vector::is_finite(v), "{v:?}");
                let v = DVec2::new(x, y);
                assert_eq!(all_finite(v), Vector::is_finite(v), "{v:?}");
            }
        }
    }
}
