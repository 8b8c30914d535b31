def func():
    return "func"


def deco(f):
    f.decorated = True
    return f


class Cls:
    kind = "cls"


def other():
    return "other"
