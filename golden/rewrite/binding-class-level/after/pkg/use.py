class Holder:
    from pkg import newmod

    value = newmod.func()


def check():
    assert Holder.value == "func"
