# the public face of pkg.setters (attrs/setters.py)
from pkg.setters import *  # noqa: F403
