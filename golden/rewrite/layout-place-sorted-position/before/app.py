import os

import pkg.mod as mod
import zeta


def check():
    assert mod.a() + mod.c() == 'ac' and os and zeta.Q
