import math
from pkg.util import helper as helper

X = math.pi
