from pkg import mod

newmod = "taken"


def check():
    assert newmod == "taken" and mod.func() == "func"
