__all__ = ("countby", "partitionby", "grow")


def countby(seq):
    return len(seq)


def partitionby(seq):
    return [seq[:1], seq[1:]]


def grow(x):
    return x + 1


def hidden():
    return "not in __all__: a star import never gave it"
