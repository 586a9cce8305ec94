"""Answers against closed forms (independent oracles): ball–ball distance and normal, the
gap of axis-aligned boxes, a ray against a sphere, two balls cast head-on, the penetration
of overlapping balls. Tolerance 1e-9 (f64) and 1e-4 (f32)."""

import math

import numpy as np
import pytest

import gjk


@pytest.mark.parametrize("dtype,tol", [("float64", 1e-9), (np.float32, 1e-4)])
def test_balls(rng, dtype, tol):
    for _ in range(50):
        ra, rb = rng.uniform(0.1, 2, 2)
        ca, cb = rng.uniform(-5, 5, (2, 3))
        a, b = gjk.sphere(ra, dtype=dtype), gjk.sphere(rb, dtype=dtype)
        r = gjk.closest_points(a, b, gjk.Pose(ca), gjk.Pose(cb))
        gap = np.linalg.norm(cb - ca) - ra - rb
        n = (cb - ca) / np.linalg.norm(cb - ca)
        assert r.intersects == (gap <= 0)
        assert r.distance == pytest.approx(max(gap, 0), abs=tol * 10)
        assert r.penetration_depth == pytest.approx(max(-gap, 0), abs=tol * 10)
        np.testing.assert_allclose(r.normal, n, atol=tol * 10)


def test_axis_aligned_boxes(rng):
    for _ in range(50):
        ha, hb = rng.uniform(0.1, 1, (2, 3))
        t = rng.uniform(-3, 3, 3)
        gaps = np.abs(t) - ha - hb
        expected = np.linalg.norm(np.maximum(gaps, 0))
        d = gjk.distance(gjk.cuboid(ha), gjk.cuboid(hb), None, gjk.Pose(t))
        assert d == pytest.approx(expected, abs=1e-9)


def test_ray_hits_a_sphere():
    ball = gjk.sphere(2.0)
    r = gjk.ray_cast(ball, [-10, 1, 0], [2, 0, 0], pose=gjk.Pose([1.0, 0, 0]))
    # x where (x - 1)^2 + 1 = 4, entering from the left: x = 1 - sqrt(3); toi in units of 2.
    assert r.status == "hit" and r.hit
    assert r.toi == pytest.approx((1 - math.sqrt(3) + 10) / 2, abs=1e-9)
    np.testing.assert_allclose(r.point, [1 - math.sqrt(3), 1, 0], atol=1e-9)
    np.testing.assert_allclose(r.normal, [-math.sqrt(3) / 2, 0.5, 0], atol=1e-9)
    miss = gjk.ray_cast(ball, [-10, 5, 0], [1, 0, 0])
    assert miss.status == "no_hit" and not miss.hit and miss.point is None


def test_shape_cast_head_on():
    ball = gjk.sphere(1.0)
    r = gjk.shape_cast(ball, ball, [1, 0, 0], [-1, 0, 0], None, gjk.Pose([10.0, 0, 0]),
                       max_toi=10.0)
    assert r.status == "hit" and r.toi == pytest.approx(4.0, abs=1e-9)
    np.testing.assert_allclose(r.normal, [1, 0, 0], atol=1e-9)
    inside = gjk.shape_cast(ball, ball, [0, 0, 0], [0, 0, 0], None, gjk.Pose([1.0, 0, 0]))
    assert inside.status == "initially_overlapping" and inside.toi == 0


def test_contact_prediction():
    box = gjk.cuboid([1, 1, 1])
    ball = gjk.sphere(0.5)
    deep = gjk.contact(box, ball, None, gjk.Pose([1.25, 0, 0]))
    assert deep.depth == pytest.approx(0.25, abs=1e-12) and deep.accurate
    np.testing.assert_allclose(deep.normal, [1, 0, 0], atol=1e-12)
    assert gjk.contact(box, ball, None, gjk.Pose([1.75, 0, 0])) is None
    near = gjk.contact(box, ball, None, gjk.Pose([1.75, 0, 0]), prediction=0.5)
    assert near.depth == pytest.approx(-0.25, abs=1e-12)


def test_2d_shapes():
    sq = gjk.rectangle([1, 1])
    disc = gjk.circle(0.5)
    assert gjk.distance(sq, disc, None, gjk.Pose([3.0, 0.0])) == pytest.approx(1.5)
    rot = gjk.distance(sq, disc, gjk.Pose([0.0, 0.0], math.pi / 4), gjk.Pose([3.0, 0.0]))
    assert rot == pytest.approx(3 - math.sqrt(2) - 0.5)
    tri = gjk.triangle([0, 0], [1, 0], [0, 1])
    seg = gjk.segment([2, -1], [2, 1])
    assert gjk.distance(tri, seg) == pytest.approx(1.0)
    hull = gjk.polygon(np.array([[0, 0], [1, 0], [1, 1], [0, 1], [0.5, 0.5]]))
    assert gjk.distance(hull, disc, None, gjk.Pose([0.5, 2.0])) == pytest.approx(0.5)


def test_every_3d_shape_builds_and_answers():
    shapes = [gjk.points(np.eye(3)), gjk.sphere(1), gjk.ellipsoid([1, 2, 3]),
              gjk.cuboid([1, 1, 1]), gjk.segment([0, 0, 0], [1, 0, 0]),
              gjk.triangle([0, 0, 0], [1, 0, 0], [0, 1, 0]),
              gjk.capsule([0, 0, 0], [0, 1, 0], 0.5), gjk.cylinder(1, 0.5), gjk.cone(1, 0.5),
              gjk.sphere(1, center=[1, 0, 0], margin=0.1)]
    far = gjk.Pose([100.0, 0, 0])
    for s in shapes:
        assert s.dim == 3
        assert gjk.intersects(s, s)
        assert 90 < gjk.distance(s, s, None, far) < 100
    # Cylinder along y: the gap to a ball above the top cap is exact.
    assert gjk.distance(gjk.cylinder(1, 0.5), gjk.sphere(0.5), None,
                        gjk.Pose([0, 3.0, 0])) == pytest.approx(1.5)
