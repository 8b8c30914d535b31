import os

from . import (
    mod,  # the module itself
    # other is re-exported
    other,
)  # closing comment
from .zed import Z


def check():
    assert os and mod.a() == "a" and mod.b() == "b" and other.X == 1 and Z == 1
