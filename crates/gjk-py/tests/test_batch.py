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
