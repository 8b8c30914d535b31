from pkg import mod


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
    assert mod.func() == "func"
    assert param(Fake()) == "fake" and assigned() == "fake"
    assert rebinds_global() == "fake"
