def shrink(x):
    return x - 1
