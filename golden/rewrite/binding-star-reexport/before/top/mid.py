"""The middle of a chain: top star-imports mid, which star-imports pkg.recipes."""
from pkg.recipes import *
