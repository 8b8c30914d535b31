class Holder:
    from pkg import mod

    value = mod.func()


def check():
    assert Holder.value == "func"
