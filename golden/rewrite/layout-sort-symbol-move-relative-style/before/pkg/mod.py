from .base import Plugin


def helper():
    return Plugin


def main():
    return helper()
