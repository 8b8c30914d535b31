from .mod import func


def twice():
    return func() * 2
