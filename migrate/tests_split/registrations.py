"""CI registrations (`register_<backend>_ci(...)`) read the way SGLang's CI reads them.

CI finds them by parsing, not running, the file: only top-level calls of a bare name
with literal arguments count, so this module uses `ast` and mirrors those rules.
"""

from __future__ import annotations

import ast
from dataclasses import asdict, dataclass, field

from migrate.index.facts import registration_call

# Positional order of the real signature:
# (est_time, suite=None, nightly=False, disabled=None, *, stage=None, runner_config=None,
#  in_process_group=None)
POSITIONAL = ("est_time", "suite", "nightly", "disabled")
KEYWORDS = POSITIONAL + ("stage", "runner_config", "in_process_group")
COMMENT_WINDOW = 3


@dataclass(frozen=True)
class Registration:
    backend: str  # cuda | amd | cpu | npu | ...
    est_time: int | float | None
    suite: str | None = None
    stage: str | None = None
    runner_config: str | None = None
    nightly: bool = False
    disabled: str | None = None
    in_process_group: object = None
    comments: tuple[str, ...] = ()  # comment lines within 3 lines above the call
    line: int = 0
    end_line: int = 0
    problems: tuple[str, ...] = field(default=(), compare=False)

    @property
    def effective_suite(self) -> str | None:
        if self.stage and self.runner_config:
            return f"{self.stage}-test-{self.runner_config}"
        return self.suite

    @property
    def key(self) -> tuple:
        """What must survive a move or split unchanged (everything but the budget)."""
        return (
            self.backend,
            self.effective_suite,
            self.nightly,
            self.disabled,
            self.in_process_group,
            self.comments,
        )

    @property
    def budget_key(self) -> tuple:
        """The bucket whose est_time total a split or move must conserve."""
        return (self.backend, self.effective_suite, self.nightly)

    def to_json(self) -> dict:
        d = asdict(self)
        d["comments"] = list(self.comments)
        d["problems"] = list(self.problems)
        d["effective_suite"] = self.effective_suite
        return d


def _comments_above(lines: list[str], line: int) -> tuple[str, ...]:
    """Comment lines among the `COMMENT_WINDOW` lines above 1-based `line`."""
    start = max(0, line - 1 - COMMENT_WINDOW)
    return tuple(s.strip() for s in lines[start : line - 1] if s.strip().startswith("#"))


def _literal(node: ast.expr) -> tuple[object, bool]:
    try:
        return ast.literal_eval(node), True
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None, False


def registration_from_call(backend: str, call: ast.Call, lines: list[str]) -> Registration:
    values: dict[str, object] = {}
    problems: list[str] = []
    for name, arg in zip(POSITIONAL, call.args, strict=False):
        values[name] = arg
    if len(call.args) > len(POSITIONAL):
        problems.append("too many positional arguments")
    for kw in call.keywords:
        if kw.arg is None:
            problems.append("**kwargs is not allowed")
        elif kw.arg not in KEYWORDS:
            problems.append(f"unknown argument {kw.arg!r}")
        else:
            values[kw.arg] = kw.value
    lit: dict[str, object] = {}
    for name, node in values.items():
        value, ok = _literal(node)
        if not ok:
            problems.append(f"{name} is not a literal")
        lit[name] = value
    est = lit.get("est_time")
    if "est_time" not in values:
        problems.append("est_time is missing")
    elif not isinstance(est, (int, float)) or isinstance(est, bool):
        if "est_time is not a literal" not in problems:
            problems.append("est_time is not a number")
        est = None
    reg = Registration(
        backend=backend,
        est_time=est,
        suite=lit.get("suite"),
        stage=lit.get("stage"),
        runner_config=lit.get("runner_config"),
        nightly=bool(lit.get("nightly", False)),
        disabled=lit.get("disabled"),
        in_process_group=lit.get("in_process_group"),
        comments=_comments_above(lines, call.lineno),
        line=call.lineno,
        end_line=call.end_lineno or call.lineno,
        problems=tuple(problems),
    )
    if reg.effective_suite is None:
        problems.append("no suite: give suite= or both stage= and runner_config=")
        reg = Registration(**{**reg.__dict__, "problems": tuple(problems)})
    return reg


def registrations_in(tree: ast.Module, text: str) -> list[Registration]:
    lines = text.splitlines()
    out = []
    for stmt in tree.body:
        hit = registration_call(stmt)
        if hit:
            out.append(registration_from_call(hit[0], hit[1], lines))
    return out


def parse_registrations(text: str, path: str = "<string>") -> list[Registration]:
    """Every CI registration of a file, in source order (SyntaxError propagates)."""
    return registrations_in(ast.parse(text, filename=path), text)
