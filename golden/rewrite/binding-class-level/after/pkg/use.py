class Holder:
    from pkg import mod, newmod

    value = newmod.func()


def check():
    assert Holder.value == "func"
