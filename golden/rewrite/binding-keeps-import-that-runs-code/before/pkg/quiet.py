LIMIT = 3


def helper():
    return LIMIT
