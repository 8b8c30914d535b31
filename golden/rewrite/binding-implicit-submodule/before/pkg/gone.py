def helper():
    return "helper"


def other():
    return "other"
