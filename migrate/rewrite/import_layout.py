"""The import layout pass: every import statement the rewrite added, split or respelled
goes where isort/ruff would put it, when its block was sorted before.

The forms edit statements where they stand (a respelled `from .b import B` stays between
`.a` and `.c` as `from .z import B`) and the symbols pass appends what a module now
needs after its last import. This pass runs once every edit of a file is known and looks
at each block of imports (a run of import statements in one body) that the edits touch.
When the block's statements were in isort order before (sections in order, and each
section sorted: `import_order.py`), the statements the edits left untouched keep their
order and every statement they changed or added goes to its sorted place, in its section
(a new section a blank line apart), or is merged into a `from M import ...` of the same
module (no aliases; comments stay on their names), as isort combines them, unless the
file keeps one name per statement. Sorted means as ruff lays out a sorted block: a group
holding two sections (no blank line between them) or a comment above a statement right
below the one before it is not. A statement takes the comment lines above it along (ruff
sets them a line apart from the statement before, in its section). The runs around a
statement marked `# isort: skip`, a `# isort: split` line or an `isort: off`/`on` region
are sorted on their own; those statements stay. A statement passes a star import only
when every name still binds to what it bound where the edits put it (what the star gives
is read from the tree after the plan; a star whose names cannot all be known keeps the
block as the edits have it). An unsorted group and a block whose edits reach past it
into code are left as the edits have them. The block's edits are folded into one edit of
the block, so the dry run shows exactly what apply writes.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace

from migrate.changes import Edit, apply_edits
from migrate.index.imports import is_type_checking
from migrate.rewrite.import_order import FIRST_PARTY, LOCAL, ImportOrder
from migrate.rewrite.spans import ast_offset, line_starts, make_edit

_REASON = "placed where isort/ruff sort it"
_OFF = re.compile(r"#\s*isort:\s*(off|on)\b")
_SKIP = re.compile(r"#\s*isort:\s*skip\b(?!_)")
_SPLIT = re.compile(r"#\s*isort:\s*split\b")


@dataclass(frozen=True)
class _Chunk:
    sep: int  # blank lines before it
    lead: tuple[str, ...]  # comment lines right above it (with their newlines)
    lines: tuple[str, ...]  # the statement's lines (with their newlines)
    node: ast.Import | ast.ImportFrom
    old: int = -1  # index of the old statement it is (an added name merged in or not)

    @property
    def text(self) -> str:
        return "".join(self.lead + self.lines)

    @property
    def commented(self) -> bool:
        """Whether the statement's own lines hold a comment (those above it travel along)."""
        return "#" in "".join(self.lines)


def parsed(text: str) -> ast.Module | None:
    """`text`'s `ast`, None when it does not parse: one parse for `relaid` and
    `kept_blank_lines` of a file (the layout pass reads both on the same text)."""
    try:
        return ast.parse(text)
    except SyntaxError:
        return None


def relaid(
    path: str, text: str, edits: list[Edit], order: ImportOrder, init=None, tree=False
) -> tuple[list[Edit], list[Edit]]:
    """(the block edits, the edits they fold) for one file's `edits` on `text`; `init`:
    the file's init-order model (`quiet_modules.FileOrder`): a placement that keeps the
    order the repository's own modules initialise in may sort their imports too.
    `tree`: `parsed(text)` when the caller has it (never mutated here)."""
    tree = parsed(text) if tree is False else tree
    if tree is None:
        return [], []
    starts = line_starts(text)
    edits = sorted(edits, key=lambda e: (e.start, e.end))
    out: list[Edit] = []
    folded: list[Edit] = []
    never = _never_run(tree)
    for block in _runs(text, starts, tree):
        here = _NEVER_RUNS if init is not None and id(block[0]) in never else init
        hit = _relay(text, starts, block, edits, order, here)
        if hit is not None:
            lo, hi, new, inside = hit
            reasons = dict.fromkeys(e.reason for e in inside)
            why = "; ".join([*reasons, _REASON])
            out.append(make_edit(path, text, lo, hi, new, "code", why))
            folded += inside
    return out, folded


class _NeverRuns:
    """The init order of imports that never run (an `if TYPE_CHECKING:` body): every
    placement is one, so they are sorted like any other import."""

    def same(self, a, b) -> bool:
        return True

    def quiet(self, node) -> bool:
        return True


_NEVER_RUNS = _NeverRuns()


def _never_run(tree: ast.Module) -> set[int]:
    """ids of the statements in the body of an `if TYPE_CHECKING:`."""
    return {
        id(s)
        for node in _holders(tree)
        if isinstance(node, ast.If) and is_type_checking(node.test)
        for s in node.body
    }


# What a statement can be a child of: only these (and the module) hold statement lists.
_HOLDS = (ast.stmt, ast.excepthandler, ast.match_case)


def _holders(tree: ast.Module):
    """The nodes of `tree` that can hold statements (the module, statements, `except`
    handlers, `case`s), in `ast.walk`'s order: the same breadth-first walk without
    descending into expressions (no statement is ever inside one), which is most of a
    file's nodes."""
    todo = deque([tree])
    while todo:
        node = todo.popleft()
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, list):
                todo.extend(c for c in value if isinstance(c, _HOLDS))
        yield node


def _blocks(tree: ast.Module):
    """Runs of import statements, each in one body, one statement per line."""
    for node in _holders(tree):
        bodies = [getattr(node, f, None) for f in ("body", "orelse", "finalbody")]
        bodies += [h.body for h in getattr(node, "handlers", []) or []]
        for body in bodies:
            if not isinstance(body, list):
                continue
            run: list[ast.stmt] = []
            for stmt in [*body, None]:
                if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                    if run and stmt.lineno == run[-1].end_lineno:
                        run = []  # `import a; import b`: left alone
                        continue
                    run.append(stmt)
                    continue
                if run:
                    yield run
                run = []


def _runs(text: str, starts: list[int], tree: ast.Module):
    """The runs of each block that isort/ruff sort on their own: a statement marked
    `# isort: skip` or standing between `# isort: off` and `# isort: on` is no part of
    any (it keeps its place) and ends the run before it; a `# isort: split` line (or one
    on a statement's line) ends the run before it."""
    for block in _blocks(tree):
        run: list[ast.stmt] = []
        off = _isort_off(text, starts[block[0].lineno - 1])
        prev_end = None
        for stmt in block:
            at = starts[stmt.lineno - 1]
            own = text[at : _line_end(text, starts, stmt.end_lineno)]
            gap = text[_line_end(text, starts, prev_end) : at] if prev_end else ""
            pragmas = [m.group(1) for m in _OFF.finditer(gap)]
            if run and (_SPLIT.search(gap) or pragmas):
                yield run
                run = []
            off = pragmas[-1] == "off" if pragmas else off
            prev_end = stmt.end_lineno
            if off or _SKIP.search(own) or _OFF.search(own):
                if run:
                    yield run
                run = []
                off = _isort_off(text, _line_end(text, starts, stmt.end_lineno))
                continue
            run.append(stmt)
            if _SPLIT.search(own):
                yield run
                run = []
        if run:
            yield run


def _isort_off(text: str, offset: int) -> bool:
    """Whether an `# isort: off` is in force at `offset`."""
    state = False
    for m in _OFF.finditer(text, 0, offset):
        state = m.group(1) == "off"
    return state


def placed_beside(
    text: str, tree: ast.Module, line: int, stmt: str, order, can_merge: Callable
) -> tuple[int, int, str] | None:
    """(start, end, replacement) putting the added import `stmt` (one statement, no
    indentation or newline) where this pass would sort the block of the statement at
    `line` if `stmt` stood right after that statement (`_place`: the same rules, the
    same order): at its sorted place in a sorted group, or merged into a `from M import`
    of the same module that `can_merge(node)` allows. None: right after that statement
    (an unsorted group, a pragma, a star import, a new section, an own-code import that
    would run before or after another one than there)."""
    starts = line_starts(text)
    block = next((b for b in _runs(text, starts, tree) if any(s.lineno == line for s in b)), None)
    if block is None:
        return None
    lo = starts[block[0].lineno - 1]
    hi = _line_end(text, starts, block[-1].end_lineno)
    indent = text[lo : lo + block[0].col_offset]
    if indent.strip() or "isort:" in text[lo:hi] or _isort_off(text, lo):
        return None
    old = _chunks(text[lo:hi], indent)
    if old is None or any(_star(c.node) for c in old[0]):
        return None
    old_chunks = [replace(c, old=i) for i, c in enumerate(old[0])]
    unsorted = _unsorted(old_chunks, order)
    k = next(i for i, s in enumerate(block) if s.lineno == line)
    if unsorted is None or k in unsorted:
        return None
    nl = "\r\n" if "\r\n" in text else "\n"
    new = _Chunk(0, (), (f"{indent}{stmt}{nl}",), ast.parse(stmt).body[0])
    same = next((i for i, c in enumerate(old_chunks) if c.lines == new.lines), None)
    if same is not None:  # already there: nothing to add
        node = block[same]
        a = ast_offset(text, starts, node.lineno, node.col_offset)
        return a, ast_offset(text, starts, node.end_lineno, node.end_col_offset), stmt
    sections = {order.section(old_chunks[i].node) for i in unsorted}
    combine = not order.style.force_single_line and not _combinable(old_chunks, order)

    def may(c: _Chunk) -> bool:
        node = block[c.old] if c.old >= 0 else None
        return isinstance(node, ast.ImportFrom) and can_merge(node)

    chunks = [*old_chunks[: k + 1], new, *old_chunks[k + 1 :]]
    placed = _place(chunks, old_chunks, set(), indent, order, sections, combine, may)
    if placed is None:
        return None
    for c in placed:
        if c.old >= 0 and c.lines != old_chunks[c.old].lines:  # merged into it
            node = block[c.old]
            a = ast_offset(text, starts, node.lineno, node.col_offset)
            b = ast_offset(text, starts, node.end_lineno, node.end_col_offset)
            new = "".join(c.lines).strip()
            rest, sep, last = new.rpartition("\n")
            if "#" in last:  # the comment after the statement's end stays there
                new = rest + sep + last.split("#", 1)[0].rstrip()
            return a, b, new
    p = next(i for i, c in enumerate(placed) if c.old < 0)
    before = placed[p - 1] if p else None
    after = placed[p + 1] if p + 1 < len(placed) else None
    section = order.section(new.node)
    gap = 0  # the blank lines lines-between-types wants above it
    if before is not None and order.section(before.node) == section:
        gap = _between_types(before, new, order)
    if gap and after is not None and order.section(after.node) == section:
        at = starts[block[after.old].lineno - 1 - len(after.lead)]  # below that blank line
        gap = 0
    elif before is not None and order.section(before.node) == section:
        at = _line_end(text, starts, block[before.old].end_lineno)
    elif after is not None and order.section(after.node) == section:
        at = starts[block[after.old].lineno - 1 - len(after.lead)]
    else:
        return None  # a new section: the blank lines are the layout pass's
    lead = "" if text[:at].endswith("\n") or not at else nl
    # right above a comment on the next statement: ruff keeps that comment a line apart
    tail = nl if after is not None and after.lead and at == _above(starts, block, after) else ""
    return at, at, f"{lead}{nl * gap}{indent}{stmt}{nl}{tail}"


def _above(starts: list[int], block, c: _Chunk) -> int:
    """Where the statement `c` (an old one) starts with the comment lines above it."""
    return starts[block[c.old].lineno - 1 - len(c.lead)]


def _line_end(text: str, starts: list[int], line: int) -> int:
    return starts[line] if line < len(starts) else len(text)


def _relay(text, starts, block, edits: list[Edit], order, init=None):
    lo = starts[block[0].lineno - 1]
    hi = _line_end(text, starts, block[-1].end_lineno)
    indent = text[lo : lo + block[0].col_offset]
    if indent.strip() or "isort:" in text[lo:hi] or _isort_off(text, lo):
        return None
    inside: list[Edit] = []
    grown = True
    while grown:
        grown = False
        for e in edits:
            if e in inside or e.end < lo or e.start > hi:
                continue
            if e.start == e.end and e.start in (lo, hi):
                if _imports_only(e.new, indent):
                    inside.append(e)
                elif e.start == lo:
                    return None
                continue
            if e.start < lo:
                return None
            if e.end > hi:
                if text[hi : e.end].strip():
                    return None  # it reaches into code: not the block's business
                hi, grown = e.end, True
            inside.append(e)
    if not inside:
        return None
    region = text[lo:hi]
    new_region = _applied(text, lo, hi, inside)
    old = _chunks(region, indent)
    new = _chunks(new_region, indent)
    if old is None or new is None:
        return None
    old_chunks, _ = old
    new_chunks, tail = new
    stars = [c.node for c in old_chunks if _star(c.node)]
    star_names = getattr(init, "star_names", None)
    if stars and (star_names is None or any(star_names(n) is None for n in stars)):
        return None  # moving a statement past a star import may change which binding wins
    unsorted = _unsorted(old_chunks, order)
    if unsorted is None:
        return None
    edited = _edited(lo, region, old_chunks, inside)
    if _edited(lo, region, old_chunks, [e for e in inside if e.new]) & unsorted:
        return None  # a statement of an unsorted group respelled: it stays where it was
    unsorted = {order.section(old_chunks[i].node) for i in unsorted}
    single = order.style.force_single_line
    # what the edits wrote as isort writes it (names sorted, split, wrapped), when every
    # statement of the block was so before
    same = {c.text for i, c in enumerate(old_chunks) if i not in edited}
    tidy = all(_formatted(c, indent, order) == [c] for c in old_chunks)
    parts = [
        _formatted(c, indent, order) if tidy and c.text not in same else [c] for c in new_chunks
    ]
    split = any(p != [c] for p, c in zip(parts, new_chunks, strict=True))  # rewritten
    new_chunks = [p for ps in parts for p in ps]
    # a file that keeps one name per statement (force-single-line, said or seen): no merge
    combine = not single and not _combinable(old_chunks, order)
    merge = combine and _combinable(new_chunks, order)
    if not split and _sorted(new_chunks, order) and not merge:
        return None  # the edits leave it sorted: they stay as they are
    placed = _placed(new_chunks, old_chunks, edited, indent, order, unsorted, combine, init)
    if placed is None:
        return None
    if stars and _winners(placed, star_names) != _winners(new_chunks, star_names):
        return None  # sorted past a star import that binds one of its names
    rebuilt = _render(placed, order) + tail
    if rebuilt == new_region:
        return None  # the edits already leave it sorted: they stay as they are
    return lo, hi, rebuilt, inside


def _placed(new_chunks, old_chunks, edited, indent, order, unsorted, combine, init):
    """Every statement at its sorted place when the init orders of the two placements are
    one (`init.same`), else `_place`'s placement."""
    if init is not None:
        free = _place(new_chunks, old_chunks, edited, indent, order, unsorted, combine, free=True)
        mine = [c.node for c in new_chunks if _own(c, order)]
        theirs = [c.node for c in free or () if _own(c, order)]
        if free is not None and (
            [id(n) for n in mine] == [id(n) for n in theirs] or init.same(mine, theirs)
        ):
            return free
    args = (new_chunks, old_chunks, edited, indent, order, unsorted, combine)
    placed = _place(*args, init=init)
    if placed is None or init is None:
        return placed
    mine = [c.node for c in new_chunks if _own(c, order)]
    if init.same(mine, [c.node for c in placed if _own(c, order)]):
        return placed
    return _place(*args, init=init, swap=False)  # the swaps together changed it: one by one


def _winners(chunks: list[_Chunk], star_names) -> dict[str, tuple]:
    """Name -> where the binding that wins comes from, when the statements run in this
    order: a star import binds what `star_names` says its module gives."""
    out: dict[str, tuple] = {}
    for c in chunks:
        node = c.node
        if _star(node):
            out.update((n, ("*", node.level, node.module)) for n in star_names(node))
        elif isinstance(node, ast.ImportFrom):
            out.update((a.asname or a.name, (node.level, node.module, a.name)) for a in node.names)
        else:
            out.update((a.asname or a.name.split(".")[0], (a.name, a.asname)) for a in node.names)
    return out


def _imports_only(new: str, indent: str) -> bool:
    try:
        body = ast.parse(textwrap.dedent(new)).body
    except SyntaxError:
        return False
    return bool(body) and all(isinstance(s, (ast.Import, ast.ImportFrom)) for s in body)


def _applied(text: str, lo: int, hi: int, inside: list[Edit]) -> str:
    out, last = [], lo
    for e in sorted(inside, key=lambda e: (e.start, e.end)):
        out.append(text[last : e.start])
        out.append(e.new)
        last = e.end
    out.append(text[last:hi])
    return "".join(out)


def _chunks(region: str, indent: str) -> tuple[list[_Chunk], str] | None:
    """The region's statements with the blank lines and comments above each, and what
    follows the last one (blank lines only); None when it is not only imports."""
    lines = region.splitlines(keepends=True)
    if any(ln.strip() and not ln.startswith(indent) for ln in lines):
        return None
    try:
        body = ast.parse("".join(ln[len(indent) :] if ln.strip() else "\n" for ln in lines)).body
    except SyntaxError:
        return None
    if not all(isinstance(s, (ast.Import, ast.ImportFrom)) for s in body):
        return None
    chunks: list[_Chunk] = []
    prev_end = 0
    for stmt in body:
        if stmt.lineno <= prev_end:
            return None  # two statements on a line
        gap = lines[prev_end : stmt.lineno - 1]
        blank = [ln for ln in gap if not ln.strip()]
        lead = tuple(ln for ln in gap if ln.strip())
        if lead and any(not ln.strip() for ln in gap[len(blank) :]):
            return None  # a comment apart from the statement: not sure whose it is
        if gap[: len(blank)] != blank:
            return None
        chunks.append(
            _Chunk(len(blank), lead, tuple(lines[stmt.lineno - 1 : stmt.end_lineno]), stmt)
        )
        prev_end = stmt.end_lineno
    tail = "".join(lines[prev_end:])
    if tail.strip():
        return None
    return chunks, tail


def _sorted(chunks: list[_Chunk], order) -> bool:
    keys = [order.full_key(c.node) for c in chunks]
    return keys == sorted(keys)


def _unsorted(chunks: list[_Chunk], order) -> set[int] | None:
    """Indices of the statements in a group (statements with no blank line between them)
    that is out of isort order, or not laid out as isort/ruff lay out a sorted block (the
    user did not sort it): two sections with no blank line between them, or a comment
    above a statement right below the one before it in its section (ruff sets such a
    comment a line apart); None when the block's sections are out of order."""
    keys = [order.full_key(c.node) for c in chunks]
    if [k[0] for k in keys] != sorted(k[0] for k in keys):
        return None
    out: set[int] = set()
    group: list[int] = []
    for i in range(len(chunks) + 1):
        if i == len(chunks) or (group and chunks[i].sep):
            mine = [keys[g] for g in group]
            laid = all(not chunks[g].lead for g in group[1:])
            if mine != sorted(mine) or len({k[0] for k in mine}) > 1 or not laid:
                out.update(group)
            group = []
        if i < len(chunks):
            group.append(i)
    return out


def _edited(lo: int, region: str, chunks: list[_Chunk], inside: list[Edit]) -> set[int]:
    """Indices of the old statements an edit changes (an insertion beside one does not)."""
    rs = line_starts(region)
    out: set[int] = set()
    for i, c in enumerate(chunks):
        start = lo + rs[c.node.lineno - 1]
        end = lo + (rs[c.node.end_lineno] if c.node.end_lineno < len(rs) else len(region))
        for e in inside:
            if (e.start < end and e.end > start and e.start != e.end) or start < e.start < end:
                out.add(i)
    return out


def _place(
    new_chunks,
    old_chunks,
    edited,
    indent,
    order,
    unsorted: set[int],
    combine: bool,
    may=None,
    init=None,
    free: bool = False,
    swap: bool = True,
) -> list[_Chunk] | None:
    """The untouched statements in their order, every other one at its sorted place or
    (`combine`) merged into a statement of the same module; None when one belongs to a
    section that was not sorted, or when a sorted place would run an import of the
    repository's own code before or after another one than where the edits run it: the
    order a package initialises its modules in is behaviour (a module that reads a name
    its package binds a line earlier), and sorting is only style. Unless the statement
    initialises no loud module (`init.quiet(node)`): then no module can tell when it
    ran; or (`swap`) the block's own imports initialise one order with it at either
    place; `free`: no such check (the caller compares the init orders itself)."""
    pool = [(i, c.text) for i, c in enumerate(old_chunks) if i not in edited]
    kept: list[_Chunk] = []
    moved: list[tuple[_Chunk, list[int]]] = []  # and the own imports the edits run first
    for c in new_chunks:
        match = next((i for i, t in pool if t == c.text), None)
        if match is not None:
            pool = [(i, t) for i, t in pool if i != match]
            kept.append(replace(c, old=match, sep=old_chunks[match].sep))
        else:
            moved.append((c, [k.old for k in kept if _own(k, order)]))
    if any(b.old < a.old for a, b in zip(kept, kept[1:], strict=False)):
        return None  # the edits reordered untouched statements: not ours to judge
    out = list(kept)
    done: list[_Chunk] = []  # the moved statements placed so far (the edits run them first)
    for c, first in moved:
        rank = len(first)

        def before(o: _Chunk, first=first) -> bool:
            return o.old in first or any(o is d for d in done)

        if order.section(c.node) in unsorted:
            return None  # an unsorted section: as the edits put it
        own = _own(c, order) and not free and not (init is not None and init.quiet(c.node))
        merged = _merge_into(out, c, indent, order, may) if combine else None
        if merged is not None:
            out, k = merged
            if own and rank - _own_before(out, k, order) not in (0, 1):
                return None
            continue
        key = order.full_key(c.node)
        at = next((k for k, o in enumerate(out) if order.full_key(o.node) > key), len(out))
        if _star(c.node):
            return None  # an added star import: as the edits put it
        if own:
            now = {o.old for o in out[:at] if o.old >= 0 and _own(o, order)}
            crossed = now.symmetric_difference(first)
            if any(not _loads_anyway(c.node, old_chunks[i].node) for i in crossed) and not (
                swap and init is not None and _same_either_place(out, at, c, before, order, init)
            ):
                if not (swap and init is not None):
                    return None  # sorting it would change which own module initialises first
                at = _edits_place(out, before, order)  # it stays where the edits run it
        out.insert(at, c)
        done.append(c)
    return out


def _edits_place(out: list[_Chunk], before: Callable, order) -> int:
    """Where in `out` a statement runs relative to the own imports when it comes right
    after the own statements the edits run before it (`before`; before every own import
    when none)."""
    own = [k for k, o in enumerate(out) if _own(o, order)]
    after = [k for k in own if before(out[k])]
    if after:
        return max(after) + 1
    return own[0] if own else len(out)


def _same_either_place(out: list[_Chunk], at: int, c: _Chunk, before, order, init) -> bool:
    """Whether the block's own imports initialise one order with `c` where the edits put
    it (`_edits_place`) and at `at` (what runs before it counts: a module an earlier
    statement initialised is not initialised again)."""
    own = [(k, o) for k, o in enumerate(out) if _own(o, order)]
    nodes = [o.node for _, o in own]
    sorted_at = sum(1 for k, _ in own if k < at)
    edits_at = sum(1 for k, _ in own if k < _edits_place(out, before, order))
    a = [*nodes[:edits_at], c.node, *nodes[edits_at:]]
    b = [*nodes[:sorted_at], c.node, *nodes[sorted_at:]]
    return init.same(a, b)


def _loads_anyway(a: ast.stmt, b: ast.stmt) -> bool:
    """Whether the two statements initialise the same modules in the same order whichever
    runs first: one is a plain `import P` of a package the other's module is inside
    (`import P.sub` / `from P.sub import x` runs P's `__init__` first, then P.sub)."""
    for plain, other in ((a, b), (b, a)):
        if isinstance(plain, ast.Import) and len(plain.names) == 1:
            if isinstance(other, ast.ImportFrom):
                module = "" if other.level else other.module or ""
            elif isinstance(other, ast.Import) and len(other.names) == 1:
                module = other.names[0].name
            else:
                continue
            if module.startswith(plain.names[0].name + "."):
                return True
    return False


def _own(c: _Chunk, order) -> bool:
    """Whether the statement imports the repository's own code."""
    return order.section(c.node) in (FIRST_PARTY, LOCAL)


def _own_before(out: list[_Chunk], at: int, order) -> int:
    """How many untouched imports of the repository's own code come before `at`."""
    return sum(1 for o in out[:at] if o.old >= 0 and _own(o, order))


def _combinable(chunks: list[_Chunk], order) -> bool:
    """Whether two statements import from one module as isort would combine them."""
    seen: set[tuple] = set()
    for c in chunks:
        node = c.node
        if isinstance(node, ast.ImportFrom) and not c.commented and _names(node, order):
            if (node.module, node.level) in seen:
                return True
            seen.add((node.module, node.level))
    return False


def _star(node: ast.stmt) -> bool:
    return isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)


def _names(node: ast.ImportFrom, order) -> list[ast.alias] | None:
    """The names of a from-import that isort may combine (`ImportOrder.mergeable`)."""
    return list(node.names) if order.mergeable(node) else None


def _spelled(a: ast.alias) -> str:
    return f"{a.name} as {a.asname}" if a.asname else a.name


def formatted(stmt: str, order) -> list[str]:
    """One import statement (no indentation or newline) as the project's isort writes it
    (`_formatted`): a new module's header is written so too."""
    c = _Chunk(0, (), (stmt + "\n",), ast.parse(stmt).body[0])
    return ["".join(x.lines).removesuffix("\n") for x in _formatted(c, "", order)]


def _formatted(c: _Chunk, indent: str, order) -> list[_Chunk]:
    """A one-line `from` import the edits wrote, as the project's isort writes it: its
    names sorted, one statement per name under force-single-line (per aliased name
    without combine-as-imports), wrapped one name per line past the line length."""
    node = c.node
    if not isinstance(node, ast.ImportFrom) or len(c.lines) != 1 or c.commented:
        return [c]
    if _star(node) or "(" in c.lines[0]:
        return [c]
    nl = "\r\n" if c.lines[0].endswith("\r\n") else "\n"
    head = c.lines[0].strip().split(" import ", 1)[0]
    names = sorted(node.names, key=lambda a: order.name_key(a.name, a.asname))
    if order.style.force_single_line:
        groups = [[a] for a in names]
    elif order.style.combine_as:
        groups = [names]
    else:
        plain = [a for a in names if not a.asname]
        groups = ([plain] if plain else []) + [[a] for a in names if a.asname]
    out = []
    for k, group in enumerate(groups):
        spelled = [_spelled(a) for a in group]
        stmt = _render_from(indent, head, spelled, False, nl, order.line_length)
        lines = tuple(stmt.splitlines(keepends=True))
        new_node = ast.parse(textwrap.dedent(stmt)).body[0]
        lead, sep = (c.lead, c.sep) if not k else ((), 0)
        out.append(replace(c, lead=lead, lines=lines, node=new_node, sep=sep))
    return [c] if len(out) == 1 and out[0].lines == c.lines else out


def _merge_into(out: list[_Chunk], c: _Chunk, indent: str, order, may=None) -> tuple | None:
    """`out` with `c`'s names merged into a `from` import of its module (one `may`
    allows), as isort combines them; None when there is none."""
    node = c.node
    if not isinstance(node, ast.ImportFrom) or c.commented:
        return None
    add = _names(node, order)
    if add is None:
        return None
    for k, o in enumerate(out):
        if may is not None and not may(o):
            continue
        comment = _trailing(o)
        expanded = "(" in "".join(o.lines) and len(o.lines) > 1
        if not (
            isinstance(o.node, ast.ImportFrom)
            and o.node.module == node.module
            and o.node.level == node.level
            and (not o.commented or comment or expanded)
        ):
            continue
        have = _names(o.node, order)
        if have is None or not order.names_sorted(have):
            continue
        spelled = dict.fromkeys(
            _spelled(a) for a in sorted(have + add, key=lambda a: order.name_key(a.name, a.asname))
        )
        nl = "\r\n" if o.lines[-1].endswith("\r\n") else "\n"
        head = "".join(o.lines).strip().split(" import ", 1)[0]
        if o.commented and expanded:  # its comments stay on their names: lines added
            entries = _entries_added(o, add, order, nl)
            if entries is None:
                continue
            stmt = "".join(entries)
        else:
            stmt = _render_from(indent, head, list(spelled), expanded, nl, order.line_length)
        if comment:  # ruff keeps it at the end of the one line, when that line fits
            stmt = f"{stmt.removesuffix(nl)}  {comment}{nl}"
            if "\n" in stmt.removesuffix(nl) or len(stmt.removesuffix(nl)) > order.line_length:
                continue
        new_node = ast.parse(textwrap.dedent(stmt)).body[0]
        lines = tuple(stmt.splitlines(keepends=True))
        merged = replace(o, lead=o.lead + c.lead, lines=lines, node=new_node)  # ruff: both above
        return [*out[:k], merged, *out[k + 1 :]], k
    return None


def _entries_added(o: _Chunk, add: list[ast.alias], order, nl: str) -> list[str] | None:
    """The lines of the parenthesized statement `o` (one name a line) with a line for each
    name of `add` at its sorted place, above the comment lines of the name after it;
    None when `o` is laid out otherwise."""
    lines = list(o.lines)
    node = o.node
    rows = [a.lineno - node.lineno for a in node.names]
    if len(set(rows)) != len(rows) or min(rows) < 1 or max(rows) > len(lines) - 2:
        return None
    if not lines[0].split("#", 1)[0].rstrip().endswith("(") or not (
        lines[-1].lstrip().startswith(")")
    ):
        return None
    first = lines[rows[0]]
    pad = first[: len(first) - len(first.lstrip())]
    keys = [order.name_key(a.name, a.asname) for a in node.names]
    have = {(a.name, a.asname) for a in node.names}
    inserts: list[tuple[int, str]] = []
    for a in sorted(add, key=lambda a: order.name_key(a.name, a.asname)):
        if (a.name, a.asname) in have:
            continue
        key = order.name_key(a.name, a.asname)
        j = next((i for i, k in enumerate(keys) if k > key), None)
        if j is None:
            if not lines[rows[-1]].split("#", 1)[0].rstrip().endswith(","):
                return None  # no trailing comma after the last name
            at = rows[-1] + 1
        else:
            at = rows[j]
            while at - 1 > (rows[j - 1] if j else 0) and lines[at - 1].strip().startswith("#"):
                at -= 1  # the comment lines above it stay right above it
        inserts.append((at, f"{pad}{_spelled(a)},{nl}"))
    for _, (at, line) in sorted(enumerate(inserts), key=lambda x: (x[1][0], x[0]), reverse=True):
        lines.insert(at, line)  # from the bottom; at one place, in their order
    return lines


def _trailing(c: _Chunk) -> str:
    """The comment ending a one-line statement without parentheses ("" for none)."""
    if len(c.lines) != 1 or "(" in c.lines[0] or "#" not in c.lines[0]:
        return ""
    return "#" + c.lines[0].split("#", 1)[1].rstrip("\r\n")


def _render_from(
    indent: str, head: str, names: list[str], expanded: bool, nl: str, line_length: int
) -> str:
    one = f"{indent}{head} import {', '.join(names)}"
    if not expanded and len(one) <= line_length:
        return one + nl
    items = "".join(f"{indent}    {n},{nl}" for n in names)
    return f"{indent}{head} import ({nl}{items}{indent}){nl}"


def _render(chunks: list[_Chunk], order) -> str:
    out = []
    for k, c in enumerate(chunks):
        if k == 0:
            sep = 0
        elif c.old >= 0 and chunks[k - 1].old == c.old - 1:
            sep = c.sep  # neighbours before: their blank lines stay
        else:
            same = order.section(chunks[k - 1].node) == order.section(c.node)
            sep = _between_types(chunks[k - 1], c, order) if same else 1
            if c.lead:
                sep = max(sep, 1)  # ruff sets a comment above a statement a line apart
        nl = "\r\n" if c.lines[-1].endswith("\r\n") else "\n"
        out.append(nl * sep + c.text)
    return "".join(out)


def _between_types(prev: _Chunk, c: _Chunk, order) -> int:
    """The blank lines isort/ruff put between two statements of one section: their
    `lines-between-types` where the section's `import`s end and its `from`s begin (none
    under force-sort-within-sections, where the two kinds mix)."""
    style = order.style
    if style.force_sort_within_sections:
        return 0
    kinds = isinstance(prev.node, ast.Import), isinstance(c.node, ast.ImportFrom)
    return style.lines_between_types if all(kinds) else 0


_E302 = "keeps the two blank lines before a top-level definition"
_TOP = "no blank lines left at the top of the file"


def kept_blank_lines(path: str, text: str, edits: list[Edit], tree=False) -> list[Edit]:
    """Insertions giving back the blank lines a cut or a removed import took from in
    front of a top-level `def`/`class` that the edits leave in place: the file's count
    (two at most, as pycodestyle's E302 wants), never more than it had. `tree`:
    `parsed(text)` when the caller has it."""
    tree = parsed(text) if tree is False else tree
    if tree is None:
        return []
    starts = line_starts(text)
    spans = sorted((e.start, e.end, len(e.new) - (e.end - e.start)) for e in edits)
    try:
        new = apply_edits(text, edits)
    except ValueError:
        return []
    out: list[Edit] = []
    defs = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    for prev, node in zip(tree.body, tree.body[1:], strict=False):
        if not isinstance(node, defs):
            continue
        first = min([node.lineno] + [d.lineno for d in node.decorator_list])
        while first - 1 > prev.end_lineno and text[starts[first - 2] :].lstrip(" \t")[:1] == "#":
            first -= 1  # the comment block right above belongs to it
        at = starts[first - 1]
        had = sum(1 for n in range(prev.end_lineno, first - 1) if not _line(text, starts, n))
        if any(s < at < e or (s == at and e > at) for s, e, _ in spans):
            continue  # the definition itself is edited (or cut)
        if not any(e <= at and e > starts[prev.end_lineno - 1] for s, e, _ in spans):
            continue  # nothing changed in front of it
        shift = sum(d for s, e, d in spans if e <= at and not (s == e == at))
        pos = at + shift
        have = 0
        k = pos
        while k > 0 and new[new.rfind("\n", 0, k - 1) + 1 : k].strip() == "":
            k = new.rfind("\n", 0, k - 1) + 1
            have += 1
            if k == 0:
                break
        want = min(had, 2)
        if k > 0 and have < want:
            nl = "\r\n" if "\r\n" in text else "\n"
            out.append(make_edit(path, text, at, at, nl * (want - have), "code", _E302))
    return out


def _line(text: str, starts: list[int], n: int) -> str:
    """Line `n` (0-based) stripped."""
    end = starts[n + 1] if n + 1 < len(starts) else len(text)
    return text[starts[n] : end].strip()


def leading_blank_lines(path: str, text: str, edits: list[Edit]) -> list[Edit]:
    """Deletions of the blank lines the edits leave at the top of a file that did not
    start with one (its imports and first definition moved out: review23 R12): what lay
    between the removed statements. Only blank lines no edit touches; none when an edit
    writes whitespace there itself."""
    if not text or text[:1] in "\r\n":
        return []  # it started so: not ours
    spans = [(e.start, e.end, e.new) for e in edits]
    regions: list[list[int]] = []
    pos, removed = 0, False
    while pos < len(text):
        at = [s for s in spans if s[0] == pos or s[0] < pos < s[1]]
        if any(new.strip() for _, _, new in at):
            break  # the file now starts with what an edit writes
        if any(new for _, _, new in at):
            return []  # whitespace an edit writes: its business
        end = max([pos] + [e for _, e, _ in at])
        if end > pos:
            removed, pos = True, end
            continue
        if text[pos] not in "\r\n":
            break
        if regions and regions[-1][1] == pos:
            regions[-1][1] = pos + 1
        else:
            regions.append([pos, pos + 1])
        pos += 1
    if not removed:
        return []
    return [make_edit(path, text, a, b, "", "code", _TOP) for a, b in regions]
