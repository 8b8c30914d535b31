class _Hashed(tuple):
    pass


_mark = (_Hashed,)


def hashkey(*args):
    return _Hashed(args + _mark)


def typedkey(*args):
    return hashkey(*args) + tuple(type(a) for a in args)
