def func():
    return "func"


class Klass:
    kind = "klass"


def _private():
    return "private"
