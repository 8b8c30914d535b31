import pkg.a
import pkg.b
import pkg.mod


def check():
    assert pkg.a.first() == 1 and pkg.b.second() == 2 and pkg.mod.keep() == 0
