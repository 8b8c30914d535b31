def b():
    return "b"
