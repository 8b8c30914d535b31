from pkg.common import base
from pkg.more import twice


def greet():
    return _("hello") + str(twice(base()))
