from pkg import state
from pkg.registry import HANDLERS


def check():
    from . import quiet

    assert state.reset() == "reset" and quiet.helper() == 3
    assert HANDLERS["on_reset"]() == "reset"
