"""docs/rewrite-forms.md, issue 12's table of forms, stays true.

Every row names at least one golden case and one pytest node id; every node id listed is
collected by pytest (one `pytest --collect-only` over the files the table names, run once
for the module), every golden case named exists (and its `test_golden[case]` is
collected), and every case directory under golden/rewrite/ appears in some row: a new
golden must be listed. A doctored copy of the table shows each check failing.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from helpers import GOLDEN, REPO_ROOT

TABLE = REPO_ROOT / "docs" / "rewrite-forms.md"
GOLDEN_TEST = "tests/test_rewrite_golden.py"
CHECK_KEYS = {"E", "E2", "T", "N", "R", "D", "V", "O"}

_TICKED = re.compile(r"`([^`]+)`")
_NODE = re.compile(r"^tests/[\w/]+\.py::\w+(\[[^\]]*\])?$")
_ROW_ID = re.compile(r"^[A-Z]\d+$")


def rows(text: str) -> list[tuple[str, list[str], list[str], str]]:
    """(id, golden cases, node ids, checks) of every row of the tables whose header is
    `| id | form | ...`; each row's first cell is its id (`B1`, `M7`, ...)."""
    out = []
    in_forms = False
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().split("|")]
        if len(cells) < 3:
            in_forms = False
            continue
        if cells[1:3] == ["id", "form"]:
            in_forms = True
        if not in_forms or not _ROW_ID.match(cells[1]):
            continue
        assert len(cells) == 7, f"row {cells[1]}: {len(cells) - 2} cells, want 5: {line}"
        rid, _form, cases, tests, checks = cells[1:6]
        out.append((rid, _TICKED.findall(cases), _TICKED.findall(tests), checks))
    return out


def golden_cases() -> set[str]:
    return {p.name for p in (GOLDEN / "rewrite").iterdir() if (p / "before").is_dir()}


def collected(files: list[str]) -> set[str]:
    """Node ids pytest collects from `files` (relative to the repository root)."""
    env = dict(os.environ, OMP_NUM_THREADS="1")
    cmd = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
    res = subprocess.run(
        [*cmd, *files], cwd=REPO_ROOT, capture_output=True, text=True, env=env, timeout=120
    )
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return {line.strip() for line in res.stdout.splitlines() if "::" in line}


def files_of(table: list) -> list[str]:
    return sorted({n.split("::")[0] for _, _, nodes, _ in table for n in nodes} | {GOLDEN_TEST})


def problems(text: str, have: set[str], cases: set[str]) -> list[str]:
    """What is wrong with the table `text`, given the node ids pytest collects (`have`)
    and the golden cases on disk (`cases`)."""
    table = rows(text)
    found = []
    seen_ids, named = set(), set()
    for rid, goldens, nodes, checks in table:
        if rid in seen_ids:
            found.append(f"{rid}: the id is used twice")
        seen_ids.add(rid)
        if not goldens:
            found.append(f"{rid}: names no golden case")
        if not nodes:
            found.append(f"{rid}: names no test")
        for case in goldens:
            named.add(case)
            if case not in cases:
                found.append(f"{rid}: no golden case golden/rewrite/{case}/")
            elif f"{GOLDEN_TEST}::test_golden[{case}]" not in have:
                found.append(f"{rid}: test_golden[{case}] is not collected")
        for node in nodes:
            if not _NODE.match(node):
                found.append(f"{rid}: not a node id: {node}")
            elif node not in have and not any(h.startswith(node + "[") for h in have):
                found.append(f"{rid}: pytest collects no {node}")
        keys = {k.strip().split(" ")[0] for k in checks.split(",")}
        if not keys or not keys <= CHECK_KEYS:
            found.append(f"{rid}: unknown checks {sorted(keys - CHECK_KEYS)}")
    found += [f"golden/rewrite/{c}/ is in no row" for c in sorted(cases - named)]
    return found


@pytest.fixture(scope="module")
def table_text() -> str:
    return TABLE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def have(table_text) -> set[str]:
    return collected(files_of(rows(table_text)))


def test_every_form_names_collected_tests_and_existing_goldens(table_text, have):
    table = rows(table_text)
    assert len(table) >= 70, len(table)  # issue 12's forms, one row each, and the later ones
    assert problems(table_text, have, golden_cases()) == []


def test_the_table_check_fails_on_a_missing_test_a_missing_golden_and_an_unlisted_one(
    table_text, have
):
    """The check is not vacuous: a row naming a test pytest does not collect, a
    parametrization that does not exist, a golden case that does not exist, and a golden
    case no row names are each reported."""
    lines = table_text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("| B1 |"))
    missing = "tests/test_rewrite_bindings.py::test_no_such_form_is_rewritten"
    bad_param = "tests/test_rewrite_bindings.py::test_binding_form_is_rewritten_and_runs[nope]"
    row = f"| B99 | a form | `binding-no-such-case` | `{missing}`, `{bad_param}` | E |"
    lines.insert(at + 1, row)
    doctored = "\n".join(lines) + "\n"
    cases = golden_cases() | {"binding-listed-nowhere"}
    assert problems(doctored, have, cases) == [
        "B99: no golden case golden/rewrite/binding-no-such-case/",
        f"B99: pytest collects no {missing}",
        f"B99: pytest collects no {bad_param}",
        "golden/rewrite/binding-listed-nowhere/ is in no row",
    ]
