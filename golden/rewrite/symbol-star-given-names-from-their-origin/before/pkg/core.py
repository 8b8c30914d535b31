import typing as t
from enum import Enum


class P:
    pass


def base():
    return 0
