__all__ = ("countby",)


def countby(seq):
    return len(seq)
