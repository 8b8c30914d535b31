import pkg
import tools


def check():
    assert pkg.run() == 1 == tools.go()
