from unittest import mock

from _pytest.monkeypatch import MonkeyPatch

from pkg import newmod


class mocker:  # the pytest-mock fixture's shape
    patch = mock.patch


def call():
    return newmod.func()


def check():
    with mock.patch.object(newmod, "func", return_value="a"):
        assert call() == "a"
    with mocker.patch.object(newmod, "func", return_value="b"):
        assert call() == "b"
    mp = MonkeyPatch()
    mp.setattr(newmod, "func", lambda: "c")
    assert call() == "c"
    mp.undo()
    assert getattr(newmod, "func")() == "func" and hasattr(newmod, "func")
    setattr(newmod, "func", getattr(newmod, "func"))
    assert vars(newmod)["func"]() == "func"
