from . import func


def twice():
    return func() * 2
