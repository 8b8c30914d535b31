"""No import cycle introduced among touched modules: import-time edges (module level, not
TYPE_CHECKING) at HEAD against BASE's, with BASE's module names relocated."""

from __future__ import annotations

from migrate.relocate import Relocation
from migrate.verify.codetree import CodeTree
from migrate.verify.context import VerifyContext
from migrate.verify.result import CheckResult, Finding

NAME = "no-new-cycles"


def import_graph(tree: CodeTree) -> dict[str, dict[str, int]]:
    """module -> {imported own module: line} for import-time imports."""
    return {module: _edges(tree, module) for module in tree.index.modules}


def _edges(tree: CodeTree, module: str) -> dict[str, int]:
    """{imported own module: line} of `module`'s import-time imports."""
    facts = tree.module_facts(module)
    edges: dict[str, int] = {}
    for imp in facts.imports if facts else []:
        if not imp.toplevel or not imp.module or not tree.is_own(imp.module):
            continue
        targets = [imp.module]
        targets += [
            f"{imp.module}.{n}" for n in imp.names if f"{imp.module}.{n}" in tree.index.modules
        ]
        for t in targets:
            if t in tree.index.modules and t != module:
                edges.setdefault(t, imp.line)
    return edges


def reachable_graph(tree: CodeTree, start) -> dict[str, dict[str, int]]:
    """`import_graph` restricted to the modules `start` reaches (itself included).

    The set is closed under edges, so every cycle through one of its modules lies inside
    it and `cycles` finds exactly the components the whole graph has there; only the
    modules reached are parsed (a layer at a time, on every core)."""
    graph: dict[str, dict[str, int]] = {}
    layer = sorted(m for m in dict.fromkeys(start) if m in tree.index.modules)
    while layer:
        tree.prefetch(tree.index.modules[m] for m in layer)
        nxt: dict[str, None] = {}
        for m in layer:
            graph[m] = _edges(tree, m)
            nxt.update((t, None) for t in graph[m] if t not in graph)
        layer = [m for m in nxt if m not in graph]
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[set[str]]:
    """Strongly connected components with more than one module."""
    return [c for c in components(graph) if len(c) > 1]


def components(graph) -> list[set[str]]:
    """Every strongly connected component (iterative Tarjan), each listed after the
    components it reaches."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph.get(root, ())))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(graph.get(nxt, ()))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = set()
                while True:
                    m = stack.pop()
                    on.discard(m)
                    comp.add(m)
                    if m == node:
                        break
                out.append(comp)
    return out


def _relocated(names: set[str], rels: list[Relocation]) -> set[str]:
    out = set()
    for n in names:
        for rel in rels:
            n = rel.dotted(n) or n
        out.add(n)
    return out


def _new_module_sources(ctx: VerifyContext) -> dict[str, set[str]]:
    """HEAD module -> the HEAD names of the modules whose definitions a symbol move
    carried into it, for the modules no BASE module becomes: the code they hold was
    there, so a cycle through them is their sources' cycle."""
    rels = ctx.relocations
    out: dict[str, set[str]] = {}
    for i, rel in enumerate(rels):
        for (src, _), tgt in rel.symbols.items():
            head = next(iter(_relocated({tgt}, rels[i + 1 :])))
            out.setdefault(head, set()).update(_relocated({src}, rels[i:]))
    if out and ctx.base is not None:
        for existing in _relocated(set(ctx.base.index.modules), rels) & set(out):
            del out[existing]
    return out


def _contracted(comp: set[str], sources: dict[str, set[str]]) -> set[str]:
    return set().union(*(sources.get(m, {m}) for m in comp))


def _cycle_path(graph: dict[str, dict[str, int]], comp: set[str], start: str) -> list[str]:
    """A shortest cycle through `start` inside `comp`, as `[start, ..., start]`."""
    came: dict[str, str] = {}
    layer = [start]
    while layer:
        nxt = []
        for m in layer:
            for t in sorted(graph.get(m, ())):
                if t == start:
                    path = [m]
                    while path[-1] != start:
                        path.append(came[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if t in comp and t not in came:
                    came[t] = m
                    nxt.append(t)
        layer = nxt
    raise AssertionError(f"{start} is on no cycle of {sorted(comp)}")


def check(ctx: VerifyContext) -> CheckResult:
    head_graph = import_graph(ctx.head)
    touched = {m for m, p in ctx.head.index.modules.items() if p in ctx.touched}
    candidates = [c for c in cycles(head_graph) if c & touched]
    base_cycles = []
    sources: dict[str, set[str]] = {}
    if ctx.base is not None and candidates:  # BASE's graph only when HEAD has a candidate
        sources = _new_module_sources(ctx)
        # A BASE cycle can hold a candidate only through a BASE module that becomes one
        # of its members: the graph those reach has every such cycle, whole.
        members = set().union(*(_contracted(c, sources) for c in candidates))
        start = [m for m in ctx.base.index.modules if _relocated({m}, ctx.relocations) & members]
        graph = reachable_graph(ctx.base, start)
        base_cycles = [_relocated(c, ctx.relocations) for c in cycles(graph)]
    findings = []
    for comp in candidates:
        # A new module stands for the modules its code came from; a cycle that then
        # shrinks to one module (a source and its new module) is new.
        seen = _contracted(comp, sources)
        if len(seen) > 1 and any(seen <= b for b in base_cycles):
            continue
        first = sorted(comp & touched)[0]
        cycle = _cycle_path(head_graph, comp, first)
        message = f"new import cycle: {' -> '.join(cycle)}"
        if len(comp) > len(cycle) - 1:
            message += f" (one of {len(comp)} modules importing each other)"
        line = head_graph[first][cycle[1]]
        findings.append(Finding(ctx.head.index.modules[first], line, NAME, message))
    return CheckResult.of(NAME, findings)
