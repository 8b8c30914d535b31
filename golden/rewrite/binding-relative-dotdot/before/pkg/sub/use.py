from .. import mod


def check():
    assert mod.func() == "func"
