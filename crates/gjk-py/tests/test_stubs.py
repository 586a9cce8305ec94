"""The type stubs parse and name exactly what the native module holds (a broken stub once
shipped unnoticed: half a class pasted after the classes, which no import would catch)."""

import ast
import pathlib

import gjk
from gjk import _gjk

STUB = pathlib.Path(gjk.__file__).with_name("_gjk.pyi")


def test_stub_names_match_the_native_module():
    tree = ast.parse(STUB.read_text())
    stubbed = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            stubbed.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            stubbed.add(node.target.id)
    native = {name for name in dir(_gjk) if not name.startswith("__")}
    assert stubbed - {"_Vector", "_F64"} == native


def test_stub_classes_list_the_native_attributes():
    tree = ast.parse(STUB.read_text())
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        members = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        native = {m for m in dir(getattr(_gjk, node.name)) if not m.startswith("_")}
        assert native <= members, (node.name, native - members)
