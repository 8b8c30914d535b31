from pkg import newmod


def check():
    assert newmod.func() == "func"
