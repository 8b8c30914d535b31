"""Split every multi-test file of a real SGLang wheel in two (opt-in, like test_rules_real):
`MIGRATE_REAL_TREES=1 pytest tests/test_split_real.py`.

Each split must keep every case exactly once, and its outputs must have no undefined
name and no unused import (ruff F821/F401), except where split_file itself reported why
(a test calling another test, a `__main__` block calling tests by name).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from realtrees import Unavailable, sglang_tree

from migrate.errors import Pos
from migrate.plan.model import Split, SplitOutput
from migrate.tests_split.cases import parse_cases
from migrate.tests_split.inventory import inventory_of_texts
from migrate.tests_split.split import split_file

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not os.environ.get("MIGRATE_REAL_TREES"), reason="MIGRATE_REAL_TREES=1"),
]


def test_real_0_5_15_test_files_split_in_two(tmp_path):
    try:
        root = sglang_tree("0.5.15")
    except Unavailable as exc:
        pytest.skip(str(exc))
    texts = {p.relative_to(root).as_posix(): p.read_text() for p in root.rglob("test_*.py")}
    inv = inventory_of_texts(texts)
    assert len(inv.files) > 100
    explained: set[str] = set()
    split_count = 0
    for path, f in sorted(inv.files.items()):
        units = sorted({c.unit for c in f.cases})
        if f.error or len(units) < 2:
            continue
        split_count += 1
        outs = (f"{split_count}/a/test_a.py", f"{split_count}/b/test_b.py")
        sp = Split(
            path,
            (
                SplitOutput(outs[0], tuple(units[: len(units) // 2]), Pos("p")),
                SplitOutput(outs[1], ("rest",), Pos("p")),
            ),
            Pos("p"),
        )
        res = split_file(texts[path], path, sp)
        after = Counter(c.name for t in res.outputs.values() for c in parse_cases(t))
        assert after == Counter(c.name for c in f.cases) or not res.ok, path
        if not res.ok or any("calls tests by name" in n.message for n in res.notes):
            explained.update(outs)
        for out, text in res.outputs.items():
            (tmp_path / out).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / out).write_text(text)
    assert split_count > 50
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--no-cache",
            "--isolated",
            "--select",
            "F401,F821",
            "--output-format",
            "concise",
            ".",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    unexplained = [
        line
        for line in proc.stdout.splitlines()
        if ":" in line
        and line.split(":", 1)[0] not in explained
        and Path(tmp_path / line.split(":", 1)[0]).exists()
    ]
    assert unexplained == []
