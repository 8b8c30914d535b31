from . import mod, newmod


def check():
    assert newmod.func() == "func"
