def func():
    return 1


def helper():
    return 2
