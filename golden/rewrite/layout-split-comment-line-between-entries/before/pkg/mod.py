def a():
    return 'a'


def b():
    return 'b'


def c():
    return 'c'


def d():
    return 'd'
