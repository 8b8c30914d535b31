"""`migrate check` on kernels_sample/ before migration reports the legacy layout."""

from __future__ import annotations

from collections import Counter

from migrate.rules import run_rules
from migrate.rules.load import repo_tree


def test_sample_before_migration_reports_the_legacy_layout(sample_copy):
    _, tree = repo_tree(sample_copy)
    findings = run_rules(tree)
    by_rule = Counter(f.check for f in findings)
    legacy = [
        p
        for p in tree.files_under("python/sglang/jit_kernel")
        if p.endswith(".py")
        and "/" not in p[len("python/sglang/jit_kernel/") :]
        and not p.endswith("__init__.py")
    ]
    reported = {f.pos.file for f in findings if f.check == "KO601"}
    assert set(legacy) <= reported  # every top-level legacy module gets its destination
    assert "python/sglang/jit_kernel/csrc" in reported
    # flat kernel tests, legacy `jit.*` op ids, the ad-hoc benchmark in norm.py
    assert by_rule["KO502"] >= 10
    assert by_rule["KO202"] == 5
    assert any(f.check == "KO503" and f.pos.file.endswith("jit_kernel/norm.py") for f in findings)
    # nothing about the correct parts: the communication adapter, plugins, backends
    assert not [f for f in findings if f.check in ("KO104", "KO204", "KO301", "KO302")]
