from pkg import mod
from pkg import newmod


def check():
    assert newmod.func() == "func" and mod.other() == "other"
