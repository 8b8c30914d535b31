try:
    from pkg import mod
except ImportError:
    mod = None


def check():
    assert mod.func() == "func"
