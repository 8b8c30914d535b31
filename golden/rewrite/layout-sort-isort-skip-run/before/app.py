import os

from pkg.mod import a, b
from pkg.other import X

from pkg.zed import Z  # isort: skip


def check():
    assert os and a() == "a" and b() == "b" and X == 1 and Z == 1
