def func():
    return "func"
