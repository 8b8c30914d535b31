import pkg.newmod as newmod


def check():
    assert newmod.func() == "func"
