class Holder:
    from pkg import mod

    def run(self):
        return Holder.mod.func() + Holder.mod.other()

    def later(self):
        def inner():
            return self.mod.Cls.kind + Holder.mod.func()

        return inner()


def outside():
    return Holder.mod.Cls.kind


def check():
    assert Holder().run() == "funcother" and Holder().later() == "clsfunc"
    assert outside() == "cls"
