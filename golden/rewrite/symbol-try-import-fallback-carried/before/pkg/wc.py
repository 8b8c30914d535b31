try:
    from functools import lru_cache
except ImportError:
    from backports.functools_lru_cache import lru_cache


@lru_cache(maxsize=100)
def width(s):
    return len(s)


def total(items):
    return sum(width(s) for s in items)
