import math

from pkg.util import helper


def calc():
    return math.floor(1.5), helper()
