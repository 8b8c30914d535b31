"""What `from m import *` binds: the one rule the rewriter (a moved name a star import
gave), the plan's shadowing check and the import-cycle simulation share.

A star import binds the names `m`'s literal `__all__` lists; without one (or with one
that cannot be read statically), every public name `m` binds, the names its own star
imports bind included. `StarExports` follows those star imports through the tree's own
modules and remembers each module's answer, so a diamond (`top` star-imports `a` and
`b`, each star-importing `base`) reads `base` once and still gives `top` every name
either path brings: one `seen` set shared by the whole walk returned nothing for a
module met the second time, and the names only that path gave were lost.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from migrate.index.facts import CodeFacts


def star_names(bound: Iterable[str], all_names: Iterable[str] | None) -> set[str]:
    """The names `from m import *` binds, of the names `bound` in `m`: `__all__`
    (`all_names`, None when `m` has no literal one) when there is one, else the public
    names."""
    if all_names is not None:
        return set(all_names)
    return {n for n in bound if not n.startswith("_")}


def star_gives(facts: CodeFacts | None, name: str) -> bool:
    """Whether `from m import *` binds `name` once `m` (its facts `facts`) binds it."""
    return name in star_names((name,), facts.all_names if facts is not None else None)


class StarExports:
    """name -> the module that binds it, for `from module import *`, memoized per module.
    `facts_of(module)`: the module's code facts (None: not one of the tree's modules, so
    its names are unknown and none is counted). A cycle of star imports gives, at the
    module that closes it, what the modules already complete give (the rest is not
    bound yet when Python runs it either)."""

    def __init__(self, facts_of: Callable[[str], CodeFacts | None]):
        self._facts_of = facts_of
        self._memo: dict[str, dict[str, str]] = {}
        self._running: set[str] = set()
        self._known: dict[str, bool] = {}

    def known(self, module: str) -> bool:
        """Whether `self(module)` is every name `from module import *` can bind (review23
        R7: only then may a name no star gives be left unimported): a literal `__all__`
        says it all; without one, the module and every module its stars reach are the
        tree's own, with no star of an unresolvable module, no `__getattr__` and no
        `globals()` writes."""
        if module not in self._known:
            seen, todo, ok = {module}, [module], True
            while todo and ok:
                facts = self._facts_of(todo.pop())
                if facts is not None and facts.all_names is not None:
                    continue
                ok = facts is not None and not (
                    facts.star_unresolved or facts.getattr_hook or facts.writes_globals
                )
                for star in facts.star_imports if ok else ():
                    if star not in seen:
                        seen.add(star)
                        todo.append(star)
            self._known[module] = ok
        return self._known[module]

    @classmethod
    def of_index(cls, index) -> StarExports:
        """The tree's modules (`index`: a RepoIndex), read through their code facts."""
        return cls(lambda m: index.facts(index.modules[m]) if m in index.modules else None)

    def __call__(self, module: str) -> dict[str, str]:
        if module in self._memo:
            return self._memo[module]
        if module in self._running:
            return {}
        self._running.add(module)
        try:
            facts = self._facts_of(module)
            out: dict[str, str] = {}
            if facts is not None:
                names = dict.fromkeys(facts.bindings, module)
                for star in facts.star_imports:
                    for name, giver in self(star).items():
                        names.setdefault(name, giver)
                given = star_names(names, facts.all_names)
                out = {n: names.get(n, module) for n in sorted(given)}
        finally:
            self._running.discard(module)
        self._memo[module] = out
        return out
