from pkg import mod, newmod


def check():
    assert newmod.func() == "func" and mod.other() == "other"
