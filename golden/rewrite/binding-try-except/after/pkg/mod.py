def other():
    return "other"
