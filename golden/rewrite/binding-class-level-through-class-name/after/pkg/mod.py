def deco(f):
    f.decorated = True
    return f


def other():
    return "other"
