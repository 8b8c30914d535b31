"""The typed plan: what a migration does, with the YAML position of every value."""

from __future__ import annotations

from dataclasses import dataclass

from migrate.errors import Pos


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
    roots: tuple[str, ...] = (".",)
    roots_pos: tuple[Pos, ...] = ()  # one per root given; none for the default (".",)
    moves: tuple[Move, ...] = ()
    op_ids: tuple[OpIdRename, ...] = ()
    splits: tuple[Split, ...] = ()
    groups_add: tuple[str, ...] = ()
    groups_add_pos: tuple[Pos, ...] = ()
    groups_remove: tuple[str, ...] = ()
    groups_remove_pos: tuple[Pos, ...] = ()
    delete: tuple[str, ...] = ()
    delete_pos: tuple[Pos, ...] = ()
    keep_prose: tuple[str, ...] = ()
    # (path glob, codec): how to read text files that are not UTF-8 and have no cookie
    encodings: tuple[tuple[str, str], ...] = ()
