class Holder:
    from pkg import mod

    def run(self):
        return self.mod.func() + self.mod.other()

    @classmethod
    def made(cls):
        return cls.mod.Cls.kind

    @staticmethod
    def alone(mod):
        return mod.func()


class Fake:
    @staticmethod
    def func():
        return "fake"


def check():
    assert Holder().run() == "funcother" and Holder.made() == "cls"
    assert Holder.alone(Fake) == "fake"
