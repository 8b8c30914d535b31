"""Tiny repos with real Triton kernels, moved by hand (`git mv` + import rewrite) for parity."""

from __future__ import annotations

from pathlib import Path

from helpers import git, write_tree

KERN = """\
import torch
import triton
import triton.language as tl

SCALE = 2.0


@triton.jit
def _scale_kernel(x_ptr, y_ptr, n, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, x * scale + 1.0, mask=mask)


def scale(x):
    y = torch.empty_like(x)
    n = x.numel()
    _scale_kernel[(triton.cdiv(n, 64),)](x, y, n, SCALE, BLOCK=64)
    return y


def scale_into(x, out):
    _scale_kernel[(triton.cdiv(x.numel(), 64),)](x, out, x.numel(), SCALE, BLOCK=64)
"""

# Block size from configs/ beside the module, else a default: a lost directory changes it.
BLOCKS = """\
import json
import os

import torch
import triton
import triton.language as tl


@triton.jit
def _block_sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + pid, tl.sum(x, axis=0))


def _block_size():
    path = os.path.join(os.path.dirname(__file__), "configs", "block.json")
    if os.path.exists(path):
        with open(path) as fh:
            return json.load(fh)["BLOCK"]
    return 64


def block_sums(x):
    block = _block_size()
    grid = triton.cdiv(x.numel(), block)
    out = torch.empty(grid, dtype=x.dtype, device=x.device)
    _block_sum_kernel[(grid,)](x, out, x.numel(), BLOCK=block)
    return out
"""

ACT = """\
import torch
import triton
import triton.language as tl


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=offs < n)


def relu(x):
    y = torch.empty_like(x)
    _relu_kernel[(triton.cdiv(x.numel(), 32),)](x, y, x.numel(), BLOCK=32)
    return y
"""

TEST_ACT = """\
import torch
from {pkg}.act import relu


def test_relu():
    x = torch.randn(40, device="cuda" if torch.cuda.is_available() else "cpu")
    torch.testing.assert_close(relu(x), torch.relu(x))
"""

TEST_KERN = """\
import torch
from {pkg}.kern import scale, scale_into

DEV = "cuda" if torch.cuda.is_available() else "cpu"


def test_scale():
    x = torch.randn(100, device=DEV)
    torch.testing.assert_close(scale(x), x * 2.0 + 1.0)


def test_scale_into():
    x = torch.randn(70, dtype=torch.float16, device=DEV)
    out = torch.zeros_like(x)
    scale_into(x, out)
    torch.testing.assert_close(out, x * 2.0 + 1.0)
"""

TEST_BLOCKS = """\
import torch
from {pkg} import blocks


def test_block_sums():
    x = torch.randn(256, device="cuda" if torch.cuda.is_available() else "cpu")
    torch.testing.assert_close(blocks.block_sums(x).sum(), x.sum(), rtol=1e-4, atol=1e-4)
"""

BASE_FILES = {
    "pkg/__init__.py": "",
    "pkg/old/__init__.py": "",
    "pkg/old/kern.py": KERN,
    "pkg/old/blocks.py": BLOCKS,
    "pkg/old/act.py": ACT,
    "pkg/old/configs/block.json": '{"BLOCK": 32}\n',
    "tests/old/test_act.py": TEST_ACT.format(pkg="pkg.old"),
    "tests/old/test_kern.py": TEST_KERN.format(pkg="pkg.old"),
    "tests/old/test_blocks.py": TEST_BLOCKS.format(pkg="pkg.old"),
}


def move(repo: Path, moves: dict[str, str], edits: dict[str, tuple[str, str]]) -> str:
    """`git mv` each move, apply (old, new) text edits to files at their new paths, commit."""
    for old, new in moves.items():
        (repo / new).parent.mkdir(parents=True, exist_ok=True)
        git(repo, "mv", old, new)
    for path, (old_text, new_text) in edits.items():
        p = repo / path
        text = p.read_text()
        assert old_text in text, (path, old_text)
        p.write_text(text.replace(old_text, new_text))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "move")
    return git(repo, "rev-parse", "HEAD").strip()


PURE_MOVES = {
    "pkg/old/kern.py": "pkg/new/kern.py",
    "pkg/old/blocks.py": "pkg/new/blocks.py",
    "pkg/old/act.py": "pkg/new/act.py",
    "tests/old/test_act.py": "tests/new/test_act.py",
    "pkg/old/configs/block.json": "pkg/new/configs/block.json",
    "pkg/old/__init__.py": "pkg/new/__init__.py",
    "tests/old/test_kern.py": "tests/new/test_kern.py",
    "tests/old/test_blocks.py": "tests/new/test_blocks.py",
}
IMPORT_EDITS = {
    "tests/new/test_kern.py": ("from pkg.old.kern", "from pkg.new.kern"),
    "tests/new/test_blocks.py": ("from pkg.old import", "from pkg.new import"),
    "tests/new/test_act.py": ("from pkg.old.act", "from pkg.new.act"),
}


def pure_move(repo: Path) -> None:
    move(repo, PURE_MOVES, IMPORT_EDITS)


def dirty_move(repo: Path) -> None:
    """A "move" that changes a constant, leaves configs/ behind, adds a call, breaks an import."""
    moves = {k: v for k, v in PURE_MOVES.items() if "configs" not in k}
    edits = dict(IMPORT_EDITS)
    edits["pkg/new/kern.py"] = ("x * scale + 1.0", "x * scale + 1.0000001")
    edits["pkg/new/act.py"] = ("import torch\n", "import not_a_real_dependency_xyz\nimport torch\n")
    move(repo, moves, edits)
    test = repo / "tests/new/test_kern.py"
    test.write_text(
        test.read_text() + "\n\ndef test_extra():\n    scale(torch.ones(8, device=DEV))\n"
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "extra call")


def write_base(root: Path) -> None:
    write_tree(root, BASE_FILES)


# Entry points that bypass a module's public functions: a test's own kernel launch, a
# torch.library custom op called through torch.ops, a fused op's forward_<backend>, and a
# dotted registry target (a codec class's static method).
FUSED = """\
class BaseFusedOp:
    def forward(self, x, backend="triton"):
        return getattr(self, f"forward_{backend}")(x)
"""

EXT = """\
import torch
import triton
import triton.language as tl

from pkg.fused import BaseFusedOp


@triton.jit
def _triple_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, x * 3.0, mask=offs < n)


def _triple(x):
    y = torch.empty_like(x)
    _triple_kernel[(triton.cdiv(x.numel(), 64),)](x, y, x.numel(), BLOCK=64)
    return y


@torch.library.custom_op("parity_fixture::triple", mutates_args=())
def triple_op(x: torch.Tensor) -> torch.Tensor:
    return _triple(x)


@triple_op.register_fake
def _(x):
    return torch.empty_like(x)


class TripleOp(BaseFusedOp):
    def forward_torch(self, x):
        return x * 3.0

    def forward_triton(self, x):
        return _triple(x)


class Codec:
    encode = staticmethod(_triple)


TRIPLE = TripleOp()
"""

REGISTRY = 'TARGETS = {"triple": "pkg.old.ext:Codec.encode"}\n'

TEST_EXT = """\
import importlib

import torch

from pkg.old import ext
from pkg.registry import TARGETS

DEV = "cuda" if torch.cuda.is_available() else "cpu"


def _resolve(target):
    mod, _, path = target.partition(":")
    obj = importlib.import_module(mod)
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def test_launch_directly():
    x = torch.randn(50, device=DEV)
    y = torch.empty_like(x)
    ext._triple_kernel[(1,)](x, y, x.numel(), BLOCK=64)
    torch.testing.assert_close(y, x * 3.0)


def test_torch_op():
    x = torch.randn(40, device=DEV)
    torch.testing.assert_close(torch.ops.parity_fixture.triple(x), x * 3.0)


def test_fused_op():
    x = torch.randn(30, device=DEV)
    torch.testing.assert_close(ext.TRIPLE.forward(x, "triton"), ext.TRIPLE.forward(x, "torch"))


def test_registry_target():
    x = torch.randn(20, device=DEV)
    torch.testing.assert_close(_resolve(TARGETS["triple"])(x), x * 3.0)
"""

EXT_FILES = {
    "pkg/__init__.py": "",
    "pkg/fused.py": FUSED,
    "pkg/registry.py": REGISTRY,
    "pkg/old/__init__.py": "",
    "pkg/old/ext.py": EXT,
    "tests/old/test_ext.py": TEST_EXT,
}
EXT_MOVES = {
    "pkg/old/__init__.py": "pkg/new/__init__.py",
    "pkg/old/ext.py": "pkg/new/ext.py",
    "tests/old/test_ext.py": "tests/new/test_ext.py",
}
EXT_EDITS = {
    "tests/new/test_ext.py": ("from pkg.old import ext", "from pkg.new import ext"),
    "pkg/registry.py": ("pkg.old.ext:", "pkg.new.ext:"),
}


def ext_move(repo: Path, changed_kernel: bool = False) -> None:
    edits = dict(EXT_EDITS)
    if changed_kernel:
        edits["pkg/new/ext.py"] = ("x * 3.0, mask", "x * 3.0000002, mask")
    move(repo, EXT_MOVES, edits)
