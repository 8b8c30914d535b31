from pkg import mod, newmod

FIRST = newmod.func()

from pkg import other_mod as mod  # noqa: E402

SECOND = mod.func()


def check():
    assert FIRST == "func" and SECOND == "other_mod"
