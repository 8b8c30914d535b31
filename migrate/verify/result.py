"""Verify results as data: per-commit reproduction and static checks, each with findings.

`VerifyResult.to_dict()` is the `--json` output and what the report reads.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from migrate.findings import COULD_NOT_RUN as NOT_RUN
from migrate.findings import EXIT_CODES as EXIT
from migrate.findings import FAIL, PASS, SKIP, CheckResult, Finding, overall

__all__ = [
    "BROKEN_AT_BASE",
    "EXIT",
    "FAIL",
    "NOT_RUN",
    "PASS",
    "SKIP",
    "SO_AT_BASE",
    "CheckResult",
    "CommitCheck",
    "Finding",
    "against_base",
]


BROKEN_AT_BASE, SO_AT_BASE = "already broken at BASE", "already so at BASE"


def against_base(
    path: str,
    line: int,
    check: str,
    message: str,
    at_base: bool,
    fix: str = "",
    note=BROKEN_AT_BASE,
) -> Finding:
    """A problem verify found at HEAD: an error the migration made, or a warning saying
    `note` where BASE had the same problem (mapped through the plan) already."""
    if at_base:
        return Finding(path, line, check, f"{message} ({note})", fix, severity="warning")
    return Finding(path, line, check, message, fix)


@dataclass
class CommitCheck:
    """One `Migrate-Step` commit reproduced from its parent."""

    sha: str
    step: str
    plan: str
    status: str  # PASS | FAIL
    residual_diff: str = ""  # what the commit holds beyond the reproduction
    message: str = ""


@dataclass
class VerifyResult:
    base: str
    head: str
    commits: list[CommitCheck] = field(default_factory=list)
    static_checks: list[CheckResult] = field(default_factory=list)

    @property
    def status(self) -> str:
        """FAIL when anything failed; else COULD-NOT-RUN when a check could not run."""
        return overall([c.status for c in self.commits] + [c.status for c in self.static_checks])

    @property
    def ok(self) -> bool:
        return self.status == PASS

    @property
    def exit_code(self) -> int:
        return EXIT[self.status]

    def to_dict(self) -> dict:
        d = asdict(self)
        d["status"] = self.status
        return d
