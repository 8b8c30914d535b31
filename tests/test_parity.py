"""`migrate parity` on tiny repos with real Triton kernels, run in the CPU interpreter."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from helpers import git, init_repo, write_tree
from parity_fixtures import dirty_move, pure_move, write_base

from migrate.cli import main
from migrate.findings import Finding
from migrate.parity.discover import discover
from migrate.parity.source import read_module

pytest.importorskip("triton")

PLAN = """\
version: 1
roots: [.]
moves:
  - from: pkg.old
    to: pkg.new
  - from: tests/old/
    to: tests/new/
"""


@pytest.fixture
def base_repo(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    write_base(root)
    return init_repo(root)


def _parity(repo, *args):
    res = CliRunner().invoke(
        main, ["parity", "HEAD~1..HEAD", "--repo", str(repo), "--device", "cpu", "--json", *args]
    )
    assert res.exit_code in (0, 1), res.output
    return res.exit_code, json.loads(res.output)


def test_source_facts_find_kernels_wrappers_and_reach():
    text = (
        "import triton\nfrom triton import jit as J\n"
        "@triton.jit\ndef _k(x): pass\n@J\ndef _k2(x): pass\n"
        "def _launch(x): _k[(1,)](x)\ndef api(x): return _launch(x)\ndef other(): pass\n"
    )
    facts = read_module(text, "p.m")
    assert facts.kernels == ["_k", "_k2"]
    assert facts.wrappers == ["api", "other"]
    assert facts.kernels_of == {"_launch": ["_k"], "api": ["_k"]}


def test_discover_maps_renamed_modules_and_tests(base_repo):
    pure_move(base_repo)
    base, head = (git(base_repo, "rev-parse", r).strip() for r in ("HEAD~1", "HEAD"))
    found = discover(base_repo, base, head)
    assert {(m.old, m.new) for m in found.modules} == {
        ("pkg.old.kern", "pkg.new.kern"),
        ("pkg.old.blocks", "pkg.new.blocks"),
        ("pkg.old.act", "pkg.new.act"),
    }
    assert found.targets["base"]["pkg.old.kern"] == {
        "_scale_kernel": "pkg.new.kern:_scale_kernel",  # recorded when a test launches it
        "scale": "pkg.new.kern:scale",
        "scale_into": "pkg.new.kern:scale_into",
    }
    assert found.tests["head"] == [
        "tests/new/test_act.py",
        "tests/new/test_blocks.py",
        "tests/new/test_kern.py",
    ]
    assert found.test_path_map["tests/old/test_kern.py"] == "tests/new/test_kern.py"


def test_pure_move_is_bit_identical_with_plan(base_repo, tmp_path):
    """Plan moves count even where git's rename detection loses a file (act.py rewritten)."""
    pure_move(base_repo)
    act = base_repo / "pkg/new/act.py"
    act.write_text('"""' + "A long new docstring line.\n" * 60 + '"""\n' + act.read_text())
    git(base_repo, "commit", "-q", "--amend", "-a", "--no-edit")
    plan = write_tree(tmp_path, {"plan.yaml": PLAN}) / "plan.yaml"
    code, r = _parity(base_repo, "--plan", str(plan))
    assert code == 0 and r["ok"], r["findings"]
    assert r["format"] == "migrate.parity/2"
    assert r["device"] == "cpu" and r["head"]["env"]["triton_interpret"] == "1"
    assert not r["head"]["env"]["cuda_available"]
    ops = {o["op"]: o for o in r["ops"]}
    assert set(ops) == {
        "pkg.new.act:relu",
        "pkg.new.blocks:block_sums",
        "pkg.new.kern:scale",
        "pkg.new.kern:scale_into",
    }
    assert all(o["status"] == "identical" and o["devices"] == ["cpu"] for o in ops.values())
    # the fp16 in-place output is recorded as a mutated argument and compared too
    assert {c["status"] for c in r["calls"]} == {"identical"}
    assert all(t["base"] == t["head"] == "passed" for t in r["tests"])


def test_hidden_changes_are_caught(base_repo):
    """Changed constant, configs/ left behind, extra call, broken import: all reported."""
    dirty_move(base_repo)
    res = CliRunner().invoke(
        main, ["parity", "HEAD~2..HEAD", "--repo", str(base_repo), "--device", "cpu"]
    )
    assert res.exit_code == 1, res.output
    out = res.output
    assert "GPU checks: none ran" in out
    # the kernel constant: tolerances in the test pass, the bits do not
    assert "pkg.new.kern:scale [tests/new/test_kern.py::test_scale #0]: different" in out
    assert "max abs diff 4.76837e-07" in out
    # configs/ left at the old location: missing-config report and a different result
    assert "pkg.new.blocks: configs/ beside the module had 1 file(s) at BASE" in out
    assert "pkg/new/configs" in out
    assert "BASE torch.float32[8] vs HEAD torch.float32[4]" in out
    # a call seen on one side only
    assert "pkg.new.kern:scale [tests/new/test_kern.py::test_extra #0]: head_only" in out
    # a dependency that fails to import at HEAD, with the ImportError text
    assert (
        "HEAD: import pkg.new.act fails (BASE pkg.old.act imports): "
        "ModuleNotFoundError: No module named 'not_a_real_dependency_xyz'"
    ) in out
    assert "test tests/new/test_act.py::test_relu: BASE passed, HEAD absent" in out
    # an untouched wrapper in the same module still checks out
    assert "identical  pkg.new.kern:scale_into: 1/1 identical on cpu" in out
    assert "PARITY FAILED" in out


def test_bitwise_compare_sees_signed_zero_nan_and_ulps():
    torch = pytest.importorskip("torch")
    from migrate.parity.bitwise import compare

    nan = float("nan")
    assert compare(torch.tensor([1.0, nan]), torch.tensor([1.0, nan])).identical
    zero = compare(torch.tensor([0.0]), torch.tensor([-0.0]))
    assert not zero.identical and "different bits" in zero.detail
    one_side_nan = compare(torch.tensor([1.0, nan]), torch.tensor([1.0, 2.0]))
    assert not one_side_nan.identical and "NaN on one side only" in one_side_nan.detail
    ulp = compare(torch.tensor([1.0]), torch.nextafter(torch.tensor([1.0]), torch.tensor(2.0)))
    assert not ulp.identical and ulp.max_abs == pytest.approx(2**-23)
    assert "vs HEAD" in compare(torch.zeros(2), torch.zeros(3)).detail


def test_judge_refuses_vacuous_parity(tmp_path):
    """Tests failing on both sides, or a cuda run without CUDA tensors, prove nothing."""
    from migrate.parity.compare import judge
    from migrate.parity.model import CallResult, ParityResult, SideRun, TestOutcome
    from migrate.parity.runner import SideOutput

    r = ParityResult(SideRun("B", "b" * 40), SideRun("H", "h" * 40), "cuda", "cuda")
    r.tests = [TestOutcome("t.py::x", "failed", "failed", "E boom", "E boom")]
    r.calls = [CallResult("m:f", "t.py::x", 0, "identical", devices=["cpu"])]
    side = SideOutput(tmp_path, 1, 0.0, "")
    judge(r, side, side)
    assert not r.ok
    assert all(isinstance(f, Finding) for f in r.findings)
    assert any("failed at BASE and HEAD" in f.message for f in r.problems if f.check == "tests")
    assert any(f.check == "device" and "no GPU parity was shown" in f.message for f in r.problems)


def test_saved_spec_round_trips_without_running(base_repo, tmp_path):
    """--save-spec --no-run: discovery for a git-less GPU host; nothing is executed."""
    from migrate.parity import spec

    pure_move(base_repo)
    path = tmp_path / "spec.json"
    res = CliRunner().invoke(
        main,
        ["parity", "HEAD~1..HEAD", "--repo", str(base_repo), "--save-spec", str(path), "--no-run"],
    )
    assert res.exit_code == 0 and "nothing was run" in res.output, res.output
    found, revs = spec.load(path)
    assert revs["base"][0] == "HEAD~1" and len(revs["head"][1]) == 40
    assert {m.new for m in found.modules} == {"pkg.new.kern", "pkg.new.blocks", "pkg.new.act"}
    assert found.tests["base"] == [
        "tests/old/test_act.py",
        "tests/old/test_blocks.py",
        "tests/old/test_kern.py",
    ]
    assert found.path_moves["pkg/old/configs/block.json"] == "pkg/new/configs/block.json"


def _shadowed_python(tmp_path, missing: str) -> str:
    """An interpreter on which `import <missing>` fails, as on a host without it."""
    import sys

    shadow = tmp_path / f"no-{missing}"
    (shadow / missing).mkdir(parents=True)
    (shadow / missing / "__init__.py").write_text(
        f"raise ModuleNotFoundError(\"No module named '{missing}'\", name={missing!r})\n"
    )
    exe = tmp_path / f"python-without-{missing}"
    exe.write_text(f'#!/bin/sh\nPYTHONPATH={shadow}:$PYTHONPATH exec {sys.executable} "$@"\n')
    exe.chmod(0o755)
    return str(exe)


@pytest.mark.parametrize("missing", ["pytest", "torch"])
def test_parity_refuses_ok_when_a_side_could_not_run(base_repo, tmp_path, missing):
    """Without pytest or torch nothing is compared: that is a failure, and it says why."""
    pure_move(base_repo)
    python = _shadowed_python(tmp_path, missing)
    res = CliRunner().invoke(
        main,
        ["parity", "HEAD~1..HEAD", "--repo", str(base_repo), "--device", "cpu", "--python", python],
    )
    assert res.exit_code == 1, res.output
    assert "PARITY OK" not in res.output
    for side in ("BASE", "HEAD"):
        (line,) = [ln for ln in res.output.splitlines() if f"{side} could not run:" in ln]
        assert f"No module named '{missing}'" in line, line
    assert "nothing was compared: no call of a moved kernel was recorded on both sides" in (
        res.output
    )


def test_parity_refuses_ok_when_no_call_was_compared(tmp_path):
    """Both sides ran, but no test reached a moved kernel: nothing was shown."""
    from migrate.parity.compare import judge
    from migrate.parity.model import ParityResult, SideRun, TestOutcome
    from migrate.parity.runner import SideOutput

    r = ParityResult(SideRun("B", "b" * 40), SideRun("H", "h" * 40), "cpu", "cpu")
    r.tests = [TestOutcome("t.py::x", "passed", "passed")]
    side = SideOutput(tmp_path, 0, 0.0, "", env={"torch": "2", "triton": "3"})
    judge(r, side, side)
    assert r.findings == [
        Finding(
            "",
            0,
            "nothing-compared",
            "nothing was compared: no call of a moved kernel was recorded on both sides",
        )
    ]


EXT_OPS = {
    "launch": "pkg.new.ext:_triple_kernel",
    "torch.ops": "pkg.new.ext:torch.ops.parity_fixture.triple",
    "fused op": "pkg.new.ext:TripleOp.forward_triton",
    "registry": "pkg.new.ext:Codec.encode",
}


@pytest.mark.parametrize("changed", [False, True], ids=["pure", "changed-kernel"])
def test_parity_sees_launches_torch_ops_fused_ops_and_dotted_targets(tmp_path, changed):
    """Calls that bypass the module's public functions are recorded and compared too."""
    from parity_fixtures import EXT_FILES, ext_move

    repo = init_repo(write_tree(tmp_path / "ext", EXT_FILES))
    ext_move(repo, changed_kernel=changed)
    code, r = _parity(repo)
    ops = {o["op"]: o for o in r["ops"]}
    for what, op in EXT_OPS.items():
        assert op in ops and ops[op]["calls"] == 1, (what, sorted(ops))
        assert ops[op]["status"] == ("different" if changed else "identical"), (what, ops[op])
    assert ops[EXT_OPS["launch"]]["old"] == "pkg.old.ext:_triple_kernel"
    assert ops[EXT_OPS["fused op"]]["kernels"] == ["_triple_kernel"]
    if changed:
        assert code == 1 and not r["ok"]
        assert any(
            f["check"] == "calls"
            and f["severity"] == "error"
            and "_triple_kernel [tests/new/test_ext.py::test_launch_directly" in f["message"]
            for f in r["findings"]
        )
    else:
        assert code == 0 and r["ok"], r["findings"]
        launch = [c for c in r["calls"] if c["op"] == EXT_OPS["launch"]]
        assert launch[0]["status"] == "identical"


def test_source_facts_find_fused_ops_custom_ops_and_members():
    """The entry points that bypass module functions are read from the AST, with their kernels."""
    from migrate.parity.discover import _entry_points, _kernels_of

    text = (
        "import torch, triton\nfrom torch.library import Library, custom_op\n"
        "from pkg.fused import BaseFusedOp\n"
        "@triton.jit\ndef _k(x): pass\n"
        "def _run(x): _k[(1,)](x)\n"
        '@custom_op("ns::one", mutates_args=())\ndef one(x: torch.Tensor) -> torch.Tensor:\n'
        "    return _run(x)\n"
        'LIB = Library("ns2", "DEF")\nLIB.define("two(Tensor x) -> Tensor")\n'
        'torch.library.define("ns3::three(Tensor x) -> Tensor")\n'
        "class Op(BaseFusedOp):\n    def forward_triton(self, x):\n"
        "        return torch.ops.ns.one(x)\n    def helper(self): pass\n"
        "class SubOp(Op):\n    def forward_torch(self, x): return x\n"
        "class Codec:\n    enc = staticmethod(_run)\n"
        "OP = Op()\n"
    )
    facts = read_module(text, "p.m")
    assert facts.fused_methods == ["Op.forward_triton", "SubOp.forward_torch"]
    assert facts.custom_ops == {"ns::one": "one", "ns2::two": "", "ns3::three": ""}
    assert facts.instances["OP"] == "Op"
    found = _entry_points(facts, {"Codec.enc", "OP.forward_triton", "Nowhere.x", "_run"})
    assert found == {
        "one",
        "Op.forward_triton",
        "SubOp.forward_torch",
        "Codec.enc",
        "OP.forward_triton",
        "_run",
        "torch.ops.ns.one",
        "torch.ops.ns2.two",
        "torch.ops.ns3.three",
    }
    assert _kernels_of(facts, "Codec.enc") == ["_k"]
    assert _kernels_of(facts, "OP.forward_triton") == ["_k"]  # through torch.ops.ns.one
    assert _kernels_of(facts, "torch.ops.ns.one") == ["_k"]
    assert _kernels_of(facts, "SubOp.forward_torch") == []
