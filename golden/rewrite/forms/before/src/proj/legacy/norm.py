"""RMSNorm (moved from proj/legacy/norm.py in the plan)."""

from .helpers import EPS


def rmsnorm(x, eps=EPS):
    return x / (x * x + eps) ** 0.5
