from unittest import mock

from _pytest.monkeypatch import MonkeyPatch

from pkg import newmod


class mocker:  # the pytest-mock fixture's shape
    patch = mock.patch


def call():
    return newmod.func()


def check():
    with mock.patch.object(target=newmod, attribute="func", return_value="a"):
        assert call() == "a"
    with mocker.patch.object(newmod, attribute="func", return_value="b"):
        assert call() == "b"
    mp = MonkeyPatch()
    mp.setattr(newmod, name="func", value=lambda: "c")
    assert call() == "c"
    mp.undo()
    mp.setattr(target=newmod, name="func", value=lambda: "d")
    assert call() == "d"
    mp.delattr(target=newmod, name="func")
    assert not hasattr(newmod, "func")
    mp.undo()
    assert call() == "func"
