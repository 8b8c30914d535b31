WIDTH = None
LIMIT = 1


def width():
    return WIDTH or 10


def limit():
    return LIMIT
