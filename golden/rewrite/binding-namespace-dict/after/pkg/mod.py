from pkg.newmod import LIMIT


def limit():
    return LIMIT
