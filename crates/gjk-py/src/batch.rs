//! Batch queries: many pairs in one call, numpy in and out, the GIL released and the pairs
//! spread over all cores with rayon. No Python object is made per pair: each worker writes
//! plain numbers, and the columns become numpy arrays at the end.
//!
//! Pair `i` is `shapes[index_a[i]]` at `poses_a[i]` against `shapes[index_b[i]]` at
//! `poses_b[i]`; a pose row is `[x, y, angle]` (2D) or `[x, y, z, qx, qy, qz, qw]` (3D). The
//! `gjk` package builds the index arrays for its two forms (one shape pair and N poses; a shape
//! list and index pairs). A shape cast also takes one velocity row per shape of the pair.

use std::sync::atomic::{AtomicUsize, Ordering};

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;

use crate::api::{
    linear_slop_of, max_toi_of, prediction_of, target_distance_of, turning_max_toi, value_error,
    Shape,
};
use crate::engine::{
    self, Answer, CastAnswer, ContactAnswer, Dyn, ManifoldAnswer, Space, Status, ToiAnswer,
};
use crate::spec::PoseSpec;

/// What a batch computes.
#[derive(Clone, Copy, PartialEq)]
enum Query {
    Intersects,
    Distance,
    ClosestPoints,
    /// The contact query, reporting gaps up to `prediction`.
    Contact {
        prediction: f64,
    },
    /// The linear shape cast over `[0, max_toi]`.
    ShapeCast {
        max_toi: f64,
        target_distance: f64,
    },
    /// The contact manifold, with points up to `prediction` apart.
    Manifold {
        prediction: f64,
    },
    /// The time of impact under translation and rotation over `[0, max_toi]`.
    TimeOfImpact {
        max_toi: f64,
        linear_slop: Option<f64>,
    },
}

/// The checked inputs of one batch, borrowed from the numpy arrays.
struct Inputs<'a> {
    query: Query,
    dim: usize,
    index_a: &'a [i64],
    index_b: &'a [i64],
    poses_a: &'a [f64],
    poses_b: &'a [f64],
    /// A shape cast's velocity rows (`dim` numbers each) of A and of B.
    velocities: Option<(&'a [f64], &'a [f64])>,
    /// A time of impact's angular velocity rows of A and of B (1 number each in 2D, 3 in 3D).
    angular: Option<(&'a [f64], &'a [f64])>,
}

impl Inputs<'_> {
    fn len(&self) -> usize {
        self.index_a.len()
    }

    fn width(&self) -> usize {
        if self.dim == 2 {
            3
        } else {
            7
        }
    }

    /// Pair `i`'s library poses (`None` when the library rejects one).
    #[inline]
    fn poses<V: Space>(&self, i: usize) -> Option<(gjk::Pose<V>, gjk::Pose<V>)> {
        let w = self.width();
        let pa = PoseSpec::from_row(self.dim, &self.poses_a[i * w..(i + 1) * w]);
        let pb = PoseSpec::from_row(self.dim, &self.poses_b[i * w..(i + 1) * w]);
        Some((V::pose(&pa).ok()?, V::pose(&pb).ok()?))
    }

    /// Pair `i`'s shapes (indices were checked against the shape list before the run).
    #[inline]
    fn shapes<'s, V: Space>(&self, shapes: &'s [Dyn<V>], i: usize) -> (&'s Dyn<V>, &'s Dyn<V>) {
        (&shapes[self.index_a[i] as usize], &shapes[self.index_b[i] as usize])
    }

    /// The message for the first rejected pose at or after pair `i`.
    fn pose_error(&self, i: usize) -> String {
        let w = self.width();
        for (name, poses) in [("poses_a", self.poses_a), ("poses_b", self.poses_b)] {
            let spec = PoseSpec::from_row(self.dim, &poses[i * w..(i + 1) * w]);
            let checked = if self.dim == 2 {
                engine::pose::<glam::DVec2>(&spec).map(|_| ())
            } else {
                engine::pose::<glam::DVec3>(&spec).map(|_| ())
            };
            if let Err(e) = checked {
                return format!("{name}[{i}]: {e}");
            }
        }
        format!(
            "pair {i}: a pose or velocity is not representable in float32, or the library \
             refused the cast or motion as invalid"
        )
    }

    /// Pair `i`'s velocities of A and B (zero without velocity rows).
    fn velocities(&self, i: usize) -> [[f64; 3]; 2] {
        let mut v = [[0.0; 3]; 2];
        if let Some((va, vb)) = self.velocities {
            let d = self.dim;
            v[0][..d].copy_from_slice(&va[i * d..(i + 1) * d]);
            v[1][..d].copy_from_slice(&vb[i * d..(i + 1) * d]);
        }
        v
    }

    /// Pair `i`'s motions: linear velocities, then angular ones (`[0, 0, w]` in 2D).
    fn motions(&self, i: usize) -> engine::Motions {
        let [va, vb] = self.velocities(i);
        let mut m = [va, vb, [0.0; 3], [0.0; 3]];
        if let Some((wa, wb)) = self.angular {
            if self.dim == 2 {
                m[2][2] = wa[i];
                m[3][2] = wb[i];
            } else {
                m[2].copy_from_slice(&wa[3 * i..3 * i + 3]);
                m[3].copy_from_slice(&wb[3 * i..3 * i + 3]);
            }
        }
        m
    }
}

/// The answers of a batch, as columns.
enum Columns {
    Bools(Vec<bool>),
    Floats(Vec<f64>),
    Answers(Vec<Answer>),
    /// A contact, or the status and support calls of a query that found none.
    Contacts(Vec<Result<ContactAnswer, (Status, u32)>>),
    Casts(Vec<CastAnswer>),
    Manifolds(Vec<ManifoldAnswer>),
    Tois(Vec<ToiAnswer>),
}

/// Pairs per block: a block's poses are all built before its queries run.
///
/// Building a pose normalises its quaternion (a square root and a division), and the query
/// needs the result at once: pair by pair, their latency sat on every query's critical path
/// (and the query's unpredictable branches kept the processor from overlapping it with the
/// next pair's). Built in a run of independent pairs they pipeline. Measured on box
/// intersects: see docs/benchmarks.md, "Python package". The block is also rayon's smallest
/// task.
const BLOCK: usize = 64;

/// `query` for every pair, in parallel, blocks of [`BLOCK`] pairs; `fill` where the pair's
/// pose is rejected or `query` fails (`None`), and `first_bad` lowered to that pair.
fn each_pair<V: Space, T: Copy + Send>(
    shapes: &[Dyn<V>],
    inputs: &Inputs<'_>,
    first_bad: &AtomicUsize,
    fill: T,
    query: impl Fn(usize, &Dyn<V>, gjk::Pose<V>, &Dyn<V>, gjk::Pose<V>) -> Option<T> + Sync,
) -> Vec<T> {
    let mut out = vec![fill; inputs.len()];
    out.par_chunks_mut(BLOCK).enumerate().for_each(|(k, chunk)| {
        let start = k * BLOCK;
        let mut poses = [None; BLOCK];
        for (j, slot) in poses.iter_mut().take(chunk.len()).enumerate() {
            *slot = inputs.poses::<V>(start + j);
        }
        for (j, (slot, posed)) in chunk.iter_mut().zip(poses).enumerate() {
            let i = start + j;
            let answer = posed.and_then(|(pa, pb)| {
                let (a, b) = inputs.shapes(shapes, i);
                query(i, a, pa, b, pb)
            });
            match answer {
                Some(answer) => *slot = answer,
                None => {
                    first_bad.fetch_min(i, Ordering::Relaxed);
                }
            }
        }
    });
    out
}

/// Runs the batch in space `V`, in parallel; `Err(i)`: the pose of pair `i` was rejected (the
/// smallest such `i`).
fn run<V: Space>(shapes: &[Dyn<V>], inputs: &Inputs<'_>) -> Result<Columns, usize> {
    let bad = AtomicUsize::new(usize::MAX);
    let columns = match inputs.query {
        Query::Intersects => {
            Columns::Bools(each_pair(shapes, inputs, &bad, false, |_, a, pa, b, pb| {
                Some(engine::intersects_fast(a, pa, b, pb))
            }))
        }
        Query::Distance => {
            Columns::Floats(each_pair(shapes, inputs, &bad, f64::NAN, |_, a, pa, b, pb| {
                Some(engine::distance_fast(a, pa, b, pb))
            }))
        }
        Query::ClosestPoints => Columns::Answers(each_pair(
            shapes,
            inputs,
            &bad,
            Answer::default(),
            |_, a, pa, b, pb| Some(engine::proximity(a, pa, b, pb)),
        )),
        Query::Contact { prediction } => {
            Columns::Contacts(each_pair(shapes, inputs, &bad, Err((0, 0)), |_, a, pa, b, pb| {
                Some(engine::contact_or_ending(a, pa, b, pb, prediction))
            }))
        }
        Query::ShapeCast { max_toi, target_distance } => Columns::Casts(each_pair(
            shapes,
            inputs,
            &bad,
            CastAnswer::default(),
            |i, a, pa, b, pb| {
                let v = inputs.velocities(i);
                engine::shape_cast(a, pa, b, pb, v, max_toi, target_distance).ok()
            },
        )),
        Query::Manifold { prediction } => Columns::Manifolds(each_pair(
            shapes,
            inputs,
            &bad,
            ManifoldAnswer::default(),
            |_, a, pa, b, pb| Some(engine::manifold(a, pa, b, pb, prediction)),
        )),
        Query::TimeOfImpact { max_toi, linear_slop } => Columns::Tois(each_pair(
            shapes,
            inputs,
            &bad,
            ToiAnswer::default(),
            |i, a, pa, b, pb| {
                let m = inputs.motions(i);
                engine::time_of_impact(a, pa, b, pb, &m, max_toi, linear_slop).ok()
            },
        )),
    };
    match bad.into_inner() {
        usize::MAX => Ok(columns),
        i => Err(i),
    }
}

/// The library objects of `shapes`, all of space `V` (`None` if one is not).
fn of_space<V: Space>(shapes: &[PyRef<'_, Shape>]) -> Option<Vec<Dyn<V>>> {
    shapes.iter().map(|s| V::of(&s.built).cloned()).collect()
}

/// Runs the batch in the space of the first shape, the GIL released.
fn dispatch(py: Python<'_>, shapes: &[PyRef<'_, Shape>], inputs: &Inputs<'_>) -> PyResult<Columns> {
    fn go<V: Space>(
        py: Python<'_>,
        shapes: &[PyRef<'_, Shape>],
        inputs: &Inputs<'_>,
    ) -> PyResult<Result<Columns, usize>> {
        let Some(lib) = of_space::<V>(shapes) else {
            let first = shapes[0].built.describe();
            let other = shapes
                .iter()
                .find(|s| V::of(&s.built).is_none())
                .map_or("?", |s| s.built.describe());
            return Err(value_error(format!(
                "the shapes of a batch must share dimension and dtype: {first} and {other}"
            )));
        };
        Ok(py.detach(|| run::<V>(&lib, inputs)))
    }
    let result = match &shapes[0].built {
        engine::Built::D2(_) => go::<glam::DVec2>(py, shapes, inputs)?,
        engine::Built::D3(_) => go::<glam::DVec3>(py, shapes, inputs)?,
        engine::Built::F2(_) => go::<glam::Vec2>(py, shapes, inputs)?,
        engine::Built::F3(_) => go::<glam::Vec3>(py, shapes, inputs)?,
    };
    result.map_err(|i| value_error(inputs.pose_error(i)))
}

/// `_batch(query, shapes, index_a, index_b, poses_a, poses_b, ...)` → dict of numpy arrays.
///
/// `query`: `"intersects"` (`{"intersects"}`), `"distance"` (`{"distance"}`),
/// `"closest_points"` (every field of `gjk query`'s answer, `status` as `uint8` indices into
/// `STATUSES`), `"contact"` (with `prediction`: `in_contact`, `depth`, `normal`, `point_a`,
/// `point_b`, `iterations`, `status`; rows without a contact hold zeros and the status of the
/// query that found none) or `"shape_cast"` (with `velocities_a`, `velocities_b` of shape
/// `(n, dim)`, `max_toi`, `target_distance`: `hit`, `toi`, `point_a`, `point_b`, `normal`,
/// `iterations`, `status` as indices into `CAST_STATUSES`), `"manifold"` (with `prediction`:
/// `count`, `normal`, `point_a`, `point_b` of shape `(n, k, dim)` with `k` = 2 in 2D and 4 in
/// 3D, `depth` `(n, k)`, `id` `(n, k, 2)` `uint32`, `status` as indices into
/// `MANIFOLD_STATUSES`, `contact_status` into `CONTACT_STATUSES`; slots past `count` are zero)
/// or `"time_of_impact"` (with the velocities, optional `angular_velocities_a`, `_b` of shape
/// `(n, 1)` in 2D, `(n, 3)` in 3D, `max_toi`, `linear_slop`: the fields of `TimeOfImpact`,
/// zeros where it gives `None`). Arrays must be C-contiguous, indices `int64`, poses and
/// velocities `float64`.
#[pyfunction]
#[pyo3(signature = (query, shapes, index_a, index_b, poses_a, poses_b, *, prediction = 0.0,
                    velocities_a = None, velocities_b = None, max_toi = 1.0,
                    target_distance = 0.0, angular_velocities_a = None,
                    angular_velocities_b = None, linear_slop = None))]
#[allow(clippy::too_many_arguments)] // mirrors the Python signature
fn _batch<'py>(
    py: Python<'py>,
    query: &str,
    shapes: Vec<PyRef<'py, Shape>>,
    index_a: PyReadonlyArray1<'py, i64>,
    index_b: PyReadonlyArray1<'py, i64>,
    poses_a: PyReadonlyArray2<'py, f64>,
    poses_b: PyReadonlyArray2<'py, f64>,
    prediction: f64,
    velocities_a: Option<PyReadonlyArray2<'py, f64>>,
    velocities_b: Option<PyReadonlyArray2<'py, f64>>,
    max_toi: f64,
    target_distance: f64,
    angular_velocities_a: Option<PyReadonlyArray2<'py, f64>>,
    angular_velocities_b: Option<PyReadonlyArray2<'py, f64>>,
    linear_slop: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let query = match query {
        "intersects" => Query::Intersects,
        "distance" => Query::Distance,
        "closest_points" => Query::ClosestPoints,
        "contact" => Query::Contact { prediction: prediction_of(prediction)? },
        "shape_cast" => Query::ShapeCast {
            max_toi: max_toi_of(max_toi)?,
            target_distance: target_distance_of(target_distance)?,
        },
        "manifold" => Query::Manifold { prediction: prediction_of(prediction)? },
        // `max_toi` is checked below, when it is known whether a shape turns.
        "time_of_impact" => {
            Query::TimeOfImpact { max_toi, linear_slop: linear_slop_of(linear_slop)? }
        }
        other => return Err(value_error(format!("unknown batch query {other:?}"))),
    };
    if shapes.is_empty() {
        return Err(value_error("a batch needs at least one shape"));
    }
    let dim = shapes[0].spec.dim;
    let width = if dim == 2 { 3 } else { 7 };
    let n = index_a.len();
    let moving = matches!(query, Query::ShapeCast { .. } | Query::TimeOfImpact { .. });
    let velocities = match (&velocities_a, &velocities_b) {
        (Some(va), Some(vb)) => Some((velocity_rows(va, "velocities_a", n, dim)?, {
            velocity_rows(vb, "velocities_b", n, dim)?
        })),
        (None, None) if !moving => None,
        _ => return Err(value_error("a cast batch needs velocities_a and velocities_b")),
    };
    let angular_width = if dim == 2 { 1 } else { 3 };
    let angular =
        match (&angular_velocities_a, &angular_velocities_b) {
            (Some(wa), Some(wb)) if matches!(query, Query::TimeOfImpact { .. }) => Some((
                velocity_rows(wa, "angular_velocities_a", n, angular_width)?,
                velocity_rows(wb, "angular_velocities_b", n, angular_width)?,
            )),
            (None, None) => None,
            _ => return Err(value_error(
                "angular_velocities_a and angular_velocities_b go together, with time_of_impact",
            )),
        };
    let query = match query {
        Query::TimeOfImpact { max_toi, linear_slop } => {
            let turning = angular.is_some_and(|(wa, wb)| wa.iter().chain(wb).any(|&w| w != 0.0));
            Query::TimeOfImpact { max_toi: turning_max_toi(max_toi, turning)?, linear_slop }
        }
        other => other,
    };
    let inputs = Inputs {
        query,
        dim,
        index_a: index_a.as_slice().map_err(|_| value_error("index_a must be C-contiguous"))?,
        index_b: index_b.as_slice().map_err(|_| value_error("index_b must be C-contiguous"))?,
        poses_a: poses_a.as_slice().map_err(|_| value_error("poses_a must be C-contiguous"))?,
        poses_b: poses_b.as_slice().map_err(|_| value_error("poses_b must be C-contiguous"))?,
        velocities,
        angular,
    };
    for (what, array) in [("poses_a", &poses_a), ("poses_b", &poses_b)] {
        // `as_slice` also accepts Fortran order, whose rows are not ours.
        if !array.is_c_contiguous() {
            return Err(value_error(format!("{what} must be C-contiguous")));
        }
        if array.shape() != [n, width] {
            return Err(value_error(format!(
                "{what} must have shape ({n}, {width}) for {n} {dim}D pairs, got {:?}",
                array.shape()
            )));
        }
    }
    if inputs.index_b.len() != n {
        return Err(value_error("index_a and index_b must have the same length"));
    }
    let count = shapes.len() as i64;
    for (what, index) in [("index_a", inputs.index_a), ("index_b", inputs.index_b)] {
        if let Some(i) = index.iter().position(|&k| k < 0 || k >= count) {
            return Err(value_error(format!(
                "{what}[{i}] = {} is not an index of the {count} shapes",
                index[i]
            )));
        }
    }
    let columns = dispatch(py, &shapes, &inputs)?;
    let out = PyDict::new(py);
    match columns {
        Columns::Bools(b) => out.set_item("intersects", PyArray1::from_vec(py, b))?,
        Columns::Floats(d) => out.set_item("distance", PyArray1::from_vec(py, d))?,
        Columns::Answers(answers) => write_answers(py, &out, &answers, dim)?,
        Columns::Contacts(contacts) => write_contacts(py, &out, &contacts, dim)?,
        Columns::Casts(casts) => write_casts(py, &out, &casts, dim)?,
        Columns::Manifolds(manifolds) => write_manifolds(py, &out, &manifolds, dim)?,
        Columns::Tois(tois) => write_tois(py, &out, &tois, dim)?,
    }
    Ok(out)
}

/// The `(n, dim)` velocity rows of `array`, checked finite.
fn velocity_rows<'a>(
    array: &'a PyReadonlyArray2<'_, f64>,
    what: &str,
    n: usize,
    dim: usize,
) -> PyResult<&'a [f64]> {
    if array.shape() != [n, dim] || !array.is_c_contiguous() {
        return Err(value_error(format!(
            "{what} must be a C-contiguous array of shape ({n}, {dim}), got {:?}",
            array.shape()
        )));
    }
    let rows = array.as_slice().map_err(|_| value_error(format!("{what} must be aligned")))?;
    if let Some(k) = rows.iter().position(|x| !x.is_finite()) {
        return Err(value_error(format!("{what}[{}] is not finite", k / dim)));
    }
    Ok(rows)
}

/// `(n, dim)` arrays of one 3-vector field of each row.
fn vector_column<'py, T>(
    py: Python<'py>,
    rows: &[T],
    dim: usize,
    field: impl Fn(&T) -> [f64; 3],
) -> PyResult<Bound<'py, PyAny>> {
    let flat: Vec<f64> = rows.iter().flat_map(|r| field(r).into_iter().take(dim)).collect();
    Ok(PyArray1::from_vec(py, flat).reshape([rows.len(), dim])?.into_any())
}

/// The columns of the contact batch; rows without a contact hold zeros.
fn write_contacts(
    py: Python<'_>,
    out: &Bound<'_, PyDict>,
    contacts: &[Result<ContactAnswer, (Status, u32)>],
    dim: usize,
) -> PyResult<()> {
    let found = |r: &Result<ContactAnswer, _>| r.as_ref().ok().copied();
    let number = |f: fn(&ContactAnswer) -> f64| {
        contacts.iter().map(move |r| found(r).map_or(0.0, |c| f(&c)))
    };
    let vector = |f: fn(&ContactAnswer) -> [f64; 3]| {
        vector_column(py, contacts, dim, move |r| found(r).map_or([0.0; 3], |c| f(&c)))
    };
    out.set_item("in_contact", PyArray1::from_iter(py, contacts.iter().map(|r| r.is_ok())))?;
    out.set_item("depth", PyArray1::from_iter(py, number(|c| c.depth)))?;
    out.set_item("normal", vector(|c| c.normal)?)?;
    out.set_item("point_a", vector(|c| c.point_a)?)?;
    out.set_item("point_b", vector(|c| c.point_b)?)?;
    let iterations = contacts.iter().map(|r| match r {
        Ok(c) => c.iterations,
        Err((_, n)) => *n,
    });
    out.set_item("iterations", PyArray1::from_iter(py, iterations))?;
    let status = contacts.iter().map(|r| match r {
        Ok(c) => c.status,
        Err((s, _)) => *s,
    });
    out.set_item("status", PyArray1::from_iter(py, status))?;
    Ok(())
}

/// The columns of the shape cast batch.
fn write_casts(
    py: Python<'_>,
    out: &Bound<'_, PyDict>,
    casts: &[CastAnswer],
    dim: usize,
) -> PyResult<()> {
    // As `ShapeCast.hit`: a hit or an initial overlap (statuses 0 and 1).
    let hit = casts.iter().map(|c| c.status <= 1);
    out.set_item("hit", PyArray1::from_iter(py, hit))?;
    out.set_item("toi", PyArray1::from_iter(py, casts.iter().map(|c| c.toi)))?;
    out.set_item("point_a", vector_column(py, casts, dim, |c| c.point_a)?)?;
    out.set_item("point_b", vector_column(py, casts, dim, |c| c.point_b)?)?;
    out.set_item("normal", vector_column(py, casts, dim, |c| c.normal)?)?;
    out.set_item("iterations", PyArray1::from_iter(py, casts.iter().map(|c| c.iterations)))?;
    out.set_item("status", PyArray1::from_iter(py, casts.iter().map(|c| c.status)))?;
    Ok(())
}

/// The columns of the manifold batch: `count` points per row, the rest of each row's `k`
/// slots (2 in 2D, 4 in 3D) zero.
fn write_manifolds(
    py: Python<'_>,
    out: &Bound<'_, PyDict>,
    manifolds: &[ManifoldAnswer],
    dim: usize,
) -> PyResult<()> {
    let n = manifolds.len();
    let k = engine::max_points(dim);
    let slots = || manifolds.iter().flat_map(move |m| m.points[..k].iter());
    let points = |f: fn(&engine::PointAnswer) -> &[f64; 3]| -> PyResult<_> {
        let flat: Vec<f64> = slots().flat_map(|p| f(p)[..dim].iter().copied()).collect();
        PyArray1::from_vec(py, flat).reshape([n, k, dim])
    };
    out.set_item("count", PyArray1::from_iter(py, manifolds.iter().map(|m| m.len)))?;
    out.set_item("normal", vector_column(py, manifolds, dim, |m| m.normal)?)?;
    out.set_item("point_a", points(|p| &p.point_a)?)?;
    out.set_item("point_b", points(|p| &p.point_b)?)?;
    let depth: Vec<f64> = slots().map(|p| p.depth).collect();
    out.set_item("depth", PyArray1::from_vec(py, depth).reshape([n, k])?)?;
    let ids: Vec<u32> = slots().flat_map(|p| p.id).collect();
    out.set_item("id", PyArray1::from_vec(py, ids).reshape([n, k, 2])?)?;
    out.set_item("status", PyArray1::from_iter(py, manifolds.iter().map(|m| m.status)))?;
    let contact = manifolds.iter().map(|m| m.contact_status);
    out.set_item("contact_status", PyArray1::from_iter(py, contact))?;
    Ok(())
}

/// The columns of the time-of-impact batch; where `TimeOfImpact` gives `None` (points and
/// normal without a contact, distance without a hit) the rows hold zeros.
fn write_tois(
    py: Python<'_>,
    out: &Bound<'_, PyDict>,
    tois: &[ToiAnswer],
    dim: usize,
) -> PyResult<()> {
    // As `TimeOfImpact`: points only with a contact direction, distance only with a hit.
    let found = |t: &ToiAnswer| t.status != engine::NO_HIT;
    let contact = move |t: &ToiAnswer| found(t) && t.normal != [0.0; 3];
    let vector = |f: fn(&ToiAnswer) -> [f64; 3]| {
        vector_column(py, tois, dim, move |t| if contact(t) { f(t) } else { [0.0; 3] })
    };
    out.set_item("hit", PyArray1::from_iter(py, tois.iter().map(|t| t.status <= 1)))?;
    out.set_item("toi", PyArray1::from_iter(py, tois.iter().map(|t| t.toi)))?;
    out.set_item("point_a", vector(|t| t.point_a)?)?;
    out.set_item("point_b", vector(|t| t.point_b)?)?;
    out.set_item("normal", vector(|t| t.normal)?)?;
    let distance = tois.iter().map(|t| if found(t) { t.distance } else { 0.0 });
    out.set_item("distance", PyArray1::from_iter(py, distance))?;
    out.set_item("slop", PyArray1::from_iter(py, tois.iter().map(|t| t.slop)))?;
    out.set_item("iterations", PyArray1::from_iter(py, tois.iter().map(|t| t.iterations)))?;
    out.set_item("status", PyArray1::from_iter(py, tois.iter().map(|t| t.status)))?;
    Ok(())
}

/// The columns of `gjk query`'s answers: vectors as `(n, dim)` arrays.
fn write_answers(
    py: Python<'_>,
    out: &Bound<'_, PyDict>,
    answers: &[Answer],
    dim: usize,
) -> PyResult<()> {
    let vectors = |f: fn(&Answer) -> &[f64; 3]| -> PyResult<_> {
        let flat: Vec<f64> = answers.iter().flat_map(|a| f(a)[..dim].iter().copied()).collect();
        PyArray1::from_vec(py, flat).reshape([answers.len(), dim])
    };
    out.set_item("intersects", PyArray1::from_iter(py, answers.iter().map(|a| a.intersects)))?;
    out.set_item("distance", PyArray1::from_iter(py, answers.iter().map(|a| a.distance)))?;
    out.set_item("point_a", vectors(|a| &a.point_a)?)?;
    out.set_item("point_b", vectors(|a| &a.point_b)?)?;
    out.set_item("normal", vectors(|a| &a.normal)?)?;
    let depth = PyArray1::from_iter(py, answers.iter().map(|a| a.penetration_depth));
    out.set_item("penetration_depth", depth)?;
    out.set_item("iterations", PyArray1::from_iter(py, answers.iter().map(|a| a.iterations)))?;
    out.set_item("status", PyArray1::from_iter(py, answers.iter().map(|a| a.status)))?;
    Ok(())
}

/// `_matrices_to_poses(matrices)`: `(n, 4, 4)` rigid transforms → `(n, 7)` pose rows, or
/// `(n, 3, 3)` → `(n, 3)`; `ValueError` naming the first matrix that is not rigid.
#[pyfunction]
fn _matrices_to_poses<'py>(
    py: Python<'py>,
    matrices: numpy::PyReadonlyArray3<'py, f64>,
) -> PyResult<Bound<'py, numpy::PyArray2<f64>>> {
    let shape = matrices.shape().to_vec();
    let k = shape[1];
    if !(k == 3 || k == 4) || shape[2] != k {
        return Err(value_error(format!(
            "pose matrices must have shape (n, 4, 4) or (n, 3, 3), got {shape:?}"
        )));
    }
    let flat = match matrices.is_c_contiguous() {
        true => matrices.as_slice().map_err(|_| value_error("matrices must be aligned"))?,
        false => return Err(value_error("matrices must be C-contiguous")),
    };
    let width = if k == 4 { 7 } else { 3 };
    let mut rows = Vec::with_capacity(shape[0] * width);
    for (i, m) in flat.chunks_exact(k * k).enumerate() {
        let spec = if k == 4 { engine::pose_from_matrix3(m) } else { engine::pose_from_matrix2(m) };
        rows.extend(spec.map_err(|e| value_error(format!("matrices[{i}]: {e}")))?.row());
    }
    PyArray1::from_vec(py, rows).reshape([shape[0], width])
}

/// Registers the batch functions.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_batch, m)?)?;
    m.add_function(wrap_pyfunction!(_matrices_to_poses, m)?)?;
    Ok(())
}
