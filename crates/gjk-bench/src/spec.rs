//! Shapes and placements as plain numbers, and their conversion into each library's types.
//!
//! A workload is generated once, in `f64`, independent of any library; each library then gets
//! its own copy of the very same numbers (rounded to `f32` where it runs in `f32`).

use core::fmt;

use gjk::{Pose, Real, ShapeError, Support, Vector, Vector3};
use glam::{DQuat, DVec2, DVec3, Quat, Vec2, Vec3};

/// Where a 3D shape is: a unit quaternion `[x, y, z, w]` and a translation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement3 {
    /// The rotation, a unit quaternion `[x, y, z, w]`.
    pub rotation: [f64; 4],
    /// The translation.
    pub translation: [f64; 3],
}

/// Where a 2D shape is: an angle (radians, counter-clockwise) and a translation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement2 {
    /// The rotation angle in radians.
    pub angle: f64,
    /// The translation.
    pub translation: [f64; 2],
}

/// Why a workload could not be converted into a library's shapes.
#[derive(Clone, Debug, PartialEq)]
pub enum BuildError {
    /// One of our constructors refused the numbers.
    Ours(ShapeError),
    /// parry could not build the convex hull of a point set.
    ParryHull,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Ours(e) => write!(f, "gjk refused a shape: {e}"),
            BuildError::ParryHull => f.write_str("parry could not build a convex hull"),
        }
    }
}

impl std::error::Error for BuildError {}

impl From<ShapeError> for BuildError {
    fn from(e: ShapeError) -> Self {
        BuildError::Ours(e)
    }
}

/// The 3D vector types our library runs on (`Vec3`, `DVec3`), with the conversions a workload
/// needs.
pub trait Space3: Vector3 {
    /// Our pose for a placement.
    fn pose(placement: &Placement3) -> Result<Pose<Self>, ShapeError>;
}

impl Space3 for Vec3 {
    fn pose(p: &Placement3) -> Result<Pose<Self>, ShapeError> {
        let [x, y, z, w] = p.rotation.map(|c| c as f32);
        Pose::new(Quat::from_xyzw(x, y, z, w).normalize(), point3(p.translation))
    }
}

impl Space3 for DVec3 {
    fn pose(p: &Placement3) -> Result<Pose<Self>, ShapeError> {
        let [x, y, z, w] = p.rotation;
        Pose::new(DQuat::from_xyzw(x, y, z, w).normalize(), point3(p.translation))
    }
}

/// The 2D vector types our library runs on (`Vec2`, `DVec2`).
pub trait Space2: Vector {
    /// Our pose for a placement.
    fn pose(placement: &Placement2) -> Result<Pose<Self>, ShapeError>;
}

impl Space2 for Vec2 {
    fn pose(p: &Placement2) -> Result<Pose<Self>, ShapeError> {
        Pose::<Vec2>::from_angle_translation(p.angle as f32, point2(p.translation))
    }
}

impl Space2 for DVec2 {
    fn pose(p: &Placement2) -> Result<Pose<Self>, ShapeError> {
        Pose::<DVec2>::from_angle_translation(p.angle, point2(p.translation))
    }
}

/// A 3D point of any of our vector types.
pub fn point3<V: Vector>(c: [f64; 3]) -> V {
    V::from_components(c.map(V::Real::from_f64))
}

/// A 2D point of any of our vector types.
pub fn point2<V: Vector>(c: [f64; 2]) -> V {
    point3([c[0], c[1], 0.0])
}

/// parry3d's (f32) pose for a placement.
pub fn parry3_pose(p: &Placement3) -> parry3d::math::Pose {
    let [x, y, z, w] = p.rotation.map(|c| c as f32);
    let t = p.translation.map(|c| c as f32);
    parry3d::math::Pose::from_parts(Vec3::from_array(t), Quat::from_xyzw(x, y, z, w).normalize())
}

/// parry3d-f64's pose for a placement.
pub fn parry3_f64_pose(p: &Placement3) -> parry3d_f64::math::Pose {
    let [x, y, z, w] = p.rotation;
    let q = DQuat::from_xyzw(x, y, z, w).normalize();
    parry3d_f64::math::Pose::from_parts(DVec3::from_array(p.translation), q)
}

/// parry2d's (f32) pose for a placement.
pub fn parry2_pose(p: &Placement2) -> parry2d::math::Pose {
    parry2d::math::Pose::new(Vec2::from_array(p.translation.map(|c| c as f32)), p.angle as f32)
}

/// parry2d-f64's pose for a placement.
pub fn parry2_f64_pose(p: &Placement2) -> parry2d_f64::math::Pose {
    parry2d_f64::math::Pose::new(DVec2::from_array(p.translation), p.angle)
}

/// A 3D shape as plain numbers that converts into our shapes and parry's.
pub trait Spec3 {
    /// Our shape.
    type Ours<V: Space3>: Support<V>;
    /// parry3d's (f32) shape.
    type Parry: parry3d::shape::Shape + parry3d::shape::SupportMap;
    /// parry3d-f64's shape.
    type ParryF64: parry3d_f64::shape::Shape + parry3d_f64::shape::SupportMap;
    /// Builds our shape.
    fn ours<V: Space3>(&self) -> Result<Self::Ours<V>, BuildError>;
    /// Builds parry3d's shape.
    fn parry(&self) -> Result<Self::Parry, BuildError>;
    /// Builds parry3d-f64's shape.
    fn parry_f64(&self) -> Result<Self::ParryF64, BuildError>;
    /// The radius of a ball around the local origin holding the shape (for spreading pairs).
    fn bounding_radius(&self) -> f64;
}

/// A 2D shape as plain numbers that converts into our shapes and parry2d's (f32 and f64).
pub trait Spec2 {
    /// Our shape.
    type Ours<V: Space2>: Support<V>;
    /// parry2d's (f32) shape.
    type Parry: parry2d::shape::Shape + parry2d::shape::SupportMap;
    /// parry2d-f64's shape.
    type ParryF64: parry2d_f64::shape::Shape + parry2d_f64::shape::SupportMap;
    /// Builds our shape.
    fn ours<V: Space2>(&self) -> Result<Self::Ours<V>, BuildError>;
    /// Builds parry2d's shape.
    fn parry(&self) -> Result<Self::Parry, BuildError>;
    /// Builds parry2d-f64's shape.
    fn parry_f64(&self) -> Result<Self::ParryF64, BuildError>;
    /// The radius of a ball around the local origin holding the shape.
    fn bounding_radius(&self) -> f64;
}

fn norm(c: &[f64]) -> f64 {
    c.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// A box centred at the origin, axis-aligned in its frame.
#[derive(Clone, Debug, PartialEq)]
pub struct CuboidSpec {
    /// Half the side lengths.
    pub half_extents: [f64; 3],
}

impl Spec3 for CuboidSpec {
    type Ours<V: Space3> = gjk::Cuboid<V>;
    type Parry = parry3d::shape::Cuboid;
    type ParryF64 = parry3d_f64::shape::Cuboid;
    fn ours<V: Space3>(&self) -> Result<Self::Ours<V>, BuildError> {
        Ok(gjk::Cuboid::new(point3(self.half_extents))?)
    }
    fn parry(&self) -> Result<Self::Parry, BuildError> {
        Ok(parry3d::shape::Cuboid::new(point3(self.half_extents)))
    }
    fn parry_f64(&self) -> Result<Self::ParryF64, BuildError> {
        Ok(parry3d_f64::shape::Cuboid::new(point3(self.half_extents)))
    }
    fn bounding_radius(&self) -> f64 {
        norm(&self.half_extents)
    }
}

/// A sphere centred at the origin.
#[derive(Clone, Debug, PartialEq)]
pub struct BallSpec {
    /// The radius.
    pub radius: f64,
}

impl Spec3 for BallSpec {
    type Ours<V: Space3> = gjk::Ball<V>;
    type Parry = parry3d::shape::Ball;
    type ParryF64 = parry3d_f64::shape::Ball;
    fn ours<V: Space3>(&self) -> Result<Self::Ours<V>, BuildError> {
        Ok(gjk::Ball::new(V::Real::from_f64(self.radius))?)
    }
    fn parry(&self) -> Result<Self::Parry, BuildError> {
        Ok(parry3d::shape::Ball::new(self.radius as f32))
    }
    fn parry_f64(&self) -> Result<Self::ParryF64, BuildError> {
        Ok(parry3d_f64::shape::Ball::new(self.radius))
    }
    fn bounding_radius(&self) -> f64 {
        self.radius
    }
}

/// A capsule: the segment from `(0, −h, 0)` to `(0, h, 0)` swept by a ball.
#[derive(Clone, Debug, PartialEq)]
pub struct CapsuleSpec {
    /// Half the length of the core segment, `h`.
    pub half_height: f64,
    /// The radius of the sweeping ball.
    pub radius: f64,
}

impl Spec3 for CapsuleSpec {
    type Ours<V: Space3> = gjk::Capsule<V>;
    type Parry = parry3d::shape::Capsule;
    type ParryF64 = parry3d_f64::shape::Capsule;
    fn ours<V: Space3>(&self) -> Result<Self::Ours<V>, BuildError> {
        let h = self.half_height;
        let (a, b) = (point3([0.0, -h, 0.0]), point3([0.0, h, 0.0]));
        Ok(gjk::Capsule::new(a, b, V::Real::from_f64(self.radius))?)
    }
    fn parry(&self) -> Result<Self::Parry, BuildError> {
        Ok(parry3d::shape::Capsule::new_y(self.half_height as f32, self.radius as f32))
    }
    fn parry_f64(&self) -> Result<Self::ParryF64, BuildError> {
        Ok(parry3d_f64::shape::Capsule::new_y(self.half_height, self.radius))
    }
    fn bounding_radius(&self) -> f64 {
        self.half_height + self.radius
    }
}

/// The convex hull of a 3D point set. Both libraries build the hull: our `Polytope` scans small
/// hulls and climbs large ones for a support point; parry's `ConvexPolyhedron` scans its
/// vertices.
#[derive(Clone, Debug, PartialEq)]
pub struct HullSpec3 {
    /// The points.
    pub points: Vec<[f64; 3]>,
}

impl Spec3 for HullSpec3 {
    type Ours<V: Space3> = gjk::Polytope<V>;
    type Parry = parry3d::shape::ConvexPolyhedron;
    type ParryF64 = parry3d_f64::shape::ConvexPolyhedron;
    fn ours<V: Space3>(&self) -> Result<Self::Ours<V>, BuildError> {
        Ok(gjk::Polytope::new(self.points.iter().map(|&p| point3(p)).collect())?)
    }
    fn parry(&self) -> Result<Self::Parry, BuildError> {
        let points: Vec<Vec3> = self.points.iter().map(|&p| point3(p)).collect();
        parry3d::shape::ConvexPolyhedron::from_convex_hull(&points).ok_or(BuildError::ParryHull)
    }
    fn parry_f64(&self) -> Result<Self::ParryF64, BuildError> {
        let points: Vec<DVec3> = self.points.iter().map(|&p| point3(p)).collect();
        parry3d_f64::shape::ConvexPolyhedron::from_convex_hull(&points).ok_or(BuildError::ParryHull)
    }
    fn bounding_radius(&self) -> f64 {
        self.points.iter().map(|p| norm(p)).fold(0.0, f64::max)
    }
}

/// A cylinder around the local y axis, centred at the origin.
#[derive(Clone, Debug, PartialEq)]
pub struct CylinderSpec {
    /// Half the height (along y).
    pub half_height: f64,
    /// The radius.
    pub radius: f64,
}

impl Spec3 for CylinderSpec {
    type Ours<V: Space3> = gjk::Cylinder<V>;
    type Parry = parry3d::shape::Cylinder;
    type ParryF64 = parry3d_f64::shape::Cylinder;
    fn ours<V: Space3>(&self) -> Result<Self::Ours<V>, BuildError> {
        let (h, r) = (V::Real::from_f64(self.half_height), V::Real::from_f64(self.radius));
        Ok(gjk::Cylinder::new(h, r)?)
    }
    fn parry(&self) -> Result<Self::Parry, BuildError> {
        Ok(parry3d::shape::Cylinder::new(self.half_height as f32, self.radius as f32))
    }
    fn parry_f64(&self) -> Result<Self::ParryF64, BuildError> {
        Ok(parry3d_f64::shape::Cylinder::new(self.half_height, self.radius))
    }
    fn bounding_radius(&self) -> f64 {
        norm(&[self.half_height, self.radius])
    }
}

/// A cone around the local y axis: base disc at `y = −h`, apex at `y = h`.
#[derive(Clone, Debug, PartialEq)]
pub struct ConeSpec {
    /// Half the height (along y).
    pub half_height: f64,
    /// The radius of the base.
    pub radius: f64,
}

impl Spec3 for ConeSpec {
    type Ours<V: Space3> = gjk::Cone<V>;
    type Parry = parry3d::shape::Cone;
    type ParryF64 = parry3d_f64::shape::Cone;
    fn ours<V: Space3>(&self) -> Result<Self::Ours<V>, BuildError> {
        let (h, r) = (V::Real::from_f64(self.half_height), V::Real::from_f64(self.radius));
        Ok(gjk::Cone::new(h, r)?)
    }
    fn parry(&self) -> Result<Self::Parry, BuildError> {
        Ok(parry3d::shape::Cone::new(self.half_height as f32, self.radius as f32))
    }
    fn parry_f64(&self) -> Result<Self::ParryF64, BuildError> {
        Ok(parry3d_f64::shape::Cone::new(self.half_height, self.radius))
    }
    fn bounding_radius(&self) -> f64 {
        norm(&[self.half_height, self.radius])
    }
}

/// The convex hull of a 2D point set (both libraries keep the hull's vertices).
#[derive(Clone, Debug, PartialEq)]
pub struct PolygonSpec {
    /// The points.
    pub points: Vec<[f64; 2]>,
}

impl Spec2 for PolygonSpec {
    type Ours<V: Space2> = gjk::Polytope<V>;
    type Parry = parry2d::shape::ConvexPolygon;
    type ParryF64 = parry2d_f64::shape::ConvexPolygon;
    fn ours<V: Space2>(&self) -> Result<Self::Ours<V>, BuildError> {
        Ok(gjk::Polytope::new(self.points.iter().map(|&p| point2(p)).collect())?)
    }
    fn parry(&self) -> Result<Self::Parry, BuildError> {
        let points: Vec<Vec2> = self.points.iter().map(|&p| point2(p)).collect();
        parry2d::shape::ConvexPolygon::from_convex_hull(&points).ok_or(BuildError::ParryHull)
    }
    fn parry_f64(&self) -> Result<Self::ParryF64, BuildError> {
        let points: Vec<DVec2> = self.points.iter().map(|&p| point2(p)).collect();
        parry2d_f64::shape::ConvexPolygon::from_convex_hull(&points).ok_or(BuildError::ParryHull)
    }
    fn bounding_radius(&self) -> f64 {
        self.points.iter().map(|p| norm(p)).fold(0.0, f64::max)
    }
}

/// A disc centred at the origin.
#[derive(Clone, Debug, PartialEq)]
pub struct CircleSpec {
    /// The radius.
    pub radius: f64,
}

impl Spec2 for CircleSpec {
    type Ours<V: Space2> = gjk::Ball<V>;
    type Parry = parry2d::shape::Ball;
    type ParryF64 = parry2d_f64::shape::Ball;
    fn ours<V: Space2>(&self) -> Result<Self::Ours<V>, BuildError> {
        Ok(gjk::Ball::new(V::Real::from_f64(self.radius))?)
    }
    fn parry(&self) -> Result<Self::Parry, BuildError> {
        Ok(parry2d::shape::Ball::new(self.radius as f32))
    }
    fn parry_f64(&self) -> Result<Self::ParryF64, BuildError> {
        Ok(parry2d_f64::shape::Ball::new(self.radius))
    }
    fn bounding_radius(&self) -> f64 {
        self.radius
    }
}

/// A triangle given by its corners.
#[derive(Clone, Debug, PartialEq)]
pub struct TriangleSpec {
    /// The corners.
    pub corners: [[f64; 2]; 3],
}

impl Spec2 for TriangleSpec {
    type Ours<V: Space2> = gjk::Triangle<V>;
    type Parry = parry2d::shape::Triangle;
    type ParryF64 = parry2d_f64::shape::Triangle;
    fn ours<V: Space2>(&self) -> Result<Self::Ours<V>, BuildError> {
        let [a, b, c] = self.corners.map(point2);
        Ok(gjk::Triangle::new(a, b, c)?)
    }
    fn parry(&self) -> Result<Self::Parry, BuildError> {
        let [a, b, c] = self.corners.map(point2);
        Ok(parry2d::shape::Triangle::new(a, b, c))
    }
    fn parry_f64(&self) -> Result<Self::ParryF64, BuildError> {
        let [a, b, c] = self.corners.map(point2);
        Ok(parry2d_f64::shape::Triangle::new(a, b, c))
    }
    fn bounding_radius(&self) -> f64 {
        self.corners.iter().map(|p| norm(p)).fold(0.0, f64::max)
    }
}
