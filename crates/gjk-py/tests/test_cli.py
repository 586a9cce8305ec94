"""The package answers exactly as `gjk query` (the Rust library through its CLI) on random
pairs of every shape type, 2D and 3D, with centres, margins and rotations.

Oracle: the `gjk` binary's JSON answers. Tolerance: none for the words (`status`,
`intersects`) and 1e-12 relative/absolute for the numbers (both sides run the same f64 code;
JSON carries shortest round-trip numbers, so in practice they agree to the bit)."""

import numpy as np
import pytest

import gjk
from conftest import random_pose, random_shape, run_cli


def pose_of(d):
    return gjk.Pose(d["translation"], d["rotation"])


@pytest.mark.parametrize("dim", [2, 3])
def test_closest_points_equal_the_cli(gjk_cli, rng, dim):
    records = []
    for i in range(300):
        records.append({"id": i, "a": random_shape(rng, dim), "b": random_shape(rng, dim),
                        "pose_a": random_pose(rng, dim), "pose_b": random_pose(rng, dim)})
    answers = run_cli(gjk_cli, records)
    intersecting = 0
    for record, cli in zip(records, answers):
        assert "error" not in cli, (record, cli)
        a, b = gjk.shape_from_dict(record["a"]), gjk.shape_from_dict(record["b"])
        mine = gjk.closest_points(a, b, pose_of(record["pose_a"]), pose_of(record["pose_b"]))
        got = mine.to_dict()
        assert got["status"] == cli["status"], record
        assert got["intersects"] == cli["intersects"], record
        assert got["iterations"] == cli["iterations"], record
        for key in ("distance", "penetration_depth", "point_a", "point_b", "normal"):
            np.testing.assert_allclose(got[key], cli[key], rtol=1e-12, atol=1e-12,
                                       err_msg=f"{key} of {record}")
        intersecting += cli["intersects"]
    # The pairs cover both answers.
    assert 20 < intersecting < 280


def words(table):
    return [line.split()[0] for line in table.splitlines() if line.strip()]


def test_statuses_are_the_cli_vocabulary(gjk_cli):
    """The package's status words are those `gjk query --help` lists, in its order."""
    import subprocess
    help_text = subprocess.run([gjk_cli, "query", "--help"], capture_output=True,
                               text=True, check=True).stdout
    proximity = help_text.split("(epa_* when EPA ran):")[1].split("ANSWER to ray_cast")[0]
    assert list(gjk.STATUSES) == words(proximity)
    casts = help_text.split("how the cast ended:")[1].split("ANSWER to shape_cast")[0]
    assert list(gjk.CAST_STATUSES) == words(casts)


def same(got, cli, record):
    """`got` (a to_dict) equals the CLI's record: words exactly, numbers within 1e-12."""
    for key, value in cli.items():
        if key == "id":
            continue
        if isinstance(value, (str, bool)) or value is None or key == "iterations":
            assert got[key] == value if value is not None else got[key] is None, (key, record)
        else:
            np.testing.assert_allclose(got[key], value, rtol=1e-12, atol=1e-12,
                                       err_msg=f"{key} of {record}")


@pytest.mark.parametrize("dim", [2, 3])
def test_casts_equal_the_cli(gjk_cli, rng, dim):
    records = []
    for i in range(150):
        pose = random_pose(rng, dim)
        origin = rng.uniform(-4, 4, dim)
        # Aimed near the shape's origin, so that about half the rays hit.
        aim = np.array(pose["translation"]) + rng.normal(size=dim) * 0.7 - origin
        records.append({"id": i, "query": "ray_cast", "shape": random_shape(rng, dim),
                        "pose": pose, "origin": origin.tolist(),
                        "direction": (aim * rng.uniform(0.2, 2)).tolist(),
                        "max_toi": float(rng.uniform(0.5, 5)), "solid": bool(rng.random() < 0.7)})
        records.append({"id": i, "query": "shape_cast", "a": random_shape(rng, dim),
                        "b": random_shape(rng, dim), "pose_a": random_pose(rng, dim, 4),
                        "pose_b": random_pose(rng, dim, 4),
                        "velocity_a": rng.normal(size=dim).tolist(),
                        "velocity_b": rng.normal(size=dim).tolist(),
                        "max_toi": float(rng.uniform(0.5, 3))})
    answers = run_cli(gjk_cli, records)
    seen = set()
    for r, cli in zip(records, answers):
        assert "error" not in cli, (r, cli)
        if r["query"] == "ray_cast":
            got = gjk.ray_cast(gjk.shape_from_dict(r["shape"]), r["origin"], r["direction"],
                               pose_of(r["pose"]), r["max_toi"], r["solid"]).to_dict()
        else:
            got = gjk.shape_cast(gjk.shape_from_dict(r["a"]), gjk.shape_from_dict(r["b"]),
                                 r["velocity_a"], r["velocity_b"], pose_of(r["pose_a"]),
                                 pose_of(r["pose_b"]), r["max_toi"]).to_dict()
        same(got, cli, r)
        seen.add((r["query"], cli["status"]))
    for query in ("ray_cast", "shape_cast"):
        assert {(query, "hit"), (query, "no_hit")} <= seen
