//! The Python classes and single queries of `gjk._gjk` (the `gjk` package re-exports them with
//! friendlier constructors: `gjk.sphere(...)`, `gjk.Pose(...)`).
//!
//! Errors: counts, dimensions, NaN and the library's `ShapeError`s raise `ValueError`; wrong
//! argument types raise `TypeError` (pyo3's extraction).

use numpy::PyArray1;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::engine::{
    self, with_pair, with_shape, Answer, Built, CastAnswer, ContactAnswer, ManifoldAnswer, Motions,
    PointAnswer, ToiAnswer,
};
use crate::spec::{self, Kind, PoseSpec, RotationSpec, ShapeSpec};

/// `ValueError(text)`.
pub(crate) fn value_error(text: impl Into<String>) -> PyErr {
    PyValueError::new_err(text.into())
}

/// `"float64"` or `"float32"` → single precision?
fn single_precision(dtype: &str) -> PyResult<bool> {
    match dtype {
        "float64" | "f64" | "double" => Ok(false),
        "float32" | "f32" | "single" => Ok(true),
        other => Err(value_error(format!("dtype must be float64 or float32, got {other:?}"))),
    }
}

/// A convex shape in its own frame: 2D or 3D, `float64` or `float32`. Immutable, picklable,
/// shareable between threads. Build it with the `gjk` package's functions (`gjk.sphere`,
/// `gjk.cuboid`, `gjk.points`, ...); this constructor takes the raw numbers.
#[pyclass(frozen, module = "gjk._gjk")]
pub(crate) struct Shape {
    pub(crate) spec: ShapeSpec,
    pub(crate) built: Built,
}

#[pymethods]
impl Shape {
    /// `Shape(kind, dim, params, *, center=None, margin=0.0, dtype="float64")`: `kind` is a
    /// `gjk query` type name (`points`, `sphere`, `ellipsoid`, `cuboid`, `segment`, `triangle`,
    /// `capsule`, `cylinder`, `cone`), `params` its numbers flattened.
    #[new]
    #[pyo3(signature = (kind, dim, params, *, center = None, margin = 0.0, dtype = "float64"))]
    fn new(
        kind: &str,
        dim: usize,
        params: Vec<f64>,
        center: Option<Vec<f64>>,
        margin: f64,
        dtype: &str,
    ) -> PyResult<Self> {
        let kind = Kind::from_name(kind).map_err(value_error)?;
        let single = single_precision(dtype)?;
        let spec =
            ShapeSpec::new(kind, dim, single, params, center, margin).map_err(value_error)?;
        let built = engine::build(&spec).map_err(value_error)?;
        Ok(Self { spec, built })
    }

    /// The `gjk query` type name.
    #[getter]
    fn kind(&self) -> &'static str {
        self.spec.kind.name()
    }

    /// 2 or 3.
    #[getter]
    fn dim(&self) -> usize {
        self.spec.dim
    }

    /// `"float64"` or `"float32"`.
    #[getter]
    fn dtype(&self) -> &'static str {
        if self.spec.single {
            "float32"
        } else {
            "float64"
        }
    }

    /// The numbers the shape was made from, flattened.
    #[getter]
    fn params(&self) -> Vec<f64> {
        self.spec.params.clone()
    }

    /// The centre offset in the shape's frame, or `None`.
    #[getter]
    fn center(&self) -> Option<Vec<f64>> {
        self.spec.center.map(|c| c[..self.spec.dim].to_vec())
    }

    /// The rounding radius (0 for none).
    #[getter]
    fn margin(&self) -> f64 {
        self.spec.margin
    }

    /// The shape as a `gjk query` JSON object (a dict).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = &self.spec;
        let d = PyDict::new(py);
        d.set_item("type", s.kind.name())?;
        let point = |i: usize| s.point(i)[..s.dim].to_vec();
        match s.kind {
            Kind::Points => {
                let n = s.params.len() / s.dim;
                d.set_item("points", (0..n).map(point).collect::<Vec<_>>())?;
            }
            Kind::Sphere => d.set_item("radius", s.params[0])?,
            Kind::Ellipsoid => d.set_item("radii", s.params.clone())?,
            Kind::Cuboid => d.set_item("half_extents", s.params.clone())?,
            Kind::Segment | Kind::Triangle | Kind::Capsule => {
                d.set_item("a", point(0))?;
                d.set_item("b", point(1))?;
                if s.kind == Kind::Triangle {
                    d.set_item("c", point(2))?;
                }
                if s.kind == Kind::Capsule {
                    d.set_item("radius", s.params[2 * s.dim])?;
                }
            }
            Kind::Cylinder | Kind::Cone => {
                d.set_item("half_height", s.params[0])?;
                d.set_item("radius", s.params[1])?;
            }
        }
        if let Some(c) = self.center() {
            d.set_item("center", c)?;
        }
        if s.margin > 0.0 {
            d.set_item("margin", s.margin)?;
        }
        Ok(d)
    }

    /// Pickling: the constructor and its arguments.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let me = slf.get();
        let kwargs = PyDict::new(py);
        kwargs.set_item("center", me.center())?;
        kwargs.set_item("margin", me.spec.margin)?;
        kwargs.set_item("dtype", me.dtype())?;
        // `copyreg`-style: a helper that takes keyword arguments.
        let restore = py.import("gjk._gjk")?.getattr("_restore_shape")?;
        let args = (me.kind(), me.spec.dim, me.params(), kwargs).into_pyobject(py)?;
        Ok((restore, args))
    }

    fn __repr__(&self) -> String {
        let s = &self.spec;
        let mut text = format!("Shape({:?}, dim={}, params={:?}", s.kind.name(), s.dim, s.params);
        if let Some(c) = self.center() {
            text.push_str(&format!(", center={c:?}"));
        }
        if s.margin > 0.0 {
            text.push_str(&format!(", margin={}", s.margin));
        }
        if s.single {
            text.push_str(", dtype='float32'");
        }
        text.push(')');
        text
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Shape>().is_ok_and(|o| o.get().spec == self.spec)
    }
}

/// Unpickles a [`Shape`] (keyword arguments cannot travel in `__reduce__`'s tuple).
#[pyfunction]
fn _restore_shape(
    kind: &str,
    dim: usize,
    params: Vec<f64>,
    kwargs: &Bound<'_, PyDict>,
) -> PyResult<Shape> {
    let center: Option<Vec<f64>> =
        kwargs.get_item("center")?.map(|c| c.extract()).transpose()?.flatten();
    let margin: f64 = kwargs.get_item("margin")?.map_or(Ok(0.0), |m| m.extract())?;
    let dtype: String =
        kwargs.get_item("dtype")?.map_or(Ok("float64".to_owned()), |d| d.extract())?;
    Shape::new(kind, dim, params, center, margin, &dtype)
}

/// Where a shape sits: rotated about its origin, then translated. 3D: `Pose([x, y, z],
/// [qx, qy, qz, qw])` (a unit quaternion, normalised); 2D: `Pose([x, y], angle)` (radians,
/// counter-clockwise). Without a rotation: none. Immutable and picklable.
#[pyclass(frozen, module = "gjk._gjk")]
#[derive(Clone)]
pub(crate) struct Pose {
    pub(crate) spec: PoseSpec,
}

#[pymethods]
impl Pose {
    #[new]
    #[pyo3(signature = (translation, rotation = None))]
    fn new(translation: Vec<f64>, rotation: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let dim = translation.len();
        if dim != 2 && dim != 3 {
            return Err(value_error(format!(
                "translation must have 2 or 3 coordinates, got {dim}"
            )));
        }
        let t = spec::coordinates(&translation, dim, "translation").map_err(value_error)?;
        let rotation = match rotation {
            None => PoseSpec::identity(dim).rotation,
            Some(r) if dim == 2 => RotationSpec::Angle(r.extract::<f64>().map_err(|_| {
                PyTypeError::new_err("a 2D rotation is an angle in radians (a float)")
            })?),
            Some(r) => {
                let q: Vec<f64> = r.extract().map_err(|_| {
                    PyTypeError::new_err("a 3D rotation is a quaternion [x, y, z, w]")
                })?;
                let q: [f64; 4] = q.try_into().map_err(|q: Vec<f64>| {
                    value_error(format!("a quaternion has 4 numbers [x, y, z, w], got {}", q.len()))
                })?;
                RotationSpec::Quaternion(q)
            }
        };
        Self::checked(PoseSpec { dim, translation: t, rotation })
    }

    /// The identity pose of dimension `dim`.
    #[staticmethod]
    #[pyo3(signature = (dim = 3))]
    fn identity(dim: usize) -> PyResult<Self> {
        if dim != 2 && dim != 3 {
            return Err(value_error(format!("dim must be 2 or 3, got {dim}")));
        }
        Ok(Self { spec: PoseSpec::identity(dim) })
    }

    /// A pose from a rigid transform: a 4x4 matrix (3D) or a 3x3 homogeneous matrix (2D),
    /// rotation block orthonormal with determinant +1 within 1e-6, last row `[0, .., 0, 1]`.
    #[staticmethod]
    fn from_matrix(matrix: Vec<Vec<f64>>) -> PyResult<Self> {
        let n = matrix.len();
        if !(n == 3 || n == 4) || matrix.iter().any(|row| row.len() != n) {
            return Err(value_error("a pose matrix is 4x4 (3D) or 3x3 (2D)"));
        }
        let flat: Vec<f64> = matrix.concat();
        let spec = if n == 4 {
            engine::pose_from_matrix3(&flat)
        } else {
            engine::pose_from_matrix2(&flat)
        };
        Self::checked(spec.map_err(value_error)?)
    }

    /// 2 or 3.
    #[getter]
    fn dim(&self) -> usize {
        self.spec.dim
    }

    /// The translation.
    #[getter]
    fn translation(&self) -> Vec<f64> {
        self.spec.translation[..self.spec.dim].to_vec()
    }

    /// The angle (2D) or the quaternion `[x, y, z, w]` as given (3D).
    #[getter]
    fn rotation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.spec.rotation {
            RotationSpec::Angle(a) => Ok(a.into_pyobject(py)?.into_any()),
            RotationSpec::Quaternion(q) => Ok(PyList::new(py, q)?.into_any()),
        }
    }

    /// `[x, y, angle]` (2D) or `[x, y, z, qx, qy, qz, qw]` (3D): a row of a batch pose array.
    fn to_row(&self) -> Vec<f64> {
        self.spec.row()
    }

    /// The pose as a `gjk query` JSON object.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("translation", self.translation())?;
        d.set_item("rotation", self.rotation(py)?)?;
        Ok(d)
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let me = slf.get();
        let args = (me.translation(), me.rotation(py)?).into_pyobject(py)?;
        Ok((py.get_type::<Pose>().into_any(), args))
    }

    fn __repr__(&self) -> String {
        match self.spec.rotation {
            RotationSpec::Angle(a) => format!("Pose({:?}, {a})", self.translation()),
            RotationSpec::Quaternion(q) => format!("Pose({:?}, {q:?})", self.translation()),
        }
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Pose>().is_ok_and(|o| o.get().spec == self.spec)
    }
}

impl Pose {
    /// The pose, if the library accepts it (finite translation, normalisable rotation).
    fn checked(spec: PoseSpec) -> PyResult<Self> {
        let check = if spec.dim == 2 {
            engine::pose::<glam::DVec2>(&spec).map(|_| ())
        } else {
            engine::pose::<glam::DVec3>(&spec).map(|_| ())
        };
        check.map_err(value_error)?;
        Ok(Self { spec })
    }
}

/// The pose spec of an optional pose argument, of the shapes' dimension.
fn pose_of(pose: Option<&Pose>, dim: usize, what: &str) -> PyResult<PoseSpec> {
    match pose {
        None => Ok(PoseSpec::identity(dim)),
        Some(p) if p.spec.dim == dim => Ok(p.spec),
        Some(p) => Err(value_error(format!("{what} is {}D but the shapes are {dim}D", p.spec.dim))),
    }
}

/// The library's pose in `V`, as a Python error.
fn lib_pose<V: engine::Space>(spec: &PoseSpec) -> PyResult<gjk::Pose<V>> {
    engine::pose::<V>(spec).map_err(value_error)
}

/// A vector of dimension `dim` as a numpy array.
fn array<'py>(py: Python<'py>, v: &[f64; 3], dim: usize) -> Bound<'py, PyArray1<f64>> {
    PyArray1::from_slice(py, &v[..dim])
}

/// The answer of `gjk query` for one pair (fields and conventions identical): `intersects`,
/// `distance` (0 when intersecting), `point_a`, `point_b` (closest points when apart, deepest
/// points when intersecting, world frame), `normal` (unit, from A toward B),
/// `penetration_depth` (0 when apart), `iterations`, `status` (how the loops ended).
#[pyclass(frozen, module = "gjk._gjk")]
pub(crate) struct Proximity {
    answer: Answer,
    dim: usize,
}

#[pymethods]
impl Proximity {
    /// Whether the shapes touch or overlap.
    #[getter]
    fn intersects(&self) -> bool {
        self.answer.intersects
    }
    /// The gap between the shapes; 0 when intersecting.
    #[getter]
    fn distance(&self) -> f64 {
        self.answer.distance
    }
    /// A's closest point (apart) or deepest point (intersecting), world frame.
    #[getter]
    fn point_a<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        array(py, &self.answer.point_a, self.dim)
    }
    /// B's closest or deepest point, world frame.
    #[getter]
    fn point_b<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        array(py, &self.answer.point_b, self.dim)
    }
    /// Unit normal from A toward B.
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        array(py, &self.answer.normal, self.dim)
    }
    /// How deep the shapes overlap; 0 when apart or touching.
    #[getter]
    fn penetration_depth(&self) -> f64 {
        self.answer.penetration_depth
    }
    /// Support calls of GJK plus those of EPA.
    #[getter]
    fn iterations(&self) -> u32 {
        self.answer.iterations
    }
    /// How the loops ended (a word of `gjk.STATUSES`).
    #[getter]
    fn status(&self) -> &'static str {
        engine::STATUSES[usize::from(self.answer.status)]
    }
    /// The record as `gjk query` prints it (without `id`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let a = &self.answer;
        d.set_item("intersects", a.intersects)?;
        d.set_item("distance", a.distance)?;
        d.set_item("point_a", a.point_a[..self.dim].to_vec())?;
        d.set_item("point_b", a.point_b[..self.dim].to_vec())?;
        d.set_item("normal", a.normal[..self.dim].to_vec())?;
        d.set_item("penetration_depth", a.penetration_depth)?;
        d.set_item("iterations", a.iterations)?;
        d.set_item("status", self.status())?;
        Ok(d)
    }
    fn __repr__(&self) -> String {
        let a = &self.answer;
        format!(
            "Proximity(intersects={}, distance={:?}, penetration_depth={:?}, normal={:?}, status={:?})",
            if a.intersects { "True" } else { "False" },
            a.distance,
            a.penetration_depth,
            &a.normal[..self.dim],
            self.status()
        )
    }
}

/// A contact: `depth` (> 0 penetrating, <= 0 minus the gap of a near miss), `normal` (unit,
/// from A toward B: moving B by `depth * normal` makes the shapes touch), `point_a`, `point_b`
/// (on each surface, world frame), `status` (a word of `gjk.STATUSES`), `accurate` (no loop
/// stopped short), `iterations`.
#[pyclass(frozen, module = "gjk._gjk")]
pub(crate) struct Contact {
    answer: ContactAnswer,
    dim: usize,
}

#[pymethods]
impl Contact {
    /// Penetration depth (> 0), or minus the gap (<= 0).
    #[getter]
    fn depth(&self) -> f64 {
        self.answer.depth
    }
    /// Unit normal from A toward B.
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        array(py, &self.answer.normal, self.dim)
    }
    /// A's deepest (or closest) point, world frame.
    #[getter]
    fn point_a<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        array(py, &self.answer.point_a, self.dim)
    }
    /// B's deepest (or closest) point, world frame.
    #[getter]
    fn point_b<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        array(py, &self.answer.point_b, self.dim)
    }
    /// How the loops ended (a word of `gjk.STATUSES`).
    #[getter]
    fn status(&self) -> &'static str {
        engine::STATUSES[usize::from(self.answer.status)]
    }
    /// Whether no loop stopped short of its tolerance.
    #[getter]
    fn accurate(&self) -> bool {
        self.answer.accurate
    }
    /// Support calls of GJK and EPA.
    #[getter]
    fn iterations(&self) -> u32 {
        self.answer.iterations
    }
    fn __repr__(&self) -> String {
        format!(
            "Contact(depth={:?}, normal={:?}, status={:?})",
            self.answer.depth,
            &self.answer.normal[..self.dim],
            self.status()
        )
    }
}

/// `v` as a numpy array, or `None` when `defined` is false.
fn optional<'py>(
    py: Python<'py>,
    v: &[f64; 3],
    dim: usize,
    defined: bool,
) -> Option<Bound<'py, PyArray1<f64>>> {
    defined.then(|| array(py, v, dim))
}

/// The answer of `gjk query` to a `ray_cast` line (fields and conventions identical): `hit`
/// (within `[0, max_toi]`, or starting inside), `toi` (the hit is at `origin + toi *
/// direction`; `max_toi` without a hit; a lower bound at the iteration cap), `point` (world;
/// `None` without a hit), `normal` (the shape's unit outward normal; `None` without a hit or
/// for a solid ray starting inside), `iterations`, `status` (a word of `CAST_STATUSES`).
#[pyclass(frozen, module = "gjk._gjk")]
pub(crate) struct RayCast {
    answer: CastAnswer,
    dim: usize,
}

#[pymethods]
impl RayCast {
    /// Whether the ray hits within `[0, max_toi]` (or starts inside the shape).
    #[getter]
    fn hit(&self) -> bool {
        self.answer.status <= 1
    }
    /// The ray parameter of the hit (in units of `direction`).
    #[getter]
    fn toi(&self) -> f64 {
        self.answer.toi
    }
    /// The hit point, world frame; `None` without a hit.
    #[getter]
    fn point<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        optional(py, &self.answer.point_a, self.dim, self.found())
    }
    /// The shape's unit outward normal at the hit; `None` without a hit or for a solid ray
    /// starting inside.
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        let defined = self.found() && self.answer.normal != [0.0; 3];
        optional(py, &self.answer.normal, self.dim, defined)
    }
    /// Support calls.
    #[getter]
    fn iterations(&self) -> u32 {
        self.answer.iterations
    }
    /// How the cast ended (a word of `gjk.CAST_STATUSES`).
    #[getter]
    fn status(&self) -> &'static str {
        engine::CAST_STATUSES[usize::from(self.answer.status)]
    }
    /// The record as `gjk query` prints it (without `id`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("hit", self.hit())?;
        d.set_item("toi", self.answer.toi)?;
        d.set_item("point", self.point(py))?;
        d.set_item("normal", self.normal(py))?;
        d.set_item("iterations", self.answer.iterations)?;
        d.set_item("status", self.status())?;
        Ok(d)
    }
    fn __repr__(&self) -> String {
        format!("RayCast(status={:?}, toi={:?})", self.status(), self.answer.toi)
    }
}

impl RayCast {
    /// Whether the cast found a point (a hit, an initial overlap, or the cap's estimate).
    fn found(&self) -> bool {
        self.answer.status != engine::NO_HIT
    }
}

/// The answer of `gjk query` to a `shape_cast` line (fields and conventions identical): `hit`
/// (the shapes touch within `[0, max_toi]`, or already do), `toi` (time of first contact in
/// units of the velocities; 0 when initially overlapping; `max_toi` without a hit; a lower
/// bound at the iteration cap), `point_a`, `point_b` (contact points at `toi`, world; `None`
/// without a hit or contact), `normal` (unit, from A toward B; `None` likewise),
/// `iterations`, `status` (a word of `CAST_STATUSES`).
#[pyclass(frozen, module = "gjk._gjk")]
pub(crate) struct ShapeCast {
    answer: CastAnswer,
    dim: usize,
}

#[pymethods]
impl ShapeCast {
    /// Whether the shapes touch within `[0, max_toi]` (or already do at 0).
    #[getter]
    fn hit(&self) -> bool {
        self.answer.status <= 1
    }
    /// The time of first contact.
    #[getter]
    fn toi(&self) -> f64 {
        self.answer.toi
    }
    /// The contact point on A at `toi`; `None` without a hit or contact.
    #[getter]
    fn point_a<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        optional(py, &self.answer.point_a, self.dim, self.contact())
    }
    /// The contact point on B at `toi`; `None` without a hit or contact.
    #[getter]
    fn point_b<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        optional(py, &self.answer.point_b, self.dim, self.contact())
    }
    /// The unit normal from A toward B at `toi`; `None` without a hit or contact.
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        optional(py, &self.answer.normal, self.dim, self.contact())
    }
    /// Support calls.
    #[getter]
    fn iterations(&self) -> u32 {
        self.answer.iterations
    }
    /// How the cast ended (a word of `gjk.CAST_STATUSES`).
    #[getter]
    fn status(&self) -> &'static str {
        engine::CAST_STATUSES[usize::from(self.answer.status)]
    }
    /// The record as `gjk query` prints it (without `id`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("hit", self.hit())?;
        d.set_item("toi", self.answer.toi)?;
        d.set_item("point_a", self.point_a(py))?;
        d.set_item("point_b", self.point_b(py))?;
        d.set_item("normal", self.normal(py))?;
        d.set_item("iterations", self.answer.iterations)?;
        d.set_item("status", self.status())?;
        Ok(d)
    }
    fn __repr__(&self) -> String {
        format!("ShapeCast(status={:?}, toi={:?})", self.status(), self.answer.toi)
    }
}

impl ShapeCast {
    /// Whether the cast has contact points: the library leaves them zero without a hit, and
    /// for an initial overlap whose contact query found no direction (as `gjk query`).
    fn contact(&self) -> bool {
        self.answer.status != engine::NO_HIT && self.answer.normal != [0.0; 3]
    }
}

/// The two shapes' dimension and the specs of their poses.
fn posed(
    a: &Shape,
    pose_a: Option<PyRef<'_, Pose>>,
    pose_b: Option<PyRef<'_, Pose>>,
) -> PyResult<(usize, PoseSpec, PoseSpec)> {
    let dim = a.spec.dim;
    let pa = pose_of(pose_a.as_deref(), dim, "pose_a")?;
    let pb = pose_of(pose_b.as_deref(), dim, "pose_b")?;
    Ok((dim, pa, pb))
}

/// Whether the shapes touch or overlap.
#[pyfunction]
#[pyo3(signature = (a, b, pose_a = None, pose_b = None))]
fn intersects(
    a: PyRef<'_, Shape>,
    b: PyRef<'_, Shape>,
    pose_a: Option<PyRef<'_, Pose>>,
    pose_b: Option<PyRef<'_, Pose>>,
) -> PyResult<bool> {
    let (_, pa, pb) = posed(&a, pose_a, pose_b)?;
    with_pair!(&a.built, &b.built, |x, y| engine::intersects(x, lib_pose(&pa)?, y, lib_pose(&pb)?))
        .map_err(value_error)
}

/// The distance between the shapes (0 when they touch or overlap).
#[pyfunction]
#[pyo3(signature = (a, b, pose_a = None, pose_b = None))]
fn distance(
    a: PyRef<'_, Shape>,
    b: PyRef<'_, Shape>,
    pose_a: Option<PyRef<'_, Pose>>,
    pose_b: Option<PyRef<'_, Pose>>,
) -> PyResult<f64> {
    let (_, pa, pb) = posed(&a, pose_a, pose_b)?;
    with_pair!(&a.built, &b.built, |x, y| engine::distance(x, lib_pose(&pa)?, y, lib_pose(&pb)?))
        .map_err(value_error)
}

/// The answer of `gjk query` for the pair: closest points when apart, penetration depth,
/// normal and deepest points when intersecting (see `Proximity`).
#[pyfunction]
#[pyo3(signature = (a, b, pose_a = None, pose_b = None))]
fn closest_points(
    a: PyRef<'_, Shape>,
    b: PyRef<'_, Shape>,
    pose_a: Option<PyRef<'_, Pose>>,
    pose_b: Option<PyRef<'_, Pose>>,
) -> PyResult<Proximity> {
    let (dim, pa, pb) = posed(&a, pose_a, pose_b)?;
    let answer = with_pair!(&a.built, &b.built, |x, y| engine::proximity(
        x,
        lib_pose(&pa)?,
        y,
        lib_pose(&pb)?
    ))
    .map_err(value_error)?;
    Ok(Proximity { answer, dim })
}

/// The contact of the pair, or `None` when they are farther apart than `prediction` (a
/// distance >= 0 up to which near misses are reported with depth <= 0).
#[pyfunction]
#[pyo3(signature = (a, b, pose_a = None, pose_b = None, prediction = 0.0))]
fn contact(
    a: PyRef<'_, Shape>,
    b: PyRef<'_, Shape>,
    pose_a: Option<PyRef<'_, Pose>>,
    pose_b: Option<PyRef<'_, Pose>>,
    prediction: f64,
) -> PyResult<Option<Contact>> {
    let prediction = prediction_of(prediction)?;
    let (dim, pa, pb) = posed(&a, pose_a, pose_b)?;
    let answer = with_pair!(&a.built, &b.built, |x, y| engine::contact(
        x,
        lib_pose(&pa)?,
        y,
        lib_pose(&pb)?,
        prediction
    ))
    .map_err(value_error)?;
    Ok(answer.map(|answer| Contact { answer, dim }))
}

/// A finite vector argument of dimension `dim`.
fn vector(values: Vec<f64>, dim: usize, what: &str) -> PyResult<[f64; 3]> {
    spec::coordinates(&values, dim, what).map_err(value_error)
}

/// A time limit: >= 0, not NaN (infinity allowed).
pub(crate) fn max_toi_of(max_toi: f64) -> PyResult<f64> {
    if max_toi.is_nan() || max_toi < 0.0 {
        return Err(value_error(format!("max_toi must be >= 0, got {max_toi}")));
    }
    Ok(max_toi)
}

/// A contact's prediction distance: >= 0, not NaN (infinity allowed: every gap reported).
pub(crate) fn prediction_of(prediction: f64) -> PyResult<f64> {
    if prediction.is_nan() || prediction < 0.0 {
        return Err(value_error(format!("prediction must be >= 0, got {prediction}")));
    }
    Ok(prediction)
}

/// A shape cast's target distance: >= 0 and finite.
pub(crate) fn target_distance_of(target_distance: f64) -> PyResult<f64> {
    if !target_distance.is_finite() || target_distance < 0.0 {
        return Err(value_error(format!("target_distance must be >= 0, got {target_distance}")));
    }
    Ok(target_distance)
}

/// The ray `origin + t * direction`, `0 <= t <= max_toi`, against `shape` at `pose`. Solid
/// shapes (default): a ray starting inside hits at `toi = 0` with a zero normal; hollow
/// (`solid=False`): it hits where it leaves the shape.
#[pyfunction]
#[pyo3(signature = (shape, origin, direction, pose = None, max_toi = f64::INFINITY, solid = true))]
fn ray_cast(
    shape: PyRef<'_, Shape>,
    origin: Vec<f64>,
    direction: Vec<f64>,
    pose: Option<PyRef<'_, Pose>>,
    max_toi: f64,
    solid: bool,
) -> PyResult<RayCast> {
    let dim = shape.spec.dim;
    let ray = [vector(origin, dim, "origin")?, vector(direction, dim, "direction")?];
    let pose = pose_of(pose.as_deref(), dim, "pose")?;
    let max_toi = max_toi_of(max_toi)?;
    let answer =
        with_shape!(&shape.built, |s| engine::ray_cast(s, lib_pose(&pose)?, ray, max_toi, solid))
            .map_err(value_error)?;
    Ok(RayCast { answer, dim })
}

/// A moving with `velocity_a` and B with `velocity_b` (no rotation), `0 <= t <= max_toi`:
/// the first time they come within `target_distance` (default: touch).
#[pyfunction]
#[pyo3(signature = (a, b, velocity_a, velocity_b, pose_a = None, pose_b = None, max_toi = 1.0,
                    target_distance = 0.0))]
#[allow(clippy::too_many_arguments)] // mirrors the Python signature
fn shape_cast(
    a: PyRef<'_, Shape>,
    b: PyRef<'_, Shape>,
    velocity_a: Vec<f64>,
    velocity_b: Vec<f64>,
    pose_a: Option<PyRef<'_, Pose>>,
    pose_b: Option<PyRef<'_, Pose>>,
    max_toi: f64,
    target_distance: f64,
) -> PyResult<ShapeCast> {
    let (dim, pa, pb) = posed(&a, pose_a, pose_b)?;
    let v = [vector(velocity_a, dim, "velocity_a")?, vector(velocity_b, dim, "velocity_b")?];
    let max_toi = max_toi_of(max_toi)?;
    let target_distance = target_distance_of(target_distance)?;
    let answer = with_pair!(&a.built, &b.built, |x, y| engine::shape_cast(
        x,
        lib_pose(&pa)?,
        y,
        lib_pose(&pb)?,
        v,
        max_toi,
        target_distance
    ))
    .and_then(|cast| cast)
    .map_err(value_error)?;
    Ok(ShapeCast { answer, dim })
}

/// A word of `table` by index (the index is always one the engine wrote).
fn word(table: &'static [&'static str], index: u8) -> &'static str {
    table.get(usize::from(index)).copied().unwrap_or("?")
}

/// One point of a contact manifold (fields as `gjk query`'s): `point_a` on A's surface,
/// `point_b` on B's (world frame), `depth` (> 0 overlap, < 0 a gap within the prediction),
/// `id` = (A's feature, B's feature), the same from frame to frame while the same features
/// touch (top two bits of each: 0 vertex, 1 edge, 2 face). Immutable, picklable.
#[pyclass(frozen, module = "gjk._gjk")]
pub(crate) struct ManifoldPoint {
    point: PointAnswer,
    dim: usize,
}

#[pymethods]
impl ManifoldPoint {
    /// The point on A's surface, world frame.
    #[getter]
    fn point_a<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        array(py, &self.point.point_a, self.dim)
    }
    /// The point on B's surface, world frame.
    #[getter]
    fn point_b<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        array(py, &self.point.point_b, self.dim)
    }
    /// > 0: penetration depth; < 0: a gap (within the prediction distance).
    #[getter]
    fn depth(&self) -> f64 {
        self.point.depth
    }
    /// (A's feature, B's feature).
    #[getter]
    fn id(&self) -> (u32, u32) {
        (self.point.id[0], self.point.id[1])
    }
    /// The point as `gjk query` prints it: `{"point_a", "point_b", "depth", "id": [a, b]}`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("point_a", self.point.point_a[..self.dim].to_vec())?;
        d.set_item("point_b", self.point.point_b[..self.dim].to_vec())?;
        d.set_item("depth", self.point.depth)?;
        d.set_item("id", self.point.id.to_vec())?;
        Ok(d)
    }
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let me = slf.get();
        let restore = py.import("gjk._gjk")?.getattr("_restore_manifold_point")?;
        let args = (me.dim, point_numbers(&me.point), me.point.id.to_vec()).into_pyobject(py)?;
        Ok((restore, args))
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<ManifoldPoint>().is_ok_and(|o| {
            let o = o.get();
            o.dim == self.dim && o.point == self.point
        })
    }
    fn __repr__(&self) -> String {
        format!(
            "ManifoldPoint(point_a={:?}, point_b={:?}, depth={:?}, id={:?})",
            &self.point.point_a[..self.dim],
            &self.point.point_b[..self.dim],
            self.point.depth,
            self.point.id
        )
    }
}

/// The seven numbers of a manifold point: `point_a`, `point_b` (three each), `depth`.
fn point_numbers(p: &PointAnswer) -> Vec<f64> {
    let mut v = p.point_a.to_vec();
    v.extend_from_slice(&p.point_b);
    v.push(p.depth);
    v
}

/// A manifold point from [`point_numbers`] and its ids.
fn point_from(numbers: &[f64], id: &[u32]) -> PointAnswer {
    let mut p = PointAnswer { depth: numbers[6], id: [id[0], id[1]], ..PointAnswer::default() };
    p.point_a.copy_from_slice(&numbers[..3]);
    p.point_b.copy_from_slice(&numbers[3..6]);
    p
}

/// A dimension read back from a pickle.
fn dim_of(dim: usize) -> PyResult<usize> {
    match dim {
        2 | 3 => Ok(dim),
        _ => Err(value_error(format!("dim must be 2 or 3, got {dim}"))),
    }
}

/// Unpickles a [`ManifoldPoint`].
#[pyfunction]
fn _restore_manifold_point(dim: usize, numbers: Vec<f64>, id: Vec<u32>) -> PyResult<ManifoldPoint> {
    if numbers.len() != 7 || id.len() != 2 {
        return Err(value_error("a pickled manifold point has 7 numbers and 2 ids"));
    }
    Ok(ManifoldPoint { point: point_from(&numbers, &id), dim: dim_of(dim)? })
}

/// The answer of `gjk query` to a `manifold` line (fields and conventions identical): `normal`
/// (unit, from A toward B, shared by the points; `None` when apart), `points` (up to 2 in 2D,
/// 4 in 3D, each a `ManifoldPoint`; none when apart), `contact_status` (how the contact query
/// that found the normal ended: `exact`, or a word of `STATUSES`; `None` when apart),
/// `status` (how the points were found, a word of `MANIFOLD_STATUSES`). Picklable.
#[pyclass(frozen, module = "gjk._gjk")]
pub(crate) struct Manifold {
    answer: ManifoldAnswer,
    dim: usize,
}

#[pymethods]
impl Manifold {
    /// The unit normal from A toward B; `None` when apart.
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        optional(py, &self.answer.normal, self.dim, !self.apart())
    }
    /// The points, each a `ManifoldPoint`, in the library's order (none when apart).
    #[getter]
    fn points(&self) -> Vec<ManifoldPoint> {
        let dim = self.dim;
        self.answer.points().iter().map(|&point| ManifoldPoint { point, dim }).collect()
    }
    /// How the contact query behind the normal ended: `exact` or a word of `STATUSES`;
    /// `None` when apart.
    #[getter]
    fn contact_status(&self) -> Option<&'static str> {
        (!self.apart()).then(|| word(&engine::CONTACT_STATUSES, self.answer.contact_status))
    }
    /// How the points were found (a word of `gjk.MANIFOLD_STATUSES`).
    #[getter]
    fn status(&self) -> &'static str {
        word(&engine::MANIFOLD_STATUSES, self.answer.status)
    }
    /// The points' depths as an array (in the order of `points`).
    #[getter]
    fn depths<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_iter(py, self.answer.points().iter().map(|p| p.depth))
    }
    /// The number of points.
    fn __len__(&self) -> usize {
        self.answer.points().len()
    }
    /// The record as `gjk query` prints it (without `id`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("normal", (!self.apart()).then(|| self.answer.normal[..self.dim].to_vec()))?;
        let points = PyList::empty(py);
        for p in self.points() {
            points.append(p.to_dict(py)?)?;
        }
        d.set_item("points", points)?;
        d.set_item("contact_status", self.contact_status())?;
        d.set_item("status", self.status())?;
        Ok(d)
    }
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let me = slf.get();
        let a = &me.answer;
        let mut numbers = a.normal.to_vec();
        let mut ints = vec![u32::from(a.status), u32::from(a.contact_status)];
        for p in a.points() {
            numbers.extend(point_numbers(p));
            ints.extend_from_slice(&p.id);
        }
        let restore = py.import("gjk._gjk")?.getattr("_restore_manifold")?;
        Ok((restore, (me.dim, numbers, ints).into_pyobject(py)?))
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Manifold>().is_ok_and(|o| {
            let o = o.get();
            o.dim == self.dim && o.answer == self.answer
        })
    }
    fn __repr__(&self) -> String {
        format!(
            "Manifold(status={:?}, {} points, normal={:?}, max depth={:?})",
            self.status(),
            self.answer.len,
            &self.answer.normal[..self.dim],
            self.answer.points().iter().map(|p| p.depth).reduce(f64::max)
        )
    }
}

impl Manifold {
    fn apart(&self) -> bool {
        self.answer.status == engine::APART
    }
}

/// Unpickles a [`Manifold`].
#[pyfunction]
fn _restore_manifold(dim: usize, numbers: Vec<f64>, ints: Vec<u32>) -> PyResult<Manifold> {
    let n = ints.len().saturating_sub(2) / 2;
    let valid = ints.len() >= 2
        && ints.len() % 2 == 0
        && n <= engine::MAX_POINTS
        && numbers.len() == 3 + 7 * n
        && (ints[0] as usize) < engine::MANIFOLD_STATUSES.len()
        && (ints[1] as usize) < engine::CONTACT_STATUSES.len();
    if !valid {
        return Err(value_error("not a pickled manifold"));
    }
    let mut answer = ManifoldAnswer {
        status: ints[0] as u8,
        contact_status: ints[1] as u8,
        len: n as u8,
        ..ManifoldAnswer::default()
    };
    answer.normal.copy_from_slice(&numbers[..3]);
    for k in 0..n {
        answer.points[k] = point_from(&numbers[3 + 7 * k..], &ints[2 + 2 * k..]);
    }
    Ok(Manifold { answer, dim: dim_of(dim)? })
}

/// The answer of `gjk query` to a `time_of_impact` line (fields and conventions identical):
/// `hit` (the shapes come within the slop in `[0, max_toi]`, or already overlap; a pair that
/// touches in the interval is never missed), `toi` (the first time within the slop; they are
/// at least slop/2 apart before it; 0 when initially overlapping; `max_toi` without a hit; a
/// lower bound at the iteration cap), `point_a`, `point_b` (closest points at `toi`, world;
/// deepest points when initially overlapping; `None` without a hit or contact), `normal`
/// (unit, A toward B at `toi`; `None` likewise), `distance` (at `toi`, between slop/2 and slop
/// for a hit; minus the depth when initially overlapping; `None` without a hit), `slop` (the
/// target separation used), `iterations` (advancement steps), `status` (a word of
/// `CAST_STATUSES`). Picklable.
#[pyclass(frozen, module = "gjk._gjk")]
pub(crate) struct TimeOfImpact {
    answer: ToiAnswer,
    dim: usize,
}

#[pymethods]
impl TimeOfImpact {
    /// Whether the shapes come within the slop in `[0, max_toi]` (or overlap at 0).
    #[getter]
    fn hit(&self) -> bool {
        self.answer.status <= 1
    }
    /// The first time the shapes are within the slop.
    #[getter]
    fn toi(&self) -> f64 {
        self.answer.toi
    }
    /// A's closest point at `toi` (deepest when initially overlapping); `None` without a hit
    /// or contact.
    #[getter]
    fn point_a<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        optional(py, &self.answer.point_a, self.dim, self.contact())
    }
    /// B's closest point at `toi`; `None` without a hit or contact.
    #[getter]
    fn point_b<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        optional(py, &self.answer.point_b, self.dim, self.contact())
    }
    /// The unit normal from A toward B at `toi`; `None` without a hit or contact.
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        optional(py, &self.answer.normal, self.dim, self.contact())
    }
    /// The distance at `toi` (minus the depth when initially overlapping); `None` without a
    /// hit.
    #[getter]
    fn distance(&self) -> Option<f64> {
        self.found().then_some(self.answer.distance)
    }
    /// The target separation used.
    #[getter]
    fn slop(&self) -> f64 {
        self.answer.slop
    }
    /// Advancement steps (one distance query each).
    #[getter]
    fn iterations(&self) -> u32 {
        self.answer.iterations
    }
    /// How the query ended (a word of `gjk.CAST_STATUSES`).
    #[getter]
    fn status(&self) -> &'static str {
        word(&engine::CAST_STATUSES, self.answer.status)
    }
    /// The record as `gjk query` prints it (without `id`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("hit", self.hit())?;
        d.set_item("toi", self.answer.toi)?;
        d.set_item("point_a", self.point_a(py))?;
        d.set_item("point_b", self.point_b(py))?;
        d.set_item("normal", self.normal(py))?;
        d.set_item("distance", self.distance())?;
        d.set_item("slop", self.answer.slop)?;
        d.set_item("iterations", self.answer.iterations)?;
        d.set_item("status", self.status())?;
        Ok(d)
    }
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let me = slf.get();
        let a = &me.answer;
        let mut numbers = vec![a.toi, a.distance, a.slop];
        for v in [a.point_a, a.point_b, a.normal] {
            numbers.extend_from_slice(&v);
        }
        let ints = vec![u32::from(a.status), a.iterations];
        let restore = py.import("gjk._gjk")?.getattr("_restore_time_of_impact")?;
        Ok((restore, (me.dim, numbers, ints).into_pyobject(py)?))
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<TimeOfImpact>().is_ok_and(|o| {
            let o = o.get();
            o.dim == self.dim && o.answer == self.answer
        })
    }
    fn __repr__(&self) -> String {
        format!("TimeOfImpact(status={:?}, toi={:?})", self.status(), self.answer.toi)
    }
}

impl TimeOfImpact {
    /// Whether the query found a time with points (not `no_hit`).
    fn found(&self) -> bool {
        self.answer.status != engine::NO_HIT
    }
    /// Whether it has contact points: the library leaves them zero without a hit, and for an
    /// initial overlap whose contact query found no direction (as `gjk query`).
    fn contact(&self) -> bool {
        self.found() && self.answer.normal != [0.0; 3]
    }
}

/// Unpickles a [`TimeOfImpact`].
#[pyfunction]
fn _restore_time_of_impact(
    dim: usize,
    numbers: Vec<f64>,
    ints: Vec<u32>,
) -> PyResult<TimeOfImpact> {
    if numbers.len() != 12 || ints.len() != 2 || ints[0] as usize >= engine::CAST_STATUSES.len() {
        return Err(value_error("not a pickled time of impact"));
    }
    let mut answer = ToiAnswer {
        status: ints[0] as u8,
        toi: numbers[0],
        distance: numbers[1],
        slop: numbers[2],
        iterations: ints[1],
        ..ToiAnswer::default()
    };
    answer.point_a.copy_from_slice(&numbers[3..6]);
    answer.point_b.copy_from_slice(&numbers[6..9]);
    answer.normal.copy_from_slice(&numbers[9..12]);
    Ok(TimeOfImpact { answer, dim: dim_of(dim)? })
}

/// The contact manifold of the pair: up to 2 (2D) or 4 (3D) points under one normal where
/// the shapes overlap or are at most `prediction` (>= 0) apart (see `Manifold`).
#[pyfunction]
#[pyo3(signature = (a, b, pose_a = None, pose_b = None, prediction = 0.0))]
fn manifold(
    a: PyRef<'_, Shape>,
    b: PyRef<'_, Shape>,
    pose_a: Option<PyRef<'_, Pose>>,
    pose_b: Option<PyRef<'_, Pose>>,
    prediction: f64,
) -> PyResult<Manifold> {
    let prediction = prediction_of(prediction)?;
    let (dim, pa, pb) = posed(&a, pose_a, pose_b)?;
    let answer = with_pair!(&a.built, &b.built, |x, y| engine::manifold(
        x,
        lib_pose(&pa)?,
        y,
        lib_pose(&pb)?,
        prediction
    ))
    .map_err(value_error)?;
    Ok(Manifold { answer, dim })
}

/// An angular velocity argument: a number in 2D (radians per unit time, counter-clockwise),
/// stored as `[0, 0, w]`; a vector `[x, y, z]` (axis times rate) in 3D. `None`: not turning.
pub(crate) fn angular_of(
    value: Option<&Bound<'_, PyAny>>,
    dim: usize,
    what: &str,
) -> PyResult<[f64; 3]> {
    let Some(value) = value else { return Ok([0.0; 3]) };
    if dim == 2 {
        let w: f64 = value.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "{what} is a number in 2D (radians per unit time, counter-clockwise)"
            ))
        })?;
        if !w.is_finite() {
            return Err(value_error(format!("{what} must be finite, got {w}")));
        }
        return Ok([0.0, 0.0, w]);
    }
    let w: Vec<f64> = value.extract().map_err(|_| {
        PyTypeError::new_err(format!("{what} is a vector [x, y, z] in 3D (axis times rate)"))
    })?;
    vector(w, 3, what)
}

/// A linear slop argument: `None` (the library's default) or finite and >= 0.
pub(crate) fn linear_slop_of(linear_slop: Option<f64>) -> PyResult<Option<f64>> {
    match linear_slop {
        Some(s) if !s.is_finite() || s < 0.0 => {
            Err(value_error(format!("linear_slop must be finite and >= 0, got {s}")))
        }
        _ => Ok(linear_slop),
    }
}

/// A time limit for a query that may turn: finite when a shape turns (the angle turned over
/// the interval must be finite).
pub(crate) fn turning_max_toi(max_toi: f64, turning: bool) -> PyResult<f64> {
    let max_toi = max_toi_of(max_toi)?;
    if turning && max_toi.is_infinite() {
        return Err(value_error("max_toi must be finite when a shape turns"));
    }
    Ok(max_toi)
}

/// A moving with `velocity_a` and turning at `angular_velocity_a` about its position (the
/// translation of `pose_a`), B likewise, `0 <= t <= max_toi`: the first time the shapes come
/// within the linear slop (default: 1/1000 of the smaller shape's reach). Angular velocities
/// are a number in 2D, a vector (axis times rate) in 3D; `None`: not turning.
#[pyfunction]
#[pyo3(signature = (a, b, velocity_a, velocity_b, pose_a = None, pose_b = None,
                    angular_velocity_a = None, angular_velocity_b = None, max_toi = 1.0,
                    linear_slop = None))]
#[allow(clippy::too_many_arguments)] // mirrors the Python signature
fn time_of_impact(
    a: PyRef<'_, Shape>,
    b: PyRef<'_, Shape>,
    velocity_a: Vec<f64>,
    velocity_b: Vec<f64>,
    pose_a: Option<PyRef<'_, Pose>>,
    pose_b: Option<PyRef<'_, Pose>>,
    angular_velocity_a: Option<&Bound<'_, PyAny>>,
    angular_velocity_b: Option<&Bound<'_, PyAny>>,
    max_toi: f64,
    linear_slop: Option<f64>,
) -> PyResult<TimeOfImpact> {
    let (dim, pa, pb) = posed(&a, pose_a, pose_b)?;
    let motions: Motions = [
        vector(velocity_a, dim, "velocity_a")?,
        vector(velocity_b, dim, "velocity_b")?,
        angular_of(angular_velocity_a, dim, "angular_velocity_a")?,
        angular_of(angular_velocity_b, dim, "angular_velocity_b")?,
    ];
    let turning = motions[2] != [0.0; 3] || motions[3] != [0.0; 3];
    let max_toi = turning_max_toi(max_toi, turning)?;
    let linear_slop = linear_slop_of(linear_slop)?;
    let answer = with_pair!(&a.built, &b.built, |x, y| engine::time_of_impact(
        x,
        lib_pose(&pa)?,
        y,
        lib_pose(&pb)?,
        &motions,
        max_toi,
        linear_slop
    ))
    .and_then(|toi| toi)
    .map_err(value_error)?;
    Ok(TimeOfImpact { answer, dim })
}

/// Registers the classes and functions of this module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Shape>()?;
    m.add_class::<Pose>()?;
    m.add_class::<Proximity>()?;
    m.add_class::<Contact>()?;
    m.add_class::<RayCast>()?;
    m.add_class::<ShapeCast>()?;
    m.add_class::<ManifoldPoint>()?;
    m.add_class::<Manifold>()?;
    m.add_class::<TimeOfImpact>()?;
    m.add_function(wrap_pyfunction!(_restore_manifold_point, m)?)?;
    m.add_function(wrap_pyfunction!(_restore_manifold, m)?)?;
    m.add_function(wrap_pyfunction!(_restore_time_of_impact, m)?)?;
    m.add_function(wrap_pyfunction!(manifold, m)?)?;
    m.add_function(wrap_pyfunction!(time_of_impact, m)?)?;
    m.add_function(wrap_pyfunction!(_restore_shape, m)?)?;
    m.add_function(wrap_pyfunction!(intersects, m)?)?;
    m.add_function(wrap_pyfunction!(distance, m)?)?;
    m.add_function(wrap_pyfunction!(closest_points, m)?)?;
    m.add_function(wrap_pyfunction!(contact, m)?)?;
    m.add_function(wrap_pyfunction!(ray_cast, m)?)?;
    m.add_function(wrap_pyfunction!(shape_cast, m)?)?;
    m.add("STATUSES", PyTuple::new(m.py(), engine::STATUSES)?)?;
    m.add("CAST_STATUSES", PyTuple::new(m.py(), engine::CAST_STATUSES)?)?;
    m.add("MANIFOLD_STATUSES", PyTuple::new(m.py(), engine::MANIFOLD_STATUSES)?)?;
    m.add("CONTACT_STATUSES", PyTuple::new(m.py(), engine::CONTACT_STATUSES)?)?;
    Ok(())
}
