from pkg import newmod as pkg_newmod

newmod = "taken"


def check():
    assert newmod == "taken" and pkg_newmod.func() == "func"
