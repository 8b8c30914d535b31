import os

from pkg import hooks
from pkg.result import OK


def check():
    assert hooks.varnames(hooks.helper) == ("a", "b") and OK and os
