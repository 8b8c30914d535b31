"""A tiny legacy-layout repo, a plan for it and a fixed ChangeSet, for the report tests.

The ChangeSet is fixed (not the rewrite engine's) so the report tests pin the report,
not the engine: one safe code edit, one string edit marked for review, one prose edit.
"""

from __future__ import annotations

import re
from pathlib import Path

from helpers import GOLDEN, REPO_ROOT, assert_golden

from migrate.changes import ChangeSet, Edit, FileMove

PLAN = """\
version: 1
roots: [python]
moves:
  - from: sglang.jit_kernel.norm
    to: sglang.kernels.ops.layernorm.norm
  - from: sglang.jit_kernel.gemm
    to: sglang.kernels.ops.gemm.scaled
"""

USER = "from sglang.jit_kernel.norm import rmsnorm\n\nprint(rmsnorm)\n"
PATCH = 'TARGET = "sglang.jit_kernel.norm.rmsnorm"\n'
DOC = "Call sglang.jit_kernel.norm for RMSNorm.\n"
TEST = (
    "from sglang.jit_kernel.norm import rmsnorm\n\n"
    'register_cuda_ci(est_time=30, suite="stage-a")\n\n\n'
    "def test_norm():\n    assert rmsnorm\n"
)
OPS_INIT = '_GROUPS = ("gemm", "layernorm")\n__all__ = list(_GROUPS)\n'
FILES = {
    "python/sglang/__init__.py": "",
    "python/sglang/jit_kernel/__init__.py": "",
    "python/sglang/jit_kernel/norm.py": "def rmsnorm(x):\n    return x\n",
    "python/sglang/jit_kernel/gemm/__init__.py": "",
    "python/sglang/jit_kernel/gemm/mm.py": "def mm(a, b):\n    return a\n",
    "python/sglang/jit_kernel/gemm/configs/N=64.json": "{}\n",
    "python/sglang/kernels/__init__.py": "",
    "python/sglang/kernels/ops/__init__.py": OPS_INIT,
    "python/sglang/srt/user.py": USER,
    "python/sglang/srt/patch.py": PATCH,
    "docs/norm.md": DOC,
    "test/registered/test_norm.py": TEST,
}


def _edit(path: str, text: str, old: str, new: str, kind: str, why: str, app="safe") -> Edit:
    start = text.index(old)
    line = text.count("\n", 0, start) + 1
    col = start - (text.rfind("\n", 0, start) + 1) + 1
    return Edit(path, start, start + len(old), old, new, kind, line, col, why, app)


def changeset(prep=None) -> ChangeSet:
    old, new = "sglang.jit_kernel.norm", "sglang.kernels.ops.layernorm.norm"
    j, k = "python/sglang/jit_kernel", "python/sglang/kernels/ops"
    moves = [
        FileMove(f"{j}/norm.py", f"{k}/layernorm/norm.py"),
        FileMove(f"{j}/gemm/__init__.py", f"{k}/gemm/scaled/__init__.py"),
        FileMove(f"{j}/gemm/mm.py", f"{k}/gemm/scaled/mm.py"),
        FileMove(f"{j}/gemm/configs/N=64.json", f"{k}/gemm/scaled/configs/N=64.json"),
    ]
    edits = [
        _edit("python/sglang/srt/user.py", USER, old, new, "code", "import"),
        _edit("test/registered/test_norm.py", TEST, old, new, "code", "import"),
        _edit(
            "python/sglang/srt/patch.py",
            PATCH,
            old,
            new,
            "string",
            "patch target string: confirm it names the moved function",
            "review",
        ),
        _edit("docs/norm.md", DOC, old, new, "prose", "dotted name in prose"),
    ]
    return ChangeSet(moves=moves, edits=edits)


def write_plan(tmp_path: Path) -> Path:
    p = tmp_path / "plan.yaml"
    p.write_text(PLAN)
    return p


HEX = re.compile(r"\b[0-9a-f]{7,64}\b")


def normalise(text: str, data, repo: Path) -> str:
    """Shas -> COMMIT-N (N in range order, 0 = BASE), plan hash, version, tmp paths.

    Goldens then change only when the report's facts or layout change.
    """
    shas = [data.meta.base] + [c.sha for c in data.commits] if data.meta.base else []
    names = {sha: f"COMMIT-{i}" for i, sha in enumerate(shas)}
    plan_sha = data.meta.plan_sha256 or "-"

    def sub(m: re.Match) -> str:
        h = m.group(0)
        for sha, name in names.items():
            if sha.startswith(h):
                return name
        return "PLAN-SHA256" if plan_sha.startswith(h) else h

    text = HEX.sub(sub, text)
    for path, name in ((repo, "REPO"), (repo.parent, "TMP"), (REPO_ROOT, "")):
        text = text.replace(str(path) + "/", name + "/" if name else "")
        text = text.replace(str(path), name)
    return text.replace(data.meta.tool_version, "VERSION")


def check_golden(name: str, text: str) -> None:
    assert_golden(GOLDEN / "report" / name, text)
