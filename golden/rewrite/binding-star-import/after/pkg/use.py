from pkg.mod import *
from pkg.newmod import Cls as Cls
from pkg.newmod import deco as deco
from pkg.newmod import func


def check():
    assert func() == "func" and other() == "other"
