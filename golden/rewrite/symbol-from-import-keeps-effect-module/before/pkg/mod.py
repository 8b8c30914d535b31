REGISTRY = {}
REGISTRY["mod"] = "loaded"


def func():
    return 1


def other():
    return 2
