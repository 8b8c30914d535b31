"""The per-file import scratch area and its one finaliser: where added imports go, how
removed ones leave, in which order and layout.

Forms never write import statements into a file themselves. They schedule them on the
file's `ImportScratch` (as LibCST's `AddImportsVisitor` / `RemoveImportsVisitor` schedule
on a codemod context), and `finalise()` turns the schedule into edits once, after every
form ran. So placement, sorting and layout live here only:

- `add(stmt, anchor)`: beside the binding import `anchor` (a statement's character span).
  The anchor's block is the run of import statements around it, in one body, with no
  blank line between them. If the block is sorted as isort/ruff sort it (plain `import`
  lines before `from` lines, modules in order; names inside a statement in order, by
  type: CONSTANTS, Classes, the rest), the import goes at its sorted place, or is merged
  into a one-line `from M import ...` of the same module. An unsorted block,
  `# isort: skip` on the anchor line, or an `isort: off` region in force keeps the
  simple rule: right after the anchor. An import never leaves the anchor's scope.
- `add_before(stmt, at, indent)`: in front of the statement starting at `at`.
- `drop(stmt, names)`: drop the locals `names` from the import statement at span `stmt`,
  keeping its layout and comments (`import_drop.drop_names`); folded into an addition
  merged into the same statement; when no name is left, the statement's lines go (a
  statement sharing a line with another is left alone). Composed with the other forms'
  edits inside the statement (`finalise(tree, others)`): a respelled or split import
  loses the names from what the import pass wrote (issue 12, Defect A).
- `keep(stmt, at, text)`: a binding import whose uses all moved stays (its import runs
  code: `effect_imports.py`); `text` (`  # noqa: F401`) is inserted at `at`, the end of
  the kept name's line (an addition merged into a one-line statement lands before it,
  as isort writes `from pkg import new, state  # noqa: F401`).
- `remove(node, names)`: drop `names` from a top-level import statement, in its layout
  (the same `drop_names` as `drop`); when every name goes, its whole lines go (and the
  blank line after a group that disappears).
- `set_names(node, names)`: `from M import names` in place of the statement's list, in
  its layout: a parenthesized one-per-line list stays so (the comment after `(` too), a
  one-line statement stays on one line unless it grows past the line length; then it is
  wrapped as ruff format would, its trailing comment moving after the `(`.
- `add_top(stmt, reason, future=, type_checking=, clear_of=)`: at the module's top:
  `__future__` imports after the docstring (`_future_at`), the others after the last
  top-level import or the docstring (`_after_imports`, moved past any span of `clear_of`
  it would fall inside), those only type checkers need in one `if TYPE_CHECKING:` block
  after them. One insertion per run of additions with the same reason.
- A new module (`new_module=True`, empty `text`): its whole import header, the same
  schedule laid out as a file's top: the `__future__` block, the imports, the
  `if TYPE_CHECKING:` block, a blank line apart, two before the code that follows.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from migrate.changes import Edit
from migrate.rewrite.import_layout import formatted, placed_beside
from migrate.rewrite.import_order import ImportOrder
from migrate.rewrite.spans import (
    ast_offset,
    file_header_line,
    line_starts,
    make_edit,
    whole_lines,
)


@dataclass(frozen=True)
class _Add:
    stmt: str  # one statement, no indentation or newline
    anchor: tuple[int, int]  # span of the statement it goes beside / in front of
    indent: str
    reason: str
    before: bool = False
    merge_reason: str = ""
    not_before: bool = False  # never placed above the anchor (it must bind no earlier)


@dataclass(frozen=True)
class _Top:
    stmt: str  # one import statement, no indentation or newline
    kind: str  # "future" | "import" | "checking" (under `if TYPE_CHECKING:`) | "block"
    reason: str
    clear_of: tuple[tuple[int, int], ...] = ()


@dataclass
class ImportScratch:
    """What the forms want added to or removed from one file's imports."""

    path: str  # where the edits land (the file's new path)
    text: str
    can_merge: Callable[[ast.ImportFrom], bool] = lambda node: True
    adds: list[_Add] = field(default_factory=list)
    removals: list[tuple[ast.stmt, tuple[ast.alias, ...], str]] = field(default_factory=list)
    drops: dict[tuple[int, int], set[str]] = field(default_factory=dict)
    tops: list[_Top] = field(default_factory=list)
    relists: list[tuple[ast.ImportFrom, tuple[str, ...], str]] = field(default_factory=list)
    keeps: list[tuple[tuple[int, int], int, str, str]] = field(default_factory=list)
    new_module: bool = False  # `text` is empty: the file does not exist yet
    order: ImportOrder = ImportOrder()  # sections and sort order (the project's settings)
    guard: str = "TYPE_CHECKING"  # how the `if ...:` of imports only type checkers need reads

    def add(
        self,
        stmt: str,
        anchor: tuple[int, int],
        indent: str,
        reason: str,
        placed: str,
        not_before: bool = False,
    ):
        """Schedule `stmt` beside the import at `anchor`; `placed`: the reason when it
        lands at its sorted place or merges into a statement of the block; `not_before`:
        a sorted place above the anchor is not taken (a name a star import bound must be
        bound no earlier than it was: the modules above may be what its module needs)."""
        self.adds.append(_Add(stmt, anchor, indent, reason, False, placed, not_before))

    def add_before(self, stmt: str, at: int, indent: str, reason: str) -> None:
        """Schedule `stmt` in front of the statement starting at offset `at`."""
        if not any(a.before and a.anchor[0] == at and a.stmt == stmt for a in self.adds):
            self.adds.append(_Add(stmt, (at, at), indent, reason, before=True))

    def has_adds(self, anchor: tuple[int, int]) -> bool:
        """Whether an import is scheduled beside the statement at `anchor`."""
        return any(not a.before and a.anchor == anchor for a in self.adds)

    def drop(self, stmt: tuple[int, int], names: set[str]) -> None:
        """Schedule dropping the locals `names` from the import statement at span `stmt`
        (they have no use left)."""
        self.drops.setdefault(stmt, set()).update(names)

    def keep(self, stmt: tuple[int, int], at: int, text: str, reason: str) -> None:
        """Schedule the marker `text` at offset `at` of the import statement at span
        `stmt`, which keeps a binding with no use left (its import runs code)."""
        self.keeps.append((stmt, at, text, reason))

    def remove(self, node: ast.stmt, names: list[ast.alias], reason: str) -> None:
        """Schedule dropping `names` from the import `node`; a statement that is no
        import (an `if TYPE_CHECKING:` block whose imports all go) goes whole."""
        self.removals.append((node, tuple(names), reason))

    def set_names(self, node: ast.ImportFrom, names: list[str], reason: str) -> None:
        """Schedule `node` to import exactly `names` (in this order), in its own layout."""
        self.relists.append((node, tuple(names), reason))

    def add_top(
        self,
        stmt: str,
        reason: str,
        *,
        future: bool = False,
        type_checking: bool = False,
        block: bool = False,
        clear_of: tuple[tuple[int, int], ...] = (),
    ) -> None:
        """Schedule `stmt` at the module's top (once): a `__future__` import, an import,
        one only type checkers need, or a `block` (a `try:` of imports, lines joined by
        LF), which goes after the sorted imports as isort leaves it; never inside a span
        of `clear_of`."""
        kind = "future" if future else "checking" if type_checking else "import"
        kind = "block" if block else kind
        if not any(t.stmt == stmt and t.kind == kind for t in self.tops):
            self.tops.append(_Top(stmt, kind, reason, tuple(clear_of)))

    # -- the finaliser -------------------------------------------------------------
    @property
    def empty(self) -> bool:
        """Nothing scheduled: the finaliser has nothing to place (and no tree to read)."""
        return not (
            self.adds or self.removals or self.drops or self.tops or self.relists or self.keeps
        )

    def finalise(self, tree: ast.Module | None, others: Sequence[Edit] = ()) -> list[Edit]:
        """The scheduled changes as edits, composed with `others` (the other forms' edits
        of the file, returned too): one inside a statement that loses names is applied
        first and the names are dropped from what it wrote (a respelled or split import
        keeps its new spelling); one inside a statement that goes entirely goes with it.
        An edit crossing a statement's bounds is left as it is: the caller refuses the
        overlap (`overlaps.settled`), never drops one silently."""
        folded: set[int] = set()
        mine = [
            make_edit(self.path, self.text, s, e, new, "code", why)
            for s, e, new, why in self.spans(tree, others, folded)
        ]
        return mine + [o for o in others if id(o) not in folded]

    def spans(
        self, tree: ast.Module | None, others: Sequence[Edit] = (), folded: set[int] | None = None
    ) -> list[tuple[int, int, str, str]]:
        """(start, end, replacement, reason) of every scheduled change, in schedule order;
        the ids of the `others` composed into them are added to `folded`."""
        self._others, self._folded = others, folded if folded is not None else set()
        out: list[tuple[int, int, str, str]] = []
        nl = "\r\n" if "\r\n" in self.text else "\n"
        starts = line_starts(self.text)
        merged: set[int] = set()
        kept: set[int] = set()  # the keeps folded into a merged statement
        drops = {k: set(v) for k, v in self.drops.items()}
        by_anchor: dict[tuple[int, int], list[_Add]] = {}
        for a in self.adds:
            if not a.before:
                by_anchor.setdefault(a.anchor, []).append(a)
        for anchor, adds in by_anchor.items():
            after: list[_Add] = []
            line = self.text.count("\n", 0, anchor[0]) + 1
            for a in adds:
                hit = self._place(tree, starts, line, a.stmt, merged) if tree else None
                if hit is not None and a.not_before and hit[0] < anchor[1]:
                    hit = None
                if hit is None:
                    after.append(a)
                    continue
                s, e, new = hit
                why = a.merge_reason or a.reason
                if s != e:
                    merged.add(s)
                    gone = drops.pop((s, e), None)
                    if gone:
                        from migrate.rewrite.import_drop import drop_names  # libcst: lazily

                        new = drop_names(new, gone) or new
                        why += f"; `{', '.join(sorted(gone))}` has no use left"
                new = self._kept_into(s, e, new, kept)
                out.append((s, e, new, why))
            if after:
                at = _line_end(self.text, anchor[1])
                text = "".join(f"{a.indent}{a.stmt}{nl}" for a in after)
                if at == len(self.text) and not self.text.endswith("\n"):
                    text = nl + text.rstrip("\r\n")
                out.append((at, at, text, after[0].reason))
        for stmt, gone in drops.items():
            hit = self._drop(stmt, gone)
            if hit is not None:
                out.append((*hit, self._why(hit, f"`{', '.join(sorted(gone))}` has no use left")))
        for a in self.adds:
            if a.before:
                out.append((a.anchor[0], a.anchor[0], f"{a.stmt}{nl}{a.indent}", a.reason))
        for node, names, reason in self.removals:
            hit = self._removal(starts, node, names)
            if hit is not None:
                out.append((*hit, self._why(hit, reason)))
        for node, names, reason in self.relists:
            out.append((*_relisted(self.text, starts, node, names, self.order), reason))
        out += [
            (at, at, text, reason)
            for k, (_, at, text, reason) in enumerate(self.keeps)
            if text and k not in kept
        ]
        if self.tops:
            out += self._header(nl) if self.new_module else self._top(nl)
        return out

    def _top(self, nl: str) -> list[tuple[int, int, str, str]]:
        """The module-top additions of an existing file, one insertion per reason run."""
        out: list[tuple[int, int, str, str]] = []
        futures = [t for t in self.tops if t.kind == "future"]
        if futures:
            at = _future_at(self.text)
            for run in _runs(futures):
                out.append((at, at, "".join(t.stmt + nl for t in run), run[0].reason))
        imports = [t for t in self.tops if t.kind == "import"]
        checking = [t for t in self.tops if t.kind == "checking"]
        blocks = [t.stmt.replace("\n", nl) for t in self.tops if t.kind == "block"]
        if not (imports or checking or blocks):
            return out
        block = _checking_block(checking, nl, self.guard)
        runs = _runs(imports) or [[]]
        start = _after_imports(self.text)
        for k, run in enumerate(runs):
            last = k == len(runs) - 1
            apart = [""] if blocks and last and (run or _imports_before(self.text, start)) else []
            lines = [t.stmt for t in run] + (apart + blocks if last else [])
            lines += [block] if block and last else []
            firsts = run or checking or [t for t in self.tops if t.kind == "block"]
            clear = [span for t in firsts for span in t.clear_of]
            at = max([start] + [e for s, e in clear if s < start < e])
            reason = firsts[0].reason
            text = "".join(line + nl for line in lines)
            if k == len(runs) - 1 and not _imports_before(self.text, start):
                text += nl * self._blank_after(at)  # the file had no imports: code follows
            out.append((at, at, text, reason))
        return out

    def _blank_after(self, at: int) -> int:
        """The blank lines a new import block at `at` still needs before the code after it:
        lines-after-imports (1 before a statement, 2 before a def/class by default), less
        the blank lines already there; none at the end of the file."""
        rest = self.text[at:]
        code = rest.lstrip("\r\n")
        if not code.strip():
            return 0
        have = rest[: len(rest) - len(code)].count("\n")
        want = self.order.style.lines_after_imports
        if want < 0:
            want = 2 if code.startswith(("def ", "class ", "async def ", "@")) else 1
        return max(0, want - have)

    def _header(self, nl: str) -> list[tuple[int, int, str, str]]:
        """A new module's import header: one insertion into the empty text."""
        futures = [t.stmt for t in self.tops if t.kind == "future"]
        imports = _sections([t.stmt for t in self.tops if t.kind == "import"], self.order)
        block = _checking_block([t for t in self.tops if t.kind == "checking"], nl, self.guard)
        blocks = [t.stmt.replace("\n", nl) for t in self.tops if t.kind == "block"]
        parts = [nl.join(p) for p in (futures, *imports) if p] + blocks + ([block] if block else [])
        after = self.order.style.lines_after_imports
        after = 2 if after < 0 else after  # the caller takes one off before a statement
        return [(0, 0, (nl + nl).join(parts) + nl * (1 + after), self.tops[0].reason)]

    def _drop(self, stmt: tuple[int, int], gone: set[str]) -> tuple[int, int, str] | None:
        """The statement without the `gone` locals, or its lines when none is left and
        it has them to itself (else None: left alone)."""
        from migrate.rewrite.import_drop import drop_from_statements  # libcst: lazily

        s, e = stmt
        line_start = self.text.rfind("\n", 0, s) + 1
        indent = self.text[line_start:s]
        inner = self._inside(s, e)
        try:
            source = _folded_text(self.text, s, e, inner)
            rest = drop_from_statements(source, gone, "" if indent.strip() else indent)
        except ValueError:  # what another form wrote is not imports: not composed, so
            inner, rest = [], drop_from_statements(self.text[s:e], gone)  # refused
        if rest:
            self._folded.update(id(o) for o in inner)
            return s, e, rest
        lines = whole_lines(self.text, s, e, comment=True)
        if lines is None:
            return None  # shares a line with another statement: left alone
        self._folded.update(id(o) for o in self._inside(*lines))  # moot now
        return *lines, ""

    def _removal(self, starts, node: ast.stmt, gone) -> tuple[int, int, str] | None:
        """The edit dropping `gone` from import `node`: the whole lines (its trailing
        comment too) when every name goes (and the blank line after a group that
        disappears), else the statement without them, composed with what other forms
        wrote inside it (as `drop` does); None: left alone."""
        text = self.text
        names = [a for a in getattr(node, "names", ()) if a.name != "*"]
        s = ast_offset(text, starts, node.lineno, node.col_offset)
        e = ast_offset(text, starts, node.end_lineno, node.end_col_offset)
        lines = whole_lines(text, s, e, comment=True)
        if len(gone) == len(names) and lines is None:
            return None  # shares its line with another statement: left alone
        if len(gone) == len(names):
            line_start, line_end = lines
            prev_blank = node.lineno == 1 or not text[starts[node.lineno - 2] : line_start].strip()
            nxt = text.find("\n", line_end)
            nxt = len(text) if nxt == -1 else nxt + 1
            if prev_blank and line_end < len(text) and not text[line_end:nxt].strip():
                line_end = nxt  # the group it ended is gone: so is the blank line after it
            self._folded.update(id(o) for o in self._inside(line_start, line_end))  # moot
            return line_start, line_end, ""
        dropped = {_local(node, a) for a in gone}
        if dropped & {_local(node, a) for a in names if a not in gone}:
            return None  # `import a.b, a.c`: one local for both, and one stays
        hit = self._drop((s, e), dropped)  # the statement's own layout, comments and all
        return hit if hit is not None and hit[2] != text[s:e] else None

    def _why(self, hit: tuple[int, int, str], reason: str) -> str:
        """`reason`, after the reasons of the edits composed into `hit` (they are its)."""
        folded = [o.reason for o in self._inside(hit[0], hit[1]) if id(o) in self._folded]
        return "; ".join(dict.fromkeys([*folded, reason]))

    def _inside(self, s: int, e: int) -> list[Edit]:
        """The other forms' edits within `text[s:e]`."""
        return [
            o
            for o in self._others
            if s <= o.start and o.end <= e and not (o.start == o.end and o.start in (s, e))
        ]

    def _kept_into(self, s: int, e: int, new: str, kept: set[int]) -> str:
        """`new`, the statement `text[s:e]` rewritten whole (an addition merged into it),
        with the marker of each keep inside it put back at the end of the kept name's line
        (found again by its text, the trailing comment included); the indexes of those
        keeps go into `kept`. A keep whose line is not in `new` stays a point edit (the
        overlap is then refused, never dropped)."""
        for k, (_, at, text, _) in enumerate(self.keeps):
            if not text or k in kept or not s < at < e:
                continue
            line = self.text[self.text.rfind("\n", 0, at) + 1 : at].rstrip("\r")
            i = new.find(line)
            end = i + len(line)
            if i < 0 or (end < len(new) and new[end] not in "\r\n"):
                continue
            new, _ = new[:end] + text + new[end:], kept.add(k)
        return new

    def _place(self, tree, starts, line: int, new: str, merged: set[int]):
        def can_merge(node: ast.ImportFrom) -> bool:
            at = ast_offset(self.text, starts, node.lineno, node.col_offset)
            end = ast_offset(self.text, starts, node.end_lineno, node.end_col_offset)
            return at not in merged and self.can_merge(node) and not self._inside(at, end)

        return placed_beside(self.text, tree, line, new, self.order, can_merge)


def _folded_text(text: str, s: int, e: int, inner: list[Edit]) -> str:
    """`text[s:e]` with the edits `inner` (all within it) applied."""
    out, last = [], s
    for o in sorted(inner, key=lambda o: (o.start, o.end)):
        out += [text[last : o.start], o.new]
        last = o.end
    return "".join(out) + text[last:e]


def _runs(tops: list[_Top]) -> list[list[_Top]]:
    """Consecutive additions with the same reason, each run one insertion."""
    runs: list[list[_Top]] = []
    for t in tops:
        if runs and runs[-1][0].reason == t.reason:
            runs[-1].append(t)
        else:
            runs.append([t])
    return runs


def _sections(stmts: list[str], order: ImportOrder) -> list[list[str]]:
    """A new module's imports as isort lays them out: by section, sorted in each, each
    statement formatted as isort writes it (an aliased name apart unless combine-as)."""
    stmts = list(dict.fromkeys(f for t in stmts for f in formatted(t, order)))
    keyed = sorted((order.full_key(ast.parse(t).body[0]), t) for t in stmts)
    out: list[list[str]] = []
    for k, t in keyed:
        if out and order.section(ast.parse(out[-1][-1]).body[0]) == k[0]:
            out[-1].append(t)
        else:
            out.append([t])
    return out


def _checking_block(checking: list[_Top], nl: str, guard: str) -> str:
    """`if TYPE_CHECKING:` (`guard`) with the imports only type checkers need ("" for
    none)."""
    if not checking:
        return ""
    return f"if {guard}:" + nl + nl.join("    " + t.stmt for t in checking)


def _line_end(text: str, offset: int) -> int:
    nl = text.find("\n", offset)
    return len(text) if nl == -1 else nl + 1


# -- removal and the module top ---------------------------------------------------------


def _local(node: ast.stmt, alias: ast.alias) -> str:
    """The name `alias` binds in the module."""
    if alias.asname:
        return alias.asname
    return alias.name.split(".")[0] if isinstance(node, ast.Import) else alias.name


def _relisted(text: str, starts, node: ast.ImportFrom, names, order) -> tuple[int, int, str]:
    """(start, end, replacement) of `node` importing `names`, in the statement's layout."""
    start = ast_offset(text, starts, node.lineno, node.col_offset)
    end = ast_offset(text, starts, node.end_lineno, node.end_col_offset)
    stmt = text[start:end]
    head = stmt[: stmt.index(" import ") + len(" import ")]
    body = stmt[len(head) :]
    nl = "\r\n" if "\r\n" in text else "\n"
    lead = text[starts[node.lineno - 1] : start]
    if body.startswith("(") and "\n" in body:
        first = body[1 : body.index("\n")].rstrip("\r")  # a comment after "(" stays
        indent = re.search(r"\n([ \t]+)\S", body)
        ind = indent.group(1) if indent else lead + "    "
        return (
            start,
            end,
            head + "(" + first + nl + "".join(f"{ind}{n},{nl}" for n in names) + lead + ")",
        )
    inner = ", ".join(names)
    new_body = f"({inner})" if body.startswith("(") else inner
    tail = text[end : _line_end(text, end)].rstrip("\r\n")
    if len(lead) + len(head) + len(new_body) + len(tail) > order.line_length:
        # wrap as ruff format would, the trailing comment moving after "("
        items = "".join(f"{lead}    {n},{nl}" for n in names)
        return start, end + len(tail), head + "(" + tail + nl + items + lead + ")"
    return start, end, head + new_body


def _imports_before(text: str, offset: int) -> bool:
    """Whether a top-level import statement ends at or before `offset`."""
    starts = line_starts(text)
    for node in ast.parse(text).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            end = starts[node.end_lineno] if node.end_lineno < len(starts) else len(text)
            if end <= offset:
                return True
    return False


def _after_imports(text: str) -> int:
    """Offset after the last top-level import (or the docstring, or the header): where
    imports added to a module's top go."""
    tree = ast.parse(text)
    starts = line_starts(text)
    last = 0
    for i, node in enumerate(tree.body):
        is_doc = i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        if isinstance(node, (ast.Import, ast.ImportFrom)) or is_doc:
            last = node.end_lineno
        elif last:
            break
    if not last:
        return _after_header(text)
    return starts[last] if last < len(starts) else len(text)


def _after_header(text: str) -> int:
    """Where a module with no docstring and no import gets its first import: below its
    shebang and coding cookie (which must stay on the first lines), and below the comment
    block at its top when a blank line ends it (a licence header; a block right above the
    code belongs to that code) with those blank lines (t12 T60)."""
    lines = text.splitlines(keepends=True)
    at = pos = 0
    for i, line in enumerate(lines[:2]):
        if file_header_line(i + 1, line):
            at = pos = pos + len(line)
        else:
            break
    k = text.count("\n", 0, at)
    while k < len(lines) and lines[k].lstrip().startswith("#"):
        pos += len(lines[k])
        k += 1
    if k < len(lines) and not lines[k].strip() and pos > at:
        while k < len(lines) and not lines[k].strip():
            pos += len(lines[k])
            k += 1
        return pos
    return at


def _future_at(text: str) -> int:
    """Where a `from __future__` import may go: after the docstring, else at the top."""
    tree = ast.parse(text)
    if (
        tree.body
        and isinstance(tree.body[0], ast.Expr)
        and isinstance(tree.body[0].value, ast.Constant)
    ):
        starts = line_starts(text)
        end = tree.body[0].end_lineno
        return starts[end] if end < len(starts) else len(text)
    return _after_header(text)
