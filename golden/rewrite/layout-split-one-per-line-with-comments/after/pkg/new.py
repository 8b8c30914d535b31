def b():
    return 'b'


class D:
    pass
