from unittest import mock

from _pytest.monkeypatch import MonkeyPatch

from pkg import mod


class mocker:  # the pytest-mock fixture's shape
    patch = mock.patch


def call():
    return mod.func()


def check():
    with mock.patch.object(mod, "func", return_value="a"):
        assert call() == "a"
    with mocker.patch.object(mod, "func", return_value="b"):
        assert call() == "b"
    mp = MonkeyPatch()
    mp.setattr(mod, "func", lambda: "c")
    assert call() == "c"
    mp.undo()
    assert getattr(mod, "func")() == "func" and hasattr(mod, "func")
    setattr(mod, "func", getattr(mod, "func"))
    assert vars(mod)["func"]() == "func"
