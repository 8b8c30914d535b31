import os

from pkg.other import X

# isort: split
from pkg.mod import a, b
from pkg.zed import Z


def check():
    assert os and a() == "a" and b() == "b" and X == 1 and Z == 1
