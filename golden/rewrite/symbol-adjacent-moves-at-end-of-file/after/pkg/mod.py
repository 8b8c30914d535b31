def keep():
    return 0
