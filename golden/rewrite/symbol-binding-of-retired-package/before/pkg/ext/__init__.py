class Extension:
    name = "base"


def make():
    return Extension()
