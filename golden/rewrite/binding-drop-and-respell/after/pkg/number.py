def other():
    return 1
