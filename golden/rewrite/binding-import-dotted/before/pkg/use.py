import pkg.mod


def check():
    assert pkg.mod.func() == "func" and pkg.mod.other() == "other"
