"""Contact manifolds: `gjk.manifold` answers as `gjk query`'s `manifold` lines, a box resting
on a box gives exactly the corners of the overlap rectangle (closed form), hulls and
cylinders keep their flat faces (the wrapper forwards `Support::feature`), the batch equals
the loop, results pickle, bad input raises.

Oracles: the `gjk` binary's JSON (tolerance 1e-12, both sides run the same f64 code), the
closed-form corners of two axis-aligned boxes under a common rigid motion (1e-9), the single
queries for the batch (exact)."""

import itertools
import math
import pickle

import numpy as np
import pytest

import gjk
from conftest import random_pose, random_shape, run_cli


def pose_of(d):
    return gjk.Pose(d["translation"], d["rotation"])


def assert_same_manifold(got, cli, record):
    """`got` (a Manifold.to_dict()) equals the CLI's record: words and ids exactly, numbers
    within 1e-12."""
    assert got["status"] == cli["status"], record
    assert got["contact_status"] == cli["contact_status"], record
    if cli["normal"] is None:
        assert got["normal"] is None, record
    else:
        np.testing.assert_allclose(got["normal"], cli["normal"], rtol=1e-12, atol=1e-12,
                                   err_msg=str(record))
    assert len(got["points"]) == len(cli["points"]), record
    for mine, theirs in zip(got["points"], cli["points"]):
        assert mine["id"] == theirs["id"], record
        for key in ("point_a", "point_b", "depth"):
            np.testing.assert_allclose(mine[key], theirs[key], rtol=1e-12, atol=1e-12,
                                       err_msg=f"{key} of {record}")


@pytest.mark.parametrize("dim", [2, 3])
def test_manifolds_equal_the_cli(gjk_cli, rng, dim):
    records = []
    for i in range(300):
        record = {"id": i, "query": "manifold", "a": random_shape(rng, dim),
                  "b": random_shape(rng, dim), "pose_a": random_pose(rng, dim, 0.8),
                  "pose_b": random_pose(rng, dim, 0.8)}
        if rng.random() < 0.5:
            record["prediction"] = float(rng.uniform(0, 0.5))
        records.append(record)
    # Boxes and hulls stacked face to face, so that clipping (not only single points) is
    # covered on every run.
    for i in range(40):
        box = {"type": "box", "half_extents": rng.uniform(0.2, 1, dim).tolist()}
        top = {"type": "box", "half_extents": rng.uniform(0.2, 1, dim).tolist()}
        shift = rng.uniform(-0.3, 0.3, dim)
        shift[1] = box["half_extents"][1] + top["half_extents"][1] - rng.uniform(0, 0.05)
        rotation = 0.0 if dim == 2 else [0.0, 0.0, 0.0, 1.0]
        records.append({"id": 300 + i, "query": "manifold", "a": box, "b": top,
                        "pose_b": {"translation": shift.tolist(), "rotation": rotation},
                        "prediction": 0.01})
    answers = run_cli(gjk_cli, records)
    statuses = set()
    for r, cli in zip(records, answers):
        assert "error" not in cli, (r, cli)
        got = gjk.manifold(gjk.shape_from_dict(r["a"]), gjk.shape_from_dict(r["b"]),
                           pose_of(r["pose_a"]) if "pose_a" in r else None,
                           pose_of(r["pose_b"]), r.get("prediction", 0.0))
        assert_same_manifold(got.to_dict(), cli, r)
        assert len(got) == len(cli["points"]) <= (2 if dim == 2 else 4)
        statuses.add(cli["status"])
    assert {"clipped_a", "single_point", "apart"} <= statuses, statuses


def test_statuses_are_the_cli_vocabulary(gjk_cli):
    import subprocess
    help_text = subprocess.run([gjk_cli, "query", "--help"], capture_output=True,
                               text=True, check=True).stdout
    section = help_text.split("ANSWER to manifold")[1].split("ANSWER to time_of_impact")[0]
    table = section.split("how the points were found:")[1]
    assert list(gjk.MANIFOLD_STATUSES) == [line.split()[0] for line in table.splitlines()
                                           if line.strip()]
    # The contact statuses: none (apart), exact, then the GJK and EPA words of STATUSES.
    assert gjk.CONTACT_STATUSES[:2] == ("none", "exact")
    assert gjk.CONTACT_STATUSES[2:] == gjk.STATUSES[:len(gjk.CONTACT_STATUSES) - 2]


def random_rotation(rng):
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    x, y, z, w = q
    matrix = np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
    return q, matrix


def quat_mul(p, q):
    px, py, pz, pw = p
    qx, qy, qz, qw = q
    return np.array([pw * qx + px * qw + py * qz - pz * qy,
                     pw * qy - px * qz + py * qw + pz * qx,
                     pw * qz + px * qy - py * qx + pz * qw,
                     pw * qw - px * qx - py * qy - pz * qz])


def sorted_rows(points):
    return np.array(sorted(map(tuple, np.round(np.asarray(points), 9))))


def table_and_box(rng, make):
    """A table (half extents h) at the origin and a box (half extents e) on it, sunk by
    `depth`, overhanging or not; `make(half_extents)` builds each shape. Returns the shapes,
    the box's offset and the closed-form patch: the overlap rectangle's corners on the
    table's top (point_a) and on the box's bottom (point_b), and the depth."""
    h = rng.uniform(0.5, 2, 3)
    e = rng.uniform(0.2, 1, 3)
    depth = float(rng.uniform(0.001, 0.05))
    # Centre of the box: anywhere its footprint still overlaps the table's top with area.
    offset = np.array([rng.uniform(-(h[0] + e[0]) * 0.9, (h[0] + e[0]) * 0.9),
                       h[1] + e[1] - depth,
                       rng.uniform(-(h[2] + e[2]) * 0.9, (h[2] + e[2]) * 0.9)])
    xs = (max(-h[0], offset[0] - e[0]), min(h[0], offset[0] + e[0]))
    zs = (max(-h[2], offset[2] - e[2]), min(h[2], offset[2] + e[2]))
    corners = np.array([[x, h[1], z] for x in xs for z in zs])
    return make(h), make(e), offset, corners, corners - [0, depth, 0], depth


def box_hull(half_extents):
    """A box given as the hull of its 8 corners (3D hulls override `Support::feature`)."""
    return gjk.points(np.array(list(itertools.product(*[(-x, x) for x in half_extents]))))


@pytest.mark.parametrize("make", [gjk.cuboid, box_hull], ids=["cuboid", "hull"])
def test_box_on_box_gives_the_overlap_rectangle(rng, make):
    for _ in range(40):
        table, box, offset, on_table, on_box, depth = table_and_box(rng, make)
        # The whole scene under one random rigid motion: the answer moves with it.
        q, rotation = random_rotation(rng)
        shift = rng.uniform(-5, 5, 3)
        pose_table = gjk.Pose(shift, q)
        pose_box = gjk.Pose(shift + rotation @ offset, q)
        m = gjk.manifold(table, box, pose_table, pose_box)
        assert m.status in ("clipped_a", "clipped_b")
        assert len(m) == 4, (m, offset)
        np.testing.assert_allclose(m.normal, rotation @ [0, 1, 0], atol=1e-9)
        world = lambda p: np.asarray(p) @ rotation.T + shift  # noqa: E731
        np.testing.assert_allclose(sorted_rows([p.point_a for p in m.points]),
                                   sorted_rows(world(on_table)), atol=1e-8)
        np.testing.assert_allclose(sorted_rows([p.point_b for p in m.points]),
                                   sorted_rows(world(on_box)), atol=1e-8)
        np.testing.assert_allclose(m.depths, depth, atol=1e-9)
        # Distinct feature ids, one per corner.
        assert len({p.id for p in m.points}) == 4


def test_rectangle_on_rectangle_gives_the_overlap_interval(rng):
    for _ in range(40):
        h, e = rng.uniform(0.5, 2, 2), rng.uniform(0.2, 1, 2)
        depth = float(rng.uniform(0.001, 0.05))
        x = float(rng.uniform(-(h[0] + e[0]) * 0.9, (h[0] + e[0]) * 0.9))
        angle = float(rng.uniform(-4, 4))
        c, s = math.cos(angle), math.sin(angle)
        rot = np.array([[c, -s], [s, c]])
        offset = np.array([x, h[1] + e[1] - depth])
        m = gjk.manifold(gjk.rectangle(h), gjk.rectangle(e), gjk.Pose([0.0, 0.0], angle),
                         gjk.Pose(rot @ offset, angle))
        assert len(m) == 2, m
        ends = [[max(-h[0], x - e[0]), h[1]], [min(h[0], x + e[0]), h[1]]]
        np.testing.assert_allclose(sorted_rows([p.point_a for p in m.points]),
                                   sorted_rows(np.array(ends) @ rot.T), atol=1e-9)
        np.testing.assert_allclose(m.depths, depth, atol=1e-9)


def test_flat_faces_of_other_shapes_give_patches():
    """A cylinder standing on a box touches with its cap (an inscribed octagon reduced to 4
    points), a triangle lying on a box with its face: both need the shape's own
    `Support::feature`, which the package's shape wrapper must forward."""
    table = gjk.cuboid([3, 0.5, 3])
    can = gjk.cylinder(0.5, 0.4)
    m = gjk.manifold(table, can, None, gjk.Pose([0.2, 0.99, 0.1]))
    assert len(m) == 4 and m.status in ("clipped_a", "clipped_b"), m
    for p in m.points:
        assert abs(p.depth - 0.01) < 1e-9
        # On the cap's rim: 0.4 from the axis (the octagon's corners).
        assert abs(math.hypot(p.point_b[0] - 0.2, p.point_b[2] - 0.1) - 0.4) < 1e-9
    tri = gjk.triangle([0, 0, 0], [1, 0, 0], [0, 0, 1])
    m = gjk.manifold(table, tri, None, gjk.Pose([0.0, 0.49, 0.0]))
    assert len(m) == 3, m
    np.testing.assert_allclose(sorted_rows([p.point_b for p in m.points]),
                               sorted_rows([[0, 0.49, 0], [1, 0.49, 0], [0, 0.49, 1]]),
                               atol=1e-9)


def test_apart_and_prediction():
    a, b = gjk.cuboid([1, 1, 1]), gjk.cuboid([1, 1, 1])
    far = gjk.Pose([0.0, 2.3, 0.0])
    m = gjk.manifold(a, b, None, far)
    assert m.status == "apart" and len(m) == 0 and m.normal is None
    assert m.contact_status is None and m.points == []
    m = gjk.manifold(a, b, None, far, prediction=0.5)
    assert len(m) == 4 and m.status == "clipped_a"
    np.testing.assert_allclose(m.depths, -0.3, atol=1e-12)  # a gap: negative depth


def random_rows(rng, n, dim, reach):
    if dim == 2:
        return np.column_stack([rng.uniform(-reach, reach, (n, 2)), rng.uniform(-4, 4, n)])
    return np.column_stack([rng.uniform(-reach, reach, (n, 3)), rng.normal(size=(n, 4))])


def pose_row(row):
    row = list(row)
    return gjk.Pose(row[:2], row[2]) if len(row) == 3 else gjk.Pose(row[:3], row[3:])


def assert_row_is(batch, i, single, k):
    assert batch.count[i] == len(single)
    assert batch.status_names()[i] == single.status
    names = batch.contact_status_names()[i]
    assert names == (single.contact_status or "none")
    if single.normal is None:
        assert not batch.normal[i].any()
    else:
        assert np.array_equal(batch.normal[i], single.normal)
    for j, p in enumerate(single.points):
        assert np.array_equal(batch.point_a[i, j], p.point_a)
        assert np.array_equal(batch.point_b[i, j], p.point_b)
        assert batch.depth[i, j] == p.depth
        assert tuple(batch.id[i, j]) == p.id
    # The unused slots are zero.
    assert not batch.point_a[i, len(single):].any() and not batch.depth[i, len(single):].any()
    assert batch.point_a.shape[1] == k


@pytest.mark.parametrize("dim", [2, 3])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_batch_manifold_equals_the_loop(rng, dim, dtype):
    k = 2 if dim == 2 else 4
    counts = set()
    for _ in range(6):
        a = gjk.shape_from_dict(random_shape(rng, dim), dtype=dtype)
        b = gjk.shape_from_dict(random_shape(rng, dim), dtype=dtype)
        n = 120
        pa, pb = random_rows(rng, n, dim, 0.8), random_rows(rng, n, dim, 0.8)
        batch = gjk.batch_manifold(a, b, pa, pb, prediction=0.05)
        assert len(batch) == n and batch.count.dtype == np.uint8
        assert batch.point_a.shape == (n, k, dim) and batch.id.dtype == np.uint32
        assert batch.depth.shape == (n, k) and batch.id.shape == (n, k, 2)
        for i in range(n):
            single = gjk.manifold(a, b, pose_row(pa[i]), pose_row(pb[i]), prediction=0.05)
            assert_row_is(batch, i, single, k)
            counts.add(len(single))
    # Boxes face to face fill every slot.
    box = gjk.cuboid([1.0] * dim, dtype=dtype)
    rows = np.zeros((3, 3 if dim == 2 else 7))
    rows[:, 1] = [1.9, 1.95, 1.99]
    if dim == 3:
        rows[:, 6] = 1
    batch = gjk.batch_manifold(box, box, None, rows)
    assert list(batch.count) == [k] * 3
    for i in range(3):
        assert_row_is(batch, i, gjk.manifold(box, box, None, pose_row(rows[i])), k)
    assert 0 in counts and 1 in counts


def test_batch_manifold_pairs_form(rng):
    shapes = [gjk.shape_from_dict(random_shape(rng, 3)) for _ in range(6)]
    poses = random_rows(rng, 6, 3, 0.6)
    pairs = np.array([(i, j) for i in range(6) for j in range(6) if i != j])
    batch = gjk.batch_manifold(shapes, pairs=pairs, poses=poses, prediction=0.1)
    for row, (i, j) in enumerate(pairs):
        single = gjk.manifold(shapes[i], shapes[j], pose_row(poses[i]), pose_row(poses[j]),
                              prediction=0.1)
        assert_row_is(batch, row, single, 4)


def test_manifolds_pickle():
    m = gjk.manifold(gjk.cuboid([1, 1, 1]), gjk.cuboid([1, 1, 1]), None,
                     gjk.Pose([0.3, 1.95, 0.0], [0, 0.1, 0, 1]))
    assert len(m) == 4
    m2 = pickle.loads(pickle.dumps(m))
    assert m2 == m and m2.to_dict() == m.to_dict() and repr(m2) == repr(m)
    for p in m.points:
        p2 = pickle.loads(pickle.dumps(p))
        assert p2 == p and p2.to_dict() == p.to_dict()
    apart = gjk.manifold(gjk.circle(1), gjk.circle(1), None, gjk.Pose([3.0, 0.0]))
    assert pickle.loads(pickle.dumps(apart)).to_dict() == apart.to_dict()
    batch = gjk.batch_manifold(gjk.circle(1), gjk.rectangle([1, 1]), None,
                               np.array([[1.5, 0, 0.3], [2.5, 0, 0.0]]))
    b2 = pickle.loads(pickle.dumps(batch))
    for name in batch.__slots__:
        assert np.array_equal(getattr(b2, name), getattr(batch, name)), name


def test_manifold_errors():
    ball = gjk.sphere(1)
    with pytest.raises(ValueError, match="prediction must be >= 0"):
        gjk.manifold(ball, ball, prediction=-0.1)
    with pytest.raises(ValueError, match="prediction must be >= 0"):
        gjk.manifold(ball, ball, prediction=math.nan)
    with pytest.raises(ValueError, match="share dimension and dtype"):
        gjk.manifold(ball, gjk.circle(1))
    with pytest.raises(ValueError, match="pose_b is 2D but the shapes are 3D"):
        gjk.manifold(ball, ball, None, gjk.Pose([1.0, 0.0]))
    with pytest.raises(TypeError):
        gjk.manifold(ball, "ball")
    with pytest.raises(TypeError):
        gjk.manifold(ball, ball, prediction="0.1")
    with pytest.raises(ValueError, match="prediction must be >= 0"):
        gjk.batch_manifold(ball, ball, None, np.zeros((2, 3)), prediction=-1)
    with pytest.raises(TypeError, match="prediction must be a number"):
        gjk.batch_manifold(ball, ball, None, np.zeros((2, 3)), prediction=None)
    bad = np.tile([0, 0, 0, 0, 0, 0, 1.0], (4, 1))
    bad[2, 3:] = 0
    with pytest.raises(ValueError, match=r"poses_b\[2\]: pose: rotation cannot be normalised"):
        gjk.batch_manifold(ball, ball, None, bad)
    with pytest.raises(ValueError, match="not a pickled manifold"):
        gjk._gjk._restore_manifold(3, [0.0] * 4, [0, 0])
