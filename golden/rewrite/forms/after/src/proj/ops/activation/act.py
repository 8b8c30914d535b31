from proj.ops.layernorm import norm
from proj.ops.moe.router import route  # noqa: F401


def silu(x):
    # see proj.ops.layernorm.norm.rmsnorm for the pattern
    return norm.rmsnorm(x)
