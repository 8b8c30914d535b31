from pkg import (  # the modules this file uses
    main,  # noqa: F401
    newmod,
    other_mod,
)


def check():
    assert newmod.func() == "func" and other_mod.func() == "other_mod"
