from pkg import mod, newmod


class Fake:
    @staticmethod
    def func():
        return "fake"


def param(mod):
    return mod.func()


def assigned():
    mod = Fake()
    return mod.func()


def rebinds_global():
    global mod
    mod = Fake()
    return mod.func()


def check():
    assert newmod.func() == "func"
    assert param(Fake()) == "fake" and assigned() == "fake"
    assert rebinds_global() == "fake"
