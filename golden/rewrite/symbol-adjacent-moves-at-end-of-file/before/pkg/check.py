import pkg.mod


def check():
    assert pkg.mod.first() == 1 and pkg.mod.second() == 2 and pkg.mod.keep() == 0
