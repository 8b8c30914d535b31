def aware():
    return "aware"


def getv():
    return "getv"


def keep():
    return "keep"
