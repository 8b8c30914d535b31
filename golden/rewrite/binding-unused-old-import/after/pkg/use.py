from pkg import (  # the modules this file uses
    main,  # noqa: F401
    other_mod,
)
from pkg import newmod


def check():
    assert newmod.func() == "func" and other_mod.func() == "other_mod"
