def b():
    return 'b'


def c():
    return 'c'


class D:
    pass
