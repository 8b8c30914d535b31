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
  `setup(entry_points={"G": [...]})`. The group may be a module-level string constant
  (`GROUP = "G"` ... `group=GROUP`: that constant is the group) or computed (an f-string,
  `+`, `%`, `.format`): the whole expression and the constants it reads are kept, and
  `computed_groups` gives a pattern of the values it can take (a hole it cannot read is
  any text), so the rewrite can warn where one can equal a moved module's name.
"""

from __future__ import annotations

import ast
import re
from pathlib import PurePosixPath

from migrate.index.calls import callee_name

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
    return [span for span, _ in _python_groups(text)]


def computed_groups(path: str, text: str) -> list[tuple[int, int, re.Pattern]]:
    """(start, end, pattern) of every COMPUTED group expression in Python file `path`:
    the values it can take (a hole it cannot read matches any text); none for a group
    with no literal text at all (`group=name`: nothing to tell)."""
    if not (path.endswith(".py") and _PY_HINT.search(text)):
        return []
    return [(a, b, pat) for (a, b), pat in _python_groups(text) if pat is not None]


def _python_groups(text: str) -> list[tuple[tuple[int, int], re.Pattern | None]]:
    """Every span that spells a group, each with its pattern when it is computed."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def span(n: ast.AST) -> tuple[int, int]:
        a = _offset(text, starts, n.lineno, n.col_offset)
        return a, _offset(text, starts, n.end_lineno, n.end_col_offset)

    consts = _module_constants(tree)
    out: list[tuple[tuple[int, int], re.Pattern | None]] = []
    for node in ast.walk(tree):
        for g in _group_args(node):
            if isinstance(g, ast.Constant) and isinstance(g.value, str):
                out.append((span(g), None))
            elif isinstance(g, ast.Name) and g.id in consts:
                out.append((span(consts[g.id]), None))  # GROUP = "G": that string is the group
            elif isinstance(g, (ast.JoinedStr, ast.BinOp, ast.Call)):
                pattern = _pattern(g, consts)
                if pattern is None:
                    continue
                read = [n.id for n in ast.walk(g) if isinstance(n, ast.Name) and n.id in consts]
                out += [(span(consts[n]), None) for n in read]  # the constants it reads
                literal = pattern.replace(".*", "")
                out.append((span(g), re.compile(pattern) if literal else None))
    return out


def _module_constants(tree: ast.Module) -> dict[str, ast.Constant]:
    """Names bound once in the module, at its top level, to a string constant."""
    seen: dict[str, int] = {}
    out: dict[str, ast.Constant] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            seen[node.id] = seen.get(node.id, 0) + 1
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for n in node.names:
                seen[n] = seen.get(n, 0) + 2  # rebound elsewhere: not a constant
    for stmt in tree.body:
        target = value = None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            target, value = stmt.target, stmt.value
        if (
            isinstance(target, ast.Name)
            and isinstance(value, ast.Constant)
            and isinstance(value.value, str)
            and seen.get(target.id) == 1
        ):
            out[target.id] = value
    return out


_PERCENT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]|%%")
_BRACES = re.compile(r"\{\{|\}\}|\{[^{}]*\}")


def _pattern(node: ast.AST, consts: dict[str, ast.Constant]) -> str | None:
    """A regex of the values the group expression can take; None when it is not text."""
    if isinstance(node, ast.Constant):
        return re.escape(node.value) if isinstance(node.value, str) else None
    if isinstance(node, ast.Name):
        return re.escape(consts[node.id].value) if node.id in consts else ".*"
    if isinstance(node, ast.JoinedStr):
        parts = [
            _pattern(v, consts) if isinstance(v, ast.Constant) else _hole(v, consts)
            for v in node.values
        ]
        return "".join(p or "" for p in parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _pattern(node.left, consts), _pattern(node.right, consts)
        return None if left is None and right is None else (left or ".*") + (right or ".*")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        if isinstance(node.left, ast.Constant) and isinstance(node.left.value, str):
            return _spliced(node.left.value, _PERCENT, "%%", "%")
        return None
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
        and isinstance(node.func.value, ast.Constant)
        and isinstance(node.func.value.value, str)
    ):
        return _spliced(node.func.value.value, _BRACES, None, None)
    return None


def _hole(v: ast.FormattedValue, consts: dict[str, ast.Constant]) -> str:
    plain = v.conversion == -1 and v.format_spec is None
    if plain and isinstance(v.value, ast.Name) and v.value.id in consts:
        return re.escape(consts[v.value.id].value)
    return ".*"


def _spliced(template: str, holes: re.Pattern, escaped: str | None, lit: str | None) -> str:
    out, last = [], 0
    for m in holes.finditer(template):
        out.append(re.escape(template[last : m.start()]))
        if m.group() in ("{{", "}}"):
            out.append(re.escape(m.group()[0]))
        elif escaped is not None and m.group() == escaped:
            out.append(re.escape(lit))
        else:
            out.append(".*")
        last = m.end()
    out.append(re.escape(template[last:]))
    return "".join(out)


def _group_args(node: ast.AST):
    """The expressions that `node` passes as an entry-point group."""
    if isinstance(node, ast.Subscript) and _calls(node.value, "entry_points"):
        yield node.slice  # entry_points()["G"]
    if not isinstance(node, ast.Call):
        return
    func = node.func
    callee = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if callee == "get" and isinstance(func, ast.Attribute) and _calls(func.value, "entry_points"):
        yield from node.args[:1]  # entry_points().get("G", [])
    for kw in node.keywords:
        if kw.arg == "group" and callee in _GROUP_ARG:
            yield kw.value
        elif kw.arg == "entry_points" and isinstance(kw.value, ast.Dict):
            yield from (k for k in kw.value.keys if k is not None)  # setup(entry_points={...})
    pos = _GROUP_ARG.get(callee or "")
    if pos is not None and len(node.args) > pos:
        yield node.args[pos]


def _calls(node: ast.AST, name: str) -> bool:
    return callee_name(node) == name


def _offset(text: str, starts: list[int], lineno: int, col_bytes: int) -> int:
    start = starts[lineno - 1]
    end = starts[lineno] if lineno < len(starts) else len(text)
    return start + len(text[start:end].encode("utf-8")[:col_bytes].decode("utf-8", "ignore"))


def moved_name_in(pattern: re.Pattern, relocation) -> str | None:
    """The first moved or removed module name (sorted) that a computed group's `pattern`
    can equal; None when it can equal none."""
    names = set(relocation.moved_modules) | set(relocation.modules) | set(relocation.retired)
    return next((n for n in sorted(names) if pattern.fullmatch(n)), None)


def computed_group_note(source: str, old: str, new: str) -> str:
    """The review note at a computed group that can equal a moved module's name."""
    return (
        f"`{source}` here is an entry-point group built at run time; it can be `{old}`, "
        f"which the plan moves to {new}: kept, plugins register under that name (rename "
        "the group by hand if that is meant)"
    )


def group_note(old: str, new: str) -> str:
    """The review note at a kept group that spells a moved name."""
    return (
        f"`{old}` here is an entry-point group, kept: plugins register under that name; "
        f"the module {old} is now {new} (rename the group by hand if that is meant)"
    )
