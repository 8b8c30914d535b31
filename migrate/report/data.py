"""ReportData: every fact the review report shows, as plain data.

Collected once (`collect.py`), judged once (`verdict.py`), rendered twice (`markdown.py`,
`jsonout.py`): renderers never compute, so Markdown and JSON cannot disagree. A section
whose producer did not run says so in `status` instead of holding a made-up result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from migrate.findings import CheckResult, Finding

if TYPE_CHECKING:  # the inventory diff's own record (tests_split is heavy to import)
    from migrate.tests_split.inventory_diff import SuiteDiff

# Section status: what the reader may conclude from an empty list.
OK = "ok"  # the producer ran; its results are here (an empty list means "none")
NOT_RUN = "not_run"  # the producer exists but was not run and no results were given
STATUSES = (OK, NOT_RUN)


@dataclass
class Meta:
    mode: str  # "range" (an applied migration, BASE..HEAD) | "preview" (a dry run)
    plan_path: str | None = None
    plan_sha256: str | None = None
    base: str | None = None  # commit shas (range mode)
    head: str | None = None
    range_spec: str | None = None  # as given, e.g. "main..migrate"
    tool_version: str = ""


@dataclass
class Summary:
    modules_moved: int = 0
    packages_moved: int = 0
    symbols_moved: int = 0
    data_files_moved: int = 0
    submodules_moved: int = 0  # gitlinks moved with their package (not files)
    files_moved: int = 0
    files_touched: int = 0
    edits: dict[str, int] = field(default_factory=lambda: {"code": 0, "string": 0, "prose": 0})
    edits_review: int = 0
    tests_split: int = 0
    groups_added: list[str] = field(default_factory=list)


@dataclass
class MoveEdge:
    """Files moving from one legacy package to one destination (a group or package)."""

    src: str  # legacy package, dotted
    dst: str  # "ops.<group>" or the destination package, dotted
    files: int


@dataclass
class ReviewItem:
    """Something a human must look at, pinned to a file and line."""

    file: str
    line: int
    col: int
    kind: str  # code | string | prose | note
    reason: str
    old: str = ""
    new: str = ""
    applicability: str = "review"


@dataclass
class CommitInfo:
    sha: str
    subject: str
    step: str | None = None  # Migrate-Step trailer
    plan_path: str | None = None  # Migrate-Plan trailer
    plan_sha256: str | None = None
    verify: str = NOT_RUN  # PASS | FAIL | not_run
    residual_diff: str = ""


@dataclass
class VerifySection:
    status: str = NOT_RUN
    static_checks: list[CheckResult] = field(default_factory=list)
    error: str = ""  # why verify could not run, when it was asked to
    base: str = ""  # the range the result is for (checked against the report's range)
    head: str = ""


@dataclass
class RulesSection:
    status: str = NOT_RUN
    findings: list[Finding] = field(default_factory=list)


@dataclass
class LostItem:
    kind: str  # case | registration
    file: str  # where it was before
    name: str  # test id, or "register_cuda_ci(suite=...)"
    detail: str = ""


@dataclass
class InventorySection:
    status: str = NOT_RUN
    suites: list[SuiteDiff] = field(default_factory=list)
    lost: list[LostItem] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # budget drift etc.


@dataclass
class ParityOp:
    op: str
    old: str
    status: str  # identical | different | unpaired | not_called
    calls: int = 0
    identical: int = 0
    different: int = 0
    devices: list[str] = field(default_factory=list)


@dataclass
class ParitySection:
    status: str = NOT_RUN
    device: str = ""  # cpu (TRITON_INTERPRET=1) | cuda
    gpu_model: str = ""
    torch: str = ""
    triton: str = ""
    ops: list[ParityOp] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)  # parity's own, errors and warnings
    base: str = ""  # the commits the parity run compared (checked against the range)
    head: str = ""
    error: str = ""  # why parity could not run, when it was asked to


@dataclass
class Leftover:
    file: str
    line: int
    col: int
    name: str  # the stale spelling found
    text: str  # the line, stripped
    flagged: bool = False  # the engine left it for a person (a note at this line)


@dataclass
class LeftoverSection:
    status: str = NOT_RUN
    items: list[Leftover] = field(default_factory=list)
    where: str = ""  # which tree was scanned ("HEAD abc123", "the planned tree")


@dataclass
class Verdict:
    level: str  # safe | review | broken
    reasons: list[str] = field(default_factory=list)


@dataclass
class ReportData:
    meta: Meta
    summary: Summary = field(default_factory=Summary)
    moves: list[MoveEdge] = field(default_factory=list)
    moves_not_drawn: int = 0  # moved files outside the import roots (tests, docs)
    commits: list[CommitInfo] = field(default_factory=list)
    commits_status: str = NOT_RUN
    verify: VerifySection = field(default_factory=VerifySection)
    rules: RulesSection = field(default_factory=RulesSection)
    inventory: InventorySection = field(default_factory=InventorySection)
    parity: ParitySection = field(default_factory=ParitySection)
    review: list[ReviewItem] = field(default_factory=list)
    leftovers: LeftoverSection = field(default_factory=LeftoverSection)
    plan_errors: list[str] = field(default_factory=list)
