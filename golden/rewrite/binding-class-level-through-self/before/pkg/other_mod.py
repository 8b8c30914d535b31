def func():
    return "other_mod"
