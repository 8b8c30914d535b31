import os

from pkg import hooks
from pkg import introspect
from pkg.result import OK


def check():
    assert introspect.varnames(hooks.helper) == ("a", "b") and OK and os
