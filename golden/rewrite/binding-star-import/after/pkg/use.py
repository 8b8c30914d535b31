from pkg.mod import *
from pkg.newmod import Cls, deco, func


def check():
    assert func() == "func" and other() == "other"
