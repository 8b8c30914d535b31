def helper(a, b):
    return a, b
