"""Inventory tests of the sglang.kernels namespace (CPU only, no kernel launches
except through the registry).

Checks the README group list against `_GROUPS`, the README layout against the
directories under kernels/, that group imports stay metadata-only, and that every
registered target resolves.
"""

import os
import re
import subprocess
import sys
import unittest
from pathlib import Path

import torch

import sglang.kernels
from sglang.kernels import ops
from sglang.kernels.registry import get_kernel, list_kernels, resolve_target, select_kernel
from sglang.kernels.spec import DeviceType, KernelBackend
from sglang.test.ci.ci_register import register_cpu_ci
from sglang.test.kernels.device import DEVICE

register_cpu_ci(est_time=10, suite="base-a-test-cpu")

KERNELS_DIR = Path(sglang.kernels.__file__).parent
README = (KERNELS_DIR / "README.md").read_text(encoding="utf-8")


def _subdirs(path: Path) -> set[str]:
    return {p.name for p in path.iterdir() if p.is_dir() and p.name != "__pycache__"}


class TestNamespaceLayout(unittest.TestCase):
    def test_readme_group_list_matches_groups(self):
        m = re.search(r"Operator groups \(all populated\): (.+?)\.\n", README)
        self.assertIsNotNone(m, "README lost its group sentence")
        self.assertEqual(re.findall(r"`([a-z_0-9]+)`", m.group(1)), list(ops._GROUPS))
        self.assertEqual(ops.__all__, list(ops._GROUPS))

    def test_group_directories_match_groups(self):
        self.assertEqual(_subdirs(KERNELS_DIR / "ops"), set(ops._GROUPS))

    def test_readme_layout_matches_directories(self):
        layout = README.split("## Layout", 1)[1]
        documented = set(re.findall(r"^- `([a-z_]+)/`", layout, flags=re.M))
        self.assertEqual(documented, _subdirs(KERNELS_DIR))

    def test_group_import_is_metadata_only(self):
        code = (
            "import sys, sglang.kernels.ops\n"
            "bad = [m for m in ('torch', 'triton', 'sgl_kernel', 'sglang.kernels.jit') if m in sys.modules]\n"
            "print(','.join(bad))\n"
        )
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        self.assertEqual(out.stdout.strip(), "")


class TestRegistry(unittest.TestCase):
    def test_every_target_resolves(self):
        specs = list_kernels()
        self.assertGreaterEqual(len(specs), 12)
        for spec in specs:
            with self.subTest(op=spec.op, backend=spec.backend.value):
                self.assertTrue(callable(resolve_target(spec.target)), spec.target)

    def test_fused_op_registers_one_target_per_backend(self):
        targets = {s.backend: s.target for s in list_kernels("layernorm.rmsnorm")}
        self.assertEqual(targets[KernelBackend.TORCH], "sglang.kernels.ops.layernorm:_RMSNORM.forward_torch")
        self.assertEqual(targets[KernelBackend.TRITON], "sglang.kernels.ops.layernorm:_RMSNORM.forward_triton")

    def test_fused_op_backends_agree(self):
        x, w = torch.randn(3, 16, device=DEVICE), torch.randn(16, device=DEVICE)
        ref = get_kernel("layernorm.rmsnorm", "torch")(x, w)
        torch.testing.assert_close(get_kernel("layernorm.rmsnorm", "triton")(x, w), ref)
        torch.testing.assert_close(get_kernel("jit.rmsnorm", backend="jit")(x, w), ref)

    def test_legacy_registration_targets(self):
        self.assertEqual(get_kernel("jit.topk_softmax").spec.target, "sglang.jit_kernel.topk_softmax:topk_softmax")
        self.assertEqual(
            get_kernel("activation.silu_and_mul").spec.target, "sglang.jit_kernel.activation:silu_and_mul"
        )

    def test_selection_honours_capabilities(self):
        with self.assertRaises(LookupError):
            select_kernel("layernorm.gemma_rmsnorm", DeviceType.CPU)
        op = "moe.deepseek_v3_grouped_topk"
        self.assertEqual(select_kernel(op, "cuda", (8, 0)).spec.backend, KernelBackend.TRITON)
        self.assertEqual(select_kernel(op, "cuda", (9, 0)).spec.backend, KernelBackend.PLUGIN)

    def test_pep562_exports_resolve_lazily(self):
        from sglang.jit_kernel import quant as quant_mod
        from sglang.kernels.ops import quantization

        self.assertIs(quantization.per_token_quant_int8, quant_mod.per_token_quant_int8)
        self.assertIn("dequant_per_token_int8", dir(quantization))


if __name__ == "__main__":
    unittest.main()
