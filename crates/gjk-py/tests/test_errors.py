"""Bad input raises ValueError (wrong sizes, NaN, negative radii, mixed dimensions) or
TypeError (wrong types), never crashes the interpreter; messages name the problem."""

import math
import pickle

import numpy as np
import pytest

import gjk


@pytest.mark.parametrize("make,match", [
    (lambda: gjk.sphere(-1), "radius must be positive"),
    (lambda: gjk.sphere(math.nan), "finite"),
    (lambda: gjk.cuboid([1, math.inf, 1]), "finite"),
    (lambda: gjk.cuboid([1, -1, 1]), "negative"),
    (lambda: gjk.capsule([0, 0, 0], [1, 0, 0], -0.1), "negative"),
    (lambda: gjk.points(np.zeros((0, 3))), "n >= 1"),
    (lambda: gjk.points(np.zeros((4, 5))), r"\(n, 2\) or \(n, 3\)"),
    (lambda: gjk.points([[0, 0, 0], [1, math.nan, 0]]), "finite"),
    (lambda: gjk.segment([0, 0], [1, 0, 0]), "2D and 3D cannot be mixed"),
    (lambda: gjk.cylinder(1, 1, center=[0, 0]), "2D and 3D cannot be mixed"),
    (lambda: gjk.Shape("cylinder", 2, [1, 1]), "only in 3D"),
    (lambda: gjk.Shape("blob", 3, [1]), "unknown shape kind"),
    (lambda: gjk.sphere(1, margin=-1), "margin"),
    (lambda: gjk.sphere(1, dtype="int32"), "dtype"),
    (lambda: gjk.Pose([0, 0, 0], [0, 0, 0, 0]), "rotation cannot be normalised"),
    (lambda: gjk.Pose([0, math.nan, 0]), "finite"),
    (lambda: gjk.Pose([0, 0], math.nan), "finite"),
    (lambda: gjk.Pose([0, 0, 0, 0]), "2 or 3 coordinates"),
    (lambda: gjk.Pose([0, 0, 0], [0, 0, 1]), "4 numbers"),
    (lambda: gjk.Pose.from_matrix(np.diag([1, 1, 2, 1]).tolist()), "not a rotation"),
    (lambda: gjk.Pose.from_matrix(np.diag([1, 1, -1, 1]).tolist()), "not a rotation"),
    (lambda: gjk.shape_from_dict({"type": "box"}), "missing field"),
])
def test_value_errors(make, match):
    with pytest.raises(ValueError, match=match):
        make()


@pytest.mark.parametrize("make", [
    lambda: gjk.sphere("one"),
    lambda: gjk.sphere(None),
    lambda: gjk.cuboid("abc"),
    lambda: gjk.points([["a", "b", "c"]]),
    lambda: gjk.Pose("abc"),
    lambda: gjk.Pose([0, 0, 0], "q"),
    lambda: gjk.Pose([0, 0], [1, 2]),
    lambda: gjk.distance(gjk.sphere(1), "ball"),
    lambda: gjk.distance(gjk.sphere(1), gjk.sphere(1), [0, 0, 0]),
    lambda: gjk.batch_distance(gjk.sphere(1), None, np.zeros((2, 7)), np.zeros((2, 7))),
    lambda: gjk.batch_distance(gjk.sphere(1), gjk.sphere(1), None, np.array([["x"] * 7])),
    lambda: gjk.shape_from_dict([1, 2]),
])
def test_type_errors(make):
    with pytest.raises(TypeError):
        make()


def test_query_errors():
    ball3, disc = gjk.sphere(1), gjk.circle(1)
    with pytest.raises(ValueError, match="share dimension and dtype"):
        gjk.distance(ball3, disc)
    with pytest.raises(ValueError, match="share dimension and dtype"):
        gjk.distance(ball3, gjk.sphere(1, dtype="float32"))
    with pytest.raises(ValueError, match="pose_b is 2D but the shapes are 3D"):
        gjk.distance(ball3, ball3, None, gjk.Pose([1.0, 0.0]))
    with pytest.raises(ValueError, match="max_toi"):
        gjk.ray_cast(ball3, [0, 0, 0], [1, 0, 0], max_toi=math.nan)
    with pytest.raises(ValueError, match="direction must be finite"):
        gjk.ray_cast(ball3, [0, 0, 0], [math.inf, 0, 0])
    with pytest.raises(ValueError, match="prediction"):
        gjk.contact(ball3, ball3, prediction=-1)


def test_batch_errors():
    a = gjk.sphere(1)
    rows = np.tile([0, 0, 0, 0, 0, 0, 1.0], (10, 1))
    bad = rows.copy()
    bad[7, 3:] = 0
    with pytest.raises(ValueError, match=r"poses_b\[7\]: pose: rotation cannot be normalised"):
        gjk.batch_distance(a, a, rows, bad)
    nan = rows.copy()
    nan[3, 1] = math.nan
    nan[5, 1] = math.nan
    with pytest.raises(ValueError, match=r"poses_a\[3\].*finite"):
        gjk.batch_closest_points(a, a, nan, rows)
    with pytest.raises(ValueError, match="rows"):
        gjk.batch_distance(a, a, rows, rows[:5])
    with pytest.raises(ValueError, match="poses must have shape"):
        gjk.batch_distance(a, a, rows, np.zeros((10, 5)))
    with pytest.raises(ValueError, match="share dimension and dtype"):
        gjk.batch_distance([a, gjk.circle(1)], pairs=[[0, 1]], poses=np.zeros((2, 7)))
    with pytest.raises(ValueError, match="out of range"):
        gjk.batch_distance([a, a], pairs=[[0, 2]], poses=rows[:2])
    with pytest.raises(ValueError, match="not a rotation"):
        gjk.batch_distance(a, a, None, np.tile(np.diag([1, 2, 1, 1.0]), (3, 1, 1)))
    with pytest.raises(ValueError, match="number of pairs is unknown"):
        gjk.batch_distance(a, a, None, gjk.Pose([1.0, 0, 0]))


def test_shapes_and_poses_pickle():
    shapes = [gjk.points(np.random.default_rng(1).normal(size=(20, 3)), margin=0.1),
              gjk.capsule([0, 0], [1, 0], 0.2, center=[0.5, 0.5], dtype=np.float32),
              gjk.cone(1, 2)]
    for s in shapes:
        t = pickle.loads(pickle.dumps(s))
        assert t == s and t.dtype == s.dtype and repr(t) == repr(s)
        assert gjk.distance(t, t, None, gjk.Pose([5.0] * t.dim)) == \
            gjk.distance(s, s, None, gjk.Pose([5.0] * s.dim))
    for p in [gjk.Pose([1, 2, 3], [0, 0, 1, 1]), gjk.Pose([1, 2], 0.5), gjk.Pose.identity(2)]:
        assert pickle.loads(pickle.dumps(p)) == p
    r = gjk.batch_closest_points(shapes[2], shapes[2], None, np.zeros((3, 3)))
    r2 = pickle.loads(pickle.dumps(r))
    assert np.array_equal(r2.distance, r.distance)
