import math
from pkg.util import helper as helper

X = math.pi


def calc():
    return math.floor(1.5), helper()
