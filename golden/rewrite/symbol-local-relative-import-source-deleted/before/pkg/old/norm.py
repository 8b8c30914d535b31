def norm():
    from .util import helper

    return helper()
