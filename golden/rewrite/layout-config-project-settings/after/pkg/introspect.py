from inspect import signature
import sys


_PYPY = hasattr(sys, "pypy_version_info")


def varnames(func):
    return tuple(signature(func).parameters) if not _PYPY else ()
