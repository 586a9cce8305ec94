//! One type for every shape of a scene: [`Shape`], an enum over the built-in shapes plus shared
//! user shapes, so a world holds its bodies in one `Vec` without a pointer per body.
//!
//! Each variant forwards every [`Support`] method, [`Support::core`] included, so the dispatch
//! table still finds the closed forms (a ball against a box is one projection, two boxes the
//! separating-axis test) through the enum; the match costs a predictable branch, where a trait
//! object would cost an indirect call and lose nothing else.
//!
//! The 3D solids (cylinder, cone) exist only in 3D: the enum reaches them through
//! [`ShapeSpace::Solid`], [`Solid`] in 3D and the empty [`NoSolid`] in 2D.

use alloc::boxed::Box;
use alloc::sync::Arc;
use core::convert::Infallible;
use core::fmt;
use core::marker::PhantomData;

use super::{
    Ball, Capsule, Cone, Core, Cuboid, Cylinder, Ellipsoid, Feature, Point, Polytope, Rounded,
    Segment, Support, Triangle,
};
use crate::bounds::Aabb;
use crate::math::{Pose, Vector, Vector3};

/// The spaces [`Shape`] lives in, with the shapes that exist in only some of them.
pub trait ShapeSpace: Vector {
    /// The dimension's extra solids: [`Solid`] (cylinders, cones) in 3D, [`NoSolid`] in 2D.
    type Solid: Support<Self> + Clone + fmt::Debug + PartialEq + Send + Sync + 'static;

    /// A solid's kind and sizes: `(is_cone, half_height, radius)`.
    #[doc(hidden)]
    fn solid_parts(solid: &Self::Solid) -> (bool, Self::Real, Self::Real);

    /// The solid of that kind and sizes, or `None` where there are no solids (2D).
    #[doc(hidden)]
    fn make_solid(
        is_cone: bool,
        half_height: Self::Real,
        radius: Self::Real,
    ) -> Option<Result<Self::Solid, crate::ShapeError>>;
}

macro_rules! planar_space {
    ($v:ty) => {
        impl ShapeSpace for $v {
            type Solid = NoSolid<Self>;
            fn solid_parts(solid: &Self::Solid) -> (bool, Self::Real, Self::Real) {
                match *solid {
                    NoSolid::Never(never, _) => match never {},
                }
            }
            fn make_solid(
                _: bool,
                _: Self::Real,
                _: Self::Real,
            ) -> Option<Result<Self::Solid, crate::ShapeError>> {
                None
            }
        }
    };
}
planar_space!(glam::Vec2);
planar_space!(glam::DVec2);

macro_rules! solid_space {
    ($v:ty) => {
        impl ShapeSpace for $v {
            type Solid = Solid<Self>;
            fn solid_parts(solid: &Self::Solid) -> (bool, Self::Real, Self::Real) {
                match solid {
                    Solid::Cylinder(c) => (false, c.half_height(), c.radius()),
                    Solid::Cone(c) => (true, c.half_height(), c.radius()),
                }
            }
            fn make_solid(
                is_cone: bool,
                half_height: Self::Real,
                radius: Self::Real,
            ) -> Option<Result<Self::Solid, crate::ShapeError>> {
                Some(if is_cone {
                    Cone::new(half_height, radius).map(Solid::Cone)
                } else {
                    Cylinder::new(half_height, radius).map(Solid::Cylinder)
                })
            }
        }
    };
}
solid_space!(glam::Vec3);
solid_space!(glam::DVec3);

/// The 3D solids of [`Shape`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Solid<V: Vector3> {
    /// A cylinder along local `y`.
    Cylinder(Cylinder<V>),
    /// A cone along local `y`.
    Cone(Cone<V>),
}

/// No extra solids (2D): a type without values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NoSolid<V> {
    #[doc(hidden)]
    Never(Infallible, PhantomData<V>),
}

/// A shape that is one of the built-in shapes, or a shared user shape.
///
/// ```
/// use gjk::{intersects, Ball, Cuboid, Pose, Shape};
/// use glam::Vec3;
/// let scene: Vec<Shape<Vec3>> = vec![
///     Ball::new(0.5)?.into(),
///     Cuboid::new(Vec3::ONE)?.into(),
///     gjk::Cylinder::new(1.0, 0.5)?.into(),
/// ];
/// let here = Pose::IDENTITY;
/// let there = Pose::from_translation(Vec3::new(1.2, 0.0, 0.0))?;
/// assert!(intersects(&scene[0], &here, &scene[1], &there));
/// # Ok::<(), gjk::ShapeError>(())
/// ```
#[derive(Clone)]
pub enum Shape<V: ShapeSpace> {
    /// A point.
    Point(Point<V>),
    /// A segment.
    Segment(Segment<V>),
    /// A triangle.
    Triangle(Triangle<V>),
    /// A ball.
    Ball(Ball<V>),
    /// A box.
    Cuboid(Cuboid<V>),
    /// A capsule.
    Capsule(Capsule<V>),
    /// An ellipsoid.
    Ellipsoid(Ellipsoid<V>),
    /// A convex hull (polygon or polytope), shared: bodies of one hull point at one copy.
    Polytope(Arc<Polytope<V>>),
    /// A 3D solid (cylinder, cone).
    Solid(V::Solid),
    /// Any of these swept by a ball.
    Rounded(Box<Rounded<Shape<V>, V>>),
    /// A user shape, shared.
    Custom(Arc<dyn Support<V> + Send + Sync>),
}

impl<V: ShapeSpace> fmt::Debug for Shape<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Point(s) => s.fmt(f),
            Self::Segment(s) => s.fmt(f),
            Self::Triangle(s) => s.fmt(f),
            Self::Ball(s) => s.fmt(f),
            Self::Cuboid(s) => s.fmt(f),
            Self::Capsule(s) => s.fmt(f),
            Self::Ellipsoid(s) => s.fmt(f),
            Self::Polytope(s) => s.fmt(f),
            Self::Solid(s) => s.fmt(f),
            Self::Rounded(s) => s.fmt(f),
            Self::Custom(_) => f.write_str("Custom(..)"),
        }
    }
}

/// Calls `$body` with `$s` bound to the variant's shape.
macro_rules! each_shape {
    ($shape:expr, $s:ident => $body:expr) => {
        match $shape {
            Shape::Point($s) => $body,
            Shape::Segment($s) => $body,
            Shape::Triangle($s) => $body,
            Shape::Ball($s) => $body,
            Shape::Cuboid($s) => $body,
            Shape::Capsule($s) => $body,
            Shape::Ellipsoid($s) => $body,
            Shape::Polytope($s) => $body,
            Shape::Solid($s) => $body,
            Shape::Rounded($s) => $body,
            Shape::Custom($s) => $body,
        }
    };
}

impl<V: ShapeSpace> Support<V> for Shape<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        each_shape!(self, s => s.support(dir))
    }
    #[inline]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        each_shape!(self, s => s.support_hinted(dir, hint))
    }
    #[inline]
    fn margin(&self) -> V::Real {
        each_shape!(self, s => s.margin())
    }
    #[inline]
    fn center(&self) -> V {
        each_shape!(self, s => s.center())
    }
    #[inline]
    fn extent(&self) -> V::Real {
        each_shape!(self, s => s.extent())
    }
    #[inline]
    fn core(&self) -> Core<'_, V> {
        each_shape!(self, s => s.core())
    }
    #[inline]
    fn aabb(&self, pose: &Pose<V>) -> Aabb<V> {
        each_shape!(self, s => s.aabb(pose))
    }
    #[inline]
    fn feature(&self, dir: V) -> Feature<V> {
        each_shape!(self, s => s.feature(dir))
    }
}

impl<V: Vector3> Support<V> for Solid<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        match self {
            Self::Cylinder(s) => s.support(dir),
            Self::Cone(s) => s.support(dir),
        }
    }
    #[inline]
    fn center(&self) -> V {
        match self {
            Self::Cylinder(s) => s.center(),
            Self::Cone(s) => s.center(),
        }
    }
    #[inline]
    fn extent(&self) -> V::Real {
        match self {
            Self::Cylinder(s) => s.extent(),
            Self::Cone(s) => s.extent(),
        }
    }
    #[inline]
    fn aabb(&self, pose: &Pose<V>) -> Aabb<V> {
        match self {
            Self::Cylinder(s) => s.aabb(pose),
            Self::Cone(s) => s.aabb(pose),
        }
    }
    #[inline]
    fn feature(&self, dir: V) -> Feature<V> {
        match self {
            Self::Cylinder(s) => s.feature(dir),
            Self::Cone(s) => s.feature(dir),
        }
    }
    #[inline]
    fn core(&self) -> Core<'_, V> {
        match self {
            Self::Cylinder(s) => s.core(),
            Self::Cone(s) => s.core(),
        }
    }
}

impl<V: Vector> Support<V> for NoSolid<V> {
    fn support(&self, _: V) -> V {
        match *self {
            Self::Never(never, _) => match never {},
        }
    }
}

macro_rules! from_shape {
    ($($variant:ident($t:ty) => $wrap:expr),* $(,)?) => {$(
        impl<V: ShapeSpace> From<$t> for Shape<V> {
            fn from(shape: $t) -> Self {
                Shape::$variant($wrap(shape))
            }
        }
    )*};
}
from_shape! {
    Point(Point<V>) => core::convert::identity,
    Segment(Segment<V>) => core::convert::identity,
    Triangle(Triangle<V>) => core::convert::identity,
    Ball(Ball<V>) => core::convert::identity,
    Cuboid(Cuboid<V>) => core::convert::identity,
    Capsule(Capsule<V>) => core::convert::identity,
    Ellipsoid(Ellipsoid<V>) => core::convert::identity,
    Polytope(Polytope<V>) => Arc::new,
    Polytope(Arc<Polytope<V>>) => core::convert::identity,
    Rounded(Rounded<Shape<V>, V>) => Box::new,
}

impl<V: ShapeSpace<Solid = Solid<V>> + Vector3> From<Cylinder<V>> for Shape<V> {
    fn from(shape: Cylinder<V>) -> Self {
        Shape::Solid(Solid::Cylinder(shape))
    }
}

impl<V: ShapeSpace<Solid = Solid<V>> + Vector3> From<Cone<V>> for Shape<V> {
    fn from(shape: Cone<V>) -> Self {
        Shape::Solid(Solid::Cone(shape))
    }
}

impl<V: ShapeSpace> Shape<V> {
    /// A user shape (any [`Support`] implementation), shared behind an `Arc`.
    pub fn custom(shape: impl Support<V> + Send + Sync + 'static) -> Self {
        Shape::Custom(Arc::new(shape))
    }

    /// This shape swept by a ball of radius `margin` (an error if negative or not finite).
    pub fn rounded(self, margin: V::Real) -> Result<Self, crate::ShapeError> {
        Ok(Shape::Rounded(Box::new(Rounded::new(self, margin)?)))
    }
}
