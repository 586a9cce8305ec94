#!/usr/bin/env python3
"""Rewrites README.md's checked output blocks (demo table, CLI example) with the real output.

Run after a deliberate change to the demo or the query output:
    cargo build -p gjk-cli && python3 scripts/refresh-readme.py
crates/gjk-cli/tests/readme.rs checks that the blocks match the program.
"""
import pathlib
import re
import subprocess

root = pathlib.Path(__file__).resolve().parent.parent
readme = root / "README.md"
gjk = root / "target" / "debug" / "gjk"
text = readme.read_text()


def block(marker):
    m = re.search(r"<!-- " + re.escape(marker) + r"[^\n]*\n```[^\n]*\n(.*?)```", text, re.S)
    return m


def replace(marker, body):
    global text
    m = block(marker)
    text = text[: m.start(1)] + body + text[m.end(1):]


replace("demo-output", subprocess.run([gjk, "demo"], capture_output=True, text=True).stdout)
cli_input = block("cli-input").group(1)
out = subprocess.run([gjk, "query"], input=cli_input, capture_output=True, text=True).stdout
replace("cli-output", out)
readme.write_text(text)
