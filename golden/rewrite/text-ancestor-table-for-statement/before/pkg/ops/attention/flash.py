def flash(x):
    return 2 * x
