from .newmod import func
from lib.gone import helper, other

F = newmod.func


def late():
    return func()


del newmod
