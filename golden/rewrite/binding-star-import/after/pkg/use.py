from pkg.mod import *
from pkg.newmod import func


def check():
    assert func() == "func" and other() == "other"
