from pkg import mod


def check():
    assert mod.func() == "func" and mod.other() == "other"
