def getv():
    return "getv"
