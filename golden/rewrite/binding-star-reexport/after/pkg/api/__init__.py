"""Absolute star import, and an `__all__` that lists a name the star gave."""
from pkg.extra import grow as grow
from pkg.partitioning import partitionby
from pkg.recipes import *

__all__ = ["countby", "partitionby"]
