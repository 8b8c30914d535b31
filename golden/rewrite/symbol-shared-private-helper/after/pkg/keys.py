__all__ = ("other",)


def other():
    return "other"
