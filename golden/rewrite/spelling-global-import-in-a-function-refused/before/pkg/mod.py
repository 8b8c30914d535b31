def func():
    return "func"


def other():
    return "other"
