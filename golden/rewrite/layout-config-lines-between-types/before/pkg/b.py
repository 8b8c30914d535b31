Y = 2


def helper():
    return 1
