"""Absolute star import, and an `__all__` that lists a name the star gave."""
from pkg.recipes import *

__all__ = ["countby", "partitionby"]
