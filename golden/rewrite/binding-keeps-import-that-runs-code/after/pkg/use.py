from pkg import newmod, state  # noqa: F401
from pkg.registry import HANDLERS


def check():
    from . import newmod

    assert newmod.reset() == "reset" and newmod.helper() == 3
    assert HANDLERS["on_reset"]() == "reset"
