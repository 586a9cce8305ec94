"""Optional: distances and intersection verdicts against coal (ex HPP-FCL, from PyPI) on random
3D boxes, spheres, capsules and 32-point hulls; skipped when coal is not installed.

Oracle: coal's GJK/EPA. Tolerance: 1e-6 absolute on distances (coal's GJK tolerance), and
verdicts compared only outside a 1e-6 band around touching."""

import numpy as np
import pytest

import gjk

coal = pytest.importorskip("coal")


def rotation(q):
    x, y, z, w = q / np.linalg.norm(q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def pair_of(kind, rng):
    """The same shape for both libraries (coal capsules lie along z, with full length)."""
    if kind == "box":
        h = rng.uniform(0.5, 2, 3)
        return gjk.cuboid(h), coal.Box(*(2 * h))
    if kind == "sphere":
        r = rng.uniform(0.5, 2)
        return gjk.sphere(r), coal.Sphere(r)
    if kind == "capsule":
        r, h = rng.uniform(0.2, 1), rng.uniform(0.2, 1.5)
        return gjk.capsule([0, 0, -h], [0, 0, h], r), coal.Capsule(r, 2 * h)
    pts = rng.normal(size=(32, 3))
    ours = gjk.points(pts)
    vertices = coal.StdVec_Vec3s()
    for p in pts:
        vertices.append(p)
    return ours, coal.Convex.convexHull(vertices, False, None)


@pytest.mark.parametrize("kinds", [("box", "box"), ("sphere", "box"), ("capsule", "capsule"),
                                   ("hull", "hull")])
def test_distances_agree_with_coal(kinds):
    rng = np.random.default_rng(11)
    req, creq = coal.DistanceRequest(), coal.CollisionRequest()
    compared = 0
    for _ in range(100):
        (a, ca), (b, cb) = pair_of(kinds[0], rng), pair_of(kinds[1], rng)
        ta, tb = rng.uniform(-3, 3, (2, 3))
        qa, qb = rng.normal(size=(2, 4))
        pa, pb = gjk.Pose(ta, qa), gjk.Pose(tb, qb)
        fa, fb = coal.Transform3s(rotation(qa), ta), coal.Transform3s(rotation(qb), tb)
        res = coal.DistanceResult()
        theirs = max(coal.distance(ca, fa, cb, fb, req, res), 0.0)
        ours = gjk.distance(a, b, pa, pb)
        assert ours == pytest.approx(theirs, abs=1e-6), (kinds, ours, theirs)
        if theirs > 1e-6 or res.min_distance < -1e-6:
            cres = coal.CollisionResult()
            hit = coal.collide(ca, fa, cb, fb, creq, cres) > 0
            assert gjk.intersects(a, b, pa, pb) == hit
            compared += 1
    assert compared > 80
