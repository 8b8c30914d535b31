REGISTRY = {}
REGISTRY["mod"] = "loaded"


def other():
    return 3
