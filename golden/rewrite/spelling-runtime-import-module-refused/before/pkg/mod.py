class Klass:
    kind = "k"


def func():
    return 1
