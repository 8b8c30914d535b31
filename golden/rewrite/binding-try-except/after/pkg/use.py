try:
    from pkg import mod
    from pkg import newmod
except ImportError:
    mod = None


def check():
    assert newmod.func() == "func"
