import math

EPS = 1e-6
