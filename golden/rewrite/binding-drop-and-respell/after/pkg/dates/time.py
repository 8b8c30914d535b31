def naturaltime(x):
    return "t"
