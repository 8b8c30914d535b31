def check():
    from pkg.mod import (
        a,  # x
    )
    from pkg.new import (
        b,
    )

    assert a() == "a" and b() == "b"
