//! Every call into the `gjk` library lives here: building shapes and poses, the queries, and
//! the names of how they ended. The Python classes ([`crate::api`]) and the batches
//! ([`crate::batch`]) only see plain numbers ([`crate::spec`]) and the records defined below, so
//! a change of the library's API is adapted in this one file.
//!
//! The answers follow `gjk query` (crates/gjk-cli): [`proximity`] is its query, field for field,
//! and [`Status`] is its vocabulary.

use std::sync::Arc;

use glam::{DMat3, DQuat, DVec2, DVec3, Quat, Vec2, Vec3};

use gjk::{
    Ball, Capsule, CastStatus, Cone, ContactOptions, ContactResult, ContactStatus, Cuboid,
    Cylinder, Ellipsoid, EpaTermination, GjkOptions, GjkResult, Goal, ManifoldOptions,
    ManifoldStatus, Motion, Pair, Polytope, Pose, Posed, RayCastOptions, Real, Rounded, Segment,
    ShapeCastOptions, ShapeError, Support, Termination, ToiOptions, Triangle, Vector, WarmStart,
};

use crate::spec::{Kind, PoseSpec, RotationSpec, ShapeSpec};

/// A built shape, shared between threads (the library's shapes are immutable).
pub(crate) type Dyn<V> = Arc<Lib<V>>;

/// A library shape, dispatched by `match` rather than through a vtable.
///
/// The queries call a dozen `Support` methods per pair (the core kind tests before the closed
/// forms, then the support function in GJK's loop); on the common shapes a `match` lets each
/// call inline and the never-taken kind tests fold away, where a `dyn` call cannot. Centred,
/// rounded and 3D-only shapes go through [`Lib::Other`].
// One per shape, behind an `Arc`: boxing the large variants would put a second pointer in
// front of every support call.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Lib<V: Vector> {
    /// A ball.
    Ball(Ball<V>),
    /// A box.
    Cuboid(Cuboid<V>),
    /// A capsule.
    Capsule(Capsule<V>),
    /// A hull.
    Polytope(Polytope<V>),
    /// A segment.
    Segment(Segment<V>),
    /// A triangle.
    Triangle(Triangle<V>),
    /// An ellipsoid.
    Ellipsoid(Ellipsoid<V>),
    /// Anything else, behind a vtable.
    Other(Boxed<V>),
}

/// Forwards one `Support` method to the variant's shape.
macro_rules! forward {
    ($self:ident, |$s:ident| $call:expr) => {
        match $self {
            Lib::Ball($s) => $call,
            Lib::Cuboid($s) => $call,
            Lib::Capsule($s) => $call,
            Lib::Polytope($s) => $call,
            Lib::Segment($s) => $call,
            Lib::Triangle($s) => $call,
            Lib::Ellipsoid($s) => $call,
            Lib::Other($s) => $call,
        }
    };
}

// Every method of `Support` is forwarded: one left to its default would silently lose the
// shape's own answer (its closed forms).
impl<V: Vector> Support<V> for Lib<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        forward!(self, |s| s.support(dir))
    }
    #[inline]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        forward!(self, |s| s.support_hinted(dir, hint))
    }
    #[inline]
    fn margin(&self) -> V::Real {
        forward!(self, |s| s.margin())
    }
    #[inline]
    fn center(&self) -> V {
        forward!(self, |s| s.center())
    }
    #[inline]
    fn extent(&self) -> V::Real {
        forward!(self, |s| s.extent())
    }
    #[inline]
    fn core(&self) -> gjk::Core<'_, V> {
        forward!(self, |s| s.core())
    }
    #[inline]
    fn aabb(&self, pose: &Pose<V>) -> gjk::Aabb<V> {
        forward!(self, |s| s.aabb(pose))
    }
    // A manifold clips these: the default (derived from `core`) would answer a single point
    // for a 3D hull, a cylinder, a cone or a triangle, whose faces the core does not tell.
    #[inline]
    fn feature(&self, dir: V) -> gjk::Feature<V> {
        forward!(self, |s| s.feature(dir))
    }
}

/// A built shape in its dimension and precision.
#[derive(Clone)]
pub(crate) enum Built {
    /// 2D, `f64`.
    D2(Dyn<DVec2>),
    /// 3D, `f64`.
    D3(Dyn<DVec3>),
    /// 2D, `f32`.
    F2(Dyn<Vec2>),
    /// 3D, `f32`.
    F3(Dyn<Vec3>),
}

impl Built {
    /// `2D float64`, for error messages.
    pub(crate) fn describe(&self) -> &'static str {
        match self {
            Built::D2(_) => "2D float64",
            Built::D3(_) => "3D float64",
            Built::F2(_) => "2D float32",
            Built::F3(_) => "3D float32",
        }
    }
}

/// The error text when two shapes cannot be queried together.
pub(crate) fn mismatch(a: &Built, b: &Built) -> String {
    format!(
        "shapes of one query must share dimension and dtype: a is {}, b is {}",
        a.describe(),
        b.describe()
    )
}

/// Runs `$body` with `$x`, `$y` bound to the two shapes' library objects of one space;
/// `Err(text)` when their spaces differ.
macro_rules! with_pair {
    ($a:expr, $b:expr, |$x:ident, $y:ident| $body:expr) => {
        match ($a, $b) {
            (Built::D2($x), Built::D2($y)) => Ok($body),
            (Built::D3($x), Built::D3($y)) => Ok($body),
            (Built::F2($x), Built::F2($y)) => Ok($body),
            (Built::F3($x), Built::F3($y)) => Ok($body),
            (a, b) => Err($crate::engine::mismatch(a, b)),
        }
    };
}
pub(crate) use with_pair;

/// Runs `$body` with `$x` bound to the shape's library object.
macro_rules! with_shape {
    ($a:expr, |$x:ident| $body:expr) => {
        match $a {
            Built::D2($x) => $body,
            Built::D3($x) => $body,
            Built::F2($x) => $body,
            Built::F3($x) => $body,
        }
    };
}
pub(crate) use with_shape;

/// The four spaces: conversions from and to the plain `f64` numbers of [`crate::spec`].
pub(crate) trait Space: Vector + Send + Sync + 'static {
    /// The point with these coordinates (the third ignored in 2D), rounded to the precision.
    fn point(c: [f64; 3]) -> Self;
    /// The coordinates, widened to `f64` (`z = 0` in 2D).
    fn coords(self) -> [f64; 3];
    /// The library's pose of `spec`.
    fn pose(spec: &PoseSpec) -> Result<Pose<Self>, ShapeError>;
    /// A cylinder (3D) or `None` (2D).
    fn cylinder(h: f64, r: f64) -> Option<Result<Boxed<Self>, ShapeError>>;
    /// A cone (3D) or `None` (2D).
    fn cone(h: f64, r: f64) -> Option<Result<Boxed<Self>, ShapeError>>;
    /// The shape as this space's library object, if it is of this space.
    fn of(built: &Built) -> Option<&Dyn<Self>>;
    /// A library object of this space, wrapped.
    fn wrap(shape: Dyn<Self>) -> Built;
    /// An angular velocity: `c[2]` in 2D (counter-clockwise), the rotation vector in 3D.
    fn angular(c: [f64; 3]) -> Self::Angular;
}

/// A shape being built (`Box` forwards `Support`, so it can be wrapped again).
type Boxed<V> = Box<dyn Support<V> + Send + Sync>;

/// A shape behind a pointer.
fn boxed<V: Space, S: Support<V> + Send + Sync + 'static>(shape: S) -> Boxed<V> {
    Box::new(shape)
}

macro_rules! space {
    ($v:ty, $r:ty, $variant:ident, 2) => {
        impl Space for $v {
            fn point(c: [f64; 3]) -> Self {
                <$v>::new(c[0] as $r, c[1] as $r)
            }
            fn coords(self) -> [f64; 3] {
                [f64::from(self.x), f64::from(self.y), 0.0]
            }
            fn pose(spec: &PoseSpec) -> Result<Pose<Self>, ShapeError> {
                let t = Self::point(spec.translation);
                match spec.rotation {
                    RotationSpec::Angle(a) => Pose::<$v>::from_angle_translation(a as $r, t),
                    RotationSpec::Quaternion(_) => Err(ShapeError::InvalidRotation),
                }
            }
            fn cylinder(_: f64, _: f64) -> Option<Result<Boxed<Self>, ShapeError>> {
                None
            }
            fn cone(_: f64, _: f64) -> Option<Result<Boxed<Self>, ShapeError>> {
                None
            }
            fn of(built: &Built) -> Option<&Dyn<Self>> {
                match built {
                    Built::$variant(s) => Some(s),
                    _ => None,
                }
            }
            fn wrap(shape: Dyn<Self>) -> Built {
                Built::$variant(shape)
            }
            fn angular(c: [f64; 3]) -> $r {
                c[2] as $r
            }
        }
    };
    ($v:ty, $r:ty, $q:ty, $variant:ident, 3) => {
        impl Space for $v {
            fn point(c: [f64; 3]) -> Self {
                <$v>::new(c[0] as $r, c[1] as $r, c[2] as $r)
            }
            fn coords(self) -> [f64; 3] {
                [f64::from(self.x), f64::from(self.y), f64::from(self.z)]
            }
            fn pose(spec: &PoseSpec) -> Result<Pose<Self>, ShapeError> {
                let t = Self::point(spec.translation);
                match spec.rotation {
                    RotationSpec::Quaternion([x, y, z, w]) => {
                        Pose::new(<$q>::from_xyzw(x as $r, y as $r, z as $r, w as $r), t)
                    }
                    RotationSpec::Angle(_) => Err(ShapeError::InvalidRotation),
                }
            }
            fn cylinder(h: f64, r: f64) -> Option<Result<Boxed<Self>, ShapeError>> {
                Some(Cylinder::<$v>::new(h as $r, r as $r).map(boxed))
            }
            fn cone(h: f64, r: f64) -> Option<Result<Boxed<Self>, ShapeError>> {
                Some(Cone::<$v>::new(h as $r, r as $r).map(boxed))
            }
            fn of(built: &Built) -> Option<&Dyn<Self>> {
                match built {
                    Built::$variant(s) => Some(s),
                    _ => None,
                }
            }
            fn wrap(shape: Dyn<Self>) -> Built {
                Built::$variant(shape)
            }
            fn angular(c: [f64; 3]) -> Self {
                Self::point(c)
            }
        }
    };
}
space!(DVec2, f64, D2, 2);
space!(Vec2, f32, F2, 2);
space!(DVec3, f64, DQuat, D3, 3);
space!(Vec3, f32, Quat, F3, 3);

/// Builds `spec` as the library does for `gjk query`: the core, moved to its centre, rounded by
/// its margin. The error is the library's own message.
pub(crate) fn build(spec: &ShapeSpec) -> Result<Built, String> {
    match (spec.dim, spec.single) {
        (2, false) => build_in::<DVec2>(spec),
        (2, true) => build_in::<Vec2>(spec),
        (_, false) => build_in::<DVec3>(spec),
        (_, true) => build_in::<Vec3>(spec),
    }
    .map_err(|e| match e {
        BuildError::Library(e) => e.to_string(),
        BuildError::Only3d => "cylinders and cones exist only in 3D".to_owned(),
    })
}

/// Why [`build_in`] failed.
enum BuildError {
    /// A constructor of the library refused its numbers.
    Library(ShapeError),
    /// A 3D-only shape in 2D (`ShapeSpec::new` already refuses it).
    Only3d,
}

impl From<ShapeError> for BuildError {
    fn from(e: ShapeError) -> Self {
        BuildError::Library(e)
    }
}

fn build_in<V: Space>(spec: &ShapeSpec) -> Result<Built, BuildError> {
    let p = |i: usize| V::point(spec.point(i));
    let real = |x: f64| V::Real::from_f64(x);
    let vector = |c: &[f64]| {
        let mut p = [0.0; 3];
        p[..c.len()].copy_from_slice(c);
        V::point(p)
    };
    let params = &spec.params;
    let core = match spec.kind {
        Kind::Points => {
            let n = params.len() / spec.dim;
            Lib::Polytope(Polytope::new((0..n).map(p).collect())?)
        }
        Kind::Sphere => Lib::Ball(Ball::<V>::new(real(params[0]))?),
        Kind::Ellipsoid => Lib::Ellipsoid(Ellipsoid::new(vector(params))?),
        Kind::Cuboid => Lib::Cuboid(Cuboid::new(vector(params))?),
        Kind::Segment => Lib::Segment(Segment::new(p(0), p(1))?),
        Kind::Triangle => Lib::Triangle(Triangle::new(p(0), p(1), p(2))?),
        Kind::Capsule => Lib::Capsule(Capsule::new(p(0), p(1), real(params[2 * spec.dim]))?),
        Kind::Cylinder => Lib::Other(V::cylinder(params[0], params[1]).ok_or(BuildError::Only3d)??),
        Kind::Cone => Lib::Other(V::cone(params[0], params[1]).ok_or(BuildError::Only3d)??),
    };
    let placed = match spec.center {
        Some(c) => Lib::Other(boxed(Posed::new(core, Pose::from_translation(V::point(c))?))),
        None => core,
    };
    let rounded = if spec.margin > 0.0 {
        Lib::Other(boxed(Rounded::new(placed, real(spec.margin))?))
    } else {
        placed
    };
    Ok(V::wrap(Arc::new(rounded)))
}

/// The library's pose of `spec` in `V`; the library's message on failure.
#[inline]
pub(crate) fn pose<V: Space>(spec: &PoseSpec) -> Result<Pose<V>, String> {
    V::pose(spec).map_err(|e| format!("pose: {e}"))
}

/// A 3D pose from the rotation block and translation of a 4x4 (row-major) rigid transform.
/// The block must be a rotation within `1e-6` (orthonormal, determinant +1).
pub(crate) fn pose_from_matrix3(m: &[f64]) -> Result<PoseSpec, String> {
    let last = [m[12], m[13], m[14], m[15]];
    if last != [0.0, 0.0, 0.0, 1.0] {
        return Err(format!("the last row of a 4x4 pose must be [0, 0, 0, 1], got {last:?}"));
    }
    let rows = [[m[0], m[1], m[2]], [m[4], m[5], m[6]], [m[8], m[9], m[10]]];
    let rotation = DMat3::from_cols_array_2d(&rows).transpose();
    check_rotation(&rows)?;
    let q = DQuat::from_mat3(&rotation);
    Ok(PoseSpec {
        dim: 3,
        translation: [m[3], m[7], m[11]],
        rotation: RotationSpec::Quaternion([q.x, q.y, q.z, q.w]),
    })
}

/// A 2D pose from a 3x3 (row-major) homogeneous rigid transform.
pub(crate) fn pose_from_matrix2(m: &[f64]) -> Result<PoseSpec, String> {
    let last = [m[6], m[7], m[8]];
    if last != [0.0, 0.0, 1.0] {
        return Err(format!("the last row of a 3x3 pose must be [0, 0, 1], got {last:?}"));
    }
    let rows = [[m[0], m[1], 0.0], [m[3], m[4], 0.0], [0.0, 0.0, 1.0]];
    check_rotation(&rows)?;
    Ok(PoseSpec {
        dim: 2,
        translation: [m[2], m[5], 0.0],
        rotation: RotationSpec::Angle(m[3].atan2(m[0])),
    })
}

/// Whether the rows form a rotation: `R Rᵀ = I` and `det R = 1`, each within `1e-6`.
fn check_rotation(rows: &[[f64; 3]; 3]) -> Result<(), String> {
    if rows.iter().flatten().any(|x| !x.is_finite()) {
        return Err("the pose matrix must be finite".to_owned());
    }
    let r = DMat3::from_cols_array_2d(rows);
    let gram = r.transpose() * r;
    let off = (gram - DMat3::IDENTITY).to_cols_array().iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if off > 1e-6 || (r.determinant() - 1.0).abs() > 1e-6 {
        return Err("the rotation block of the pose matrix is not a rotation (orthonormal, \
                    determinant +1, within 1e-6)"
            .to_owned());
    }
    Ok(())
}

/// How the loops behind an answer ended: the words of `gjk query`'s `status` field, in the order
/// its help lists them (crates/gjk-cli/src/status.rs is the reference; `tests/test_cli.py`
/// checks that both agree on every answer).
pub(crate) const STATUSES: [&str; 11] = [
    "converged",
    "no_progress",
    "contained",
    "iteration_cap",
    "separating_axis",
    "margin_overlap",
    "epa_converged",
    "epa_iteration_cap",
    "epa_degenerate",
    "epa_flat",
    "contact_missing",
];

/// An index into [`STATUSES`].
pub(crate) type Status = u8;

fn gjk_status(t: Termination) -> Status {
    match t {
        Termination::Converged => 0,
        Termination::NoProgress => 1,
        Termination::Contained => 2,
        Termination::IterationCap => 3,
        Termination::SeparatingAxis => 4,
        Termination::MarginOverlap => 5,
    }
}

fn epa_status(t: EpaTermination) -> Status {
    match t {
        EpaTermination::Converged => 6,
        EpaTermination::IterationCap => 7,
        EpaTermination::Degenerate => 8,
        EpaTermination::Flat => 9,
    }
}

/// `contact_missing`.
const CONTACT_MISSING: Status = 10;

/// The status of a contact query's answer, as `gjk query` derives it: EPA's ending when EPA
/// ran, else the ending of the contact query's GJK run or closed form.
fn contact_status<V: Vector>(contact: &ContactResult<V>) -> Status {
    match (contact.contact, contact.epa) {
        (None, _) => CONTACT_MISSING,
        (Some(_), Some(epa)) => epa_status(epa),
        (Some(_), None) => gjk_status(contact.gjk_termination),
    }
}

/// How a cast ended: the words of the `status` field of `gjk query`'s `ray_cast` and
/// `shape_cast` answers (the library's `InvalidInput` is never printed: inputs are checked
/// before the cast, and a refusal is an error).
pub(crate) const CAST_STATUSES: [&str; 4] =
    ["hit", "initially_overlapping", "no_hit", "cast_iteration_cap"];

/// `no_hit`.
pub(crate) const NO_HIT: Status = 2;

/// The index of `s` in [`CAST_STATUSES`]; `Err` for `InvalidInput`.
fn cast_status(s: CastStatus) -> Result<Status, String> {
    match s {
        CastStatus::Hit => Ok(0),
        CastStatus::InitiallyOverlapping => Ok(1),
        CastStatus::NoHit => Ok(NO_HIT),
        CastStatus::IterationCap => Ok(3),
        CastStatus::InvalidInput => Err("the library refused the cast as invalid".to_owned()),
    }
}

/// The answer of `gjk query` to one pair, in world coordinates, widened to `f64`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Answer {
    /// Whether the shapes touch or overlap.
    pub intersects: bool,
    /// The gap (0 when intersecting).
    pub distance: f64,
    /// Closest point of A (apart) or A's deepest point (intersecting).
    pub point_a: [f64; 3],
    /// Closest or deepest point of B.
    pub point_b: [f64; 3],
    /// Unit normal from A toward B.
    pub normal: [f64; 3],
    /// Overlap depth (0 when apart or touching).
    pub penetration_depth: f64,
    /// Support calls of GJK plus those of EPA.
    pub iterations: u32,
    /// Index into [`STATUSES`].
    pub status: Status,
}

/// `gjk query`'s answer: GJK distance, then for intersecting pairs the contact query (EPA on
/// the cores, warm-started from GJK's simplex) for depth, normal and deepest points.
#[inline]
pub(crate) fn proximity<V: Space>(a: &Dyn<V>, pa: Pose<V>, b: &Dyn<V>, pb: Pose<V>) -> Answer {
    let pair = Pair::new(&**a, pa, &**b, pb);
    let mut cache = WarmStart::default();
    let gjk: GjkResult<V> = pair.gjk(Goal::Distance, &GjkOptions::default(), &mut cache);
    let mut answer = Answer {
        intersects: gjk.intersecting,
        distance: gjk.distance.to_f64(),
        point_a: gjk.point_a.coords(),
        point_b: gjk.point_b.coords(),
        normal: gjk.normal.coords(),
        penetration_depth: 0.0,
        iterations: gjk.iterations,
        status: gjk_status(gjk.termination),
    };
    if gjk.intersecting {
        let contact = pair.contact_with(&ContactOptions::default(), &mut cache);
        // Without a contact GJK's points stay, and the status says they are no contact.
        if let Some(c) = contact.contact {
            answer.point_a = c.point_a.coords();
            answer.point_b = c.point_b.coords();
            answer.normal = c.normal.coords();
            answer.penetration_depth = c.depth.to_f64().max(0.0);
        }
        answer.iterations += contact.gjk_iterations + contact.epa_iterations;
        answer.status = contact_status(&contact);
    }
    answer
}

/// Runs `$body` with `$x`, `$y` bound to the concrete shapes when both are of one of the
/// common kinds (box, capsule, hull, ball), else to the [`Lib`] enums: on the cheap queries the
/// enum's run-time kind tests are a large share of the time, which the concrete types fold
/// away. Only the batch queries take it (each arm is one more copy of the query's code).
macro_rules! with_concrete {
    ($a:expr, $b:expr, |$x:ident, $y:ident| $body:expr) => {
        match ($a, $b) {
            (Lib::Cuboid($x), Lib::Cuboid($y)) => $body,
            (Lib::Capsule($x), Lib::Capsule($y)) => $body,
            (Lib::Polytope($x), Lib::Polytope($y)) => $body,
            (Lib::Ball($x), Lib::Ball($y)) => $body,
            ($x, $y) => $body,
        }
    };
}

/// Whether the shapes touch or overlap (the library's early-exit test).
#[inline]
pub(crate) fn intersects<V: Space>(a: &Dyn<V>, pa: Pose<V>, b: &Dyn<V>, pb: Pose<V>) -> bool {
    Pair::new(&**a, pa, &**b, pb).intersects()
}

/// [`intersects`] on the concrete shapes when they are of one common kind.
#[inline]
pub(crate) fn intersects_fast<V: Space>(a: &Dyn<V>, pa: Pose<V>, b: &Dyn<V>, pb: Pose<V>) -> bool {
    with_concrete!(&**a, &**b, |x, y| Pair::new(x, pa, y, pb).intersects())
}

/// The distance (0 when touching or overlapping).
#[inline]
pub(crate) fn distance<V: Space>(a: &Dyn<V>, pa: Pose<V>, b: &Dyn<V>, pb: Pose<V>) -> f64 {
    Pair::new(&**a, pa, &**b, pb).distance().to_f64()
}

/// [`distance`] on the concrete shapes when they are of one common kind.
#[inline]
pub(crate) fn distance_fast<V: Space>(a: &Dyn<V>, pa: Pose<V>, b: &Dyn<V>, pb: Pose<V>) -> f64 {
    with_concrete!(&**a, &**b, |x, y| Pair::new(x, pa, y, pb).distance().to_f64())
}

/// A contact: penetration (`depth > 0`) or near miss (`depth <= 0`, within `prediction`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ContactAnswer {
    /// Penetration depth (`> 0`), or minus the gap.
    pub depth: f64,
    /// Unit normal from A toward B.
    pub normal: [f64; 3],
    /// A's deepest (or closest) point.
    pub point_a: [f64; 3],
    /// B's deepest (or closest) point.
    pub point_b: [f64; 3],
    /// Index into [`STATUSES`].
    pub status: Status,
    /// Whether no loop stopped short of its tolerance.
    pub accurate: bool,
    /// Support calls of GJK and EPA.
    pub iterations: u32,
}

/// The contact query; `None` when the shapes are farther apart than `prediction`.
pub(crate) fn contact<V: Space>(
    a: &Dyn<V>,
    pa: Pose<V>,
    b: &Dyn<V>,
    pb: Pose<V>,
    prediction: f64,
) -> Option<ContactAnswer> {
    contact_or_ending(a, pa, b, pb, prediction).ok()
}

/// The contact query; without a contact (farther apart than `prediction`), the status of how
/// the query's GJK run or closed form ended, which says why there is none, and its support
/// calls.
pub(crate) fn contact_or_ending<V: Space>(
    a: &Dyn<V>,
    pa: Pose<V>,
    b: &Dyn<V>,
    pb: Pose<V>,
    prediction: f64,
) -> Result<ContactAnswer, (Status, u32)> {
    let options =
        ContactOptions { prediction: V::Real::from_f64(prediction), ..ContactOptions::default() };
    let result = Pair::new(&**a, pa, &**b, pb).contact_with(&options, &mut WarmStart::default());
    let Some(c) = result.contact else {
        return Err((gjk_status(result.gjk_termination), result.gjk_iterations));
    };
    Ok(ContactAnswer {
        depth: c.depth.to_f64(),
        normal: c.normal.coords(),
        point_a: c.point_a.coords(),
        point_b: c.point_b.coords(),
        status: contact_status(&result),
        accurate: c.status.is_accurate(),
        iterations: result.gjk_iterations + result.epa_iterations,
    })
}

/// A cast's answer (ray: `point_a` is the hit point and `point_b` equals it).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct CastAnswer {
    /// Index into [`CAST_STATUSES`].
    pub status: Status,
    /// Time of impact.
    pub toi: f64,
    /// The contact point on A (the hit point of a ray).
    pub point_a: [f64; 3],
    /// The contact point on B.
    pub point_b: [f64; 3],
    /// The unit normal (from A toward B; a ray's: the shape's outward normal).
    pub normal: [f64; 3],
    /// Support calls.
    pub iterations: u32,
}

/// The ray `origin + t·direction`, `t ∈ [0, max_toi]`, against a posed shape.
pub(crate) fn ray_cast<V: Space>(
    shape: &Dyn<V>,
    pose: Pose<V>,
    ray: [[f64; 3]; 2],
    max_toi: f64,
    solid: bool,
) -> Result<CastAnswer, String> {
    let options = RayCastOptions { solid, ..RayCastOptions::default() };
    let r = gjk::ray_cast_with(
        &**shape,
        &pose,
        &gjk::Ray::new(V::point(ray[0]), V::point(ray[1])),
        V::Real::from_f64(max_toi),
        &options,
    );
    Ok(CastAnswer {
        status: cast_status(r.status)?,
        toi: r.hit.toi.to_f64(),
        point_a: r.hit.point.coords(),
        point_b: r.hit.point.coords(),
        normal: r.hit.normal.coords(),
        iterations: r.iterations,
    })
}

/// A moving against B moving, linear motion, `t ∈ [0, max_toi]`.
pub(crate) fn shape_cast<V: Space>(
    a: &Dyn<V>,
    pa: Pose<V>,
    b: &Dyn<V>,
    pb: Pose<V>,
    velocities: [[f64; 3]; 2],
    max_toi: f64,
    target_distance: f64,
) -> Result<CastAnswer, String> {
    let options = ShapeCastOptions {
        target_distance: V::Real::from_f64(target_distance),
        ..ShapeCastOptions::default()
    };
    let r = Pair::new(&**a, pa, &**b, pb).shape_cast_with(
        V::point(velocities[0]),
        V::point(velocities[1]),
        V::Real::from_f64(max_toi),
        &options,
    );
    Ok(CastAnswer {
        status: cast_status(r.status)?,
        toi: r.toi.to_f64(),
        point_a: r.point_a.coords(),
        point_b: r.point_b.coords(),
        normal: r.normal.coords(),
        iterations: r.iterations,
    })
}

/// How a manifold's points were found: the words of the `status` field of `gjk query`'s
/// `manifold` answers, in the order its help lists them.
pub(crate) const MANIFOLD_STATUSES: [&str; 6] =
    ["clipped_a", "clipped_b", "single_point", "tilted", "degenerate", "apart"];

/// `apart`.
pub(crate) const APART: Status = 5;

fn manifold_status(s: ManifoldStatus) -> Status {
    match s {
        ManifoldStatus::Clipped { reference_is_a: true } => 0,
        ManifoldStatus::Clipped { reference_is_a: false } => 1,
        ManifoldStatus::SinglePoint => 2,
        ManifoldStatus::Tilted => 3,
        ManifoldStatus::Degenerate => 4,
        ManifoldStatus::Apart => APART,
    }
}

/// How the contact query behind a manifold ended: `none` (apart; the CLI prints `null`),
/// `exact` (a closed form or a separating-axis test), or a word of [`STATUSES`] (a GJK or EPA
/// ending, as the CLI's `contact_status`).
pub(crate) const CONTACT_STATUSES: [&str; 12] = [
    "none",
    "exact",
    "converged",
    "no_progress",
    "contained",
    "iteration_cap",
    "separating_axis",
    "margin_overlap",
    "epa_converged",
    "epa_iteration_cap",
    "epa_degenerate",
    "epa_flat",
];

fn contact_status_of(s: Option<ContactStatus>) -> Status {
    match s {
        None => 0,
        Some(ContactStatus::Exact) => 1,
        // The GJK and EPA words follow in `STATUSES`' order.
        Some(ContactStatus::Gjk(t)) => 2 + gjk_status(t),
        Some(ContactStatus::Epa(t)) => 2 + epa_status(t),
    }
}

/// The most points of a manifold (2 in 2D).
pub(crate) const MAX_POINTS: usize = 4;

/// The most points of a manifold of dimension `dim`.
pub(crate) fn max_points(dim: usize) -> usize {
    if dim == 2 {
        2
    } else {
        MAX_POINTS
    }
}

/// One point of a manifold, world coordinates, widened to `f64`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct PointAnswer {
    /// On A's surface.
    pub point_a: [f64; 3],
    /// On B's surface.
    pub point_b: [f64; 3],
    /// `> 0` overlap, `< 0` a gap within the prediction.
    pub depth: f64,
    /// A's feature and B's feature (kind in the top two bits).
    pub id: [u32; 2],
}

/// A contact manifold as `gjk query` prints it, without allocation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct ManifoldAnswer {
    /// Unit, from A toward B; zero when apart.
    pub normal: [f64; 3],
    /// The first `len` are the points.
    pub points: [PointAnswer; MAX_POINTS],
    /// How many points.
    pub len: u8,
    /// Index into [`MANIFOLD_STATUSES`].
    pub status: Status,
    /// Index into [`CONTACT_STATUSES`].
    pub contact_status: Status,
}

impl ManifoldAnswer {
    /// The points.
    pub(crate) fn points(&self) -> &[PointAnswer] {
        &self.points[..usize::from(self.len)]
    }
}

/// The contact manifold (`gjk query`'s `manifold`: default options but the prediction).
#[inline]
pub(crate) fn manifold<V: Space>(
    a: &Dyn<V>,
    pa: Pose<V>,
    b: &Dyn<V>,
    pb: Pose<V>,
    prediction: f64,
) -> ManifoldAnswer {
    let options =
        ManifoldOptions { prediction: V::Real::from_f64(prediction), ..ManifoldOptions::default() };
    let m = gjk::manifold(&**a, &pa, &**b, &pb, &options);
    let mut answer = ManifoldAnswer {
        normal: m.normal.coords(),
        status: manifold_status(m.status),
        contact_status: contact_status_of(m.contact_status),
        ..ManifoldAnswer::default()
    };
    for (slot, p) in answer.points.iter_mut().zip(m.points()) {
        *slot = PointAnswer {
            point_a: p.point_a.coords(),
            point_b: p.point_b.coords(),
            depth: p.depth.to_f64(),
            id: [p.id.a, p.id.b],
        };
    }
    answer.len = m.points().len().min(MAX_POINTS) as u8;
    answer
}

/// A time-of-impact answer as `gjk query` prints it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct ToiAnswer {
    /// Index into [`CAST_STATUSES`].
    pub status: Status,
    /// The first time within the slop; 0 initially overlapping; `max_toi` without a hit.
    pub toi: f64,
    /// A's closest (initially overlapping: deepest) point at `toi`.
    pub point_a: [f64; 3],
    /// B's closest or deepest point.
    pub point_b: [f64; 3],
    /// Unit, from A toward B at `toi`; zero without a hit or without a contact direction.
    pub normal: [f64; 3],
    /// The distance at `toi` (minus the depth when initially overlapping).
    pub distance: f64,
    /// The target separation used.
    pub slop: f64,
    /// Advancement steps.
    pub iterations: u32,
}

/// Both motions of a time-of-impact query: linear velocities, then angular ones (`[0, 0, ω]`
/// in 2D).
pub(crate) type Motions = [[f64; 3]; 4];

/// The time of impact of A and B moving and turning by `motions` over `[0, max_toi]`;
/// `linear_slop` `None`: the library's default. `Err` when the library refuses the motion.
#[allow(clippy::too_many_arguments)] // the query's own inputs
pub(crate) fn time_of_impact<V: Space>(
    a: &Dyn<V>,
    pa: Pose<V>,
    b: &Dyn<V>,
    pb: Pose<V>,
    motions: &Motions,
    max_toi: f64,
    linear_slop: Option<f64>,
) -> Result<ToiAnswer, String> {
    let [va, vb, wa, wb] = *motions;
    let motion_a = Motion::new(pa, V::point(va), V::angular(wa));
    let motion_b = Motion::new(pb, V::point(vb), V::angular(wb));
    let options =
        ToiOptions { linear_slop: linear_slop.map(V::Real::from_f64), ..ToiOptions::default() };
    let r = gjk::time_of_impact_with(
        &**a,
        &motion_a,
        &**b,
        &motion_b,
        V::Real::from_f64(max_toi),
        &options,
    );
    if r.status == CastStatus::InvalidInput {
        return Err("the library refused the motion as invalid (velocities or the angle turned \
                    over [0, max_toi] not finite in the shapes' precision)"
            .to_owned());
    }
    Ok(ToiAnswer {
        status: cast_status(r.status)?,
        toi: r.toi.to_f64(),
        point_a: r.point_a.coords(),
        point_b: r.point_b.coords(),
        normal: r.normal.coords(),
        distance: r.distance.to_f64(),
        slop: r.linear_slop.to_f64(),
        iterations: r.iterations,
    })
}
