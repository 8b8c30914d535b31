"""`migrate inventory`: files, cases, registrations, skips, entry points and per-suite totals."""

from __future__ import annotations

import json

from click.testing import CliRunner

from migrate.cli import main
from migrate.tests_split.inventory import build_inventory, inventory_at_rev, inventory_file

REG = "from sglang.test.ci.ci_register import register_cuda_ci, register_cpu_ci\n"

TREE = {
    "test/registered/kernels/test_norm.py": REG
    + (
        "import unittest\n\n"
        "# ci-cost-override: measured\n"
        'register_cuda_ci(est_time=30, stage="base-b-kernel-unit", runner_config="1-gpu-large")\n'
        'register_cpu_ci(est_time=5, suite="base-a-test-cpu")\n\n\n'
        "class TestNorm(unittest.TestCase):\n"
        "    def test_a(self):\n        pass\n\n"
        "    def test_b(self):\n        pass\n\n\n"
        'if __name__ == "__main__":\n    unittest.main()\n'
    ),
    "test/registered/kernels/test_rope.py": REG
    + (
        "import sys\nimport pytest\n\n"
        'pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="no triton")]\n'
        'triton = pytest.importorskip("triton")\n'
        "if not hasattr(sys, 'gettrace'):\n"
        '    pytest.skip("no tracing", allow_module_level=True)\n'
        'register_cuda_ci(est_time=10, stage="base-b-kernel-unit", runner_config="1-gpu-large")\n'
        'register_cuda_ci(est_time=90, suite="nightly-kernel-1-gpu", nightly=True)\n\n\n'
        "@pytest.mark.parametrize('n', [1, 2, 3])\ndef test_rope(n):\n    pass\n\n\n"
        'if __name__ == "__main__":\n    sys.exit(pytest.main([__file__]))\n'
    ),
    # registered but not test-named: still inventoried; no __main__ block
    "test/registered/kernels/bench_gemm.py": REG
    + (
        'register_cuda_ci(est_time=45, stage="base-b-kernel-benchmark", '
        'runner_config="1-gpu-large")\n\n\ndef test_bench():\n    pass\n'
    ),
    "test/manual/kernels/smoke_test.py": "def test_smoke():\n    pass\n",
    "python/sglang/kernels/ops/norm.py": "def rmsnorm(x):\n    return x\n",
    "test/registered/broken_test.py": "def test_x(:\n",
}


def test_inventory_of_a_tree(make_repo):
    inv = build_inventory(make_repo(TREE))
    assert sorted(inv.files) == [
        "test/manual/kernels/smoke_test.py",
        "test/registered/broken_test.py",
        "test/registered/kernels/bench_gemm.py",
        "test/registered/kernels/test_norm.py",
        "test/registered/kernels/test_rope.py",
    ]
    norm = inv.files["test/registered/kernels/test_norm.py"]
    assert [c.name for c in norm.cases] == ["TestNorm::test_a", "TestNorm::test_b"]
    assert norm.main == "unittest" and norm.runs_as_main
    assert norm.registrations[0].comments == ("# ci-cost-override: measured",)
    rope = inv.files["test/registered/kernels/test_rope.py"]
    assert rope.main == "pytest"
    assert rope.markers == ["pytest.mark.skipif(sys.platform == 'win32', reason='no triton')"]
    assert rope.module_skips == [
        "triton = pytest.importorskip('triton')",
        "if not hasattr(sys, 'gettrace'):",
    ]
    assert inv.files["test/registered/kernels/bench_gemm.py"].main is None
    assert inv.files["test/registered/broken_test.py"].error.startswith("SyntaxError")
    totals = {(t.backend, t.suite, t.nightly): (t.files, t.cases, t.est_time) for t in inv.totals()}
    assert totals == {
        ("cpu", "base-a-test-cpu", False): (1, 2, 5),
        ("cuda", "base-b-kernel-benchmark-test-1-gpu-large", False): (1, 1, 45),
        ("cuda", "base-b-kernel-unit-test-1-gpu-large", False): (2, 5, 40),
        ("cuda", "nightly-kernel-1-gpu", True): (1, 3, 90),
    }


def test_inventory_of_a_git_revision_matches_the_work_tree(make_repo):
    repo = make_repo(TREE)
    (repo / "test/registered/kernels/test_norm.py").unlink()  # work tree only
    at_head = inventory_at_rev(repo, "HEAD")
    assert at_head.to_json() == build_inventory(make_repo(TREE)).to_json()
    assert "test/registered/kernels/test_norm.py" not in build_inventory(repo).files


def test_cli_table_and_json(make_repo):
    repo = make_repo(TREE)
    runner = CliRunner()
    table = runner.invoke(main, ["inventory", "--repo", str(repo)])
    assert table.exit_code == 0, table.output
    rows = [line.split() for line in table.output.splitlines()]
    assert ["cuda", "base-b-kernel-unit-test-1-gpu-large", "no", "2", "5", "40s"] in rows
    assert "5 test file(s), 7 case(s)" in table.output
    assert "test/registered/broken_test.py: cannot parse: SyntaxError" in table.output
    data = json.loads(runner.invoke(main, ["inventory", "--repo", str(repo), "--json"]).output)
    rope = next(f for f in data["files"] if f["path"].endswith("test_rope.py"))
    assert rope["cases"] == ["test_rope[1]", "test_rope[2]", "test_rope[3]"]
    assert rope["registrations"][1]["effective_suite"] == "nightly-kernel-1-gpu"
    assert len(data["totals"]) == 4


def test_cli_collect_compares_with_pytest(make_repo):
    tree = {k: v for k, v in TREE.items() if "broken" not in k}
    tree["test/registered/kernels/test_dyn.py"] = (
        "import pytest\n\n\n@pytest.mark.parametrize('x', list(map(int, '12')))\n"
        "def test_dyn(x):\n    pass\n"
    )
    tree["sglang/test/ci/ci_register.py"] = (
        "def register_cuda_ci(*a, **k):\n    pass\n\n\ndef register_cpu_ci(*a, **k):\n    pass\n"
    )
    for pkg in ("sglang", "sglang/test", "sglang/test/ci"):
        tree[f"{pkg}/__init__.py"] = ""
    repo = make_repo(tree)
    out = CliRunner().invoke(
        main, ["inventory", "--repo", str(repo), "--collect", "--json", "--pythonpath", "."]
    )
    data = json.loads(out.output)
    files = {f["path"]: f for f in data["files"]}
    assert files["test/registered/kernels/test_norm.py"]["collected"] == [
        "test/registered/kernels/test_norm.py::TestNorm::test_a",
        "test/registered/kernels/test_norm.py::TestNorm::test_b",
    ]
    dyn = files["test/registered/kernels/test_dyn.py"]
    assert dyn["cases"] == ["test_dyn[*]"] and dyn["inexact_ids"] == ["test_dyn[*]"]
    assert [c.split("::")[1] for c in dyn["collected"]] == ["test_dyn[1]", "test_dyn[2]"]


def test_inventory_file_without_tests_or_registrations():
    inv = inventory_file("X = 1\n", "test_empty.py")
    assert (inv.cases, inv.registrations, inv.main, inv.error) == ([], [], None, None)


def test_a_memo_shared_by_two_revisions_parses_their_common_files_once(tmp_path, monkeypatch):
    """verify's tests-kept inventories BASE and HEAD with one memo (text -> inventory): a
    file HEAD has with BASE's text (moved or not) is not parsed again, and the inventory is
    the one a fresh parse gives, path included; a file that does not parse is redone."""
    import migrate.tests_split.inventory as inventory

    base, head = tmp_path / "base", tmp_path / "head"
    moved = {p.replace("kernels/", "kernels/ops/"): t for p, t in TREE.items()}
    broken = {"test/test_bad.py": "def test_x(:\n"}
    for root, files in ((base, {**TREE, **broken}), (head, {**moved, **broken})):
        for path, text in files.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text)
    memo: dict = {}
    before = build_inventory(base, memo)
    parsed = []
    real = inventory.inventory_file
    monkeypatch.setattr(
        inventory, "inventory_file", lambda text, path: parsed.append(path) or real(text, path)
    )
    after = build_inventory(head, memo)
    monkeypatch.setattr(inventory, "inventory_file", real)
    errors = {p for p, f in after.files.items() if f.error}
    assert "test/test_bad.py" in errors and set(parsed) == errors  # only those are redone
    assert after == build_inventory(head)
    assert set(after.files) <= set(moved) | set(broken) and set(after.files) != set(before.files)
    assert all(f.path == p for p, f in after.files.items())
