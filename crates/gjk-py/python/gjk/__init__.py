"""Convex collision detection (GJK, EPA, ray and shape casts) from the ``gjk`` Rust library.

Shapes are built by name (the names and fields of ``gjk query``'s JSON), placed by poses, and
queried one pair at a time or in numpy batches that run on all cores without the GIL::

    import numpy as np, gjk
    box = gjk.cuboid([0.5, 0.5, 0.5])
    ball = gjk.sphere(0.5)
    r = gjk.closest_points(box, ball, None, gjk.Pose([2.0, 0.0, 0.0]))
    r.distance, r.normal, r.status          # 1.0, [1, 0, 0], 'converged'
    poses_b = np.zeros((1000, 7)); poses_b[:, 0] = np.linspace(0, 3, 1000); poses_b[:, 6] = 1
    d = gjk.batch_distance(box, ball, None, poses_b)  # (1000,) float64

Contact manifolds (``manifold``: up to 2 points in 2D, 4 in 3D, with feature ids) and time of
impact under rotation (``time_of_impact``) have batch forms too (``batch_manifold``,
``batch_time_of_impact``).

Conventions (those of ``gjk query``): normals are unit and point from A toward B; points are in
world coordinates; touching counts as intersecting; ``status`` says how the loops ended (a word
of ``STATUSES``). Shapes default to float64; pass ``dtype="float32"`` (or ``np.float32``) for
single precision. Bad input raises ``ValueError`` (wrong sizes, NaN, negative radii), wrong
types raise ``TypeError``.
"""

from __future__ import annotations

import numbers
from typing import Any, Dict, Iterable, Optional, Sequence, Union

import numpy as np

from . import _gjk
from ._gjk import (
    CAST_STATUSES,
    CONTACT_STATUSES,
    MANIFOLD_STATUSES,
    STATUSES,
    Contact,
    Manifold,
    ManifoldPoint,
    Pose,
    Proximity,
    RayCast,
    Shape,
    ShapeCast,
    TimeOfImpact,
    closest_points,
    contact,
    distance,
    intersects,
    manifold,
    ray_cast,
    shape_cast,
    time_of_impact,
)

__all__ = [
    "CAST_STATUSES", "CONTACT_STATUSES", "MANIFOLD_STATUSES", "STATUSES", "BatchCast",
    "BatchContact", "BatchManifold", "BatchResult", "BatchTimeOfImpact", "Contact", "Manifold",
    "ManifoldPoint", "Pose", "Proximity", "RayCast", "Shape", "ShapeCast", "TimeOfImpact",
    "batch_closest_points", "batch_contact", "batch_distance", "batch_intersects",
    "batch_manifold", "batch_shape_cast", "batch_time_of_impact", "box", "capsule", "circle",
    "closest_points", "cone", "contact", "cuboid", "cylinder", "distance", "ellipse",
    "ellipsoid", "intersects", "manifold", "points", "polygon", "polytope", "pose_rows",
    "ray_cast", "rectangle", "segment", "shape_cast", "shape_from_dict", "sphere",
    "time_of_impact", "triangle",
]

_DTypes = Union[str, type, np.dtype]


def _dtype(dtype: Any) -> str:
    """``"float64"`` or ``"float32"`` from a name, a numpy dtype or a numpy scalar type."""
    try:
        name = np.dtype(dtype).name
    except TypeError as e:
        raise TypeError(f"dtype must be float64 or float32, got {dtype!r}") from e
    if name not in ("float64", "float32"):
        raise ValueError(f"dtype must be float64 or float32, got {name}")
    return name


def _numbers(values: Any, what: str, ndim: int) -> np.ndarray:
    """``values`` as a C-contiguous float64 array of ``ndim`` dimensions (TypeError if they
    are not numbers, ValueError if the dimensions are wrong)."""
    if isinstance(values, (str, bytes)) or values is None:
        raise TypeError(f"{what} must be numbers, got {type(values).__name__}")
    array = np.asarray(values)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{what} must be numbers, got an array of {array.dtype}")
    if array.ndim != ndim:
        raise ValueError(f"{what} must have {ndim} dimension(s), got shape {array.shape}")
    return np.ascontiguousarray(array, dtype=np.float64)


def _point(values: Any, what: str) -> list:
    p = _numbers(values, what, 1)
    if p.shape[0] not in (2, 3):
        raise ValueError(f"{what} must have 2 or 3 coordinates, got {p.shape[0]}")
    return p.tolist()


def _scalar(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.floating, np.integer)):
        raise TypeError(f"{what} must be a number, got {type(value).__name__}")
    return float(value)


def _make(kind: str, dim: Optional[int], params: list, center: Any, margin: Any,
          dtype: _DTypes, evidence: Sequence[int] = ()) -> Shape:
    """A shape; the dimension comes from the coordinates given (all must agree), else ``dim``."""
    c = None if center is None else _point(center, "center")
    dims = set(evidence) | ({len(c)} if c is not None else set())
    if dim is not None:
        dims.add(int(dim))
    if len(dims) > 1:
        raise ValueError(f"{kind}: 2D and 3D cannot be mixed (coordinates of sizes {sorted(dims)})")
    d = dims.pop() if dims else 3
    return Shape(kind, d, params, center=c, margin=_scalar(margin, "margin"),
                 dtype=_dtype(dtype))


def points(points: Any, *, center: Any = None, margin: float = 0.0,
           dtype: _DTypes = "float64") -> Shape:
    """The convex hull of an ``(n, 2)`` or ``(n, 3)`` array of points (n >= 1)."""
    p = _numbers(points, "points", 2)
    if p.shape[1] not in (2, 3) or p.shape[0] == 0:
        raise ValueError(f"points must be an (n, 2) or (n, 3) array with n >= 1, got {p.shape}")
    return _make("points", None, p.ravel(), center, margin, dtype, [p.shape[1]])


polygon = points
polytope = points


def sphere(radius: float, *, dim: Optional[int] = None, center: Any = None,
           margin: float = 0.0, dtype: _DTypes = "float64") -> Shape:
    """A ball of ``radius`` > 0 (3D unless ``dim=2`` or a 2D ``center``)."""
    return _make("sphere", dim, [_scalar(radius, "radius")], center, margin, dtype)


def circle(radius: float, *, center: Any = None, margin: float = 0.0,
           dtype: _DTypes = "float64") -> Shape:
    """A disc of ``radius`` > 0 (2D)."""
    return sphere(radius, dim=2, center=center, margin=margin, dtype=dtype)


def ellipsoid(radii: Any, *, center: Any = None, margin: float = 0.0,
              dtype: _DTypes = "float64") -> Shape:
    """Semi-axes ``radii`` (each > 0) along the local axes; 2 radii make an ellipse."""
    r = _point(radii, "radii")
    return _make("ellipsoid", None, r, center, margin, dtype, [len(r)])


ellipse = ellipsoid


def cuboid(half_extents: Any, *, center: Any = None, margin: float = 0.0,
           dtype: _DTypes = "float64") -> Shape:
    """A box with ``half_extents`` (each >= 0) along the local axes; 2 make a rectangle."""
    h = _point(half_extents, "half_extents")
    return _make("cuboid", None, h, center, margin, dtype, [len(h)])


box = cuboid
rectangle = cuboid


def segment(a: Any, b: Any, *, center: Any = None, margin: float = 0.0,
            dtype: _DTypes = "float64") -> Shape:
    """The segment from ``a`` to ``b``."""
    pa, pb = _point(a, "a"), _point(b, "b")
    return _make("segment", None, pa + pb, center, margin, dtype, [len(pa), len(pb)])


def triangle(a: Any, b: Any, c: Any, *, center: Any = None, margin: float = 0.0,
             dtype: _DTypes = "float64") -> Shape:
    """The triangle ``a b c``."""
    ps = [_point(p, n) for p, n in ((a, "a"), (b, "b"), (c, "c"))]
    return _make("triangle", None, sum(ps, []), center, margin, dtype, [len(p) for p in ps])


def capsule(a: Any, b: Any, radius: float, *, center: Any = None, margin: float = 0.0,
            dtype: _DTypes = "float64") -> Shape:
    """The segment ``a b`` swept by a ball of ``radius`` >= 0."""
    pa, pb = _point(a, "a"), _point(b, "b")
    params = pa + pb + [_scalar(radius, "radius")]
    return _make("capsule", None, params, center, margin, dtype, [len(pa), len(pb)])


def cylinder(half_height: float, radius: float, *, center: Any = None, margin: float = 0.0,
             dtype: _DTypes = "float64") -> Shape:
    """A 3D cylinder along local y, centred at the origin."""
    params = [_scalar(half_height, "half_height"), _scalar(radius, "radius")]
    return _make("cylinder", 3, params, center, margin, dtype)


def cone(half_height: float, radius: float, *, center: Any = None, margin: float = 0.0,
         dtype: _DTypes = "float64") -> Shape:
    """A 3D cone along local y: apex at ``y = +half_height``, base disc at ``y = -half_height``."""
    params = [_scalar(half_height, "half_height"), _scalar(radius, "radius")]
    return _make("cone", 3, params, center, margin, dtype)


_BY_NAME = {
    "points": "points", "polygon": "points", "polytope": "points",
    "sphere": "sphere", "circle": "sphere", "ellipsoid": "ellipsoid", "ellipse": "ellipsoid",
    "cuboid": "cuboid", "box": "cuboid", "rectangle": "cuboid", "segment": "segment",
    "triangle": "triangle", "capsule": "capsule", "cylinder": "cylinder", "cone": "cone",
}


def shape_from_dict(d: Dict[str, Any], *, dtype: _DTypes = "float64") -> Shape:
    """A shape from a ``gjk query`` JSON object, e.g. ``{"type": "box", "half_extents": [1, 2]}``
    (every type name and alias of the CLI; ``center`` and ``margin`` optional)."""
    if not isinstance(d, dict):
        raise TypeError(f"a shape dict is expected, got {type(d).__name__}")
    name = d.get("type")
    if name not in _BY_NAME:
        raise ValueError(f"unknown shape type {name!r} (expected one of {', '.join(_BY_NAME)})")
    kind = _BY_NAME[name]
    common = {"center": d.get("center"), "margin": d.get("margin", 0.0), "dtype": dtype}
    try:
        if kind == "points":
            return points(d["points"], **common)
        if kind == "sphere":
            dim = 2 if name == "circle" else None
            return sphere(d["radius"], dim=dim, **common)
        if kind == "ellipsoid":
            return ellipsoid(d["radii"], **common)
        if kind == "cuboid":
            return cuboid(d["half_extents"], **common)
        if kind == "segment":
            return segment(d["a"], d["b"], **common)
        if kind == "triangle":
            return triangle(d["a"], d["b"], d["c"], **common)
        if kind == "capsule":
            return capsule(d["a"], d["b"], d["radius"], **common)
        if kind == "cylinder":
            return cylinder(d["half_height"], d["radius"], **common)
        return cone(d["half_height"], d["radius"], **common)
    except KeyError as e:
        raise ValueError(f"{name}: missing field {e.args[0]!r}") from None


def pose_rows(poses: Any, dim: int, n: Optional[int] = None) -> np.ndarray:
    """Poses of dimension ``dim`` as a C-contiguous ``(n, 7)`` (3D: x, y, z, qx, qy, qz, qw) or
    ``(n, 3)`` (2D: x, y, angle) float64 array.

    Accepted: ``None`` (identity, needs ``n``), a ``Pose`` (repeated ``n`` times), rows of that
    width, translations only (``(n, 3)`` in 3D, ``(n, 2)`` in 2D), or rigid transforms
    (``(n, 4, 4)`` in 3D, ``(n, 3, 3)`` in 2D)."""
    width = 7 if dim == 3 else 3
    if poses is None or isinstance(poses, Pose):
        if n is None:
            raise ValueError("the number of pairs is unknown: give at least one pose array")
        row = Pose.identity(dim).to_row() if poses is None else poses.to_row()
        if poses is not None and poses.dim != dim:
            raise ValueError(f"the pose is {poses.dim}D but the shapes are {dim}D")
        return np.ascontiguousarray(np.tile(np.asarray(row, dtype=np.float64), (n, 1)))
    if isinstance(poses, (str, bytes)):
        raise TypeError("poses must be a numeric array")
    array = np.asarray(poses)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"poses must be numbers, got an array of {array.dtype}")
    # Aligned too: arrays unpickled from a buffer (Dask, multiprocessing) may not be.
    array = np.require(array, dtype=np.float64, requirements=["C", "A"])
    if array.ndim == 3 and array.shape[1:] == (dim + 1, dim + 1):
        return _gjk._matrices_to_poses(array)
    if array.ndim == 2 and array.shape[1] == width:
        return array
    if array.ndim == 2 and array.shape[1] == dim:
        rows = np.zeros((array.shape[0], width))
        rows[:, :dim] = array
        if dim == 3:
            rows[:, 6] = 1.0
        return rows
    raise ValueError(
        f"{dim}D poses must have shape (n, {width}), (n, {dim}) or (n, {dim + 1}, {dim + 1}), "
        f"got {array.shape}")


class _Columns:
    """Numpy columns, one row per pair; picklable."""

    __slots__: tuple = ()

    def __init__(self, columns: Dict[str, np.ndarray]):
        for name in self.__slots__:
            setattr(self, name, columns[name])

    def __len__(self) -> int:
        return len(self.status)

    def __getstate__(self):
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state):
        for name in self.__slots__:
            setattr(self, name, state[name])

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self)} pairs)"


class BatchResult(_Columns):
    """The answers of ``batch_closest_points``: numpy arrays, one row per pair, with the fields
    of ``gjk query``'s answer (``intersects``, ``distance``, ``point_a``, ``point_b``,
    ``normal``, ``penetration_depth``, ``iterations``) and ``status``: ``uint8`` indices into
    ``STATUSES`` (``status_names()`` decodes them)."""

    __slots__ = ("intersects", "distance", "point_a", "point_b", "normal",
                 "penetration_depth", "iterations", "status")

    def status_names(self) -> np.ndarray:
        """The status words, as an array of strings."""
        return np.asarray(STATUSES)[self.status]


class BatchContact(_Columns):
    """The answers of ``batch_contact``: ``in_contact`` (``bool``: a contact exists, the shapes
    overlapping or within ``prediction``), ``depth`` (> 0 penetrating, <= 0 minus the gap),
    ``normal`` (unit, A toward B), ``point_a``, ``point_b`` (world), ``iterations`` and
    ``status`` (``uint8`` indices into ``STATUSES``). Rows without a contact hold zeros in
    ``depth``, ``normal`` and the points, and the status of the query that found none (as
    ``contact`` returning ``None``); mask them with ``in_contact``."""

    __slots__ = ("in_contact", "depth", "normal", "point_a", "point_b", "iterations", "status")

    def status_names(self) -> np.ndarray:
        """The status words, as an array of strings."""
        return np.asarray(STATUSES)[self.status]


class BatchCast(_Columns):
    """The answers of ``batch_shape_cast``: the fields of ``ShapeCast`` as arrays (``hit``,
    ``toi``, ``point_a``, ``point_b``, ``normal``, ``iterations``, ``status``: ``uint8`` indices
    into ``CAST_STATUSES``). Rows where ``ShapeCast`` gives ``None`` points or normal hold
    zeros there."""

    __slots__ = ("hit", "toi", "point_a", "point_b", "normal", "iterations", "status")

    def status_names(self) -> np.ndarray:
        """The status words, as an array of strings."""
        return np.asarray(CAST_STATUSES)[self.status]


class BatchManifold(_Columns):
    """The answers of ``batch_manifold``: ``count`` (``uint8``, points per row), ``normal``
    (``(n, dim)``, unit, A toward B; zeros when apart), ``point_a``, ``point_b`` (``(n, k,
    dim)``, world), ``depth`` (``(n, k)``: > 0 overlap, < 0 a gap within the prediction),
    ``id`` (``(n, k, 2)`` ``uint32``: A's and B's feature), with ``k`` = 2 in 2D and 4 in 3D
    and the slots past ``count`` zero; ``status`` (``uint8`` indices into
    ``MANIFOLD_STATUSES``) and ``contact_status`` (indices into ``CONTACT_STATUSES``; ``none``
    where apart, where ``Manifold.contact_status`` is ``None``)."""

    __slots__ = ("count", "normal", "point_a", "point_b", "depth", "id", "status",
                 "contact_status")

    def status_names(self) -> np.ndarray:
        """The status words, as an array of strings."""
        return np.asarray(MANIFOLD_STATUSES)[self.status]

    def contact_status_names(self) -> np.ndarray:
        """The contact query's status words, as an array of strings."""
        return np.asarray(CONTACT_STATUSES)[self.contact_status]


class BatchTimeOfImpact(_Columns):
    """The answers of ``batch_time_of_impact``: the fields of ``TimeOfImpact`` as arrays
    (``hit``, ``toi``, ``point_a``, ``point_b``, ``normal``, ``distance``, ``slop``,
    ``iterations``, ``status``: ``uint8`` indices into ``CAST_STATUSES``). Rows where
    ``TimeOfImpact`` gives ``None`` points, normal or distance hold zeros there."""

    __slots__ = ("hit", "toi", "point_a", "point_b", "normal", "distance", "slop",
                 "iterations", "status")

    def status_names(self) -> np.ndarray:
        """The status words, as an array of strings."""
        return np.asarray(CAST_STATUSES)[self.status]


def _angular_rows(values: Any, what: str, dim: int, n: int) -> np.ndarray:
    """``(n, 1)`` (2D) or ``(n, 3)`` (3D) float64 rows of angular velocities from ``None`` (not
    turning), one rate (2D) or vector (3D), repeated, or one per row."""
    width = 1 if dim == 2 else 3
    if values is None:
        return np.zeros((n, width))
    # `_numbers` returns at least one dimension; a single rate keeps its shape ().
    w = _numbers(values, what, np.ndim(values)).reshape(np.shape(values))
    if dim == 2 and w.ndim == 0:
        w = np.broadcast_to(w, (n, 1))
    elif dim == 2 and w.ndim == 1 and w.shape == (n,):
        w = w.reshape(n, 1)
    elif dim == 3 and w.shape == (3,):
        w = np.broadcast_to(w, (n, 3))
    if w.shape != (n, width):
        expected = f"a number or shape ({n},)" if dim == 2 else f"a 3-vector or shape ({n}, 3)"
        raise ValueError(f"{what} must be {expected} in {dim}D, got {w.shape}")
    return np.ascontiguousarray(w, dtype=np.float64)


def _velocity_rows(values: Any, what: str, dim: int, n: int) -> np.ndarray:
    """``(n, dim)`` float64 rows from one vector (repeated) or an ``(n, dim)`` array."""
    v = _numbers(values, what, np.ndim(values))
    if v.ndim == 1 and v.shape == (dim,):
        v = np.broadcast_to(v, (n, dim))
    if v.shape != (n, dim):
        raise ValueError(f"{what} must be a {dim}-vector or have shape ({n}, {dim}), got {v.shape}")
    return np.ascontiguousarray(v, dtype=np.float64)


def _batch(query: str, a: Any, b: Any, poses_a: Any, poses_b: Any, pairs: Any,
           poses: Any, **options: Any) -> Dict[str, np.ndarray]:
    if pairs is not None:
        if b is not None or poses_a is not None or poses_b is not None:
            raise TypeError("with pairs=, give the shape list and poses= only")
        shapes = list(a) if isinstance(a, (list, tuple)) else None
        if not shapes or not all(isinstance(s, Shape) for s in shapes):
            raise TypeError("with pairs=, the first argument is a non-empty list of Shapes")
        idx = np.asarray(pairs)
        if idx.dtype.kind not in "iu":
            raise TypeError(f"pairs must be integers, got {idx.dtype}")
        if idx.ndim != 2 or idx.shape[1] != 2:
            raise ValueError(f"pairs must have shape (m, 2), got {idx.shape}")
        idx = idx.astype(np.int64)
        if idx.size and (idx.min() < 0 or idx.max() >= len(shapes)):
            raise ValueError(f"pairs holds indices out of range for {len(shapes)} shapes")
        rows = pose_rows(poses, shapes[0].dim, len(shapes))
        if rows.shape[0] != len(shapes):
            raise ValueError(f"poses must have one row per shape ({len(shapes)}), got {rows.shape[0]}")
        ia, ib = np.ascontiguousarray(idx[:, 0]), np.ascontiguousarray(idx[:, 1])
        if "velocities" in options:
            v = _velocity_rows(options.pop("velocities"), "velocities", shapes[0].dim, len(shapes))
            options["velocities_a"] = np.ascontiguousarray(v[ia])
            options["velocities_b"] = np.ascontiguousarray(v[ib])
        if "angular_velocities" in options:
            w = _angular_rows(options.pop("angular_velocities"), "angular_velocities",
                              shapes[0].dim, len(shapes))
            options["angular_velocities_a"] = np.ascontiguousarray(w[ia])
            options["angular_velocities_b"] = np.ascontiguousarray(w[ib])
        return _gjk._batch(query, shapes, ia, ib, rows[ia], rows[ib], **options)
    if not isinstance(a, Shape) or not isinstance(b, Shape):
        raise TypeError("a and b must be Shapes (or give a shape list with pairs= and poses=)")
    n = None
    for p in (poses_a, poses_b):
        if p is not None and not isinstance(p, Pose):
            n = len(p) if hasattr(p, "__len__") else n
    rows_a = pose_rows(poses_a, a.dim, n)
    rows_b = pose_rows(poses_b, a.dim, n)
    if rows_a.shape[0] != rows_b.shape[0]:
        raise ValueError(f"poses_a has {rows_a.shape[0]} rows, poses_b {rows_b.shape[0]}")
    m = rows_a.shape[0]
    zeros, ones = np.zeros(m, dtype=np.int64), np.ones(m, dtype=np.int64)
    if "velocities" in options:
        if options.pop("velocities") is not None:
            raise TypeError("velocities= goes with pairs=; give velocity_a and velocity_b")
        for side in ("a", "b"):
            v = options.pop(f"velocity_{side}")
            options[f"velocities_{side}"] = _velocity_rows(v, f"velocity_{side}", a.dim, m)
    if "angular_velocities" in options:
        if options.pop("angular_velocities") is not None:
            raise TypeError("angular_velocities= goes with pairs=; give angular_velocity_a and "
                            "angular_velocity_b")
        for side in ("a", "b"):
            w = options.pop(f"angular_velocity_{side}")
            options[f"angular_velocities_{side}"] = _angular_rows(
                w, f"angular_velocity_{side}", a.dim, m)
    return _gjk._batch(query, [a, b], zeros, ones, rows_a, rows_b, **options)


def batch_intersects(a: Any, b: Optional[Shape] = None, poses_a: Any = None,
                     poses_b: Any = None, *, pairs: Any = None, poses: Any = None) -> np.ndarray:
    """Whether each pair touches or overlaps, as a ``bool`` array.

    Two forms: ``batch_intersects(a, b, poses_a, poses_b)`` queries shape ``a`` at each row of
    ``poses_a`` against ``b`` at the same row of ``poses_b`` (``None`` or one ``Pose`` is
    repeated); ``batch_intersects(shapes, pairs=ij, poses=p)`` queries ``shapes[i]`` at
    ``p[i]`` against ``shapes[j]`` at ``p[j]`` for each row ``(i, j)`` of ``ij``. See
    ``pose_rows`` for the pose array forms. Runs on all cores with the GIL released."""
    return _batch("intersects", a, b, poses_a, poses_b, pairs, poses)["intersects"]


def batch_distance(a: Any, b: Optional[Shape] = None, poses_a: Any = None,
                   poses_b: Any = None, *, pairs: Any = None, poses: Any = None) -> np.ndarray:
    """The distance of each pair (0 when touching or overlapping), as a ``float64`` array;
    the forms of ``batch_intersects``."""
    return _batch("distance", a, b, poses_a, poses_b, pairs, poses)["distance"]


def batch_closest_points(a: Any, b: Optional[Shape] = None, poses_a: Any = None,
                         poses_b: Any = None, *, pairs: Any = None,
                         poses: Any = None) -> BatchResult:
    """``closest_points`` for each pair (``gjk query``'s answer), as a ``BatchResult`` of
    arrays; the forms of ``batch_intersects``."""
    return BatchResult(_batch("closest_points", a, b, poses_a, poses_b, pairs, poses))


def batch_contact(a: Any, b: Optional[Shape] = None, poses_a: Any = None,
                  poses_b: Any = None, *, pairs: Any = None, poses: Any = None,
                  prediction: float = 0.0) -> BatchContact:
    """``contact`` for each pair (penetration depth, normal and deepest points, or a gap up to
    ``prediction``), as a ``BatchContact`` of arrays; the forms of ``batch_intersects``."""
    return BatchContact(_batch("contact", a, b, poses_a, poses_b, pairs, poses,
                               prediction=_scalar(prediction, "prediction")))


def batch_shape_cast(a: Any, b: Optional[Shape] = None, poses_a: Any = None,
                     poses_b: Any = None, velocity_a: Any = None, velocity_b: Any = None, *,
                     pairs: Any = None, poses: Any = None, velocities: Any = None,
                     max_toi: float = 1.0, target_distance: float = 0.0) -> BatchCast:
    """``shape_cast`` for each pair (linear motion over ``[0, max_toi]``), as a ``BatchCast``.

    Two forms, as ``batch_intersects``: ``batch_shape_cast(a, b, poses_a, poses_b, velocity_a,
    velocity_b)`` with velocities given as one vector or one row per pair; or
    ``batch_shape_cast(shapes, pairs=ij, poses=p, velocities=v)`` with one velocity row per
    shape."""
    if pairs is None:
        if velocity_a is None or velocity_b is None:
            raise TypeError("batch_shape_cast(a, b, ...) needs velocity_a and velocity_b")
        return BatchCast(_batch("shape_cast", a, b, poses_a, poses_b, None, poses,
                                velocities=velocities, velocity_a=velocity_a,
                                velocity_b=velocity_b, max_toi=_scalar(max_toi, "max_toi"),
                                target_distance=_scalar(target_distance, "target_distance")))
    if velocities is None or velocity_a is not None or velocity_b is not None:
        raise TypeError("with pairs=, give velocities= (one row per shape)")
    return BatchCast(_batch("shape_cast", a, b, poses_a, poses_b, pairs, poses,
                            velocities=velocities, max_toi=_scalar(max_toi, "max_toi"),
                            target_distance=_scalar(target_distance, "target_distance")))


def batch_manifold(a: Any, b: Optional[Shape] = None, poses_a: Any = None,
                   poses_b: Any = None, *, pairs: Any = None, poses: Any = None,
                   prediction: float = 0.0) -> BatchManifold:
    """``manifold`` for each pair (up to 2 points in 2D, 4 in 3D, where the shapes overlap or
    are at most ``prediction`` apart), as a ``BatchManifold`` of fixed-size arrays with a point
    count per row; the forms of ``batch_intersects``."""
    return BatchManifold(_batch("manifold", a, b, poses_a, poses_b, pairs, poses,
                                prediction=_scalar(prediction, "prediction")))


def _optional_scalar(value: Any, what: str) -> Optional[float]:
    return None if value is None else _scalar(value, what)


def batch_time_of_impact(a: Any, b: Optional[Shape] = None, poses_a: Any = None,
                         poses_b: Any = None, velocity_a: Any = None, velocity_b: Any = None,
                         angular_velocity_a: Any = None, angular_velocity_b: Any = None, *,
                         pairs: Any = None, poses: Any = None, velocities: Any = None,
                         angular_velocities: Any = None, max_toi: float = 1.0,
                         linear_slop: Optional[float] = None) -> BatchTimeOfImpact:
    """``time_of_impact`` for each pair (translation and rotation over ``[0, max_toi]``), as a
    ``BatchTimeOfImpact``.

    Two forms, as ``batch_shape_cast``: ``batch_time_of_impact(a, b, poses_a, poses_b,
    velocity_a, velocity_b, angular_velocity_a, angular_velocity_b)`` with each velocity given
    once or one row per pair (angular: a number or ``(n,)`` in 2D, a 3-vector or ``(n, 3)`` in
    3D; ``None``: not turning); or ``batch_time_of_impact(shapes, pairs=ij, poses=p,
    velocities=v, angular_velocities=w)`` with one row per shape."""
    options = dict(max_toi=_scalar(max_toi, "max_toi"),
                   linear_slop=_optional_scalar(linear_slop, "linear_slop"))
    if pairs is None:
        if velocity_a is None or velocity_b is None:
            raise TypeError("batch_time_of_impact(a, b, ...) needs velocity_a and velocity_b")
        return BatchTimeOfImpact(_batch(
            "time_of_impact", a, b, poses_a, poses_b, None, poses, velocities=velocities,
            velocity_a=velocity_a, velocity_b=velocity_b,
            angular_velocities=angular_velocities, angular_velocity_a=angular_velocity_a,
            angular_velocity_b=angular_velocity_b, **options))
    if (velocities is None or velocity_a is not None or velocity_b is not None
            or angular_velocity_a is not None or angular_velocity_b is not None):
        raise TypeError("with pairs=, give velocities= and optionally angular_velocities= "
                        "(one row per shape)")
    return BatchTimeOfImpact(_batch(
        "time_of_impact", a, b, poses_a, poses_b, pairs, poses, velocities=velocities,
        angular_velocities=angular_velocities, **options))
