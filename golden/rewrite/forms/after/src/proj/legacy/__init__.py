"""Legacy kernels: proj.ops.layernorm.norm, proj.ops.activation.act and the proj.ops.moe package."""

from proj.ops.activation import act as activation_mod
from proj.ops.layernorm.norm import rmsnorm

__all__ = ["activation_mod", "rmsnorm"]
