class Holder:
    from pkg.sub import newmod as mod

    def run(self):
        return self.mod.func() + "-class"


def run():
    return Holder().run()
