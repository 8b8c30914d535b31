"""Build a `Prepared` (plan + index + relocation) for a small real git repo in a test."""

from __future__ import annotations

import textwrap
from pathlib import Path

from migrate.pipeline import Prepared, prepare

BASE_TREE = {
    "python/sglang/__init__.py": "",
    "python/sglang/jit_kernel/__init__.py": '"""Legacy JIT kernels."""\n',
    "python/sglang/jit_kernel/norm.py": "def rmsnorm(x):\n    return x\n",
    "python/sglang/jit_kernel/rope.py": "def apply_rope(x):\n    return x\n",
    "python/sglang/jit_kernel/csrc/norm.cuh": "// norm\n",
    "python/sglang/kernels/__init__.py": "",
    "python/sglang/kernels/ops/__init__.py": '_GROUPS = ("attention", "layernorm")\n',
    "python/sglang/kernels/ops/attention/__init__.py": "",
    "python/sglang/kernels/ops/layernorm/__init__.py": "",
    "test/registered/kernels/test_rope.py": "def test_rope():\n    pass\n",
}

BASE_PLAN = """\
version: 1
roots: [python, .]
moves:
  - from: sglang.jit_kernel
    to: sglang.kernels.ops.attention.jit
  - from: sglang.jit_kernel.norm
    to: sglang.kernels.ops.layernorm.norm
  - from: test/registered/kernels/test_rope.py
    to: test/registered/kernels/ops/attention/test_rope.py
"""


def prepared(
    make_repo, tmp_path: Path, files: dict, plan: str = BASE_PLAN, base: dict | None = BASE_TREE
) -> Prepared:
    """A real git repo of `base` + `files` and a validated plan kept outside it."""
    tree = {**(base or {}), **files}
    repo = make_repo(tree)
    plan_path = tmp_path / f"plan-{repo.name}.yaml"
    plan_path.write_text(textwrap.dedent(plan), encoding="utf-8")
    return prepare(plan_path, repo)
