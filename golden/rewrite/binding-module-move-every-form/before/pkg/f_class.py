class Holder:
    from pkg import mod

    def run(self):
        return self.mod.func() + "-class"


def run():
    return Holder().run()
