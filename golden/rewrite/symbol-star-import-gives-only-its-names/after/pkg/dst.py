from pkg.src import base, twice


def greet():
    return _("hello") + str(twice(base()))
