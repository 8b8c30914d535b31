import zeta
from pkg import mod
from pkg import new
import os


def check():
    assert new.a() + mod.c() == 'ac' and os and zeta.Q
