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


def test_statuses_are_the_cli_vocabulary(gjk_cli):
    """The package's status words are those `gjk query --help` lists, in its order."""
    import subprocess
    help_text = subprocess.run([gjk_cli, "query", "--help"], capture_output=True,
                               text=True, check=True).stdout
    table = help_text.split("(epa_* when EPA ran):")[1].split("Numbers print")[0]
    listed = [line.split()[0] for line in table.splitlines() if line.strip()]
    assert list(gjk.STATUSES) == listed
