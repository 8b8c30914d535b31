"""Legacy kernels: proj.legacy.norm, proj.legacy.act and the proj.legacy.moe package."""

from . import act as activation_mod
from .norm import rmsnorm

__all__ = ["activation_mod", "rmsnorm"]
