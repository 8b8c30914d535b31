"""The typed plan: what a migration does, with the YAML position of every value."""

from __future__ import annotations

from dataclasses import dataclass

from migrate.errors import Pos


class PlanName(str):
    """A name the plan lists (a root, a group, a deleted package) that keeps the position
    it was written at, so the position travels with the name through composition and
    de-duplication instead of in a parallel tuple that can fall out of step with it.
    Compares, hashes and prints as the plain string."""

    pos: Pos | None = None  # None: not written in the plan (the default root ".")

    def __new__(cls, value: str, pos: Pos | None = None) -> PlanName:
        name = super().__new__(cls, value)
        name.pos = pos
        return name


@dataclass(frozen=True)
class Move:
    """One `moves:` entry: a module or package (dotted), a symbol (`module:name`) or a
    path (`from` contains `/`); which of module and package is decided by the index."""

    src: str
    dst: str
    pos: Pos
    src_pos: Pos
    dst_pos: Pos

    @property
    def is_path(self) -> bool:
        return "/" in self.src

    @property
    def is_symbol(self) -> bool:
        return ":" in self.src


@dataclass(frozen=True)
class OpIdRename:
    src: str
    dst: str
    pos: Pos


@dataclass(frozen=True)
class SplitOutput:
    path: str
    take: tuple[str, ...]
    pos: Pos

    @property
    def takes_rest(self) -> bool:
        return "rest" in self.take


@dataclass(frozen=True)
class Split:
    file: str
    into: tuple[SplitOutput, ...]
    pos: Pos


@dataclass(frozen=True)
class Plan:
    path: str
    sha256: str
    version: int
    roots: tuple[PlanName, ...] = (PlanName("."),)
    moves: tuple[Move, ...] = ()
    op_ids: tuple[OpIdRename, ...] = ()
    splits: tuple[Split, ...] = ()
    groups_add: tuple[PlanName, ...] = ()
    groups_remove: tuple[PlanName, ...] = ()
    delete: tuple[PlanName, ...] = ()
    keep_prose: tuple[str, ...] = ()
    # (path glob, codec): how to read text files that are not UTF-8 and have no cookie
    encodings: tuple[tuple[str, str], ...] = ()
