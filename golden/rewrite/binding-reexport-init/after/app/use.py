import pkg
from pkg import func


def check():
    assert func() == 'func' and pkg.func() == 'func'
