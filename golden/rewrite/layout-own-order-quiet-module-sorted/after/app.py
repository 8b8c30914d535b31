import os

from pkg.a import A
from pkg.c import C
from pkg.use import trio
from pkg.z import B


def check():
    assert trio() == (A, B, C) and B.__module__ == "pkg.z" and os.sep
