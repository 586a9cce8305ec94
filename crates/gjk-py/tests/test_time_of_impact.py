"""Time of impact under rotation: `gjk.time_of_impact` answers as `gjk query`'s
`time_of_impact` lines, never tunnels (dense sampling of the motion with `gjk.distance`), the
batch equals the loop, results pickle, bad input raises.

Oracles: the `gjk` binary's JSON (1e-12, the same f64 code on both sides); the distance along
the motion sampled densely by `gjk.distance` (a different query, tied to the CLI by
test_cli.py) at poses computed here from the motion's closed form (rotation exp(t w) R0 about
the shape's position, translation p0 + t v); the single query for the batch (exact)."""

import math
import pickle

import numpy as np
import pytest

import gjk
from conftest import random_pose, random_shape, run_cli


def pose_of(d):
    return gjk.Pose(d["translation"], d["rotation"])


def same(got, cli, record):
    for key, value in cli.items():
        if key == "id":
            continue
        if value is None:
            assert got[key] is None, (key, record)
        elif isinstance(value, (str, bool)) or key == "iterations":
            assert got[key] == value, (key, record)
        else:
            np.testing.assert_allclose(got[key], value, rtol=1e-12, atol=1e-12,
                                       err_msg=f"{key} of {record}")


def random_angular(rng, dim, scale=3.0):
    if dim == 2:
        return float(rng.normal() * scale)
    return (rng.normal(size=3) * scale).tolist()


@pytest.mark.parametrize("dim", [2, 3])
def test_time_of_impact_equals_the_cli(gjk_cli, rng, dim):
    records = []
    for i in range(150):
        r = {"id": i, "query": "time_of_impact", "a": random_shape(rng, dim),
             "b": random_shape(rng, dim), "pose_a": random_pose(rng, dim, 3),
             "pose_b": random_pose(rng, dim, 3),
             "velocity_a": rng.normal(size=dim).tolist(),
             "velocity_b": rng.normal(size=dim).tolist(),
             "max_toi": float(rng.uniform(0.5, 3))}
        if rng.random() < 0.8:
            r["angular_velocity_a"] = random_angular(rng, dim)
        if rng.random() < 0.5:
            r["angular_velocity_b"] = random_angular(rng, dim)
        records.append(r)
    answers = run_cli(gjk_cli, records)
    statuses = set()
    for r, cli in zip(records, answers):
        assert "error" not in cli, (r, cli)
        got = gjk.time_of_impact(
            gjk.shape_from_dict(r["a"]), gjk.shape_from_dict(r["b"]), r["velocity_a"],
            r["velocity_b"], pose_of(r["pose_a"]), pose_of(r["pose_b"]),
            r.get("angular_velocity_a"), r.get("angular_velocity_b"), r["max_toi"])
        same(got.to_dict(), cli, r)
        statuses.add(cli["status"])
    assert {"hit", "no_hit", "initially_overlapping"} <= statuses, statuses


def quat_mul(p, q):
    px, py, pz, pw = p
    qx, qy, qz, qw = q
    return np.array([pw * qx + px * qw + py * qz - pz * qy,
                     pw * qy - px * qz + py * qw + pz * qx,
                     pw * qz + px * qy - py * qx + pz * qw,
                     pw * qw - px * qx - py * qy - pz * qz])


def pose_at(translation, rotation, velocity, angular, t):
    """The pose at time t of a shape starting at (translation, rotation), moving with
    `velocity` and turning at `angular` about its position (the closed form of the motion)."""
    p = np.asarray(translation, dtype=float) + t * np.asarray(velocity, dtype=float)
    if len(p) == 2:
        return gjk.Pose(p, rotation + (angular or 0.0) * t)
    q0 = np.asarray(rotation, dtype=float)
    q0 = q0 / np.linalg.norm(q0)
    w = np.zeros(3) if angular is None else np.asarray(angular, dtype=float)
    rate = np.linalg.norm(w)
    if rate == 0:
        return gjk.Pose(p, q0)
    half = rate * t / 2
    spin = np.append(w / rate * math.sin(half), math.cos(half))
    return gjk.Pose(p, quat_mul(spin, q0))


def check_against_sampling(a, b, start_a, start_b, motion_a, motion_b, max_toi, r, steps):
    """The guarantee of the query, against the distance sampled at `steps` times: before
    `toi` the shapes stay at least slop/2 apart; at a hit they are within the slop; without
    a hit no sample comes within slop/2. Returns the first sampled time of contact (or None)."""
    def dist(t):
        return gjk.distance(a, b, pose_at(*start_a, *motion_a, t), pose_at(*start_b, *motion_b, t))
    times = np.linspace(0, max_toi, steps)
    d = np.array([dist(t) for t in times])
    slack = 1e-9 * (1 + r.slop)
    before = times < r.toi if r.hit else np.ones(len(times), bool)
    assert np.all(d[before] >= r.slop / 2 - slack), (r, times[before][d[before].argmin()])
    touching = np.flatnonzero(d == 0)
    first = times[touching[0]] if len(touching) else None
    if first is not None:
        # Never tunnels: a sampled contact means a hit no later than it.
        assert r.hit and r.toi <= first, (r, first)
    if r.status == "hit":
        assert dist(r.toi) <= r.slop + slack
        assert abs(dist(r.toi) - r.distance) < 1e-9
    if r.status == "initially_overlapping":
        assert r.toi == 0 and dist(0.0) == 0
    return first


@pytest.mark.parametrize("dim", [2, 3])
def test_spinning_bar_does_not_tunnel(dim):
    """A thin bar of length 4 turning half a turn per unit time sweeps through a small post;
    at t = 0 and t = 1 (one discrete step) they are apart. Posts all around the sweep."""
    if dim == 2:
        bar, post = gjk.rectangle([2, 0.05]), gjk.rectangle([0.1, 0.1])
        spin, rest, still = math.pi, 0.0, None
    else:
        bar, post = gjk.cuboid([2, 0.05, 0.05]), gjk.cuboid([0.1, 0.1, 0.1])
        spin, rest, still = [0.0, 0.0, math.pi], [0, 0, 0, 1], None
    zero = [0.0] * dim
    hits = 0
    for angle in np.linspace(0.35, math.pi - 0.35, 9):
        for radius in (0.6, 1.2, 1.8):
            where = [radius * math.cos(angle), radius * math.sin(angle)] + [0.0] * (dim - 2)
            post_rest = rest if dim == 3 else 0.0
            start_a, start_b = (zero, rest), (where, post_rest)
            pa, pb = gjk.Pose(*start_a), gjk.Pose(*start_b)
            assert gjk.distance(bar, post, pa, pb) > 0.05  # apart at t = 0 ...
            end = pose_at(zero, rest, zero, spin, 1.0)
            assert gjk.distance(bar, post, end, pb) > 0.05  # ... and at t = 1
            r = gjk.time_of_impact(bar, post, zero, zero, pa, pb, spin, still, 1.0)
            assert r.status == "hit", (angle, radius, r)
            first = check_against_sampling(bar, post, start_a, start_b, (zero, spin),
                                           (zero, still), 1.0, r, 4001)
            # The sweep reaches the post: sampled contact, and the toi just before it.
            assert first is not None and first - 1e-3 - 1 / 4000 <= r.toi <= first
            hits += 1
    assert hits == 27


@pytest.mark.parametrize("dim", [2, 3])
def test_random_motions_against_sampling(rng, dim):
    seen = set()
    for _ in range(40):
        a = gjk.shape_from_dict(random_shape(rng, dim))
        b = gjk.shape_from_dict(random_shape(rng, dim))
        pa, pb = random_pose(rng, dim, 2.5), random_pose(rng, dim, 2.5)
        start_a, start_b = (pa["translation"], pa["rotation"]), (pb["translation"], pb["rotation"])
        motion_a = (rng.normal(size=dim).tolist(), random_angular(rng, dim))
        motion_b = (rng.normal(size=dim).tolist(), random_angular(rng, dim))
        r = gjk.time_of_impact(a, b, motion_a[0], motion_b[0], gjk.Pose(*start_a),
                               gjk.Pose(*start_b), motion_a[1], motion_b[1], 2.0)
        check_against_sampling(a, b, start_a, start_b, motion_a, motion_b, 2.0, r, 1500)
        seen.add(r.status)
    assert {"hit", "no_hit"} <= seen, seen


def test_linear_slop_and_pure_translation():
    ball = gjk.sphere(0.5)
    r = gjk.time_of_impact(ball, ball, [1, 0, 0], [0, 0, 0], gjk.Pose([-2.0, 0, 0]),
                           gjk.Pose([2.0, 0, 0]), max_toi=10.0, linear_slop=0.01)
    # The gap of 3 closes at speed 1: within the slop between t = 2.99 and 2.995.
    assert r.status == "hit" and r.slop == 0.01
    assert 2.99 - 1e-9 <= r.toi <= 2.995 + 1e-9
    np.testing.assert_allclose(r.normal, [1, 0, 0], atol=1e-9)
    miss = gjk.time_of_impact(ball, ball, [0, 1, 0], [0, 0, 0], gjk.Pose([-2.0, 0, 0]),
                              gjk.Pose([2.0, 0, 0]), max_toi=10.0)
    assert miss.status == "no_hit" and miss.toi == 10.0 and not miss.hit
    assert miss.point_a is None and miss.normal is None and miss.distance is None
    inside = gjk.time_of_impact(ball, ball, [0, 0, 0], [0, 0, 0], None, gjk.Pose([0.5, 0, 0]))
    assert inside.status == "initially_overlapping" and inside.toi == 0
    assert inside.distance == pytest.approx(-0.5)


def random_rows(rng, n, dim, reach):
    if dim == 2:
        return np.column_stack([rng.uniform(-reach, reach, (n, 2)), rng.uniform(-4, 4, n)])
    return np.column_stack([rng.uniform(-reach, reach, (n, 3)), rng.normal(size=(n, 4))])


def pose_row(row):
    row = list(row)
    return gjk.Pose(row[:2], row[2]) if len(row) == 3 else gjk.Pose(row[:3], row[3:])


def assert_row_is(batch, i, single):
    assert batch.hit[i] == single.hit and batch.toi[i] == single.toi
    assert batch.status_names()[i] == single.status
    assert batch.iterations[i] == single.iterations and batch.slop[i] == single.slop
    assert batch.distance[i] == (0.0 if single.distance is None else single.distance)
    for key in ("point_a", "point_b", "normal"):
        value = getattr(single, key)
        if value is None:
            assert not getattr(batch, key)[i].any()
        else:
            assert np.array_equal(getattr(batch, key)[i], value), key


@pytest.mark.parametrize("dim", [2, 3])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_batch_time_of_impact_equals_the_loop(rng, dim, dtype):
    n = 100
    for _ in range(4):
        a = gjk.shape_from_dict(random_shape(rng, dim), dtype=dtype)
        b = gjk.shape_from_dict(random_shape(rng, dim), dtype=dtype)
        pa, pb = random_rows(rng, n, dim, 2.5), random_rows(rng, n, dim, 2.5)
        va, vb = rng.normal(size=(n, dim)), rng.normal(size=dim)
        wa = rng.normal(size=n) * 3 if dim == 2 else rng.normal(size=(n, 3)) * 3
        wb = 1.5 if dim == 2 else [0.0, 2.0, -1.0]
        batch = gjk.batch_time_of_impact(a, b, pa, pb, va, vb, wa, wb, max_toi=1.5)
        assert len(batch) == n and batch.point_a.shape == (n, dim)
        for i in range(n):
            single = gjk.time_of_impact(a, b, va[i], vb, pose_row(pa[i]), pose_row(pb[i]),
                                        wa[i] if dim == 2 else wa[i].tolist(), wb, 1.5)
            assert_row_is(batch, i, single)
    # Without angular velocities: not turning.
    batch = gjk.batch_time_of_impact(a, b, pa, pb, va, vb, linear_slop=0.01)
    for i in range(0, n, 7):
        single = gjk.time_of_impact(a, b, va[i], vb, pose_row(pa[i]), pose_row(pb[i]),
                                    linear_slop=0.01)
        assert_row_is(batch, i, single)


def test_batch_time_of_impact_pairs_form(rng):
    shapes = [gjk.shape_from_dict(random_shape(rng, 2)) for _ in range(6)]
    poses = random_rows(rng, 6, 2, 2.0)
    v, w = rng.normal(size=(6, 2)), rng.normal(size=6) * 2
    pairs = np.array([(i, j) for i in range(6) for j in range(6) if i != j])
    batch = gjk.batch_time_of_impact(shapes, pairs=pairs, poses=poses, velocities=v,
                                     angular_velocities=w, max_toi=2.0)
    for row, (i, j) in enumerate(pairs):
        single = gjk.time_of_impact(shapes[i], shapes[j], v[i], v[j], pose_row(poses[i]),
                                    pose_row(poses[j]), w[i], w[j], 2.0)
        assert_row_is(batch, row, single)


def test_time_of_impact_pickles():
    bar, post = gjk.rectangle([2, 0.05]), gjk.rectangle([0.1, 0.1])
    for r in (gjk.time_of_impact(bar, post, [0, 0], [0, 0], None, gjk.Pose([0, 1.5]),
                                 math.pi, None, 1.0),
              gjk.time_of_impact(bar, post, [0, 0], [0, 0], None, gjk.Pose([0, 5]))):
        r2 = pickle.loads(pickle.dumps(r))
        assert r2 == r and repr(r2) == repr(r)
        assert str(r2.to_dict()) == str(r.to_dict())
    batch = gjk.batch_time_of_impact(bar, post, None, np.array([[0, 1.5, 0], [0, 5, 0]]),
                                     [0, 0], [0, 0], math.pi)
    b2 = pickle.loads(pickle.dumps(batch))
    for name in batch.__slots__:
        assert np.array_equal(getattr(b2, name), getattr(batch, name)), name


def test_time_of_impact_errors():
    ball, disc = gjk.sphere(1), gjk.circle(1)
    z3, z2 = [0, 0, 0], [0, 0]
    with pytest.raises(TypeError, match="a number in 2D"):
        gjk.time_of_impact(disc, disc, z2, z2, angular_velocity_a=[0, 0, 1])
    with pytest.raises(TypeError, match=r"a vector \[x, y, z\] in 3D"):
        gjk.time_of_impact(ball, ball, z3, z3, angular_velocity_b=1.0)
    with pytest.raises(ValueError, match="angular_velocity_a must have 3 coordinates"):
        gjk.time_of_impact(ball, ball, z3, z3, angular_velocity_a=[0, 1])
    with pytest.raises(ValueError, match="angular_velocity_a must be finite"):
        gjk.time_of_impact(disc, disc, z2, z2, angular_velocity_a=math.nan)
    with pytest.raises(ValueError, match="angular_velocity_b must be finite"):
        gjk.time_of_impact(ball, ball, z3, z3, angular_velocity_b=[0, math.inf, 0])
    with pytest.raises(ValueError, match="velocity_a must have 3 coordinates"):
        gjk.time_of_impact(ball, ball, z2, z3)
    with pytest.raises(ValueError, match="max_toi must be >= 0"):
        gjk.time_of_impact(ball, ball, z3, z3, max_toi=-1)
    with pytest.raises(ValueError, match="max_toi must be finite when a shape turns"):
        gjk.time_of_impact(ball, ball, z3, z3, angular_velocity_a=[0, 0, 1],
                           max_toi=math.inf)
    with pytest.raises(ValueError, match="linear_slop must be finite and >= 0"):
        gjk.time_of_impact(ball, ball, z3, z3, linear_slop=-0.1)
    with pytest.raises(ValueError, match="share dimension and dtype"):
        gjk.time_of_impact(ball, disc, z3, z3)
    with pytest.raises(TypeError):
        gjk.time_of_impact(ball, ball, "v", z3)
    # Batches.
    rows = np.tile([0, 0, 0, 0, 0, 0, 1.0], (4, 1))
    rows[:, 0] = [3, 4, 5, 6]
    with pytest.raises(ValueError, match=r"must be a 3-vector or have shape \(4, 3\)"):
        gjk.batch_time_of_impact(ball, ball, None, rows, z3, [0, 0])
    with pytest.raises(ValueError, match=r"angular_velocity_a must be a 3-vector or shape"):
        gjk.batch_time_of_impact(ball, ball, None, rows, z3, z3, np.zeros((4, 2)))
    with pytest.raises(ValueError, match=r"angular_velocity_a must be a number or shape"):
        gjk.batch_time_of_impact(disc, disc, None, np.zeros((4, 3)), z2, z2, np.zeros(3))
    with pytest.raises(ValueError, match=r"angular_velocities_b\[2\] is not finite"):
        gjk.batch_time_of_impact(ball, ball, None, rows, z3, z3, None,
                                 [[0, 0, 0]] * 2 + [[0, math.nan, 0]] + [[0, 0, 0]])
    with pytest.raises(ValueError, match="max_toi must be finite when a shape turns"):
        gjk.batch_time_of_impact(ball, ball, None, rows, z3, z3, [1, 0, 0], None,
                                 max_toi=math.inf)
    with pytest.raises(TypeError, match="needs velocity_a and velocity_b"):
        gjk.batch_time_of_impact(ball, ball, None, rows)
    with pytest.raises(TypeError, match="with pairs=, give velocities="):
        gjk.batch_time_of_impact([ball, ball], pairs=[[0, 1]], poses=rows[:2])
    with pytest.raises(ValueError, match="not a pickled time of impact"):
        gjk._gjk._restore_time_of_impact(3, [0.0], [0, 0])
