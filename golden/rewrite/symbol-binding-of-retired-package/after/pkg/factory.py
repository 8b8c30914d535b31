from pkg.extension_base import Extension


def make():
    return Extension()
