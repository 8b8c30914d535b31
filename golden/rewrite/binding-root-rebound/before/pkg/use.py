from pkg import mod
from pkg.main import pkg


def check():
    assert pkg == "not a package" and mod.func() == "func"
