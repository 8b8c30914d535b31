from importlib.metadata import entry_points

from pkg import other

PKG = "pkg"
GROUP = "pkg.plugins"
KIND = "plugins"


def groups():
    """Each group as the calls below build it."""
    return [GROUP, f"{PKG}.plugins", f"pkg.{KIND}", PKG + ".plugins", "%s.plugins" % PKG]


def load():
    return [
        entry_points(group=GROUP),
        entry_points(group=f"{PKG}.plugins"),
        entry_points(group=f"pkg.{KIND}"),
        entry_points().select(group=PKG + ".plugins"),
        entry_points(group="%s.plugins" % PKG),
        entry_points(group="{}.{}".format(PKG, KIND)),
    ]


def check():
    kept = ".".join(["pkg", "plugins"])  # not spelled whole: the rewrite would respell it
    assert set(groups()) == {kept}, groups()
    assert other.group() == kept
    assert len(load()) == 6 and other.load() == []  # nothing installed registers there
