from pkg.mod import *


def check():
    assert func() == "func" and other() == "other"
