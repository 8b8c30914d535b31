"""Real SGLang wheels (cached under ~/.cache/migrate; never committed).

Opt-in (a real tree takes tens of seconds on a loaded machine):
`MIGRATE_REAL_TREES=1 pytest tests/test_rules_real.py`. bench/check.md records the
findings and their verdicts.
"""

from __future__ import annotations

import os
import time

import pytest
from realtrees import Unavailable, sglang_tree

from migrate.rules import run_rules
from migrate.rules.load import repo_tree

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not os.environ.get("MIGRATE_REAL_TREES"), reason="MIGRATE_REAL_TREES=1"),
]


def _tree(version: str):
    try:
        return repo_tree(sglang_tree(version))[1]
    except Unavailable as exc:
        pytest.skip(str(exc))


def test_real_0_5_17_kernels_tree():
    tree = _tree("0.5.17")
    t0 = time.process_time()
    findings = run_rules(tree)
    cpu = time.process_time() - t0
    assert cpu < 20, f"rules took {cpu:.1f} s of CPU on {len(tree.paths)} files"
    rules = {f.check for f in findings}
    # targets into other distributions (sgl_kernel) are not "unresolved"
    assert "KO204" not in rules
    # the README really omits two groups of _GROUPS in 0.5.17
    drift = [f.message for f in findings if f.check == "KO102"]
    assert any("'mm'" in m for m in drift)


def test_real_0_5_15_suggest_draft_covers_the_legacy_package():
    from migrate.rules.context import Context
    from migrate.suggest.draft import draft_plan

    tree = _tree("0.5.15")
    draft = draft_plan(tree, "sglang.jit_kernel", Context(tree))
    groups = {d.src: d.group for d in draft.decisions}
    assert groups["sglang.jit_kernel.all_reduce"] == "communication"
    assert groups["sglang.jit_kernel.norm"] == "layernorm"
    assert groups["sglang.jit_kernel.utils"] == "jit"


def test_real_0_5_16_stale_registry_target_is_found():
    tree = _tree("0.5.16")
    stale = [f for f in run_rules(tree) if f.check == "KO204"]
    assert [f.pos.file for f in stale] == ["sglang/kernels/ops/kvcache/__init__.py"]
    assert "trtllm_fp8_kv_kernel" in stale[0].message
