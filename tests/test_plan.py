"""Plan loading and validation: every mistake found in one pass, positioned, nothing written."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from migrate.index import build_index
from migrate.plan import load_plan, parse_plan
from migrate.plan.validate import validate_plan
from migrate.relocate import build_relocation

LEGACY = {
    "python/sglang/__init__.py": "",
    "python/sglang/jit_kernel/__init__.py": "",
    "python/sglang/jit_kernel/norm.py": "def rmsnorm(x):\n    return x\n",
    "python/sglang/jit_kernel/rope.py": "def apply_rope(q):\n    return q\n",
    "python/sglang/jit_kernel/utils.py": (
        "import os\n\nCACHE = {}\n\n\ndef load_jit(name):\n    def inner():\n        pass\n"
        "    return name\n"
    ),
    "python/sglang/jit_kernel/diffusion/__init__.py": "",
    "python/sglang/jit_kernel/diffusion/cfg.py": "def cfg():\n    pass\n",
    "python/sglang/jit_kernel/csrc/norm.cuh": "// norm\n",
    "python/sglang/kernels/__init__.py": "",
    "python/sglang/kernels/ops/__init__.py": "_GROUPS = ('layernorm',)\n",
    "python/sglang/kernels/ops/layernorm/__init__.py": "",
    "python/sglang/kernels/ops/layernorm/existing.py": "",
    "test/registered/kernels/test_norm.py": "def test_a():\n    pass\n",
}


def _tree_bytes(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.parts
    }


def _plan(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "plan.yaml"
    p.write_text(text)
    return p


GOOD = """\
version: 1
roots: [python]
moves:
  - from: sglang.jit_kernel.norm
    to: sglang.kernels.ops.layernorm.norm
  - from: sglang.jit_kernel.diffusion
    to: sglang.kernels.ops.diffusion
  - from: sglang.jit_kernel.utils:load_jit
    to: sglang.kernels.jit.utils
  - from: python/sglang/jit_kernel/csrc/
    to: python/sglang/kernels/jit/csrc/
op_ids:
  - from: jit.rmsnorm
    to: layernorm.rmsnorm
splits:
  - file: test/registered/kernels/test_norm.py
    into:
      - path: test/registered/kernels/ops/layernorm/test_rmsnorm.py
        take: [test_a]
      - path: test/registered/kernels/ops/layernorm/test_rest.py
        take: [rest]
groups:
  add: [lora]
"""


def test_core_plan_loads_with_positions(tmp_path):
    path = _plan(tmp_path, GOOD)
    plan, errors = load_plan(path)
    assert errors == []
    assert plan.roots == ("python",)
    assert [m.src for m in plan.moves][:2] == [
        "sglang.jit_kernel.norm",
        "sglang.jit_kernel.diffusion",
    ]
    norm = plan.moves[0]
    assert (norm.src_pos.line, norm.src_pos.col) == (4, 11)
    assert (norm.dst_pos.line, norm.dst_pos.col) == (5, 9)
    assert plan.moves[2].is_symbol and plan.moves[3].is_path
    assert plan.op_ids[0].dst == "layernorm.rmsnorm"
    assert plan.splits[0].into[1].takes_rest
    assert plan.groups_add == ("lora",)
    assert plan.sha256 == hashlib.sha256(GOOD.encode()).hexdigest()


def test_valid_plan_resolves_relocations(make_repo, tmp_path):
    repo = make_repo(LEGACY)
    plan, errors = load_plan(_plan(tmp_path, GOOD))
    index = build_index(repo, plan.roots)
    problems, rel = validate_plan(plan, index)
    assert errors + problems == []
    assert rel.files["python/sglang/jit_kernel/norm.py"] == (
        "python/sglang/kernels/ops/layernorm/norm.py"
    )
    assert rel.files["python/sglang/jit_kernel/diffusion/cfg.py"] == (
        "python/sglang/kernels/ops/diffusion/cfg.py"
    )
    assert rel.files["python/sglang/jit_kernel/csrc/norm.cuh"] == (
        "python/sglang/kernels/jit/csrc/norm.cuh"
    )
    assert rel.module("sglang.jit_kernel.diffusion.cfg") == "sglang.kernels.ops.diffusion.cfg"
    assert (
        rel.dotted("sglang.jit_kernel.norm.rmsnorm") == "sglang.kernels.ops.layernorm.norm.rmsnorm"
    )
    assert rel.dotted("sglang.jit_kernel.utils.load_jit") == "sglang.kernels.jit.utils.load_jit"
    assert rel.dotted("sglang.jit_kernel.utils.CACHE") is None  # only the symbol moves
    assert (
        rel.target("sglang.jit_kernel.norm:rmsnorm") == "sglang.kernels.ops.layernorm.norm:rmsnorm"
    )
    assert rel.module("sglang.jit_kernel_extra") is None  # token-bounded prefix
    assert rel.moved_modules["sglang.jit_kernel.norm"] == "sglang.kernels.ops.layernorm.norm"


def test_prepare_builds_the_relocation_once(make_repo, tmp_path, monkeypatch):
    """Validation's relocation is the one the pipeline goes on with: built once, not once
    to check the plan and again to run it."""
    import migrate.pipeline
    import migrate.plan.validate
    from migrate.pipeline import prepare

    built = []

    def counted(plan, index):
        built.append(build_relocation(plan, index))
        return built[-1]

    monkeypatch.setattr(migrate.plan.validate, "build_relocation", counted)
    monkeypatch.setattr(migrate.pipeline, "build_relocation", counted)
    repo = make_repo(LEGACY)
    prep = prepare(_plan(tmp_path, GOOD), repo)
    assert len(built) == 1 and prep.relocation is built[0]
    assert prep.relocation.files["python/sglang/jit_kernel/norm.py"] == (
        "python/sglang/kernels/ops/layernorm/norm.py"
    )


def test_nested_module_move_overrides_package_move(make_repo, tmp_path):
    repo = make_repo(LEGACY)
    plan, _ = load_plan(
        _plan(
            tmp_path,
            "version: 1\nroots: [python]\nmoves:\n"
            "  - from: sglang.jit_kernel\n    to: sglang.kernels.ops.misc\n"
            "  - from: sglang.jit_kernel.norm\n    to: sglang.kernels.ops.layernorm.norm\n",
        )
    )
    index = build_index(repo, plan.roots)
    assert validate_plan(plan, index)[0] == []
    rel = build_relocation(plan, index)
    assert rel.files["python/sglang/jit_kernel/norm.py"].endswith("ops/layernorm/norm.py")
    assert rel.files["python/sglang/jit_kernel/rope.py"].endswith("ops/misc/rope.py")
    assert rel.module("sglang.jit_kernel.norm") == "sglang.kernels.ops.layernorm.norm"
    assert rel.module("sglang.jit_kernel.rope") == "sglang.kernels.ops.misc.rope"


def test_covering_prefixes_is_covering_prefix_per_path():
    """The batched climb (once per directory) answers as the per-file one: nested
    directory moves, a file a module move sends elsewhere, a path no move names."""
    from migrate.relocate import Relocation

    rel = Relocation(
        path_prefixes={"a": "x", "a/b": "y/b", "c/d": "z"},
        files={
            "a/f.txt": "x/f.txt",
            "a/b/g.txt": "y/b/g.txt",
            "a/b/e/h.txt": "y/b/e/h.txt",
            "a/b/odd.py": "q/odd.py",  # its own move: not what the directory says
            "a/k/m.txt": "x/k/m.txt",
            "c/d/n.txt": "z/n.txt",
            "top.txt": "new.txt",
        },
    )
    paths = [*rel.path_prefixes, *rel.files, "a/untouched.txt", "c/other.txt"]
    assert rel.covering_prefixes(paths) == {p: rel.covering_prefix(p) for p in paths}
    assert rel.covering_prefixes(["a/b/odd.py", "a/b/e/h.txt"]) == {
        "a/b/odd.py": None,
        "a/b/e/h.txt": "a/b",
    }


FIVE_MISTAKES = """\
version: 1
roots: [python]
colour: blue
moves:
  - from: sglang.jit_kernel.nrom
    to: sglang.kernels.ops.layernorm.norm
  - from: sglang.jit_kernel.rope
    to: sglang.kernels.ops.attention.rope
  - from: sglang.jit_kernel.utils
    to: sglang.kernels.ops.attention.rope
  - from: sglang.jit_kernel.diffusion
    to: sglang.kernels.ops.layernorm.existing
  - from: sglang.jit_kernel
    to: sglang.jit_kernel.legacy
"""


def test_five_mistakes_reported_together_with_positions(make_repo, tmp_path):
    repo = make_repo(LEGACY)
    plan_path = _plan(tmp_path, FIVE_MISTAKES)
    plan, errors = load_plan(plan_path)
    errors = errors + validate_plan(plan, build_index(repo, plan.roots))[0]
    got = sorted((d.pos.line, d.pos.col, d.message) for d in errors)
    assert len(got) == 5, got
    assert got[0][:2] == (3, 1) and "unknown key 'colour'" in got[0][2]
    assert got[1][:2] == (5, 11) and "sglang.jit_kernel.nrom does not exist" in got[1][2]
    assert "did you mean sglang.jit_kernel.norm?" in got[1][2]
    assert got[2][:2] == (10, 9) and "two moves to one target" in got[2][2]
    assert got[3][:2] == (12, 9) and "already exists" in got[3][2]
    assert got[4][:2] == (14, 9) and "inside its own source" in got[4][2]


def test_cli_exit_2_and_tree_unchanged(make_repo, tmp_path):
    repo = make_repo(LEGACY)
    before = _tree_bytes(repo)
    plan_path = _plan(tmp_path, FIVE_MISTAKES)
    res = subprocess.run(
        [sys.executable, "-m", "migrate.cli", str(plan_path), "--dry-run", "--repo", str(repo)],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 2
    lines = [ln for ln in res.stderr.splitlines() if ": error: " in ln]
    assert len(lines) == 5
    assert all(ln.startswith(f"{plan_path}:") for ln in lines)
    assert "5 errors; nothing was written." in res.stderr
    assert _tree_bytes(repo) == before


@pytest.mark.parametrize(
    "snippet, message",
    [
        ("moves:\n  - from: ../outside\n    to: python/x/\n", "leaves the repository"),
        ("moves:\n  - from: /etc/passwd\n    to: python/x/\n", "absolute path"),
        ("moves:\n  - from: sglang.jit_kernel.utils:CACHEZ\n    to: sglang.x\n", "not a top-level"),
        ("moves:\n  - from: sglang.jit_kernel.utils:inner\n    to: sglang.x\n", "not a top-level"),
        ("moves:\n  - from: sglang.jit_kernel.norm\n    to: 3\n", "non-empty string"),
        ("moves:\n  - from: sglang.jit_kernel.norm\n", "missing 'to'"),
        ("moves: {a: 1}\n", "must be a list"),
        ("delete: [sglang.jit_kernel]\n", "would be lost"),
        ("op_ids:\n  - from: rmsnorm\n    to: layernorm.rmsnorm\n", "op id"),
        ("splits:\n  - file: test/missing.py\n    into: []\n", "does not exist"),
        ("groups:\n  add: [Bad-Name]\n", "lower_snake_case"),
        (
            "moves:\n  - from: sglang.jit_kernel.norm\n    to: sglang.jit_kernel.norm.sub\n",
            "inside its own source",
        ),
    ],
)
def test_each_validation_error(make_repo, tmp_path, snippet, message):
    repo = make_repo(LEGACY)
    plan, errors = load_plan(_plan(tmp_path, "version: 1\nroots: [python]\n" + snippet))
    errors = errors + validate_plan(plan, build_index(repo, plan.roots))[0]
    assert any(message in d.message for d in errors), [str(d) for d in errors]
    assert all(d.pos.line >= 1 for d in errors)


def test_symlink_escaping_repo_is_refused(make_repo, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("x")
    repo = make_repo(LEGACY)
    (repo / "python" / "link").symlink_to(outside)
    plan, _ = load_plan(
        _plan(tmp_path, "version: 1\nmoves:\n  - from: python/link/\n    to: python/other/\n")
    )
    errors = validate_plan(plan, build_index(repo, plan.roots))[0]
    assert any("leaves the repository" in d.message for d in errors), errors


def test_invalid_yaml_is_positioned(tmp_path):
    from migrate.errors import MigrateError

    with pytest.raises(MigrateError) as exc:
        parse_plan("version: 1\nmoves: [\n", "p.yaml")
    assert str(exc.value).startswith("p.yaml:3:")


def test_nested_path_move_overrides_package_move(make_repo, tmp_path):
    repo = make_repo(LEGACY)
    plan, _ = load_plan(
        _plan(
            tmp_path,
            "version: 1\nroots: [python]\nmoves:\n"
            "  - from: python/sglang/jit_kernel/csrc/\n    to: python/sglang/kernels/jit/csrc/\n"
            "  - from: sglang.jit_kernel\n    to: sglang.kernels.ops.misc\n",
        )
    )
    index = build_index(repo, plan.roots)
    assert validate_plan(plan, index)[0] == []
    rel = build_relocation(plan, index)
    assert rel.files["python/sglang/jit_kernel/csrc/norm.cuh"] == (
        "python/sglang/kernels/jit/csrc/norm.cuh"
    )
    assert rel.files["python/sglang/jit_kernel/rope.py"] == "python/sglang/kernels/ops/misc/rope.py"
    assert rel.path("python/sglang/jit_kernel/csrc/x.cuh") == "python/sglang/kernels/jit/csrc/x.cuh"


@pytest.mark.parametrize(
    ("src", "dst"),
    [
        ("sglang.jit_kernel.rope", "os"),
        ("sglang.jit_kernel.rope", "json.rope"),
        ("sglang.jit_kernel.utils:load_jit", "typing"),
    ],
)
def test_a_target_that_shadows_the_standard_library_is_refused(make_repo, tmp_path, src, dst):
    """A module written as `os.py` (or a package `json/`) at an import root is found
    instead of the standard library's by every `import os` of the project: apply wrote it
    and exited 0 (trial23 T31)."""
    repo = make_repo(LEGACY)
    text = f"version: 1\nroots: [python]\nmoves:\n  - from: {src}\n    to: {dst}\n"
    plan, errors = load_plan(_plan(tmp_path, text))
    assert errors == []
    (d,) = validate_plan(plan, build_index(repo, plan.roots))[0]
    assert (d.pos.line, d.pos.col) == (5, 9)
    top = dst.split(".")[0]
    assert f"shadows the standard library module {top}" in d.message
