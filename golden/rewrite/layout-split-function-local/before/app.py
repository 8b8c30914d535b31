def check():
    from pkg.mod import (
        a,  # x
        b,
    )

    assert a() == "a" and b() == "b"
