"""Shared fixtures: the `gjk` CLI binary (the Rust library through another path) and random
shapes and poses written as `gjk query` JSON, so the same pair goes to both."""

import json
import os
import pathlib
import subprocess

import numpy as np
import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def gjk_cli():
    """Path of the `gjk` binary: $GJK_CLI, else built once with cargo (debug profile)."""
    given = os.environ.get("GJK_CLI")
    if given:
        return given
    out = subprocess.run(
        ["cargo", "build", "-q", "-p", "gjk-cli", "--message-format=json"],
        cwd=REPO, check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg.get("executable") \
                and msg["target"]["name"] == "gjk":
            return msg["executable"]
    pytest.fail("cargo built no gjk binary")


def run_cli(binary, records):
    """Answers of `gjk query` to `records` (dicts), one per record, in order."""
    text = "".join(json.dumps(r) + "\n" for r in records)
    done = subprocess.run([binary, "query"], input=text, capture_output=True, text=True)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(records), done.stderr
    return answers


def _p(rng, dim, scale=1.0):
    return (rng.uniform(-1, 1, dim) * scale).tolist()


def random_shape(rng, dim):
    """A random shape dict of every type the CLI knows (both dimensions), sometimes with a
    centre and a margin."""
    kinds = ["points", "sphere", "ellipsoid", "cuboid", "segment", "triangle", "capsule"]
    if dim == 3:
        kinds += ["cylinder", "cone"]
    kind = kinds[rng.integers(len(kinds))]
    if kind == "points":
        n = int(rng.integers(1, 12))
        d = {"type": "points", "points": rng.uniform(-1, 1, (n, dim)).tolist()}
    elif kind == "sphere":
        d = {"type": "circle" if dim == 2 else "sphere", "radius": float(rng.uniform(0.2, 1))}
        if dim == 2:
            d["center"] = [0.0, 0.0]
    elif kind == "ellipsoid":
        d = {"type": kind, "radii": rng.uniform(0.2, 1, dim).tolist()}
    elif kind == "cuboid":
        d = {"type": "box", "half_extents": rng.uniform(0.1, 1, dim).tolist()}
    elif kind == "segment":
        d = {"type": kind, "a": _p(rng, dim), "b": _p(rng, dim)}
    elif kind == "triangle":
        d = {"type": kind, "a": _p(rng, dim), "b": _p(rng, dim), "c": _p(rng, dim)}
    elif kind == "capsule":
        d = {"type": kind, "a": _p(rng, dim), "b": _p(rng, dim),
             "radius": float(rng.uniform(0, 0.5))}
    else:
        d = {"type": kind, "half_height": float(rng.uniform(0.1, 1)),
             "radius": float(rng.uniform(0.1, 1))}
    if rng.random() < 0.3:
        d["center"] = _p(rng, dim, 0.5)
    if rng.random() < 0.3:
        d["margin"] = float(rng.uniform(0.01, 0.3))
    return d


def random_pose(rng, dim, reach=2.0):
    """A pose dict: translation in [-reach, reach]^dim, random rotation (quaternions not unit,
    both sides normalise them)."""
    if dim == 2:
        return {"translation": _p(rng, 2, reach), "rotation": float(rng.uniform(-4, 4))}
    return {"translation": _p(rng, 3, reach), "rotation": rng.normal(size=4).tolist()}


@pytest.fixture
def rng():
    return np.random.default_rng(17)
