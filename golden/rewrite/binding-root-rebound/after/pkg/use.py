from pkg import newmod
from pkg.main import pkg


def check():
    assert pkg == "not a package" and newmod.func() == "func"
