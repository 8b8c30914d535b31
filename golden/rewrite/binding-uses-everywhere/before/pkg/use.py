from pkg import mod

F = mod.func


@mod.deco
def decorated(x: mod.Cls = mod.Cls()) -> mod.Cls:
    return x


def default(f=mod.func):
    return f()


def check():
    assert F() == "func" and default() == "func"
    assert decorated.decorated and decorated().kind == "cls"
    assert [mod.func() for _ in range(1)] == ["func"]
    assert (lambda: mod.func())() == "func"
