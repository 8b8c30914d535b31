from pkg.mod import *
from pkg.newmod import func
from pkg.newmod import Cls as Cls
from pkg.newmod import deco as deco


def check():
    assert func() == "func" and other() == "other"
