"""The repository index: the shared model of files and modules every later stage reads."""

from migrate.index.repo import FileInfo, RepoIndex, build_index

__all__ = ["FileInfo", "RepoIndex", "build_index"]
