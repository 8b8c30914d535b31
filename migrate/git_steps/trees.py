"""Build each step's tree from the base tree and a ChangeSet: a pure function.

`apply` commits these trees and `verify` recomputes them, so both agree by construction.
A tree here is a mapping path -> (git mode, bytes); it may be restricted to the paths the
ChangeSet touches (`needed_paths`), and the result is then restricted the same way.
"""

from __future__ import annotations

from collections.abc import Mapping

from migrate.changes import EDIT_KINDS, STEPS, ChangeSet, apply_edits
from migrate.index.repo import detect_encoding

Files = dict[str, tuple[int, bytes]]
REGULAR, SYMLINK = 0o100644, 0o120000


class StepError(ValueError):
    """The ChangeSet does not fit the tree (stale edit, missing file, collision)."""


def encoding_of(path: str, data: bytes) -> str:
    """The codec a file's text was decoded with: PEP 263/BOM for Python, utf-8 otherwise."""
    return detect_encoding(data) if path.endswith(".py") else "utf-8"


def decode(path: str, data: bytes) -> str:
    try:
        return data.decode(encoding_of(path, data))
    except (UnicodeDecodeError, LookupError) as exc:
        raise StepError(f"{path}: cannot decode for editing ({exc})") from None


def encode(path: str, text: str, like: bytes | None) -> bytes:
    """Encode with the codec of the file's original bytes (`like`), else its own cookie."""
    enc = encoding_of(path, like) if like is not None else _cookie_encoding(path, text)
    try:
        return text.encode(enc)
    except (UnicodeEncodeError, LookupError) as exc:
        raise StepError(f"{path}: new text does not fit its encoding {enc} ({exc})") from None


def _cookie_encoding(path: str, text: str) -> str:
    head = "\n".join(text.splitlines()[:2]).encode("utf-8", "replace")
    return encoding_of(path, head)


def move_map(cs: ChangeSet) -> dict[str, str]:
    return {m.old: m.new for m in cs.moves}


def needed_paths(cs: ChangeSet) -> set[str]:
    """Base paths whose content `step_trees` reads or whose presence it checks."""
    moves = move_map(cs)
    back = {new: old for old, new in moves.items()}
    paths = set(moves) | set(moves.values())
    for p in {e.path for e in cs.edits} | set(cs.writes) | set(cs.removals):
        paths.add(p)
        paths.add(back.get(p, p))
    return paths


def relocate(files: Mapping[str, tuple[int, bytes]], moves: dict[str, str]) -> Files:
    """Rename files, content and mode untouched; refuse to overwrite a file that stays."""
    out = {p: v for p, v in files.items() if p not in moves}
    for old, new in sorted(moves.items()):
        if old not in files:
            raise StepError(f"move source {old} is not in the tree")
        if new in out:
            raise StepError(f"move {old} -> {new} would overwrite {new}")
        out[new] = files[old]
    return out


def _remove(files: Files, path: str, moves: dict[str, str]) -> None:
    target = path if path in files else moves.get(path, path)
    if target in files:
        del files[target]
        return
    under = [p for p in files if p.startswith(target.rstrip("/") + "/")]
    if not under:
        raise StepError(f"cannot remove {path}: not in the tree")
    for p in under:
        del files[p]


def step_trees(
    base_files: Mapping[str, tuple[int, bytes]], cs: ChangeSet
) -> list[tuple[str, Files]]:
    """[(step, tree)] for every non-empty step, in `STEPS` order; each tree is cumulative.

    Span edits carry offsets into the relocated base text, so a file's text at a step is
    the base text with every edit of that step and the earlier steps applied at once.
    """
    moves = move_map(cs)
    relocated = relocate(base_files, moves)
    present = cs.steps_present()
    files: Files = dict(base_files)
    written_at: dict[str, int] = {}
    out: list[tuple[str, Files]] = []
    for i, step in enumerate(STEPS):
        if step not in present:
            continue
        files = relocate(files, moves) if step == "relocate" else dict(files)
        if step in EDIT_KINDS:
            kinds = tuple(k for k in EDIT_KINDS if STEPS.index(k) <= i)
            for path in sorted({e.path for e in cs.edits if e.kind == step}):
                if path in written_at:
                    raise StepError(f"{path}: {step} edits after a whole-file write")
                if path not in relocated:
                    raise StepError(f"{path}: edited but not in the tree")
                mode, data = relocated[path]
                if mode == SYMLINK:
                    raise StepError(f"{path}: edits to a symlink")
                try:
                    text = apply_edits(decode(path, data), cs.edits_for(path, kinds))
                except ValueError as exc:
                    raise StepError(str(exc)) from None
                files[path] = (files.get(path, (mode, b""))[0], encode(path, text, data))
        for path, (wstep, text) in sorted(cs.writes.items()):
            if wstep == step:
                old = files.get(path)
                like = old[1] if old and old[0] != SYMLINK else None
                files[path] = (old[0] if old else REGULAR, encode(path, text, like))
                written_at[path] = i
        for path, rstep in sorted(cs.removals.items()):
            if rstep == step:
                _remove(files, path, moves)
        out.append((step, files))
    return out


def step_sources(cs: ChangeSet, step: str) -> dict[str, str]:
    """new path -> path in the previous step's tree, for paths a step renames."""
    return move_map(cs) if step == "relocate" else {}
