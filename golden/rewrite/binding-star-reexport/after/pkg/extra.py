def shrink(x):
    return x - 1


def grow(x):
    return x + 1
