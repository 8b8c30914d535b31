REGISTRY = {}
REGISTRY["mod"] = "loaded"


def func():
    return 1


def helper():
    return 2


def other():
    return 3
