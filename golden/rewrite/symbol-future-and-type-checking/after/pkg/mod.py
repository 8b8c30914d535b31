"""Doc."""
from __future__ import annotations


def other():
    return 1
