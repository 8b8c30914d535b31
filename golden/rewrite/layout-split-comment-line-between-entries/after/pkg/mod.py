def a():
    return 'a'


def c():
    return 'c'
