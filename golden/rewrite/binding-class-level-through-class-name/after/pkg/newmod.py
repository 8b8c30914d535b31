def func():
    return "func"


class Cls:
    kind = "cls"
