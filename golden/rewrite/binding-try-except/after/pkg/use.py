try:
    from pkg import mod, newmod
except ImportError:
    mod = None


def check():
    assert newmod.func() == "func"
