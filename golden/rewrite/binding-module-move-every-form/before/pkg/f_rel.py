from . import mod


def run():
    return mod.func() + "-dot"
