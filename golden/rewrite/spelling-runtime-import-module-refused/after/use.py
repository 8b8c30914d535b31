import importlib

_m = importlib.import_module("pkg.mod")


def check():
    assert (_m.Klass.kind, _m.func()) == ("k", 1)
