from .mod import func
from .gone import helper, other

F = mod.func


def late():
    return func()


del mod, gone
