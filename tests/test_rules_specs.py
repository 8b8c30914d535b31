"""The static evaluator recovers (op, backend, target) from every real target spelling."""

from __future__ import annotations

import ast
import textwrap

from rules_fixtures import tree_of

from migrate.index.registry import registrations
from migrate.rules.context import Context

HDR = "from sglang.kernels.spec import KernelBackend, KernelSpec\n"


def regs(src: str, module: str = "sglang.kernels.ops.moe", is_pkg: bool = True):
    tree = ast.parse(HDR + textwrap.dedent(src))
    return [(r.op, r.backend, r.target) for r in registrations(tree, "x.py", module, is_pkg)]


def test_literal():
    assert regs(
        'register_kernel(KernelSpec(op="moe.a", backend=KernelBackend.TRITON, target="m:a"))'
    ) == [("moe.a", "triton", "m:a")]


def test_positional_arguments():
    assert regs('KernelSpec("moe.a", KernelBackend.JIT, "m:a")') == [("moe.a", "jit", "m:a")]


def test_fstring_loop_over_table_of_tuples():
    src = """
    _T = (("sglang.x", "a"), ("sglang.y", "b"))
    for _m, _f in _T:
        KernelSpec(op=f"moe.{_f}", backend=KernelBackend.TRITON, target=f"{_m}:{_f}")
    """
    assert regs(src) == [("moe.a", "triton", "sglang.x:a"), ("moe.b", "triton", "sglang.y:b")]


def test_relative_targets_expanded_from_dunder_name():
    src = """
    for sub in ["topk", "align"]:
        KernelSpec(op="moe." + sub, backend=KernelBackend.TRITON,
                   target=__name__ + "." + sub + ":run")
    """
    assert [t for _, _, t in regs(src)] == [
        "sglang.kernels.ops.moe.topk:run",
        "sglang.kernels.ops.moe.align:run",
    ]


def test_exports_dict_items_and_comprehension():
    src = """
    _EXPORTS = {"a": "sglang.x", "b": "sglang.y"}
    specs = [KernelSpec(op=f"moe.{n}", backend=KernelBackend.TRITON, target=f"{m}:{n}")
             for n, m in _EXPORTS.items()]
    """
    assert [t for _, _, t in regs(src)] == ["sglang.x:a", "sglang.y:b"]


def test_helper_function_called_with_literals():
    src = """
    def _spec(name, backend=KernelBackend.TRITON):
        return KernelSpec(op=f"moe.{name}", backend=backend, target=f"sglang.x:{name}")

    register_kernel(_spec("a"))
    register_kernel(_spec("b", backend=KernelBackend.JIT))
    """
    assert regs(src) == [("moe.a", "triton", "sglang.x:a"), ("moe.b", "jit", "sglang.x:b")]


def test_unknown_values_are_not_guessed():
    src = "KernelSpec(op='moe.a', backend=KernelBackend.TRITON, target=compute())"
    assert regs(src) == [("moe.a", "triton", None)]


def test_uncalled_function_registers_nothing():
    src = "def later(n):\n    KernelSpec(op=n, backend=KernelBackend.TRITON, target=n)\n"
    assert regs(src) == []


def test_torch_custom_op_is_not_a_registration():
    src = (
        "direct_register_custom_op('moe_a', fn)\n"
        "torch.library.define('sglang::a', '(Tensor x) -> Tensor')\n"
    )
    assert regs(src) == []


def test_register_fused_op_expands_to_one_target_per_backend_of_an_imported_class():
    tree = tree_of(
        {
            "python/sglang/kernels/ops/layernorm/op.py": textwrap.dedent("""
            class RMSNormOp:
                op = "layernorm.rmsnorm"
                def forward_triton(self, x): ...
                def forward_jit(self, x): ...
                def helper(self): ...
            """),
            "python/sglang/kernels/ops/layernorm/__init__.py": textwrap.dedent("""
            from sglang.kernels.fused_op import register_fused_op
            from .op import RMSNormOp
            _RMSNORM = RMSNormOp()
            register_fused_op(_RMSNORM, __name__, "_RMSNORM")
            """),
        }
    )
    got = [(r.op, r.backend, r.target) for _, r in Context(tree).registrations]
    assert got == [
        ("layernorm.rmsnorm", "triton", "sglang.kernels.ops.layernorm:_RMSNORM.forward_triton"),
        ("layernorm.rmsnorm", "jit", "sglang.kernels.ops.layernorm:_RMSNORM.forward_jit"),
    ]
