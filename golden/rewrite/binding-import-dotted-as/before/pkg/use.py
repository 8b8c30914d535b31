import pkg.mod as m


def check():
    assert m.func() == "func"
