"""Where kernel tests live: `test/registered/kernels/{ops,benchmark}/<group>/`.

Numerical tests go in `ops/<group>/`, CI microbenchmarks in `benchmark/<group>/`,
unregistered benchmarks in `test/manual/kernels/`. The rules that report a misplaced test,
`suggest` that drafts where it goes and the test inventory all read this one description.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

KERNEL_TESTS = "test/registered/kernels/"
KINDS = ("ops", "benchmark")  # the two group-filed test directories
MANUAL_DIR = "test/manual/kernels"
_KERNEL_TESTS = re.compile(r"(?:^|(?<=/))test/registered/kernels/")
_SKIP = ("__init__.py", "conftest.py")


@dataclass(frozen=True)
class KernelTestPath:
    """A path below `test/registered/kernels/`, split into what the layout says about it."""

    root: str  # what precedes `test/registered/kernels/`: "" or a directory ending in "/"
    parts: tuple[str, ...]  # the path below `test/registered/kernels/`

    @property
    def base(self) -> str:
        return self.parts[-1]

    @property
    def in_group_dir(self) -> bool:
        """Filed as the layout asks: `ops/<group>/...` or `benchmark/<group>/...`."""
        return len(self.parts) >= 3 and self.parts[0] in KINDS

    @property
    def kind(self) -> str | None:
        return self.parts[0] if self.in_group_dir else None

    @property
    def group(self) -> str | None:
        return self.parts[1] if self.in_group_dir else None

    @property
    def is_package_file(self) -> bool:
        """`__init__.py` or `conftest.py`: support files, not tests to place."""
        return self.base in _SKIP


def kernel_test_path(path: str) -> KernelTestPath | None:
    """`path` split at its `test/registered/kernels/`, or None when it is not below one."""
    m = _KERNEL_TESTS.search(path)
    if m is None or m.end() == len(path):
        return None
    return KernelTestPath(path[: m.start()], tuple(path[m.end() :].split("/")))


def is_test_file(path: str) -> bool:
    """A pytest module by name: `test_*.py` or `*_test.py`."""
    base = path.rsplit("/", 1)[-1]
    return base.endswith(".py") and (base.startswith("test_") or base.endswith("_test.py"))


def is_benchmark_name(base: str) -> bool:
    """A benchmark by its file name: `bench_*.py` or one naming `benchmark`."""
    return base.startswith("bench_") or "benchmark" in base


def group_test_dir(kind: str, group: str, root: str = "") -> str:
    """The directory for tests of `kind` (`ops` or `benchmark`) of `group`."""
    return f"{root}{KERNEL_TESTS}{kind}/{group}"


def group_test_dirs(paths) -> dict[tuple[str, str], str]:
    """(kind, name) -> directory of every `test/registered/kernels/{ops,benchmark}/<name>/`."""
    out: dict[tuple[str, str], str] = {}
    for p in paths:
        if KERNEL_TESTS not in p:
            continue
        t = kernel_test_path(p)
        if t and t.in_group_dir and t.group != "__pycache__":
            out.setdefault((t.parts[0], t.parts[1]), group_test_dir(t.parts[0], t.parts[1], t.root))
    return out
