def second():
    return 2
