"""The suite's own conventions, checked: helpers are imported from helper modules (never
from `conftest`), a module named `test_*` holds tests, goldens have one switch, and no
test skips itself because one of our own modules or plans might be missing."""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SELF = Path(__file__).name
SOURCES = {
    p.name: p.read_text(encoding="utf-8") for p in sorted(TESTS.glob("*.py")) if p.name != SELF
}


def test_nothing_is_imported_from_conftest():
    bad = [
        n for n, s in SOURCES.items() if re.search(r"^\s*(from conftest |import conftest)", s, re.M)
    ]
    assert bad == []


def test_every_test_module_holds_tests():
    """A helper module is not named `test_*` (pytest would collect it as tests)."""
    empty = []
    for name, source in SOURCES.items():
        if name.startswith("test_"):
            tree = ast.parse(source)
            names = [n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
            if not any(n.startswith("test_") for n in names):
                empty.append(name)
    assert empty == []


def test_one_golden_switch():
    switches = {m for s in SOURCES.values() for m in re.findall(r"MIGRATE_UPDATE_\w+", s)}
    assert switches == {"MIGRATE_UPDATE_GOLDENS"}
    writers = [n for n, s in SOURCES.items() if 'MIGRATE_UPDATE_GOLDENS")' in s]
    assert writers == ["helpers.py"]


def test_no_skip_guard_on_our_own_modules_or_plans():
    guard = re.compile(r"importorskip\(\s*[\"']migrate|skipif\(\s*not\s+\w*PLAN\w*\.exists")
    assert [n for n, s in SOURCES.items() if guard.search(s)] == []


def test_the_engine_is_passed_in_never_swapped_through_a_module_attribute():
    """A test that needs another engine passes it (`apply_plan(..., engine=)`, `verify(...,
    engine=)`, `main(args, obj=engine)`); it never assigns or monkeypatches a module's
    engine function, which would reach every caller behind the test's back."""
    sources = {
        **SOURCES,
        **{f"bench/{p.name}": p.read_text() for p in TESTS.parent.glob("bench/*.py")},
    }
    swap = re.compile(
        r"setattr\([^,]+,\s*[\"'](plan_changeset|plan_changes|_plan_changes|engine_fingerprint)[\"']"
        r"|\.(plan_changeset|plan_changes|engine_fingerprint)\s*=[^=]"
    )
    assert [n for n, s in sources.items() if swap.search(s)] == []
