def a():
    return "a"
