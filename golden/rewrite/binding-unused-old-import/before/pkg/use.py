from pkg import (  # the modules this file uses
    main,  # noqa: F401
    mod,  # only moved names are used through it
    other_mod,
)


def check():
    assert mod.func() == "func" and other_mod.func() == "other_mod"
