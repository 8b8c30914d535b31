from .core import *


def other():
    return base()
