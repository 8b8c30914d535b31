from pkg.widths import width


def total(items):
    return sum(width(s) for s in items)
