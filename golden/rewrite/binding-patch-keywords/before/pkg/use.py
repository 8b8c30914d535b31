from unittest import mock

from _pytest.monkeypatch import MonkeyPatch

from pkg import mod


class mocker:  # the pytest-mock fixture's shape
    patch = mock.patch


def call():
    return mod.func()


def check():
    with mock.patch.object(target=mod, attribute="func", return_value="a"):
        assert call() == "a"
    with mocker.patch.object(mod, attribute="func", return_value="b"):
        assert call() == "b"
    mp = MonkeyPatch()
    mp.setattr(mod, name="func", value=lambda: "c")
    assert call() == "c"
    mp.undo()
    mp.setattr(target=mod, name="func", value=lambda: "d")
    assert call() == "d"
    mp.delattr(target=mod, name="func")
    assert not hasattr(mod, "func")
    mp.undo()
    assert call() == "func"
