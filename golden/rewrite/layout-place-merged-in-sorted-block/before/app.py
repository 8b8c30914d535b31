import os

from pkg import mod
from zeta import Q


def check():
    assert mod.a() + mod.c() == 'ac' and os and Q
