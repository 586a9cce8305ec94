"""Batch queries equal the loop of single queries, in both batch forms, 2D and 3D, f64 and
f32, with every pose form (rows, translations, matrices).

Oracle: the single-pair functions (`gjk.distance`, `gjk.intersects`, `gjk.closest_points`),
which `test_cli.py` ties to the CLI; exact equality (the same code runs per pair)."""

import numpy as np
import pytest

import gjk
from conftest import random_shape


def random_rows(rng, n, dim, reach=2.0):
    if dim == 2:
        return np.column_stack([rng.uniform(-reach, reach, (n, 2)), rng.uniform(-4, 4, n)])
    return np.column_stack([rng.uniform(-reach, reach, (n, 3)), rng.normal(size=(n, 4))])


def pose(row):
    row = list(row)
    return gjk.Pose(row[:2], row[2]) if len(row) == 3 else gjk.Pose(row[:3], row[3:])


@pytest.mark.parametrize("dim", [2, 3])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_batch_equals_the_loop(rng, dim, dtype):
    for _ in range(6):
        a = gjk.shape_from_dict(random_shape(rng, dim), dtype=dtype)
        b = gjk.shape_from_dict(random_shape(rng, dim), dtype=dtype)
        n = 150
        pa, pb = random_rows(rng, n, dim), random_rows(rng, n, dim)
        inter = gjk.batch_intersects(a, b, pa, pb)
        dist = gjk.batch_distance(a, b, pa, pb)
        full = gjk.batch_closest_points(a, b, pa, pb)
        assert inter.dtype == bool and dist.dtype == np.float64 and len(full) == n
        assert full.point_a.shape == (n, dim) and full.status.dtype == np.uint8
        for i in range(n):
            x, y = pose(pa[i]), pose(pb[i])
            assert inter[i] == gjk.intersects(a, b, x, y)
            assert dist[i] == gjk.distance(a, b, x, y)
            one = gjk.closest_points(a, b, x, y)
            assert full.intersects[i] == one.intersects
            assert full.distance[i] == one.distance
            assert full.penetration_depth[i] == one.penetration_depth
            assert full.iterations[i] == one.iterations
            assert full.status_names()[i] == one.status
            for key in ("point_a", "point_b", "normal"):
                assert np.array_equal(getattr(full, key)[i], getattr(one, key)), key


def test_pairs_form_equals_the_two_shape_form(rng):
    shapes = [gjk.shape_from_dict(random_shape(rng, 3)) for _ in range(8)]
    poses = random_rows(rng, 8, 3)
    pairs = np.array([(i, j) for i in range(8) for j in range(8) if i < j])
    dist = gjk.batch_distance(shapes, pairs=pairs, poses=poses)
    for k, (i, j) in enumerate(pairs):
        assert dist[k] == gjk.distance(shapes[i], shapes[j], pose(poses[i]), pose(poses[j]))
    full = gjk.batch_closest_points(shapes, pairs=pairs, poses=poses)
    assert np.array_equal(full.distance, dist)


def test_pose_forms_agree(rng):
    """Rows, translations with identity rotation, 4x4 and 3x3 matrices give one answer."""
    a, b = gjk.cuboid([0.5, 1.0, 0.3]), gjk.capsule([0, -1, 0], [0, 1, 0], 0.2)
    n = 50
    t = rng.uniform(-2, 2, (n, 3))
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    rows = np.column_stack([t, q])
    mats = np.zeros((n, 4, 4))
    for i in range(n):
        x, y, z, w = q[i]
        mats[i, :3, :3] = [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
        mats[i, :3, 3] = t[i]
        mats[i, 3, 3] = 1
    np.testing.assert_allclose(gjk.batch_distance(a, b, None, mats),
                               gjk.batch_distance(a, b, None, rows), rtol=1e-9, atol=1e-12)
    translated = gjk.batch_distance(a, b, None, t)
    identity_rows = np.column_stack([t, np.tile([0, 0, 0, 1.0], (n, 1))])
    assert np.array_equal(translated, gjk.batch_distance(a, b, None, identity_rows))
    # 2D: 3x3 homogeneous matrices against [x, y, angle] rows.
    c, d = gjk.rectangle([0.5, 0.2]), gjk.circle(0.3)
    ang = rng.uniform(-3, 3, n)
    m2 = np.zeros((n, 3, 3))
    m2[:, 0, 0], m2[:, 0, 1], m2[:, 1, 0], m2[:, 1, 1] = np.cos(ang), -np.sin(ang), np.sin(ang), np.cos(ang)
    m2[:, :2, 2] = t[:, :2]
    m2[:, 2, 2] = 1
    rows2 = np.column_stack([t[:, :2], ang])
    np.testing.assert_allclose(gjk.batch_distance(d, c, None, m2),
                               gjk.batch_distance(d, c, None, rows2), rtol=1e-9, atol=1e-12)
    # A single Pose matrix too.
    p = gjk.Pose.from_matrix(mats[0].tolist())
    assert gjk.distance(a, b, None, p) == pytest.approx(gjk.distance(a, b, None, pose(rows[0])),
                                                        rel=1e-9, abs=1e-12)


def test_empty_batch(rng):
    a = gjk.sphere(1.0)
    assert gjk.batch_distance(a, a, np.zeros((0, 7)), np.zeros((0, 7))).shape == (0,)


@pytest.mark.parametrize("dim", [2, 3])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_batch_contact_equals_the_loop(rng, dim, dtype):
    """Oracle: `gjk.contact` per pair (tied to the CLI by test_cli.py); rows without a contact
    are zero and masked by `in_contact`."""
    for _ in range(4):
        a = gjk.shape_from_dict(random_shape(rng, dim), dtype=dtype)
        b = gjk.shape_from_dict(random_shape(rng, dim), dtype=dtype)
        n = 120
        pa, pb = random_rows(rng, n, dim), random_rows(rng, n, dim)
        batch = gjk.batch_contact(a, b, pa, pb, prediction=0.25)
        assert len(batch) == n and batch.normal.shape == (n, dim)
        assert batch.in_contact.dtype == bool and batch.status.dtype == np.uint8
        for i in range(n):
            one = gjk.contact(a, b, pose(pa[i]), pose(pb[i]), prediction=0.25)
            assert batch.in_contact[i] == (one is not None)
            if one is None:
                assert batch.depth[i] == 0 and not batch.normal[i].any()
                assert batch.status_names()[i] in gjk.STATUSES
                continue
            assert batch.depth[i] == one.depth
            assert batch.status_names()[i] == one.status
            assert batch.iterations[i] == one.iterations
            for key in ("point_a", "point_b", "normal"):
                assert np.array_equal(getattr(batch, key)[i], getattr(one, key)), key


def test_batch_contact_pairs_form_and_pickle(rng):
    import pickle
    shapes = [gjk.shape_from_dict(random_shape(rng, 3)) for _ in range(6)]
    poses = random_rows(rng, 6, 3, reach=1.0)
    pairs = np.array([(i, j) for i in range(6) for j in range(i + 1, 6)])
    batch = gjk.batch_contact(shapes, pairs=pairs, poses=poses)
    for k, (i, j) in enumerate(pairs):
        one = gjk.contact(shapes[i], shapes[j], pose(poses[i]), pose(poses[j]))
        assert batch.in_contact[k] == (one is not None)
        if one is not None:
            assert batch.depth[k] == one.depth
    back = pickle.loads(pickle.dumps(batch))
    assert np.array_equal(back.depth, batch.depth) and repr(back) == repr(batch)


@pytest.mark.parametrize("dim", [2, 3])
def test_batch_shape_cast_equals_the_loop(rng, dim):
    """Oracle: `gjk.shape_cast` per pair; velocities given per row, and as one vector."""
    a = gjk.shape_from_dict(random_shape(rng, dim))
    b = gjk.shape_from_dict(random_shape(rng, dim))
    n = 100
    pa, pb = random_rows(rng, n, dim, reach=3.0), random_rows(rng, n, dim, reach=3.0)
    va = rng.uniform(-3, 3, (n, dim))
    vb = rng.uniform(-1, 1, dim)
    batch = gjk.batch_shape_cast(a, b, pa, pb, va, vb, max_toi=2.0)
    assert batch.point_a.shape == (n, dim) and batch.hit.dtype == bool
    for i in range(n):
        one = gjk.shape_cast(a, b, va[i], vb, pose(pa[i]), pose(pb[i]), max_toi=2.0)
        assert batch.hit[i] == one.hit
        assert batch.toi[i] == one.toi
        assert batch.status_names()[i] == one.status
        for key in ("point_a", "point_b", "normal"):
            expected = getattr(one, key)
            got = getattr(batch, key)[i]
            assert np.array_equal(got, expected if expected is not None else np.zeros(dim)), key
    # Pairs form: one velocity row per shape.
    shapes, poses = [a, b], np.vstack([pa[0], pb[0]])
    v = np.vstack([va[0], vb])
    by_pairs = gjk.batch_shape_cast(shapes, pairs=[(0, 1)], poses=poses, velocities=v,
                                    max_toi=2.0)
    assert by_pairs.toi[0] == batch.toi[0]


def test_batch_cast_and_contact_errors():
    a = gjk.sphere(1.0)
    rows = np.tile([0, 0, 0, 0, 0, 0, 1.0], (3, 1))
    with pytest.raises(ValueError, match="prediction"):
        gjk.batch_contact(a, a, rows, rows, prediction=-1.0)
    with pytest.raises(TypeError, match="velocity"):
        gjk.batch_shape_cast(a, a, rows, rows)
    with pytest.raises(ValueError, match="velocity_a"):
        gjk.batch_shape_cast(a, a, rows, rows, np.zeros((2, 3)), [0, 0, 0])
    with pytest.raises(ValueError, match="not finite"):
        gjk.batch_shape_cast(a, a, rows, rows, [np.nan, 0, 0], [0, 0, 0])
    with pytest.raises(ValueError, match="max_toi"):
        gjk.batch_shape_cast(a, a, rows, rows, [1, 0, 0], [0, 0, 0], max_toi=-1.0)
