import typing as t


def other() -> t.Any:
    return 1
