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
    # The manifold and time-of-impact lines: a box sunk 0.01 into a table rests on its four
    # bottom corners; the bar turning a half turn per unit time reaches the box (its corner
    # 1.5 - 0.5 = 1 above the pivot, within the bar's reach 2) before it is upright.
    m, t, ms = scope["m"], scope["t"], scope["ms"]
    assert m.status == "clipped_a" and len(m) == 4
    np.testing.assert_allclose(m.depths, 0.01, atol=1e-12)
    assert t.status == "hit" and 0 < t.toi < 0.5
    assert list(ms.count) == [4] * 10
    np.testing.assert_allclose(ms.depth, 0.01, atol=1e-12)
