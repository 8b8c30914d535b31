from pkg import newmod

F = newmod.func


@newmod.deco
def decorated(x: newmod.Cls = newmod.Cls()) -> newmod.Cls:
    return x


def default(f=newmod.func):
    return f()


def check():
    assert F() == "func" and default() == "func"
    assert decorated.decorated and decorated().kind == "cls"
    assert [newmod.func() for _ in range(1)] == ["func"]
    assert (lambda: newmod.func())() == "func"
