try:
    from pkg import mod
except ImportError:  # the fallback path: check_fallback() runs it
    from pkg import other_mod as mod


def optional_func():
    try:
        from pkg import mod as optional
    except ImportError:
        optional = None
    return optional and optional.func()


def check():
    assert mod.func() == "func" and optional_func() == "func"


def check_fallback():
    assert mod.func() == "other_mod" and optional_func() is None
