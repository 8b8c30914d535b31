"""Chained plans: `apply A.yaml B.yaml` is one relocation from the tree as it is."""

from __future__ import annotations

import subprocess

import pytest
from click.testing import CliRunner
from helpers import PLANS, git
from prep_helpers import BASE_TREE
from test_verify import rebuild_with_hand_edit
from test_verify_sample import PLAN, fresh_sample

from migrate.cli import main
from migrate.errors import MigrateError
from migrate.index import build_index
from migrate.pipeline import prepare
from migrate.plan import parse_plan
from migrate.plan.compose import compose_all
from migrate.report import collect_range

CHAIN = [PLANS / "sample-chain-1-jit-to-ops.yaml", PLANS / "sample-chain-2-regroup.yaml"]
A = """\
version: 1
roots: [python, .]
moves:
  - from: sglang.jit_kernel.norm
    to: sglang.kernels.ops.attention.norm
  - from: python/sglang/jit_kernel/csrc/
    to: python/sglang/kernels/jit/csrc/
"""
B = """\
version: 1
roots: [python, .]
moves:
  - from: sglang.kernels.ops.attention.norm
    to: sglang.kernels.ops.layernorm.moe.norm
  - from: sglang.jit_kernel.rope
    to: sglang.kernels.ops.attention.rope
  - from: python/sglang/kernels/jit/csrc/norm.cuh
    to: python/sglang/kernels/jit/csrc/layernorm/norm.cuh
op_ids:
  - {from: x.a, to: y.a}
"""


def test_compose_makes_one_relocation(make_repo, tmp_path):
    repo = make_repo(BASE_TREE)
    b, _ = parse_plan(B.replace("x.a", "z.a"), "b.yaml")
    a2, _ = parse_plan(A + "op_ids:\n  - {from: x.a, to: z.a}\n", "a.yaml")
    plan = compose_all([a2, b], build_index(repo, ("python", ".")))
    assert [(m.src, m.dst) for m in plan.moves] == [
        ("sglang.jit_kernel.norm", "sglang.kernels.ops.layernorm.moe.norm"),
        ("python/sglang/jit_kernel/csrc/", "python/sglang/kernels/jit/csrc/"),
        ("sglang.jit_kernel.rope", "sglang.kernels.ops.attention.rope"),
        (
            "python/sglang/jit_kernel/csrc/norm.cuh",
            "python/sglang/kernels/jit/csrc/layernorm/norm.cuh",
        ),
    ]
    assert [(o.src, o.dst) for o in plan.op_ids] == [("x.a", "y.a")]
    assert plan.moves[0].pos.file == "a.yaml" and plan.moves[3].pos.file == "b.yaml"
    assert plan.sha256 not in (a2.sha256, b.sha256)


def test_a_chain_keeps_the_position_of_every_listed_name(make_repo, tmp_path):
    """Roots, groups and deletes carry their position through composition: a chain's
    root that holds no files is an error at its line, as it is in a single plan (the
    positions were a parallel tuple that composition dropped, so a chain skipped it)."""
    repo = make_repo(BASE_TREE)
    groups = "groups:\n  add: [lora]\n  remove: [layernorm]\n"
    a, _ = parse_plan(A + groups, "a.yaml")
    b, _ = parse_plan(B.replace("[python, .]", "[python, nowhere]") + "delete: [x.y]\n", "b.yaml")
    plan = compose_all([a, b], build_index(repo, ("python", ".")))
    listed = (*plan.roots, *plan.groups_add, *plan.groups_remove, *plan.delete)
    where = {n: (n.pos.file, n.pos.line) for n in listed}
    assert where == {
        "python": ("a.yaml", 2),
        ".": ("a.yaml", 2),
        "nowhere": ("b.yaml", 2),
        "lora": ("a.yaml", 9),
        "layernorm": ("a.yaml", 10),
        "x.y": ("b.yaml", 12),
    }
    (tmp_path / "a.yaml").write_text(A)
    (tmp_path / "b.yaml").write_text(B.replace("[python, .]", "[python, nowhere]"))
    with pytest.raises(MigrateError) as exc:
        prepare([tmp_path / "a.yaml", tmp_path / "b.yaml"], repo)
    assert [(d.pos.file, d.pos.line, d.message) for d in exc.value.diagnostics] == [
        (str(tmp_path / "b.yaml"), 2, "root 'nowhere' holds no files")
    ]


def test_chain_through_prepare_relocates_each_file_once(make_repo, tmp_path):
    repo = make_repo(BASE_TREE)
    (tmp_path / "a.yaml").write_text(A)
    (tmp_path / "b.yaml").write_text(B)
    prep = prepare([tmp_path / "a.yaml", tmp_path / "b.yaml"], repo)
    assert prep.relocation.files["python/sglang/jit_kernel/norm.py"] == (
        "python/sglang/kernels/ops/layernorm/moe/norm.py"
    )
    assert prep.relocation.files["python/sglang/jit_kernel/csrc/norm.cuh"] == (
        "python/sglang/kernels/jit/csrc/layernorm/norm.cuh"
    )


def _tree(repo) -> dict[str, bytes]:
    files = subprocess.run(
        ["git", "ls-files"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.split()
    return {f: (repo / f).read_bytes() for f in files if f != ".git-blame-ignore-revs"}


def _apply(repo, *plans):
    res = CliRunner().invoke(main, ["apply", *map(str, plans), "--repo", str(repo)])
    assert res.exit_code == 0, res.output
    return res.output


def test_sample_in_two_chained_plans_equals_the_single_sample_plan(tmp_path):
    single = fresh_sample(tmp_path / "single")
    _apply(single, PLAN)
    chained = fresh_sample(tmp_path / "chained")
    out = _apply(chained, *CHAIN)
    assert out.count("migrate(relocate): relocate") == 1  # one relocation, not two
    stepwise = fresh_sample(tmp_path / "stepwise")
    _apply(stepwise, CHAIN[0])
    _apply(stepwise, CHAIN[1])
    expected = _tree(single)
    assert _tree(chained) == expected
    assert _tree(stepwise) == expected


def test_fix_forward_through_a_chain(tmp_path):
    """A file written before the chain, landing after it, is fixed through both plans."""
    repo = fresh_sample(tmp_path / "s")
    _apply(repo, *CHAIN)
    late = repo / "python/sglang/srt/late.py"
    late.write_text(
        "from sglang.jit_kernel.kvcache import store_kv_cache\n"
        "from sglang.kernels.ops.elementwise.min_p import min_p_sampling_from_probs\n"
    )
    res = CliRunner().invoke(main, ["fix", *map(str, CHAIN), "--repo", str(repo)])
    assert res.exit_code == 0, res.output
    assert late.read_text() == (
        "from sglang.kernels.ops.kvcache.store_kv import store_kv_cache\n"
        "from sglang.kernels.ops.sampling.min_p import min_p_sampling_from_probs\n"
    )
    res = CliRunner().invoke(main, ["stale", *map(str, CHAIN), "--repo", str(repo)])
    assert res.exit_code == 0, res.output


def _verify(repo, base, *extra):
    return CliRunner().invoke(
        main, ["verify", f"{base}..HEAD", "--repo", str(repo), "--no-wheel", *extra]
    )


def test_verify_reproduces_a_chained_apply_and_fails_its_mutant(tmp_path):
    """The trailer records `a.yaml,b.yaml` with the chain's hash; verify composes the same
    chain (the plans lie outside the repo: apply kept their bytes) and reproduces it."""
    repo = fresh_sample(tmp_path / "s")
    base = git(repo, "rev-parse", "HEAD").strip()
    _apply(repo, *CHAIN)
    trailer = git(repo, "log", "-1", "--format=%(trailers:key=Migrate-Plan,valueonly)")
    assert trailer.startswith(f"{CHAIN[0].name},{CHAIN[1].name} sha256:")
    res = _verify(repo, base)
    assert res.exit_code == 0 and "verify: PASS" in res.output, res.output
    assert "cannot read plan" not in res.output
    res = _verify(repo, base, "--plan", str(CHAIN[0]), "--plan", str(CHAIN[1]))
    assert res.exit_code == 0 and "verify: PASS" in res.output, res.output
    # one member only, or the members swapped: not the chain the commits record
    res = _verify(repo, base, "--plan", str(CHAIN[0]))
    assert res.exit_code == 1 and "chain of 2 plan(s)" in res.output, res.output
    res = _verify(repo, base, "--plan", str(CHAIN[1]), "--plan", str(CHAIN[0]))
    assert res.exit_code == 1 and "the commits name sha256:" in res.output, res.output
    # report reads the same trailer (kept copies) and shows it as recorded
    data = collect_range(repo, f"{base}..HEAD", wheel_check=False)
    assert data.meta.plan_path == f"{CHAIN[0].name},{CHAIN[1].name}" and not data.plan_errors
    assert [c.verify for c in data.commits] == ["PASS"] * 7
    # a mutant: one hand edit inside the chained apply's code commit
    user = "python/sglang/srt/layers/layernorm.py"
    assert "import" in (repo / user).read_text()
    rebuild_with_hand_edit(repo, base, "code", user, "import", "import  ")
    res = _verify(repo, base)
    assert res.exit_code == 1 and "verify: FAIL" in res.output, res.output
    assert "differs from its reproduction" in res.output and user in res.output
