"""Load a plan file into a `Plan`, keeping the line and column of every value.

Structural errors (unknown keys, wrong types, malformed names) are all collected in one
pass; semantic checks against the repository live in `validate.py`.
"""

from __future__ import annotations

import codecs
import hashlib
import keyword
import re
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from migrate.errors import Diagnostic, MigrateError, Pos
from migrate.layout.names import OPS_PKG as OPS
from migrate.plan.model import Move, OpIdRename, Plan, PlanName, Split, SplitOutput

TOP_KEYS = {
    "version",
    "roots",
    "moves",
    "op_ids",
    "splits",
    "groups",
    "delete",
    "keep_prose",
    "encodings",
}
DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
SYMBOL = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*:[A-Za-z_][A-Za-z0-9_]*$")
OP_ID = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$")
GROUP = re.compile(r"^[a-z_][a-z0-9_]*$")


class _Reader:
    """Walks the YAML tree, recording positioned errors instead of raising."""

    def __init__(self, file: str):
        self.file = file
        self.errors: list[Diagnostic] = []

    def key_pos(self, node, key) -> Pos:
        try:
            line, col = node.lc.key(key)
            return Pos(self.file, line + 1, col + 1)
        except (AttributeError, KeyError, TypeError):
            return self.node_pos(node)

    def value_pos(self, node, key) -> Pos:
        try:
            line, col = node.lc.value(key)
            return Pos(self.file, line + 1, col + 1)
        except (AttributeError, KeyError, TypeError):
            return self.key_pos(node, key)

    def item_pos(self, seq, i) -> Pos:
        try:
            line, col = seq.lc.item(i)
            return Pos(self.file, line + 1, col + 1)
        except (AttributeError, KeyError, TypeError, IndexError):
            return self.node_pos(seq)

    def node_pos(self, node) -> Pos:
        lc = getattr(node, "lc", None)
        if lc is not None and lc.line is not None:
            return Pos(self.file, lc.line + 1, lc.col + 1)
        return Pos(self.file, 1, 1)

    def error(self, pos: Pos, message: str) -> None:
        self.errors.append(Diagnostic(pos, message))

    def mapping(self, node, where: str, pos: Pos, allowed: set[str]) -> CommentedMap | None:
        if not isinstance(node, CommentedMap):
            self.error(pos, f"{where} must be a mapping")
            return None
        for key in node:
            if key not in allowed:
                hint = _closest(str(key), allowed)
                self.error(
                    self.key_pos(node, key),
                    f"unknown key {key!r} in {where}"
                    + (f" (did you mean {hint!r}?)" if hint else ""),
                )
        return node

    def seq(self, node, key, where: str) -> CommentedSeq | list:
        value = node.get(key)
        if value is None:
            return []
        if not isinstance(value, CommentedSeq):
            self.error(self.value_pos(node, key), f"{where} must be a list")
            return []
        return value

    def entries(self, node, key, where: str, allowed: set[str]):
        """(`where[i]`, position, mapping) for each entry of the list `node[key]` that is a
        mapping of `allowed` keys; anything else in the list is a positioned error."""
        seq = self.seq(node, key, where)
        for i, item in enumerate(seq):
            pos = self.item_pos(seq, i)
            m = self.mapping(item, f"{where}[{i}]", pos, allowed)
            if m is not None:
                yield f"{where}[{i}]", pos, m

    def items(self, node, key, where: str, problem) -> list[PlanName]:
        """The string items of the list `node[key]`, each with its position; `problem(item)`
        says what is wrong with one (a positioned error, the item left out) or None."""
        values = []
        seq = self.seq(node, key, where)
        for i, item in enumerate(seq):
            pos = self.item_pos(seq, i)
            why = problem(item)
            if why:
                self.error(pos, why)
            else:
                values.append(PlanName(item, pos))
        return values

    def string(self, node, key, where: str, pattern: re.Pattern | None = None, what: str = ""):
        if key not in node:
            self.error(self.node_pos(node), f"{where} is missing {key!r}")
            return None
        value = node[key]
        pos = self.value_pos(node, key)
        if not isinstance(value, str) or not value.strip():
            self.error(pos, f"{where}.{key} must be a non-empty string")
            return None
        if pattern is not None and not pattern.match(value):
            self.error(pos, f"{where}.{key} {value!r} is not {what}")
            return None
        return value


def _closest(word: str, candidates) -> str | None:
    import difflib

    match = difflib.get_close_matches(word, sorted(candidates), n=1, cutoff=0.6)
    return match[0] if match else None


def _name_kind(value: str) -> str:
    if "/" in value:
        return "path"
    if ":" in value:
        return "symbol"
    return "dotted"


def keyword_part(dotted: str) -> str | None:
    """The first component of `a.b:c` that is a Python keyword (`class`, `None`), if any."""
    return next((p for p in re.split(r"[.:]", dotted) if keyword.iskeyword(p)), None)


def _check_name(r: _Reader, value: str, pos: Pos, field: str) -> bool:
    kind = _name_kind(value)
    if kind != "path" and (kw := keyword_part(value)) is not None:
        r.error(pos, f"{field} {value!r} contains the Python keyword {kw!r}: not importable")
        return False
    if kind == "path":
        if value.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", value):
            r.error(pos, f"{field} {value!r} is an absolute path; paths are repo-relative")
            return False
        if ".." in Path(value).parts:
            r.error(pos, f"{field} {value!r} leaves the repository")
            return False
        return True
    if kind == "symbol":
        if not SYMBOL.match(value) or not DOTTED.match(value.split(":")[0]):
            r.error(pos, f"{field} {value!r} is not a `module:name` symbol reference")
            return False
        return True
    if not DOTTED.match(value):
        r.error(pos, f"{field} {value!r} is not a dotted module name or a path with '/'")
        return False
    return True


def _load_yaml(text: str, file: str):
    """The YAML document (round-trip, so every value keeps its position); a positioned
    error for anything that is not YAML."""
    yaml = YAML(typ="rt")
    try:
        return yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        pos = Pos(file, mark.line + 1, mark.column + 1) if mark else Pos(file, 1, 1)
        what = " ".join(str(exc.problem or exc).split())
        raise MigrateError(Diagnostic(pos, f"invalid YAML: {what}")) from None
    except YAMLError as exc:  # the reader's errors (control characters) carry an offset
        raise MigrateError(
            Diagnostic(_yaml_error_pos(exc, text, file), _yaml_message(exc))
        ) from None
    except (ValueError, TypeError, RecursionError) as exc:  # malformed tags, deep nesting
        what = " ".join(str(exc).split())[:200]
        raise MigrateError(Diagnostic(Pos(file, 1, 1), f"invalid YAML: {what}")) from None


def _check_version(r: _Reader, top, file: str) -> None:
    version = top.get("version")
    if type(version) is not int or version != 1:  # not `true`, not `1.0`
        pos = r.value_pos(top, "version") if "version" in top else Pos(file, 1, 1)
        r.error(pos, f"version must be 1 (got {version!r})")


def _root_problem(root) -> str | None:
    if not isinstance(root, str):
        return "roots entries must be strings"
    if root.startswith("/") or ".." in Path(root).parts:
        return f"root {root!r} leaves the repository"
    return None


def _roots(r: _Reader, top) -> list[PlanName]:
    roots = r.items(top, "roots", "roots", _root_problem)
    return [PlanName(root.rstrip("/") or ".", root.pos) for root in roots]


def _moves(r: _Reader, top) -> list[Move]:
    moves = []
    sources: dict[str, Pos] = {}
    for where, pos, m in r.entries(top, "moves", "moves", {"from", "to"}):
        src = r.string(m, "from", where)
        dst = r.string(m, "to", where)
        if src is None or dst is None:
            continue
        sp, dp = r.value_pos(m, "from"), r.value_pos(m, "to")
        ok = _check_name(r, src, sp, "move source") & _check_name(r, dst, dp, "move target")
        if ok and _name_kind(src) == "path" and _name_kind(dst) != "path":
            r.error(dp, f"move target {dst!r} must be a path: the source {src!r} is a path")
            ok = False
        if ok and _name_kind(dst) == "symbol":
            r.error(dp, f"move target {dst!r} must be a module: a symbol moves into a module")
            ok = False
        if ok and _name_kind(src) == "dotted" and _name_kind(dst) == "path":
            r.error(dp, f"move target {dst!r} must be a dotted module name like its source")
            ok = False
        key = src.rstrip("/")
        if ok and key in sources:
            first = sources[key]
            r.error(sp, f"move source {src!r} listed twice (first at line {first.line})")
            ok = False
        if ok:
            sources[key] = sp
            moves.append(Move(src, dst, pos, sp, dp))
    return moves


def _op_ids(r: _Reader, top) -> list[OpIdRename]:
    op_ids = []
    for where, pos, m in r.entries(top, "op_ids", "op_ids", {"from", "to"}):
        src = r.string(m, "from", where, OP_ID, "an op id like 'group.name'")
        dst = r.string(m, "to", where, OP_ID, "an op id like 'group.name'")
        if src and dst:
            op_ids.append(OpIdRename(src, dst, pos))
    return op_ids


def _split_path(r: _Reader, m, key: str, where: str, what: str) -> str | None:
    """A split's file or output path (a bare file name counts as a path)."""
    path = r.string(m, key, where)
    if path:
        _check_name(r, path if "/" in path else "./" + path, r.value_pos(m, key), what)
    return path


def _splits(r: _Reader, top) -> list[Split]:
    splits = []
    split_files: dict[str, Pos] = {}
    for where, pos, m in r.entries(top, "splits", "splits", {"file", "into"}):
        file_ = _split_path(r, m, "file", where, "split file")
        outputs = []
        for owhere, opos, o in r.entries(m, "into", f"{where}.into", {"path", "take"}):
            path = _split_path(r, o, "path", owhere, "split output")
            take = []
            for k, t in enumerate(r.seq(o, "take", f"{owhere}.take")):
                if not isinstance(t, str) or not t:
                    r.error(r.item_pos(o["take"], k), "take entries must be test names or patterns")
                else:
                    take.append(t)
            if "take" not in o:
                r.error(opos, f"{owhere} is missing 'take'")
            if path:
                outputs.append(SplitOutput(path, tuple(take), opos))
        if file_ and "into" in m and not outputs:
            r.error(pos, f"{where} has no outputs")
        if file_ and file_ in split_files:
            first = split_files[file_].line
            r.error(
                r.value_pos(m, "file"), f"split file {file_!r} listed twice (first at line {first})"
            )
        elif file_:
            split_files[file_] = r.value_pos(m, "file")
            splits.append(Split(file_, tuple(outputs), pos))
    return splits


def _groups(r: _Reader, top, moves: list[Move]) -> tuple[list[PlanName], list[PlanName]]:
    """(groups to add, groups to remove); `rename` is sugar: it appends the group
    package's move to `moves` and the names to add and remove."""
    groups_add, groups_remove = [], []
    if "groups" in top:
        g = r.mapping(
            top["groups"], "groups", r.value_pos(top, "groups"), {"add", "remove", "rename"}
        )
        if g is not None:
            groups_add = _group_names(r, g, "add")
            groups_remove = _group_names(r, g, "remove")
            for where, ipos, m in r.entries(g, "rename", "groups.rename", {"from", "to"}):
                what = "a lower_snake_case group name"
                old = r.string(m, "from", where, GROUP, what)
                new = r.string(m, "to", where, GROUP, what)
                if old and new:
                    # sugar: the group package moves, the old group goes, the new one comes
                    sp, dp = r.value_pos(m, "from"), r.value_pos(m, "to")
                    moves.append(Move(f"{OPS}.{old}", f"{OPS}.{new}", ipos, sp, dp))
                    groups_remove.append(PlanName(old, sp))
                    groups_add.append(PlanName(new, dp))
    return groups_add, groups_remove


def _delete_problem(name) -> str | None:
    if not isinstance(name, str) or not DOTTED.match(name):
        return f"delete entry {name!r} must be a dotted package name"
    if (kw := keyword_part(name)) is not None:
        return f"delete entry {name!r} contains the Python keyword {kw!r}"
    return None


def _delete(r: _Reader, top) -> list[PlanName]:
    return r.items(top, "delete", "delete", _delete_problem)


def _keep_prose(r: _Reader, top) -> list[PlanName]:
    def problem(glob) -> str | None:
        return None if isinstance(glob, str) else "keep_prose entries must be path globs"

    return r.items(top, "keep_prose", "keep_prose", problem)


def _encodings(r: _Reader, top) -> list[tuple[str, str]]:
    """`encodings: {glob: codec}`: how to read files that are neither UTF-8 nor cookied."""
    node = top.get("encodings")
    if node is None:
        return []
    if not isinstance(node, CommentedMap):
        r.error(r.value_pos(top, "encodings"), "encodings must be a mapping of path glob to codec")
        return []
    out = []
    for glob, codec in node.items():
        pos = r.value_pos(node, glob)
        if not isinstance(glob, str) or not isinstance(codec, str):
            r.error(pos, "encodings maps a path glob to a codec name (both strings)")
            continue
        try:
            codecs.lookup(codec)
        except LookupError:
            r.error(pos, f"unknown codec {codec!r} for {glob!r}")
            continue
        out.append((glob, codec))
    return out


def parse_plan(text: str, file: str) -> tuple[Plan, list[Diagnostic]]:
    """Parse plan text into a `Plan` of its well-formed entries plus every structural error.

    Malformed entries are dropped from the plan and reported, so that `validate_plan`
    can still check the rest and the user sees every mistake in one run.
    """
    r = _Reader(file)
    doc = _load_yaml(text, file)
    if doc is None:
        raise MigrateError(Diagnostic(Pos(file, 1, 1), "plan is empty"))
    top = r.mapping(doc, "plan", Pos(file, 1, 1), TOP_KEYS)
    if top is None:
        raise MigrateError(r.errors)

    _check_version(r, top, file)
    roots = _roots(r, top)
    moves = _moves(r, top)
    op_ids = _op_ids(r, top)
    splits = _splits(r, top)
    groups_add, groups_remove = _groups(r, top, moves)
    delete = _delete(r, top)
    keep_prose = _keep_prose(r, top)
    encodings = _encodings(r, top)

    plan = Plan(
        path=file,
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
        version=1,
        roots=tuple(roots) or (PlanName("."),),
        moves=tuple(moves),
        op_ids=tuple(op_ids),
        splits=tuple(splits),
        groups_add=tuple(groups_add),
        groups_remove=tuple(groups_remove),
        delete=tuple(delete),
        keep_prose=tuple(keep_prose),
        encodings=tuple(encodings),
    )
    return plan, r.errors


def _group_problem(name) -> str | None:
    if not isinstance(name, str) or not GROUP.match(name):
        return f"group {name!r} must be a lower_snake_case identifier"
    if keyword.iskeyword(name):
        return f"group {name!r} is a Python keyword: not importable"
    return None


def _group_names(r: _Reader, g, key: str) -> list[PlanName]:
    """The names of `groups.<key>` (with their positions), each a lower_snake_case identifier."""
    return r.items(g, key, f"groups.{key}", _group_problem)


def _yaml_error_pos(exc: YAMLError, text: str, file: str) -> Pos:
    offset = getattr(exc, "position", None)
    if not isinstance(offset, int):
        return Pos(file, 1, 1)
    line = text.count("\n", 0, offset) + 1
    return Pos(file, line, offset - (text.rfind("\n", 0, offset) + 1) + 1)


def _yaml_message(exc: YAMLError) -> str:
    char = getattr(exc, "character", None)
    if isinstance(char, str):
        return f"invalid YAML: character {ord(char):#06x} is not allowed in a plan"
    return "invalid YAML: " + " ".join(str(exc).split())[:200]


def decode_plan(data: bytes, file: str) -> str:
    """The plan's text; bytes that are not UTF-8 are a positioned error, not a traceback."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        col = len(data[line_start : exc.start].decode("utf-8", "replace")) + 1
        bad = data[exc.start : exc.start + 1].hex()
        raise MigrateError(
            Diagnostic(
                Pos(file, line, col),
                f"plan is not UTF-8 (byte 0x{bad}); save it as UTF-8 (comments too)",
            )
        ) from None


def load_plan(path: str | Path) -> tuple[Plan, list[Diagnostic]]:
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        what = exc.strerror or str(exc)
        raise MigrateError(Diagnostic(Pos(str(path)), f"cannot read plan: {what}")) from None
    return parse_plan(decode_plan(data, str(path)), str(path))
