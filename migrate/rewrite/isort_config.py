"""The project's own import-sorting settings, found as ruff and isort find them.

The rewrite sorts the imports it adds, splits or respells (`import_order.py`); a project
that configures isort or ruff's `I` rules wants its own order, not the defaults. For a
file, the nearest directory (the file's own, then each parent up to the repository root)
holding a configuration decides: ruff's `.ruff.toml`, `ruff.toml` or a `pyproject.toml`
with `[tool.ruff]` (its `lint.isort` / `isort` table), else isort's `.isort.cfg`,
`pyproject.toml` `[tool.isort]`, `setup.cfg` `[isort]` / `[tool:isort]` or `tox.ini`
`[isort]`. In one directory ruff's wins. No configuration: ruff's defaults, except the
line length, which stays `DEFAULT_LINE` (the tool's own). A configuration that does not
parse counts as none (its tool would refuse it too). Not read: ruff's `extend`, isort's
`settings_path`, and settings the rewrite never needs (sections order, force-to-top...).
"""

from __future__ import annotations

import configparser
from dataclasses import dataclass

try:
    import tomllib
except ImportError:  # Python 3.10: a TOML configuration is read only with tomli installed
    try:
        import tomli as tomllib
    except ImportError:
        tomllib = None

DEFAULT_LINE = 100  # the tool's line length when a project configures none


@dataclass(frozen=True)
class ImportStyle:
    """The settings that decide where an import goes and how it is spelled."""

    known_first_party: frozenset[str] = frozenset()
    known_third_party: frozenset[str] = frozenset()
    known_local_folder: frozenset[str] = frozenset()
    extra_standard_library: frozenset[str] = frozenset()
    force_sort_within_sections: bool = False
    case_sensitive: bool = False
    order_by_type: bool = True
    force_single_line: bool = False
    combine_as: bool = False
    lines_after_imports: int = -1  # -1: one blank line, two before a def/class
    lines_between_types: int = 0  # blank lines between a section's `import`s and `from`s
    line_length: int = DEFAULT_LINE
    src: tuple[str, ...] | None = None  # repo-relative first-party roots; None: ruff's default
    source: str = ""  # the file the settings come from ("" for none)


_RUFF_FILES = (".ruff.toml", "ruff.toml", "pyproject.toml")
_ISORT_FILES = (".isort.cfg", "pyproject.toml", "setup.cfg", "tox.ini")


class StyleFinder:
    """The nearest configuration of each directory of one tree, read once per file."""

    def __init__(self, tree):
        self._tree = tree
        self._by_dir: dict[str, ImportStyle] = {}

    def style_of(self, path: str) -> ImportStyle:
        """The settings that apply to the file at repo-relative `path`."""
        return self._for_dir(path.rsplit("/", 1)[0] if "/" in path else "")

    def _for_dir(self, d: str) -> ImportStyle:
        if d not in self._by_dir:
            found = self._read(d)
            if found is None:
                found = self._for_dir(d.rsplit("/", 1)[0] if "/" in d else "") if d else None
            self._by_dir[d] = found if found is not None else ImportStyle()
        return self._by_dir[d]

    def _text(self, path: str) -> str | None:
        tree = self._tree
        return tree.text(path) if tree.exists(path) else None

    def _read(self, d: str) -> ImportStyle | None:
        base = f"{d}/" if d else ""
        for name in _RUFF_FILES:
            text = self._text(base + name)
            table = _ruff_table(text, name) if text is not None else None
            if table is not None:
                return _from_ruff(table, d, base + name)
        for name in _ISORT_FILES:
            text = self._text(base + name)
            table = _isort_table(text, name) if text is not None else None
            if table is not None:
                return _from_isort(table, d, base + name)
        return None


def _toml(text: str) -> dict | None:
    if tomllib is None:
        return None
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return None


def _ruff_table(text: str, name: str) -> dict | None:
    data = _toml(text)
    if data is None:
        return None
    if name == "pyproject.toml":
        data = data.get("tool", {}).get("ruff")
    return data if isinstance(data, dict) else None


def _isort_table(text: str, name: str) -> dict | None:
    if name == "pyproject.toml":
        data = _toml(text)
        table = data.get("tool", {}).get("isort") if data else None
        return table if isinstance(table, dict) else None
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    for section in ("isort", "tool:isort"):
        if parser.has_section(section):
            return dict(parser.items(section))
    return None


def _names(value) -> frozenset[str]:
    if isinstance(value, str):
        value = value.replace("\n", ",").split(",")
    if not isinstance(value, list):
        return frozenset()
    return frozenset(str(v).strip() for v in value if str(v).strip())


def _flag(value, default: bool) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "1", "yes", "on"):
        return True
    if isinstance(value, str) and value.strip().lower() in ("false", "0", "no", "off"):
        return False
    return default


def _int(value, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _rooted(d: str, paths) -> tuple[str, ...]:
    out = []
    for p in paths if isinstance(paths, list) else []:
        p = str(p).strip().strip("/")
        p = "" if p in (".", "") else p.removeprefix("./")
        out.append("/".join(x for x in (d, p) if x))
    return tuple(out)


def _from_ruff(ruff: dict, d: str, source: str) -> ImportStyle:
    """ruff's settings: `[lint.isort]` (or the older `[isort]`), `line-length`, `src`."""
    lint = ruff.get("lint") if isinstance(ruff.get("lint"), dict) else {}
    isort = lint.get("isort") or ruff.get("isort") or {}
    if not isinstance(isort, dict):
        isort = {}
    src = _rooted(d, ruff["src"]) if "src" in ruff else _rooted(d, [".", "src"])
    return _style(isort, lambda k: k.replace("_", "-"), src, ruff.get("line-length"), source)


_PROFILES = {"black": {"line_length": 88}, "django": {"line_length": 79}}


def _from_isort(isort: dict, d: str, source: str) -> ImportStyle:
    """isort's settings (underscored keys; `profile = black` sets its line length)."""
    isort = {k.replace("-", "_"): v for k, v in isort.items()}
    base = dict(_PROFILES.get(str(isort.get("profile", "")).strip(), {"line_length": 79}))
    base.update(isort)
    src = _rooted(d, _listed(base["src_paths"])) if "src_paths" in base else None
    return _style(base, lambda k: k, src, base.get("line_length"), source)


def _listed(value) -> list[str]:
    return sorted(_names(value)) if not isinstance(value, list) else value


def _style(table: dict, spell, src, line_length, source: str) -> ImportStyle:
    def get(key: str, default=None):
        return table.get(spell(key), default)

    return ImportStyle(
        known_first_party=_names(get("known_first_party", [])),
        known_third_party=_names(get("known_third_party", [])),
        known_local_folder=_names(get("known_local_folder", [])),
        extra_standard_library=_names(get("extra_standard_library", [])),
        force_sort_within_sections=_flag(get("force_sort_within_sections"), False),
        case_sensitive=_flag(get("case_sensitive"), False),
        order_by_type=_flag(get("order_by_type"), True),
        force_single_line=_flag(get("force_single_line"), False),
        combine_as=_flag(get("combine_as_imports"), False),
        lines_after_imports=_int(get("lines_after_imports"), -1),
        lines_between_types=max(0, _int(get("lines_between_types"), 0)),
        line_length=_int(line_length, 88),
        src=src,
        source=source,
    )
