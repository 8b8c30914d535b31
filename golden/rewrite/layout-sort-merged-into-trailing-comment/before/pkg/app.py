import os

from . import mod, other  # noqa: F401
from .zed import Z


def check():
    assert os and mod.a() == "a" and mod.b() == "b" and other.X == 1 and Z == 1
