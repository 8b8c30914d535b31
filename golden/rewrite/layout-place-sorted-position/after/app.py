import os

import pkg.mod as mod
import pkg.new as new
import zeta


def check():
    assert new.a() + mod.c() == 'ac' and os and zeta.Q
