import pkg.mod
import pkg.a
import pkg.b


def check():
    assert pkg.a.first() == 1 and pkg.b.second() == 2 and pkg.mod.keep() == 0
