def intcomma(x):
    return str(x)


def other():
    return 1
