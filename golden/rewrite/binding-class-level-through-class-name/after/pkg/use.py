class Holder:
    from pkg import mod, newmod

    def run(self):
        return Holder.newmod.func() + Holder.mod.other()

    def later(self):
        def inner():
            return self.newmod.Cls.kind + Holder.newmod.func()

        return inner()


def outside():
    return Holder.newmod.Cls.kind


def check():
    assert Holder().run() == "funcother" and Holder().later() == "clsfunc"
    assert outside() == "cls"
