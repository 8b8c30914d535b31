"""`migrate suggest`: a complete, valid draft whose result passes `migrate check`."""

from __future__ import annotations

from click.testing import CliRunner
from rules_fixtures import fixture_tree

from migrate.cli import main
from migrate.index import build_index
from migrate.materialize import materialize
from migrate.pipeline import prepare
from migrate.plan.load import parse_plan
from migrate.rules import run_rules
from migrate.rules.context import Context
from migrate.rules.load import plan_changeset, repo_tree
from migrate.suggest.draft import draft_plan
from migrate.suggest.yaml_out import render


def draft_of(tree):
    """The draft for the sample's legacy package, with the rules' facts of `tree`."""
    return draft_plan(tree, "sglang.jit_kernel", Context(tree))


def draft_yaml(repo) -> str:
    res = CliRunner().invoke(main, ["suggest", "--from", "sglang.jit_kernel", "--repo", str(repo)])
    assert res.exit_code == 0, res.output
    return res.output


def test_draft_validates_covers_every_legacy_file_and_passes_check(sample_copy, tmp_path):
    text = draft_yaml(sample_copy)
    plan_path = tmp_path / "draft.yaml"
    plan_path.write_text(text)
    plan, errors = parse_plan(text, str(plan_path))
    assert errors == []
    prep = prepare(plan_path, sample_copy)  # raises MigrateError if invalid
    legacy = [
        f
        for f in prep.index.files_under("python/sglang/jit_kernel")
        if not f.endswith("__init__.py")
    ]
    assert set(legacy) <= set(prep.relocation.files)
    cs, source = plan_changeset(prep)
    assert source == "engine"
    errors = [f for f in run_rules(materialize(cs, prep.index)) if f.severity == "error"]
    assert errors == []


def test_draft_decisions_on_the_sample(sample_copy):
    _, tree = repo_tree(sample_copy)
    draft = draft_of(tree)
    d = {x.src: x for x in draft.decisions}
    assert d["sglang.jit_kernel.utils"].dst == "sglang.kernels.jit.utils"
    assert d["python/sglang/jit_kernel/csrc"].dst == "python/sglang/kernels/jit/csrc"
    assert d["sglang.jit_kernel.allreduce_rmsnorm"].group == "communication"
    assert d["sglang.jit_kernel.norm_quant"].group == "layernorm"
    assert d["sglang.jit_kernel.qknorm_rope"].group == "attention"
    assert d["sglang.jit_kernel.page_table"].group == "attention"
    assert d["sglang.jit_kernel.kvcache"].group == "kvcache"
    assert d["sglang.jit_kernel.quant"].group == "quantization"
    assert d["sglang.jit_kernel.deepseek_v3"].dst == "sglang.kernels.ops.moe.deepseek_v3"
    # the GEMM package becomes the gemm group, its tuning data beside the module
    assert d["sglang.jit_kernel.gemm"].dst == "sglang.kernels.ops.gemm"
    # tests go to their group's directory; a test of two groups is marked for review
    t = d["test/registered/kernels/test_rmsnorm.py"]
    assert t.dst == "test/registered/kernels/ops/layernorm/test_rmsnorm.py"
    b = d["test/registered/kernels/benchmark/bench_scaled_mm.py"]
    assert b.dst == "test/registered/kernels/benchmark/gemm/bench_scaled_mm.py"
    # a test of two groups is split by test unit, not moved whole
    assert "test/registered/kernels/test_norm_rope.py" not in d
    (split,) = draft.splits
    outputs = {group: take for _, group, take in split.outputs}
    assert outputs["attention"] == ("rest",)
    assert set(outputs["layernorm"]) == {
        "TestFusedAddRMSNorm",
        "test_rmsnorm_quant_scale_per_token",
    }
    assert d["sglang.jit_kernel.norm"].review  # carries a __main__ benchmark


def test_yaml_has_evidence_review_markers_op_ids_and_groups(sample_copy):
    text = draft_yaml(sample_copy)
    assert "#   evidence: " in text and "# REVIEW " in text
    assert "  - from: jit.rmsnorm\n    to: layernorm.rmsnorm" in text
    assert "groups:\n  add:\n" in text and "    - communication" in text
    assert "splits:\n  # REVIEW " in text and "take: [rest]" in text
    assert text.rstrip().splitlines()[-1].endswith("marked REVIEW.")


def test_draft_is_deterministic(sample_copy):
    _, tree = repo_tree(sample_copy)
    assert render(draft_of(tree)) == render(draft_of(repo_tree(sample_copy)[1]))


def test_jit_prefix_dropped_and_infrastructure_found():
    d = {x.src: x for x in draft_of(fixture_tree("legacy_layout", "bad")).decisions}
    assert d["sglang.jit_kernel._jit_norm"].dst == "sglang.kernels.ops.layernorm.norm"
    assert d["sglang.jit_kernel.all_reduce"].group == "communication"
    assert d["sglang.jit_kernel.utils"].what == "infrastructure"


def test_unknown_package_exits_two(make_repo):
    repo = make_repo({"python/sglang/__init__.py": ""})
    res = CliRunner().invoke(main, ["suggest", "--from", "sglang.nope", "--repo", str(repo)])
    assert res.exit_code == 2 and "not found" in res.output


def test_index_roots_detected(sample_copy):
    assert build_index(sample_copy, ("python",)).modules["sglang.jit_kernel.norm"]
