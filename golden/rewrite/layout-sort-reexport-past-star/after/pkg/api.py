# the public face of pkg.setters (attrs/setters.py)
from pkg.pipes import pipe as pipe
from pkg.setters import *  # noqa: F403
