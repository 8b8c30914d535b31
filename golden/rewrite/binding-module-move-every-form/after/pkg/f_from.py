from unittest import mock

from pkg.sub import newmod as mod

F = mod.func


@mod.deco
def decorated(x: mod.Cls = mod.Cls()) -> mod.Cls:
    return x


def default(f=mod.func):
    return f()


def run():
    assert F() == "func" and default() == "func" and decorated.decorated
    assert decorated().kind == "cls" and decorated.__annotations__["x"] is mod.Cls
    with mock.patch.object(mod, "func", return_value="a"):
        assert mod.func() == "a"
    with mock.patch("pkg.sub.newmod.func", return_value="b"):
        assert mod.func() == "b"
    assert getattr(mod, "func")() == "func" and hasattr(mod, "deco")
    setattr(mod, "func", getattr(mod, "func"))
    assert vars(mod)["func"]() == "func"
    return "from"
