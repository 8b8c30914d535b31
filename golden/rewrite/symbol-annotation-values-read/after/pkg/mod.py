from pkg.checks import Check, Color


def g():
    return Check, Color
