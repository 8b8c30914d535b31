import pkg.mod
import pkg.newmod


def check():
    assert pkg.newmod.func() == "func" and pkg.mod.other() == "other"
