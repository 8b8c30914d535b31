"""Entry-point GROUP names: contract strings, not module references.

A group (`markdown.extensions`, `console_scripts`) is the namespace third-party packages
register their plugins under; it often reads like a package of the project, but renaming
it when that package moves would silently lose every plugin registered elsewhere. So the
group is a name, never an old spelling: the rewrite leaves it and no scan reports it.
An entry point's VALUE (`pkg.mod:obj`) is a reference and follows its module.

The spellings of a group, per file:
- pyproject.toml: `[project.entry-points."G"]`, `[tool.poetry.plugins."G"]`, and the
  keys of an `[project.entry-points]` table (`"G" = {...}`);
- setup.cfg: the keys of `[options.entry_points]` (the values below them are entry points);
- entry_points.txt (egg-info, dist-info): the `[G]` headers;
- Python: the group argument of `importlib.metadata.entry_points(group=G)`,
  `.select(group=G)`, pkg_resources' `iter_entry_points(G)`, `get_entry_map(d, G)`,
  `get_entry_info(d, G, n)`, `load_entry_point(d, G, n)`, the old dict API
  (`entry_points()["G"]`, `entry_points().get("G")`), and the keys of
  `setup(entry_points={"G": [...]})`.
"""

from __future__ import annotations

import ast
import re
from pathlib import PurePosixPath

_TOML_HEADER = re.compile(r"^[ \t]*\[([^\[\]\n]+)\][ \t]*(?:#.*)?$", re.M)
_TOML_GROUP_TABLES = ("project.entry-points", "tool.poetry.plugins")
_TOML_KEY = re.compile(r"^[ \t]*(\"[^\"\n]*\"|'[^'\n]*'|[A-Za-z0-9_.\-]+)[ \t]*=", re.M)
_INI_HEADER = re.compile(r"^\[([^\]\n]+)\][ \t]*$", re.M)
_INI_KEY = re.compile(r"^([^\s=:#;\[][^=:\n]*?)[ \t]*[=:]", re.M)
_PY_HINT = re.compile(r"entry_(?:point|map|info)|get_group_")
# the group argument's position (None: keyword only) per callee name
_GROUP_ARG = {
    "entry_points": None,
    "select": None,
    "iter_entry_points": 0,
    "get_entry_map": 1,
    "get_entry_info": 1,
    "load_entry_point": 1,
    "get_group_all": 0,
    "get_group_named": 0,
}


def group_spans(path: str, text: str) -> list[tuple[int, int]]:
    """[start, end) of every entry-point group name spelled in file `path`."""
    name = PurePosixPath(path).name
    if name == "pyproject.toml":
        return _toml(text)
    if name == "setup.cfg":
        return _ini_keys(text, "options.entry_points")
    if name == "entry_points.txt":
        return [m.span(1) for m in _INI_HEADER.finditer(text)]
    if name.endswith(".py") and _PY_HINT.search(text):
        return _python(text)
    return []


def _toml(text: str) -> list[tuple[int, int]]:
    out = []
    headers = list(_TOML_HEADER.finditer(text))
    for k, h in enumerate(headers):
        table, lo = h.group(1).strip(), h.start(1) + len(h.group(1)) - len(h.group(1).lstrip())
        for base in _TOML_GROUP_TABLES:
            if table.startswith(base + "."):
                at = lo + len(base) + 1
                out.append(_unquoted(text, at, lo + len(table)))
            elif table == base:  # its keys are the groups
                end = headers[k + 1].start() if k + 1 < len(headers) else len(text)
                for m in _TOML_KEY.finditer(text, h.end(), end):
                    out.append(_unquoted(text, *m.span(1)))
    return out


def _unquoted(text: str, a: int, b: int) -> tuple[int, int]:
    return (a + 1, b - 1) if text[a] in "\"'" and b - a >= 2 and text[b - 1] == text[a] else (a, b)


def _ini_keys(text: str, section: str) -> list[tuple[int, int]]:
    """The keys at the left margin of `[section]` (indented lines continue a value)."""
    out = []
    headers = list(_INI_HEADER.finditer(text))
    for k, h in enumerate(headers):
        if h.group(1).strip() != section:
            continue
        end = headers[k + 1].start() if k + 1 < len(headers) else len(text)
        out += [m.span(1) for m in _INI_KEY.finditer(text, h.end(), end)]
    return out


def _python(text: str) -> list[tuple[int, int]]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    out = []
    for node in ast.walk(tree):
        for s in _group_strings(node):
            out.append(
                (
                    _offset(text, starts, s.lineno, s.col_offset),
                    _offset(text, starts, s.end_lineno, s.end_col_offset),
                )
            )
    return out


def _group_strings(node: ast.AST):
    """The string constants that `node` uses as an entry-point group."""
    if isinstance(node, ast.Subscript) and _calls(node.value, "entry_points"):
        yield from _strs([node.slice])  # entry_points()["G"]
    if not isinstance(node, ast.Call):
        return
    func = node.func
    callee = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if callee == "get" and isinstance(func, ast.Attribute) and _calls(func.value, "entry_points"):
        yield from _strs(node.args[:1])  # entry_points().get("G", [])
    for kw in node.keywords:
        if kw.arg == "group" and callee in _GROUP_ARG:
            yield from _strs([kw.value])
        elif kw.arg == "entry_points" and isinstance(kw.value, ast.Dict):
            yield from _strs(kw.value.keys)  # setup(entry_points={"G": [...]})
    pos = _GROUP_ARG.get(callee or "")
    if pos is not None and len(node.args) > pos:
        yield from _strs([node.args[pos]])


def _calls(node: ast.AST, name: str) -> bool:
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    return (f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)) == name


def _strs(nodes):
    return (n for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str))


def _offset(text: str, starts: list[int], lineno: int, col_bytes: int) -> int:
    start = starts[lineno - 1]
    end = starts[lineno] if lineno < len(starts) else len(text)
    return start + len(text[start:end].encode("utf-8")[:col_bytes].decode("utf-8", "ignore"))


def group_note(old: str, new: str) -> str:
    """The review note at a kept group that spells a moved name."""
    return (
        f"`{old}` here is an entry-point group, kept: plugins register under that name; "
        f"the module {old} is now {new} (rename the group by hand if that is meant)"
    )
