"""PEP 562 lazy exports follow their module to its new group, and the users of the old
group's name are respelled by binding (rewrite/exports_follow.py). Every case applies a
real plan to a real git repo, runs the result, and runs the engine on it again."""

from __future__ import annotations

from click.testing import CliRunner
from helpers import git
from regroup_exec import IMPORTS, OPS, REGISTRY, apply_twice, run_tree

from migrate.cli import main
from migrate.pipeline import prepare
from migrate.rewrite.engine import plan_changes

GETATTR = '''

def __getattr__(name: str) -> Any:
    """Resolve a public symbol to its submodule on first access (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    owner = module if module.startswith("sglang.") else f"{__name__}.{module}"
    value = getattr(import_module(owner), name)
    globals()[name] = value
    return value


__all__ = sorted(_EXPORTS)
'''
DIFFUSION = (
    '"""Diffusion kernels, exported lazily."""\n\nfrom __future__ import annotations\n\n'
    "from typing import Any\n\n"
    "_EXPORTS: dict[str, str] = {\n"
    "    # normalization\n"
    '    "rms_fused": "norm.rms",\n'
    '    "modulate": "modulate",\n'
    '    "shared_helper": "sglang.kernels.ops.diffusion.common",\n'
    "}\n" + GETATTR
)
LAYERNORM_WITH_TABLE = (
    "from __future__ import annotations\n\nfrom typing import Any\n\n"
    "_EXPORTS = {\n    'rmsnorm': 'rmsnorm'\n}\n" + GETATTR
)
USERS = {
    "python/sglang/srt/__init__.py": "",
    "python/sglang/srt/user_a.py": (
        "from sglang.kernels.ops import diffusion\n\n\n"
        "def main():\n"
        "    assert diffusion.rms_fused() == 1\n"
        "    assert diffusion.modulate() == 2\n"
    ),
    "python/sglang/srt/user_b.py": (
        "from sglang.kernels.ops.diffusion import modulate, rms_fused\n\n\n"
        "def main():\n    assert rms_fused() + modulate() == 3\n"
    ),
    "python/sglang/srt/user_c.py": (
        "def main():\n"
        "    from sglang.kernels.ops import diffusion as diffusion_ops\n\n"
        "    assert diffusion_ops.rms_fused() == 1\n"
    ),
    "python/sglang/srt/user_d.py": (
        "import sglang.kernels.ops.diffusion\n\n\n"
        "def main():\n    assert sglang.kernels.ops.diffusion.rms_fused() == 1\n"
    ),
}
TREE = {
    f"{OPS}/__init__.py": '_GROUPS = ("diffusion", "layernorm")\n',
    f"{OPS}/diffusion/__init__.py": DIFFUSION,
    f"{OPS}/diffusion/norm/__init__.py": "",
    f"{OPS}/diffusion/norm/rms.py": "def rms_fused():\n    return 1\n",
    f"{OPS}/diffusion/modulate.py": "def modulate():\n    return 2\n",
    f"{OPS}/diffusion/common.py": "def shared_helper():\n    return 0\n",
    f"{OPS}/layernorm/__init__.py": "",
    f"{OPS}/layernorm/rmsnorm.py": "def rmsnorm():\n    return 4\n",
    **USERS,
}
PLAN = """\
version: 1
roots: [python, .]
moves:
  - from: sglang.kernels.ops.diffusion.norm.rms
    to: sglang.kernels.ops.layernorm.rms
"""
USER_MODULES = [f"sglang.srt.user_{c}" for c in "abcd"]


def _read(repo, path):
    return (repo / path).read_text()


def test_an_export_joins_the_destination_table_in_its_style(make_repo, tmp_path):
    tree = {**TREE, f"{OPS}/layernorm/__init__.py": LAYERNORM_WITH_TABLE}
    repo = apply_twice(make_repo, tmp_path, tree, PLAN)
    assert run_tree(repo, *USER_MODULES)["exports"] == {
        "diffusion.modulate": "sglang.kernels.ops.diffusion.modulate:modulate",
        "diffusion.shared_helper": "sglang.kernels.ops.diffusion.common:shared_helper",
        "layernorm.rms_fused": "sglang.kernels.ops.layernorm.rms:rms_fused",
        "layernorm.rmsnorm": "sglang.kernels.ops.layernorm.rmsnorm:rmsnorm",
    }
    assert "'rmsnorm': 'rmsnorm',\n    'rms_fused': 'rms',\n}" in _read(
        repo, f"{OPS}/layernorm/__init__.py"
    )
    diffusion = _read(repo, f"{OPS}/diffusion/__init__.py")
    assert '"rms_fused"' not in diffusion and '"modulate": "modulate",' in diffusion
    a = _read(repo, "python/sglang/srt/user_a.py")
    assert "from sglang.kernels.ops import diffusion, layernorm\n" in a or (
        "from sglang.kernels.ops import layernorm\n" in a
    )
    assert "layernorm.rms_fused()" in a and "diffusion.modulate()" in a
    assert "from sglang.kernels.ops.layernorm import rms_fused" in _read(
        repo, "python/sglang/srt/user_b.py"
    )


def test_a_destination_without_a_table_gets_one_that_runs(make_repo, tmp_path):
    repo = apply_twice(make_repo, tmp_path, TREE, PLAN)
    layernorm = _read(repo, f"{OPS}/layernorm/__init__.py")
    assert layernorm.startswith(
        '_EXPORTS = {\n    "rms_fused": "sglang.kernels.ops.layernorm.rms",\n}'
    )
    assert "def __getattr__(name):" in layernorm
    out = run_tree(repo, *USER_MODULES)
    assert out["exports"]["layernorm.rms_fused"] == "sglang.kernels.ops.layernorm.rms:rms_fused"
    assert "diffusion.rms_fused" not in out["exports"]
    d = _read(repo, "python/sglang/srt/user_d.py")
    assert "sglang.kernels.ops.layernorm.rms_fused()" in d


def test_the_dry_run_lists_the_followed_exports_and_writes_nothing(make_repo, tmp_path):
    repo = make_repo({**REGISTRY, **TREE})
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    res = CliRunner().invoke(main, [str(plan), "--dry-run", "--repo", str(repo)])
    assert res.exit_code == 0, res.output
    assert "lazy exports following their module to a new group (1):" in res.output
    assert "sglang.kernels.ops.diffusion.rms_fused -> sglang.kernels.ops.layernorm.rms_fused" in (
        res.output
    )
    assert git(repo, "status", "--porcelain") == ""


def test_a_destination_getattr_without_a_table_is_refused(make_repo, tmp_path):
    hook = "def __getattr__(name):\n    raise AttributeError(name)\n"
    repo = make_repo({**REGISTRY, **TREE, f"{OPS}/layernorm/__init__.py": hook})
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    cs = plan_changes(prepare(plan, repo))
    (msg,) = [n.message for n in cs.notes if n.severity == "error"]
    assert "rms_fused" in msg and "reads no literal _EXPORTS" in msg


def test_verify_passes_on_the_result(make_repo, tmp_path):
    repo = apply_twice(make_repo, tmp_path, TREE, PLAN)
    base = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    res = CliRunner().invoke(main, ["verify", f"{base}..HEAD", "--repo", str(repo), "--no-wheel"])
    assert "verify: PASS" in res.output, res.output


LOOP = """
for _name, _owner in _EXPORTS.items():
    register_kernel(
        KernelSpec(
            op=f"{group}.{{_name}}",
            backend=KernelBackend.TRITON,
            target=f"{{__name__}}:{{_name}}",
        )
    )
"""
REG_TREE = {
    **TREE,
    f"{OPS}/diffusion/__init__.py": DIFFUSION.replace(
        "from typing import Any\n", "from typing import Any\n\n" + IMPORTS
    ).replace("\n\ndef __getattr__", LOOP.format(group="diffusion") + "\n\ndef __getattr__"),
}


def test_a_registration_over_the_exports_follows_into_the_destination_loop(make_repo, tmp_path):
    layernorm = LAYERNORM_WITH_TABLE.replace(
        "from typing import Any\n", "from typing import Any\n\n" + IMPORTS
    ).replace("\n\ndef __getattr__", LOOP.format(group="layernorm") + "\n\ndef __getattr__")
    tree = {**REG_TREE, f"{OPS}/layernorm/__init__.py": layernorm}
    repo = apply_twice(make_repo, tmp_path, tree, PLAN)
    ops = run_tree(repo, *USER_MODULES)["ops"]
    assert ops == {
        "diffusion.modulate": "sglang.kernels.ops.diffusion:modulate",
        "diffusion.shared_helper": "sglang.kernels.ops.diffusion:shared_helper",
        "layernorm.rms_fused": "sglang.kernels.ops.layernorm:rms_fused",
        "layernorm.rmsnorm": "sglang.kernels.ops.layernorm:rmsnorm",
    }
    assert _read(repo, f"{OPS}/layernorm/__init__.py").count("register_kernel(") == 1


def test_a_registration_over_the_exports_becomes_a_literal_one_elsewhere(make_repo, tmp_path):
    repo = apply_twice(make_repo, tmp_path, REG_TREE, PLAN)
    ops = run_tree(repo, *USER_MODULES)["ops"]
    assert ops["layernorm.rms_fused"] == "sglang.kernels.ops.layernorm:rms_fused"
    assert "diffusion.rms_fused" not in ops
    layernorm = _read(repo, f"{OPS}/layernorm/__init__.py")
    assert 'op="layernorm.rms_fused"' in layernorm
    assert 'target="sglang.kernels.ops.layernorm:rms_fused"' in layernorm


INSIDE = PLAN.replace("sglang.kernels.ops.layernorm.rms", "sglang.kernels.ops.diffusion.normx.rms")


def test_a_move_inside_the_group_respells_the_relative_owner(make_repo, tmp_path):
    repo = apply_twice(make_repo, tmp_path, TREE, INSIDE)
    assert '"rms_fused": "normx.rms",' in _read(repo, f"{OPS}/diffusion/__init__.py")
    exports = run_tree(repo, *USER_MODULES)["exports"]
    assert exports["diffusion.rms_fused"] == "sglang.kernels.ops.diffusion.normx.rms:rms_fused"


def _tree_of(make_repo, diffusion: str):
    from migrate.index import build_index
    from migrate.verify.codetree import CodeTree

    repo = make_repo({**REGISTRY, **TREE, f"{OPS}/diffusion/__init__.py": diffusion})
    return CodeTree(build_index(repo, ("python",)))


def test_verify_reads_the_lazy_table_instead_of_trusting_the_hook(make_repo):
    """A stale owner, or a name missing from a closed table, does not resolve; names a
    hook may serve beyond its table stay unknown (never a guessed FAIL)."""
    from migrate.index.targets import Resolver

    g = "sglang.kernels.ops.diffusion"
    tree = _tree_of(make_repo, DIFFUSION.replace('"norm.rms"', '"gone.rms"'))
    assert [tree.binds(g, n) for n in ("modulate", "shared_helper", "rms_fused", "nope")] == [
        True,
        True,
        False,
        False,
    ]
    assert "gone.rms" in (Resolver(tree.index).problem(f"{g}:rms_fused") or "")
    assert Resolver(tree.index).problem(f"{g}:modulate") is None
    open_hook = DIFFUSION.replace(
        "    module = _EXPORTS.get(name)\n", "    module = _EXPORTS.get(name) or _MORE[name]\n"
    )
    tree = _tree_of(make_repo, open_hook)
    assert tree.binds(g, "nope") and tree.has_attr(g, "nope") is None
