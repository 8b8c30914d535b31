import importlib

from pkg.base import Extension


def check():
    assert Extension().run() == 1
    assert importlib.import_module(Extension.names[0]).f() == 1
