"""Inline suppressions: per line and per file, for listed rules or all."""

from __future__ import annotations

from rules_fixtures import tree_of

from migrate.rules import run_rules

FP8 = "python/sglang/kernels/ops/layernorm/fused.py"
SRC = (
    "{head}from sglang.srt.managers.schedule_batch import ScheduleBatch{tail}\n\n\n"
    "def fused(x):\n    return x\n"
)


def rules_for(head: str = "", tail: str = "") -> set[str]:
    tree = tree_of({FP8: SRC.format(head=head, tail=tail)})
    return {f.check for f in run_rules(tree) if f.pos.file == FP8}


def test_reported_without_suppression():
    assert rules_for() == {"KO301"}


def test_line_suppression_for_that_rule():
    assert rules_for(tail="  # migrate: ignore[KO301]") == set()
    assert rules_for(tail="  # migrate: ignore[KO999]") == {"KO301"}
    assert rules_for(tail="  # migrate: ignore") == set()


def test_file_suppression():
    assert rules_for(head="# migrate: ignore-file[KO301]\n") == set()
    assert rules_for(head="# migrate: ignore-file[KO403]\n") == {"KO301"}
