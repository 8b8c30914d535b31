import os
from pkg import mod  # isort: skip
from pkg import new
from zeta import Q


def check():
    assert new.a() + mod.c() == 'ac' and os and Q
