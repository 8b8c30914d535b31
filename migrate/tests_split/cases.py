"""Test cases of one file as pytest would collect them, found with `ast` (no code runs).

A case is named by its node id inside the file (`TestX::test_y[4-float32]`,
`test_f[a]`); `unit` is the top-level class or function a split moves as a whole.
"""

from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass

from migrate.tests_split.params import ParamIds, is_parametrize, module_env, parametrize_ids

FUNC = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass(frozen=True)
class TestCase:
    __test__ = False  # not a pytest test class itself

    name: str  # node id within the file: [Class::]function[[ids]]
    unit: str  # top-level class or function that holds it
    function: str
    cls: str | None
    line: int
    kind: str  # function | pytest-class | unittest
    exact: bool = True  # False when pytest may spell the ids differently

    def node_id(self, path: str) -> str:
        return f"{path}::{self.name}"


def _base_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _class_flag(cls: ast.ClassDef, name: str) -> object:
    for stmt in cls.body:
        if isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in stmt.targets
        ):
            try:
                return ast.literal_eval(stmt.value)
            except ValueError:
                return None
    return None


class _Classes:
    """In-file classes, with unittest-ness and inherited methods resolved."""

    def __init__(self, tree: ast.Module):
        self.defs = {s.name: s for s in tree.body if isinstance(s, ast.ClassDef)}

    def is_unittest(self, cls: ast.ClassDef, seen: frozenset = frozenset()) -> bool:
        for base in cls.bases:
            name = _base_name(base)
            if name.endswith("TestCase"):
                return True
            local = self.defs.get(name)
            if local is not None and name not in seen and self.is_unittest(local, seen | {name}):
                return True
        return False

    def methods(self, cls: ast.ClassDef, seen: frozenset = frozenset()) -> dict[str, ast.stmt]:
        """Method name -> def, subclass first, then in-file bases in MRO-ish order."""
        out: dict[str, ast.stmt] = {}
        for base in reversed(cls.bases):
            local = self.defs.get(_base_name(base))
            if local is not None and local.name not in seen:
                out.update(self.methods(local, seen | {cls.name}))
        for stmt in cls.body:
            if isinstance(stmt, FUNC):
                out[stmt.name] = stmt
            elif isinstance(stmt, ast.Assign):
                for t in stmt.targets:  # `test_x = None` hides an inherited test
                    if isinstance(t, ast.Name):
                        out[t.id] = stmt
        return out


def module_parametrize(tree: ast.Module) -> list[ast.Call]:
    """Parametrize marks applied to every test through `pytestmark`."""
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in stmt.targets
        ):
            value = stmt.value
            marks = value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value]
            return [m for m in marks if is_parametrize(m)]
    return []


def _expand(base: str, marks: list[ast.Call], env: dict) -> list[tuple[str, bool]]:
    """Node-id tails for a test function under `marks` (innermost first)."""
    if not marks:
        return [(base, True)]
    per_mark: list[ParamIds] = [parametrize_ids(m, env) for m in marks]
    if any(p.ids is None for p in per_mark):
        return [(f"{base}[*]", False)]
    combos = itertools.product(*(zip(p.ids, p.exact, strict=True) for p in per_mark))
    return [
        (f"{base}[{'-'.join(i for i, _ in combo)}]", all(ok for _, ok in combo)) for combo in combos
    ]


def _own_marks(node: ast.stmt) -> list[ast.Call]:
    """Parametrize decorators in the order pytest applies them (bottom one first)."""
    return [d for d in reversed(getattr(node, "decorator_list", [])) if is_parametrize(d)]


def cases_in(tree: ast.Module) -> list[TestCase]:
    env = module_env(tree)
    classes = _Classes(tree)
    mod_marks = module_parametrize(tree)
    out: list[TestCase] = []
    for stmt in tree.body:
        if isinstance(stmt, FUNC) and stmt.name.startswith("test"):
            for tail, exact in _expand(stmt.name, _own_marks(stmt) + mod_marks, env):
                out.append(
                    TestCase(tail, stmt.name, stmt.name, None, stmt.lineno, "function", exact)
                )
        elif isinstance(stmt, ast.ClassDef):
            out.extend(_class_cases(stmt, classes, env, mod_marks))
    return out


def _class_cases(cls: ast.ClassDef, classes: _Classes, env: dict, mod_marks) -> list[TestCase]:
    if _class_flag(cls, "__test__") is False:
        return []
    unittest = classes.is_unittest(cls)
    if not unittest and not cls.name.startswith("Test"):
        return []
    methods = classes.methods(cls)
    if not unittest and "__init__" in methods:
        return []  # pytest refuses classes with a constructor
    kind = "unittest" if unittest else "pytest-class"
    out = []
    if unittest:  # unittest's loader sorts test method names
        methods = dict(sorted(methods.items()))
    for name, node in methods.items():
        if not (name.startswith("test") and isinstance(node, FUNC)):
            continue
        marks = [] if unittest else _own_marks(node) + _own_marks(cls) + mod_marks
        for tail, exact in _expand(name, marks, env):
            out.append(
                TestCase(f"{cls.name}::{tail}", cls.name, name, cls.name, node.lineno, kind, exact)
            )
    return out


def parse_cases(text: str, path: str = "<string>") -> list[TestCase]:
    """Every test case of a file in collection order (SyntaxError propagates)."""
    return cases_in(ast.parse(text, filename=path))
