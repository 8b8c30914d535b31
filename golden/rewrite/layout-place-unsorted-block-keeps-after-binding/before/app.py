import zeta
from pkg import mod
import os


def check():
    assert mod.a() + mod.c() == 'ac' and os and zeta.Q
