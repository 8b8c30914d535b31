from pkg import mod

FIRST = mod.func()

from pkg import other_mod as mod  # noqa: E402

SECOND = mod.func()


def check():
    assert FIRST == "func" and SECOND == "other_mod"
