from pkg import mod as m, newmod


def check():
    assert newmod.func() == "func"
