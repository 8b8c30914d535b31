"""One read-only libcst pass that gathers every site a reference form may edit.

Each form module reads these facts and returns span edits; none walks the tree again.
Spans are character offsets into the decoded text (libcst columns are characters).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections import Counter
from dataclasses import dataclass, field

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from migrate.index.forward_refs import value_offset
from migrate.rewrite.spans import line_starts
from migrate.rewrite.sparse import file_facts, sparse_text

PARSE_COUNT = Counter()  # path -> times parsed; tests prove untouched files are never parsed


def dotted_of(node: cst.CSTNode) -> str | None:
    """`a.b.c` for a pure Name/Attribute chain, else None."""
    parts = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if not isinstance(node, cst.Name):
        return None
    parts.append(node.value)
    return ".".join(reversed(parts))


@dataclass
class Chain:
    """A maximal dotted chain `a.b.c.d`; `ends[i]` is where part i+1 ends. `quoted`: it
    is inside a string annotation (a forward reference, `x: "mod.Cls"`)."""

    dotted: str
    start: int
    ends: list[int]
    quoted: bool = False


@dataclass
class StringSite:
    node: cst.BaseExpression
    start: int
    end: int
    call: str | None = None  # dotted callee when the string is a call argument
    keyword: str | None = None
    arg_index: int | None = None
    docstring: bool = False
    first_arg: str | None = None  # dotted first argument of the call (`patch.object(m, "x")`)


@dataclass
class ImportSite:
    node: cst.Import | cst.ImportFrom
    start: int  # the statement line (SimpleStatementLine) start, for insertions
    end: int
    stmt_start: int
    stmt_end: int
    indent: str


@dataclass
class Facts:
    text: str
    imports: list[ImportSite] = field(default_factory=list)
    chains: list[Chain] = field(default_factory=list)
    strings: list[StringSite] = field(default_factory=list)
    comments: list[tuple[int, int, str]] = field(default_factory=list)
    name_counts: Counter = field(default_factory=Counter)  # Name uses outside imports
    defined: set[str] = field(default_factory=set)  # names bound other than by import
    spans: dict[int, tuple[int, int]] = field(default_factory=dict)  # id(node) -> span
    all_chains: list[str] = field(default_factory=list)  # every dotted chain of the file
    fors: list[tuple[cst.For | cst.CompFor, int, int]] = field(default_factory=list)
    assigns: dict[str, cst.BaseExpression] = field(default_factory=dict)  # `NAME = <expr>`

    def span(self, node: cst.CSTNode) -> tuple[int, int]:
        return self.spans[id(node)]


class _Gather(cst.CSTVisitor):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, facts: Facts, lines: list[int] | None = None):
        super().__init__()
        self.f = facts
        starts = line_starts(facts.text)
        if lines is not None:  # source line i + 1 is real line lines[i] (sparse.py)
            after = lines[-1] if lines else 0  # past the last line: the next real one
            starts = [starts[n - 1] for n in lines] + [starts[min(after, len(starts) - 1)]]
        self.starts = starts
        self.arg_ctx: dict[int, tuple] = {}
        self.docstrings: set[int] = set()
        self.stmt_stack: list[cst.SimpleStatementLine] = []
        self.indent = [""]
        self.annotations = 0  # depth of `cst.Annotation` nodes around the visit

    def off(self, node) -> tuple[int, int]:
        r = self.get_metadata(PositionProvider, node)
        return (
            self.starts[r.start.line - 1] + r.start.column,
            self.starts[r.end.line - 1] + r.end.column,
        )

    def remember(self, node) -> tuple[int, int]:
        s = self.off(node)
        self.f.spans[id(node)] = s
        return s

    # -- structure -----------------------------------------------------------
    def _docstring(self, body) -> None:
        stmts = body.body if isinstance(body, cst.IndentedBlock) else body
        if not isinstance(stmts, (list, tuple)) or not stmts:
            return
        first = stmts[0]
        if isinstance(first, cst.SimpleStatementLine) and first.body:
            expr = first.body[0]
            if isinstance(expr, cst.Expr) and isinstance(
                expr.value, (cst.SimpleString, cst.ConcatenatedString)
            ):
                self.docstrings.add(id(expr.value))

    def visit_Module(self, node: cst.Module) -> None:
        self._docstring(node.body)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._docstring(node.body)
        self.f.defined.add(node.name.value)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._docstring(node.body)
        self.f.defined.add(node.name.value)

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        ind = node.indent if node.indent is not None else "    "
        self.indent.append(self.indent[-1] + ind)

    def leave_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self.indent.pop()

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self.stmt_stack.append(node)

    def leave_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self.stmt_stack.pop()

    # -- imports -------------------------------------------------------------
    def _import(self, node) -> bool:
        s, e = self.remember(node)
        line = self.stmt_stack[-1] if self.stmt_stack else node
        ls, le = self.off(line)
        self.f.imports.append(ImportSite(node, s, e, ls, le, self.indent[-1]))
        for alias in node.names if not isinstance(node.names, cst.ImportStar) else ():
            self.remember(alias)
            self.remember(alias.name)
            if alias.asname is not None:
                self.remember(alias.asname.name)
        if isinstance(node, cst.ImportFrom) and node.module is not None:
            self.remember(node.module)
        if isinstance(node, cst.ImportFrom) and node.relative:
            self.remember(node.relative[0])
        return False

    def visit_Import(self, node: cst.Import) -> bool:
        return self._import(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return self._import(node)

    # -- names and chains ----------------------------------------------------
    def visit_Attribute(self, node: cst.Attribute) -> bool:
        dotted = dotted_of(node)
        if dotted is None:
            return True
        ends = []
        n = node
        while isinstance(n, cst.Attribute):
            ends.append(self.off(n)[1])
            n = n.value
        start, first_end = self.off(n)
        ends.append(first_end)
        self.f.chains.append(Chain(dotted, start, list(reversed(ends))))
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self.f.name_counts[node.value] += 1

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        if isinstance(node.target, cst.Name):
            self.f.defined.add(node.target.value)

    def visit_Param(self, node: cst.Param) -> None:
        self.f.defined.add(node.name.value)

    def visit_AsName(self, node: cst.AsName) -> None:
        if isinstance(node.name, cst.Name):
            self.f.defined.add(node.name.value)

    def visit_For(self, node: cst.For) -> None:
        if isinstance(node.target, cst.Name):
            self.f.defined.add(node.target.value)
        s, e = self.off(node)
        self.f.fors.append((node, s, e))

    def _comprehension(self, node) -> None:
        """`[f"x.{m}" for m in TABLE]`: the loop covers the whole comprehension."""
        s, e = self.off(node)
        self.f.fors.append((node.for_in, s, e))

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comprehension

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            self.f.assigns[node.targets[0].target.value] = node.value

    # -- strings -------------------------------------------------------------
    def visit_Call(self, node: cst.Call) -> None:
        callee = dotted_of(node.func)
        first = dotted_of(node.args[0].value) if node.args else None
        pos = 0
        for arg in node.args:
            kw = arg.keyword.value if arg.keyword is not None else None
            self.arg_ctx[id(arg.value)] = (callee, kw, pos if kw is None else -1, first)
            if kw is None:
                pos += 1

    def _string(self, node) -> None:
        s, e = self.off(node)
        callee, kw, idx, first = self.arg_ctx.get(id(node), (None, None, None, None))
        doc = id(node) in self.docstrings
        self.f.strings.append(StringSite(node, s, e, callee, kw, idx, doc, first))
        _remember_pieces(self, node)

    def visit_Annotation(self, node: cst.Annotation) -> None:
        self.annotations += 1

    def leave_Annotation(self, node: cst.Annotation) -> None:
        self.annotations -= 1

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        self._string(node)
        if self.annotations:
            self._quoted_chains(node)

    def _quoted_chains(self, node: cst.SimpleString) -> None:
        """The dotted chains of a forward reference whose text is its value
        (`forward_refs.value_offset`, ASCII: an offset in it is an offset in the file)."""
        inner = node.evaluated_value
        head = value_offset(node.value, inner) if isinstance(inner, str) else None
        if head is None or not inner.isascii():
            return
        at = self.off(node)[0] + head
        for dotted, start, ends in quoted_chains(inner):
            self.f.chains.append(Chain(dotted, at + start, [at + e for e in ends], True))

    def visit_ConcatenatedString(self, node: cst.ConcatenatedString) -> bool:
        self._string(node)
        return False

    def visit_FormattedString(self, node: cst.FormattedString) -> bool:
        self._string(node)
        return True

    def visit_Comment(self, node: cst.Comment) -> None:
        s, e = self.off(node)
        self.f.comments.append((s, e, node.value))


def quoted_chains(source: str) -> list[tuple[str, int, list[int]]]:
    """(dotted, start, ends) of each maximal Name/Attribute chain of the expression
    `source` (a forward reference); offsets into `source` (ASCII); [] if it is none."""
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except (SyntaxError, ValueError):
        return []
    lead = len(source) - len(source.lstrip())
    inner = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or id(node) in inner:
            continue
        ends, n = [], node
        while isinstance(n, ast.Attribute):
            ends.append(lead + n.end_col_offset)
            n = n.value
        if not isinstance(n, ast.Name) or node.lineno != 1 or node.end_lineno != 1:
            continue
        ends.append(lead + n.end_col_offset)
        out.append((dotted_of_ast(node), lead + n.col_offset, list(reversed(ends))))
    return out


def dotted_of_ast(node: ast.AST) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    parts.append(node.id)
    return ".".join(reversed(parts))


def parse(path: str, text: str) -> cst.Module:
    """The only libcst parse of the engine (counted; raises ParserSyntaxError)."""
    PARSE_COUNT[path] += 1
    return cst.parse_module(text)


_UNPARSED = object()


def gather(
    path: str, text: str, hot: re.Pattern | None = None, tree=_UNPARSED
) -> tuple[cst.Module, Facts]:
    """Parse and gather. With `hot`, only top-level statements that can need an edit are
    given to libcst (see sparse.py); file-wide name facts then come from `ast`.
    `tree`: the text's `ast` when the caller parsed it already (None: it does not parse)."""
    if hot is None:
        tree = None
    elif tree is _UNPARSED:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            tree = None  # libcst reports it with its own message
    whole = file_facts(tree) if tree is not None else None
    sparse = sparse_text(text, tree, hot, whole) if tree is not None else None
    source, lines = (text, None) if sparse is None else (sparse.source, sparse.lines)
    try:
        module = parse(path, source)
    except cst.ParserSyntaxError:
        if lines is None:
            raise
        source, lines = sparse.blanked, None  # errors are told at their real lines
        module = parse(path, source)
    facts = Facts(text)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    _resolve_positions(wrapper)
    gatherer = _Gather(facts, lines)
    wrapper.visit(gatherer)
    if any(text[s:e] != v for s, e, v in facts.comments):
        facts.comments = _real_comments(text, lines, facts.comments)
    if whole is not None:
        facts.defined |= whole.defined
        facts.name_counts = whole.name_counts
        facts.all_chains = whole.chains
    else:
        facts.all_chains = [c.dotted for c in facts.chains if not c.quoted]
    return module, facts


def _resolve_positions(wrapper: MetadataWrapper) -> None:
    """Resolve `PositionProvider` on `wrapper` the way libcst's resolver does (the same
    `_gen`, so the same positions), without the resolver's batched visit: it runs one
    for the batchable providers of each round even when there are none, a whole extra
    traversal of the tree (~10% of a worker's parse time on SGLang). Only where the
    wrapper is the one this was written against (libcst 1.x: a `_metadata` dict, still
    empty); otherwise `wrapper.visit` resolves it as before."""
    metadata = getattr(wrapper, "_metadata", None)
    gen = getattr(PositionProvider, "_gen", None)
    if (
        isinstance(metadata, dict)
        and not metadata
        and callable(gen)
        and not PositionProvider.gen_cache
    ):
        metadata[PositionProvider] = PositionProvider()._gen(wrapper)


def _real_comments(text: str, lines: list[int] | None, seen: list[tuple[int, int, str]]):
    """Comment spans from the tokenizer, for when libcst placed one wrongly (it can put
    a comment that follows whitespace-only lines in a module's footer lines off). libcst
    sees the comments of the lines it was given, in order; so does this. When the two
    lists disagree, only the comments libcst placed right are kept: a prose edit must
    never land on bytes that are not its comment."""
    exact = [c for c in seen if text[c[0] : c[1]] == c[2]]
    kept = set(lines) if lines is not None else None
    starts = line_starts(text)
    try:
        tokens = tokenize.generate_tokens(io.StringIO(text).readline)
        found = [
            (starts[t.start[0] - 1] + t.start[1], t.string)
            for t in tokens
            if t.type == tokenize.COMMENT and (kept is None or t.start[0] in kept)
        ]
    except (tokenize.TokenError, SyntaxError, IndexError):
        return exact
    if [v for _, v in found] != [c[2] for c in seen]:
        return exact
    return [(s, s + len(v), v) for s, v in found]


def _remember_pieces(g: _Gather, node) -> None:
    """Pieces of concatenated strings need spans too (strings.py maps values to source)."""
    if isinstance(node, cst.ConcatenatedString):
        _remember_pieces(g, node.left)
        _remember_pieces(g, node.right)
    elif isinstance(node, cst.FormattedString):
        g.remember(node)
        for part in node.parts:
            if isinstance(part, cst.FormattedStringText):
                g.remember(part)
    else:
        g.remember(node)
