"""End to end on kernels_sample/: `migrate apply` the sample plan, then `migrate parity`.

The default suite runs a focused subset (GEMM with its tuning configs, RMSNorm whose tests
were split across files, activation and int8 quant for the entry points that bypass a
module's functions); bench/parity_sample.sh runs every moved kernel.
"""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner
from helpers import PLANS, SAMPLE, git, init_repo

from migrate.cli import main

PLAN = PLANS / "sample-jit-to-ops.yaml"
pytest.importorskip("triton")


@pytest.fixture(scope="module")
def applied(tmp_path_factory):
    repo = tmp_path_factory.mktemp("parity-sample") / "kernels_sample"
    shutil.copytree(SAMPLE, repo, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    init_repo(repo)
    base = git(repo, "rev-parse", "HEAD").strip()
    res = CliRunner().invoke(main, ["apply", str(PLAN), "--repo", str(repo)])
    assert res.exit_code == 0, res.output
    return repo, base


def test_sample_subset_is_bit_identical(applied):
    repo, base = applied
    args = ["parity", f"{base}..HEAD", "--repo", str(repo), "--plan", str(PLAN)]
    args += ["--device", "cpu", "--json", "--only", "*.gemm.*", "--only", "*.layernorm.norm"]
    args += ["--only", "*.activation.activation", "--only", "*.quantization.int8"]
    res = CliRunner().invoke(main, args)
    r = json.loads(res.output)
    assert res.exit_code == 0 and r["ok"], r["findings"]
    assert {m["new"] for m in r["modules"]} == {
        "sglang.kernels.ops.activation.activation",
        "sglang.kernels.ops.gemm.scaled_mm",
        "sglang.kernels.ops.layernorm.norm",
        "sglang.kernels.ops.quantization.int8",
    }
    ops = {o["op"]: o for o in r["ops"]}
    for op in (
        "gemm.scaled_mm:scaled_mm",
        "layernorm.norm:rmsnorm",
        "layernorm.norm:fused_add_rmsnorm",
        "activation.activation:_silu_and_mul_kernel",  # launched by a test itself
        "activation.activation:torch.ops.sglang.gelu_tanh_and_mul",  # a torch.library op
        "activation.activation:GeluTanhAndMulOp.forward_triton",  # a BaseFusedOp backend
        "quantization.int8:PerTokenInt8.dequant",  # a dotted registry target
    ):
        o = ops[f"sglang.kernels.ops.{op}"]
        assert o["status"] == "identical" and o["calls"] > 0 and o["devices"] == ["cpu"], o
    # the tuned-config path moved with the module and compares equal after the move
    assert ops["sglang.kernels.ops.gemm.scaled_mm:get_scaled_mm_configs"]["status"] == "identical"
    assert r["head"]["configs"]["sglang.kernels.ops.gemm.scaled_mm"]
    # tests split into two files are paired by name, not reported as one-side-only
    split = "test/registered/kernels/ops/layernorm/test_fused_add_rmsnorm.py::"
    assert any(t["nodeid"].startswith(split) and t["base"] == "passed" for t in r["tests"])
    assert not r["head"]["env"]["cuda_available"]
    assert not r["findings"], r["findings"]
