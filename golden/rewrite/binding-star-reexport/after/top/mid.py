"""The middle of a chain: top star-imports mid, which star-imports pkg.recipes."""
from pkg.extra import grow as grow
from pkg.partitioning import partitionby as partitionby
from pkg.recipes import *
