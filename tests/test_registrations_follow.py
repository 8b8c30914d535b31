"""Registrations follow their module to the new group's `__init__.py`, in its style."""

from __future__ import annotations

from prep_helpers import BASE_TREE, prepared

from migrate.changes import apply_edits
from migrate.rewrite.engine import plan_changes

OPS = "python/sglang/kernels/ops"
IMPORTS = (
    "from sglang.kernels.registry import register_kernel\n"
    "from sglang.kernels.spec import KernelBackend, KernelSpec\n\n"
)
QUANT = (
    IMPORTS
    + """_TRITON_KERNELS = [
    ("fp8_kernel", "w8a8_block_fp8_matmul"),
    ("fp8_kernel", "triton_scaled_mm"),
    ("awq_triton", "awq_dequantize_triton"),
]
for _mod, _fn in _TRITON_KERNELS:
    register_kernel(
        KernelSpec(
            op=f"quantization.{_fn}",
            backend=KernelBackend.TRITON,
            target=f"sglang.kernels.ops.quantization.{_mod}:{_fn}",
        )
    )
del _mod, _fn

register_kernel(
    KernelSpec(
        op="quantization.gptq_gemm",
        backend=KernelBackend.TRITON,
        target="sglang.kernels.ops.quantization.gptq:gptq_gemm",
    )
)
"""
)
GEMM = (
    IMPORTS
    + """_TRITON_KERNELS = [
    ("tiny_gemm", "tiny_gemm_bf16"),
]
for _mod, _fn in _TRITON_KERNELS:
    register_kernel(
        KernelSpec(
            op=f"gemm.{_fn}",
            backend=KernelBackend.TRITON,
            target=f"sglang.kernels.ops.gemm.{_mod}:{_fn}",
        )
    )
del _mod, _fn
"""
)
TREE = {
    **BASE_TREE,
    f"{OPS}/__init__.py": '_GROUPS = ("gemm", "quantization")\n',
    f"{OPS}/quantization/__init__.py": QUANT,
    f"{OPS}/quantization/fp8_kernel.py": (
        "def w8a8_block_fp8_matmul():\n    pass\n\n\ndef triton_scaled_mm():\n    pass\n"
    ),
    f"{OPS}/quantization/awq_triton.py": "def awq_dequantize_triton():\n    pass\n",
    f"{OPS}/quantization/gptq.py": "def gptq_gemm():\n    pass\n",
    f"{OPS}/gemm/__init__.py": GEMM,
    f"{OPS}/gemm/tiny_gemm.py": "def tiny_gemm_bf16():\n    pass\n",
    "test/registered/unit/kernels/test_inventory.py": (
        "from sglang.kernels.registry import get_kernel\n\n\n"
        "def test_ids():\n"
        '    assert get_kernel("quantization.triton_scaled_mm")\n'
        '    assert get_kernel("quantization.gptq_gemm")\n'
        '    assert get_kernel("quantization.awq_dequantize_triton")\n'
    ),
}
PLAN = """\
version: 1
roots: [python, .]
moves:
  - from: sglang.kernels.ops.quantization.fp8_kernel
    to: sglang.kernels.ops.gemm.fp8_kernel
  - from: sglang.kernels.ops.quantization.gptq
    to: sglang.kernels.ops.gemm.gptq
"""


def _after(prep, cs, path):
    new = prep.relocation.files.get(path, path)
    return apply_edits(prep.index.text(path), cs.edits_for(new))


def test_rows_and_statements_move_to_the_destination_in_its_style(make_repo, tmp_path):
    prep = prepared(make_repo, tmp_path, {}, plan=PLAN, base=TREE)
    cs = plan_changes(prep)
    assert [n for n in cs.notes if n.severity == "error"] == []
    quant = _after(prep, cs, f"{OPS}/quantization/__init__.py")
    rows = '    ("fp8_kernel", "w8a8_block_fp8_matmul"),\n    ("fp8_kernel", "triton_scaled_mm"),\n'
    assert quant == QUANT.replace(rows, "").split("\nregister_kernel(\n")[0]
    gemm = _after(prep, cs, f"{OPS}/gemm/__init__.py")
    assert gemm.startswith(
        GEMM.replace(
            '    ("tiny_gemm", "tiny_gemm_bf16"),\n',
            '    ("tiny_gemm", "tiny_gemm_bf16"),\n'
            '    ("fp8_kernel", "w8a8_block_fp8_matmul"),\n'
            '    ("fp8_kernel", "triton_scaled_mm"),\n',
        )
    )
    assert gemm.endswith(
        '\nregister_kernel(\n    KernelSpec(\n        op="gemm.gptq_gemm",\n'
        "        backend=KernelBackend.TRITON,\n"
        '        target="sglang.kernels.ops.gemm.gptq:gptq_gemm",\n    )\n)\n'
    )
    assert prep.derived_op_ids == {
        "quantization.gptq_gemm": "gemm.gptq_gemm",
        "quantization.triton_scaled_mm": "gemm.triton_scaled_mm",
        "quantization.w8a8_block_fp8_matmul": "gemm.w8a8_block_fp8_matmul",
    }
    test = _after(prep, cs, "test/registered/unit/kernels/test_inventory.py")
    assert '"gemm.triton_scaled_mm"' in test and '"gemm.gptq_gemm"' in test
    assert '"quantization.awq_dequantize_triton"' in test


def test_the_result_has_no_rule_error(make_repo, tmp_path):
    from migrate.rules.load import introduced_errors

    prep = prepared(make_repo, tmp_path, {}, plan=PLAN, base=TREE)
    cs = plan_changes(prep)
    assert introduced_errors(prep, cs) == []


def test_a_loop_into_a_group_without_such_a_loop_becomes_literal_statements(make_repo, tmp_path):
    tree = {**TREE, f"{OPS}/gemm/__init__.py": IMPORTS}
    prep = prepared(make_repo, tmp_path, {}, plan=PLAN, base=tree)
    cs = plan_changes(prep)
    gemm = _after(prep, cs, f"{OPS}/gemm/__init__.py")
    assert gemm.count("register_kernel(") == 3
    assert 'op="gemm.triton_scaled_mm"' in gemm
    assert 'target="sglang.kernels.ops.gemm.fp8_kernel:triton_scaled_mm"' in gemm
    compile(gemm, "gemm", "exec")


def test_statements_into_an_empty_init_bring_the_imports_they_read(make_repo, tmp_path):
    tree = {**TREE, f"{OPS}/gemm/__init__.py": ""}
    prep = prepared(make_repo, tmp_path, {}, plan=PLAN, base=tree)
    gemm = _after(prep, plan_changes(prep), f"{OPS}/gemm/__init__.py")
    assert gemm.startswith(
        "from sglang.kernels.registry import register_kernel\n"
        "from sglang.kernels.spec import KernelBackend, KernelSpec\n\n\nregister_kernel(\n"
    )
    assert gemm.count("register_kernel(") == 3
    compile(gemm, "gemm", "exec")  # run for real in test_exports_follow.py
