import math

EPS = 1e-6


def _erf(x):
    return math.erf(x)


def fast_gelu(x):
    """The tanh-free GELU."""
    return 0.5 * x * (1 + _erf(x / math.sqrt(2)))
