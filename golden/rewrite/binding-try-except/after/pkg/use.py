try:
    from pkg import newmod
except ImportError:  # the fallback path: check_fallback() runs it
    from pkg import other_mod as mod
    newmod = mod


def optional_func():
    try:
        from pkg import mod as optional
        from pkg import newmod
    except ImportError:
        optional = None
        newmod = None
    return optional and newmod.func()


def check():
    assert newmod.func() == "func" and optional_func() == "func"


def check_fallback():
    assert newmod.func() == "other_mod" and optional_func() is None
