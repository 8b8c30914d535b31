"""Which own modules importing a module runs: the import-time graph (`no-new-cycles`'
`import_graph`, module level, not `TYPE_CHECKING`) plus the parent package every import
runs first, and its closure as one bit set per module (one pass over the strongly
connected components). import-reach judges what a package no longer runs with it;
attributes-resolve judges a chain through a submodule that nothing imports any more."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from migrate.verify.checks.cycles import components, import_graph
from migrate.verify.codetree import CodeTree


def run_graph(
    tree: CodeTree, keeps_parent: Callable[[str], bool] | None = None
) -> dict[str, set[str]]:
    """module -> the own modules importing it runs first (its imports and its parent
    package; the parent only where `keeps_parent(module)` when that is given)."""
    modules = tree.index.modules
    out = {}
    for module, edges in import_graph(tree).items():
        targets = set(edges)
        parent = module.rpartition(".")[0]
        if parent in modules and (keeps_parent is None or keeps_parent(module)):
            targets.add(parent)
        out[module] = targets
    return out


def closure(graph: dict[str, set[str]], seed: dict[str, int]) -> dict[str, int]:
    """module -> OR of `seed` over every module it reaches (itself included): one pass
    over the components, each after those it reaches (Tarjan's order)."""
    out: dict[str, int] = {}
    for comp in components(graph):
        bits = 0
        for m in comp:
            bits |= seed.get(m, 0)
            for t in graph[m]:
                if t not in comp:
                    bits |= out[t]
        for m in comp:
            out[m] = bits
    return out


@dataclass(frozen=True)
class Runs:
    """The closure of a tree's run graph: `bit[m]` one bit per module, `reach[m]` the bits
    of every module importing `m` runs."""

    bit: dict[str, int]
    reach: dict[str, int]

    @classmethod
    def of(cls, tree: CodeTree) -> Runs:
        graph = run_graph(tree)
        bit = {m: 1 << i for i, m in enumerate(graph)}
        return cls(bit, closure(graph, bit))

    def any_runs(self, importers: Iterable[str], module: str) -> bool:
        """Whether importing one of `importers` runs `module`."""
        bit = self.bit.get(module, 0)
        return any(self.reach.get(m, 0) & bit for m in importers)
