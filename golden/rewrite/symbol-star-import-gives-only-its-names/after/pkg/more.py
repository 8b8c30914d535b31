__all__ = ["twice"]


def twice(x):
    return 2 * x


def hidden():
    return -1
