"""The README's Python example runs as printed, and its answers are the closed-form ones."""

import pathlib
import re

import numpy as np

README = pathlib.Path(__file__).resolve().parents[3] / "README.md"


def test_readme_example_runs():
    text = README.read_text()
    section = text.split("## Python", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    scope = {}
    exec(compile(code, "README.md", "exec"), scope)
    d, hits = scope["d"], scope["hits"]
    assert d.shape == (100_000,) and d.dtype == np.float64
    assert hits.dtype == bool and hits.shape == (2,)
    # The box at x = 0 overlaps a hull of normal points around the origin; at x = 5 it is
    # farther than the hull's reach minus the box's half-diagonal.
    assert d[0] == 0 and d[-1] > 0
    assert np.all(np.diff(d[d > 0]) >= -1e-12)  # moving away only increases the gap
