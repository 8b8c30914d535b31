def keep():
    return "keep"
