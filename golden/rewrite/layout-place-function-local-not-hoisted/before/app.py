import os


def f():
    from pkg import mod

    return mod.a(), mod.c()


def check():
    assert f() == ('a', 'c')
