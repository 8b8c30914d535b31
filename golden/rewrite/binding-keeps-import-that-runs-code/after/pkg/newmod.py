from pkg import registry
from pkg.quiet import LIMIT


def helper():
    return LIMIT


def init():
    registry.HANDLERS["on_reset"] = reset


def reset():
    return "reset"
