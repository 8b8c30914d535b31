def intcomma(x):
    return str(x)
