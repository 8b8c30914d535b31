import os

from pkg.a import A
from pkg.b import B
from pkg.c import C
from pkg.use import trio


def check():
    assert trio() == (A, B, C) and B.__module__ == "pkg.z" and os.sep
