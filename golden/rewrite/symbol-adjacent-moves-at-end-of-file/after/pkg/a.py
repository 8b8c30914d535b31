def first():
    return 1
