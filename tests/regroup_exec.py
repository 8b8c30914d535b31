"""Run what a regrouping wrote: import the groups of a migrated tree and resolve every
registered target and lazy export, in a fresh interpreter (nothing cached from the test).

The tree carries a tiny registry (`register_kernel` records specs); `registered(repo)`
returns {op id: target} as Python computed them at import and raises when a target or an
export does not resolve.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from helpers import git

from migrate.git_steps import apply_plan
from migrate.index import build_index
from migrate.plan import load_plan
from migrate.rewrite.fix_mode import fix_changes

OPS = "python/sglang/kernels/ops"
REGISTRY = {
    "python/sglang/__init__.py": "",
    "python/sglang/kernels/__init__.py": "",
    "python/sglang/kernels/registry.py": (
        "SPECS = []\n\n\ndef register_kernel(spec):\n    SPECS.append(spec)\n"
    ),
    "python/sglang/kernels/spec.py": (
        "import enum\nfrom dataclasses import dataclass\n\n\n"
        "class KernelBackend(enum.Enum):\n    TRITON = 'triton'\n\n\n"
        "@dataclass(frozen=True)\nclass KernelSpec:\n    op: str\n"
        "    backend: KernelBackend\n    target: str\n"
    ),
}
IMPORTS = (
    "from sglang.kernels.registry import register_kernel\n"
    "from sglang.kernels.spec import KernelBackend, KernelSpec\n"
)

_PROBE = textwrap.dedent(
    """
    import importlib, json, sys
    ops = importlib.import_module("sglang.kernels.ops")
    groups = {g: importlib.import_module(f"sglang.kernels.ops.{g}") for g in ops._GROUPS}
    from sglang.kernels.registry import SPECS
    out = {"ops": {}, "exports": {}}
    for spec in SPECS:
        mod, _, attr = spec.target.partition(":")
        obj = importlib.import_module(mod)
        for part in attr.split("."):
            obj = getattr(obj, part)
        out["ops"][spec.op] = spec.target
    for g, m in groups.items():
        for name in sorted(getattr(m, "_EXPORTS", {})):
            fn = getattr(m, name)
            out["exports"][f"{g}.{name}"] = f"{fn.__module__}:{fn.__name__}"
    for user in sys.argv[1:]:
        importlib.import_module(user).main()
    print(json.dumps(out))
    """
)


def run_tree(repo: Path, *users: str) -> dict:
    """{"ops": {op: target}, "exports": {group.name: module:function}} of the tree, after
    running `main()` of every user module (each raises if a name it uses is gone)."""
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, *users],
        cwd=repo,
        env={"PYTHONPATH": str(repo / "python"), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def apply_twice(make_repo, tmp_path: Path, files: dict, plan_text: str) -> Path:
    """Apply the plan to a real git repo of `files`, then run the engine on its own output
    (as `fix` would): the second run must change nothing."""
    repo = make_repo({**REGISTRY, **files})
    plan = tmp_path / "plan.yaml"
    plan.write_text(plan_text)
    result = apply_plan(plan, repo)
    assert result.status == "applied"
    assert git(repo, "status", "--porcelain") == ""
    loaded, _ = load_plan(plan)
    again = fix_changes(loaded, build_index(repo, loaded.roots))
    assert again.edits == [], [(e.path, e.old, e.new) for e in again.edits]
    return repo
