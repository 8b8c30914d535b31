import os


def f():
    from pkg import mod, new

    return new.a(), mod.c()


def check():
    assert f() == ('a', 'c')
