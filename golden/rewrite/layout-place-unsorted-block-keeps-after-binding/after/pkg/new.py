def a():
    return 'a'
