import os

try:
    from functools import lru_cache
except ImportError:
    from backports.functools_lru_cache import lru_cache


def sep():
    return os.sep


@lru_cache(maxsize=100)
def width(s):
    return len(s)
