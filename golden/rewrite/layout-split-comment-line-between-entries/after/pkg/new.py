def b():
    return 'b'


def d():
    return 'd'
