from pkg import mod as m
from pkg import newmod


def check():
    assert newmod.func() == "func"
