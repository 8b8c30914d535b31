import os

from pkg import mod, new
from zeta import Q


def check():
    assert new.a() + mod.c() == 'ac' and os and Q
