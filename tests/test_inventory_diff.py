"""Inventory diff through moves and splits: losses, duplicates and budget drift are errors."""

from __future__ import annotations

import json
import subprocess

from click.testing import CliRunner
from helpers import git

from migrate.cli import main
from migrate.tests_split.inventory import inventory_of_texts
from migrate.tests_split.inventory_diff import diff_trees, inventory_diff

HEAD = "from sglang.test.ci.ci_register import register_cuda_ci, register_amd_ci\n\n"
CUDA = '# ci-cost-override: x\nregister_cuda_ci(est_time={t}, suite="unit-1-gpu")\n'
AMD = 'register_amd_ci(est_time={t}, suite="amd-1", disabled="hang #1 until 2027-01-01")\n'


def _file(*tests: str, cuda: int | None = 10, amd: int | None = None) -> str:
    text = HEAD
    if cuda is not None:
        text += CUDA.format(t=cuda)
    if amd is not None:
        text += AMD.format(t=amd)
    return text + "".join(f"\n\ndef {t}():\n    pass\n" for t in tests)


BEFORE = {
    "test/kernels/test_mixed.py": _file("test_norm", "test_rope", "test_rope2", cuda=7, amd=20),
    "test/kernels/test_moe.py": _file("test_moe"),
    "test/unit/test_other.py": _file("test_other", cuda=None),
}
MAPPING = {
    "test/kernels/test_moe.py": "test/kernels/ops/moe/test_moe.py",
    "test/kernels/test_mixed.py": [
        "test/kernels/ops/layernorm/test_norm.py",
        "test/kernels/ops/attention/test_rope.py",
    ],
}
GOOD_AFTER = {
    "test/kernels/ops/moe/test_moe.py": _file("test_moe"),
    "test/kernels/ops/layernorm/test_norm.py": _file("test_norm", cuda=2, amd=7),
    "test/kernels/ops/attention/test_rope.py": _file("test_rope", "test_rope2", cuda=5, amd=13),
    "test/unit/test_other.py": _file("test_other", cuda=None),
}


def _diff(after: dict, mapping=MAPPING):
    return inventory_diff(inventory_of_texts(BEFORE), inventory_of_texts(after), mapping)


def test_a_faithful_migration_passes():
    res = _diff(GOOD_AFTER)
    assert res.ok, [str(n) for n in res.notes]
    assert (res.cases_before, res.cases_after) == (5, 5)
    assert res.budgets == {
        ("amd", "amd-1", False): (20, 20),
        ("cuda", "unit-1-gpu", False): (17, 17),
    }
    assert res.orphaned_timing_keys == ["test/kernels/test_mixed.py", "test/kernels/test_moe.py"]
    d = res.to_dict()
    assert d["ok"] and d["lost_cases"] == [] and len(d["suites"]) == 2
    assert d["suites"][1] == {
        "suite": "cuda:unit-1-gpu",
        "files_before": 2,
        "files_after": 3,
        "cases_before": 4,
        "cases_after": 4,
        "est_time_before": 17,
        "est_time_after": 17,
    }


def test_lost_case_duplicated_case_and_copied_budget_are_errors():
    after = dict(GOOD_AFTER)
    # test_rope2 dropped; test_norm copied into both outputs; full budget copied to one part
    after["test/kernels/ops/attention/test_rope.py"] = _file(
        "test_rope", "test_norm", cuda=7, amd=13
    )
    res = _diff(after)
    assert not res.ok
    assert res.missing_cases == ["test/kernels/test_mixed.py::test_rope2"]
    assert res.duplicated_cases == ["test/kernels/test_mixed.py::test_norm"]
    msgs = [str(n) for n in res.notes]
    assert (
        "test/kernels/test_mixed.py:16:1: error: test case test_rope2 is lost (looked in "
        "test/kernels/ops/layernorm/test_norm.py, test/kernels/ops/attention/test_rope.py)" in msgs
    )
    assert "<ci>: error: est_time of cuda suite unit-1-gpu changes from 17 s to 19 s" in msgs


def test_lost_registration_and_comment_are_errors():
    after = dict(GOOD_AFTER)
    after["test/kernels/ops/layernorm/test_norm.py"] = _file("test_norm", cuda=2).replace(
        "# ci-cost-override: x\n", ""
    )
    res = _diff(after)
    msgs = [str(n) for n in res.notes]
    assert res.lost_registrations == [
        "test/kernels/test_mixed.py:5 register_amd_ci(amd-1) -> "
        "test/kernels/ops/layernorm/test_norm.py"
    ]
    assert res.to_dict()["lost_registrations"] == res.lost_registrations
    assert (
        "test/kernels/test_mixed.py:4:1: error: comment '# ci-cost-override: x' above "
        "register_cuda_ci(unit-1-gpu) is missing in test/kernels/ops/layernorm/test_norm.py"
    ) in msgs


def test_a_lost_entry_point_is_an_error():
    before = {
        "test/a/test_x.py": _file("test_x") + 'if __name__ == "__main__":\n    unittest.main()\n'
    }
    after = {"test/b/test_x.py": _file("test_x")}
    res = inventory_diff(
        inventory_of_texts(before),
        inventory_of_texts(after),
        {"test/a/test_x.py": "test/b/test_x.py"},
    )
    assert [str(n) for n in res.notes] == [
        "test/b/test_x.py: error: test/b/test_x.py lost the `__main__` entry point of "
        "test/a/test_x.py (unittest.main)"
    ]


def test_a_move_without_mapping_loses_everything_and_new_files_are_reported():
    res = _diff(GOOD_AFTER, mapping={})
    assert len(res.missing_cases) == 4
    assert "test/kernels/ops/moe/test_moe.py::test_moe" in res.added_cases


def _repo_with_history(make_repo):
    repo = make_repo(BEFORE)
    for old in BEFORE:
        if old != "test/unit/test_other.py":
            git(repo, "rm", "-q", old)
    for path, text in GOOD_AFTER.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "migrate")
    return repo


def test_diff_of_two_trees_and_of_a_git_revision(make_repo, tmp_path):
    repo = _repo_with_history(make_repo)
    before_dir = tmp_path / "before"
    before_dir.mkdir()
    archive = subprocess.run(
        ["git", "archive", "HEAD~1"], cwd=repo, capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(before_dir)], input=archive, check=True)
    assert diff_trees(before_dir, repo, MAPPING).ok

    plan = tmp_path / "plan.yaml"
    plan.write_text(
        "version: 1\nmoves:\n  - from: test/kernels/test_moe.py\n"
        "    to: test/kernels/ops/moe/test_moe.py\nsplits:\n  - file: test/kernels/test_mixed.py\n"
        "    into:\n      - path: test/kernels/ops/layernorm/test_norm.py\n"
        "        take: [test_norm]\n      - path: test/kernels/ops/attention/test_rope.py\n"
        "        take: [rest]\n"
    )
    runner = CliRunner()
    args = ["inventory", "--repo", str(repo), "--diff-from", "HEAD~1", "--plan", str(plan)]
    out = runner.invoke(main, args)
    assert out.exit_code == 0, out.output
    assert "cases: 5 before, 5 after; 0 lost, 0 duplicated, 0 new" in out.output
    assert "inventory preserved" in out.output
    no_plan = runner.invoke(
        main, ["inventory", "--repo", str(repo), "--diff-from", "HEAD~1", "--json"]
    )
    assert no_plan.exit_code == 1
    assert len(json.loads(no_plan.output)["lost_cases"]) == 4
