from .base import Plugin


def helper():
    return Plugin
