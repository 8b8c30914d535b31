"""Absolute star import, and an `__all__` that lists a name the star gave."""
from pkg.recipes import *
from pkg.extra import grow as grow
from pkg.partitioning import partitionby

__all__ = ["countby", "partitionby"]
