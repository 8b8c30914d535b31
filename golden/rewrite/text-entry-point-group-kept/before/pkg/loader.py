import importlib
from importlib.metadata import entry_points

import pkg_resources


def load():
    found = list(entry_points(group="pkg.plugins"))
    found += list(entry_points().select(group="pkg.plugins"))
    found += list(pkg_resources.iter_entry_points("pkg.plugins"))
    found += [pkg_resources.load_entry_point("pkg", "pkg.plugins", "foo")]
    found += list(entry_points().get("pkg.plugins", []))
    found += list(entry_points()["pkg.plugins"])
    return found, importlib.import_module("pkg.plugins.foo")
