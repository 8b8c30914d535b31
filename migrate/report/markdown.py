"""The report as GitHub-flavoured Markdown, for a PR comment: verdict first, then evidence.

Pure formatting of `ReportData`: every number and judgement comes from the data or from
`verdict()`. Long lists fold into `<details markdown="1">` blocks (GitHub ignores the
attribute; Python-Markdown's `md_in_html` needs it to render the tables inside).
"""

from __future__ import annotations

from migrate.findings import COULD_NOT_RUN, FAIL, PASS, SKIP
from migrate.report.data import OK, ReportData
from migrate.report.mermaid import graph
from migrate.report.verdict import TITLES, verdict

ICONS = {"safe": "🟢", "review": "🟡", "unchecked": "⚪", "broken": "🔴"}
FOLD_OVER = 5  # lists longer than this fold into <details>
MAX_ROWS = 200  # rows shown per list; the JSON carries them all
NOT_RUN_TEXT = {"not_run": "not run"}


def cell(text) -> str:
    """A table cell: pipes escaped, newlines flattened, code kept as code."""
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def code(text) -> str:
    text = str(text).replace("\n", " ")
    tick = "``" if "`" in text else "`"
    pad = " " if tick == "``" else ""
    return f"{tick}{pad}{text}{pad}{tick}" if text else ""


def where(file: str, line: int, link_base: str | None) -> str:
    """`file:line`, linked to the blob on the forge when `link_base` is known."""
    label = f"{file}:{line}" if line else file
    if not link_base:
        return code(label)
    anchor = f"#L{line}" if line else ""
    return f"[{code(label)}]({link_base.rstrip('/')}/{file}{anchor})"


def fold(summary: str, body: list[str], n: int) -> list[str]:
    """`body` as is when short, else inside a collapsed <details> block."""
    if n <= FOLD_OVER:
        return [*body, ""]
    return [f'<details markdown="1"><summary>{summary}</summary>', "", *body, "", "</details>", ""]


def table(head: list[str], rows: list[list[str]], align: str = "") -> list[str]:
    align = align or "-" * len(head)
    marks = ["---:" if a == "r" else "---" for a in align]
    out = ["| " + " | ".join(head) + " |", "|" + "|".join(marks) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows[:MAX_ROWS]]
    if len(rows) > MAX_ROWS:
        out.append(f"| … {len(rows) - MAX_ROWS} more in the JSON report |" + " |" * (len(head) - 1))
    return out


def status_line(status: str, what: str) -> list[str]:
    return [f"_{what}: {NOT_RUN_TEXT.get(status, status)}._", ""]


def header(d: ReportData) -> list[str]:
    v = verdict(d)
    out = [f"## {ICONS[v.level]} Migration report: **{TITLES[v.level]}**", ""]
    if v.reasons:
        out += [f"- {r}" for r in v.reasons]
    else:
        out.append("- every check ran and passed; no edit needs a human")
    out.append("")
    m = d.meta
    bits = []
    if m.plan_path:
        bits.append(f"plan {code(m.plan_path)} sha256:{code((m.plan_sha256 or '')[:12])}")
    if m.mode == "range":
        bits.append(
            f"range {code(m.range_spec)} ({code((m.base or '')[:10])}..{code((m.head or '')[:10])})"
        )
    else:
        bits.append("preview of a plan not yet applied (dry run)")
    bits.append(f"migrate {m.tool_version}")
    return out + ["<sub>" + " · ".join(bits) + "</sub>", ""]


def summary(d: ReportData) -> list[str]:
    s = d.summary
    edits = f"{s.edits['code']} code · {s.edits['string']} string · {s.edits['prose']} prose"
    rows = [
        ["modules moved", str(s.modules_moved)],
        ["packages moved", str(s.packages_moved)],
        ["symbols moved", str(s.symbols_moved)],
        ["data files moved", str(s.data_files_moved)],
        ["submodules moved", str(s.submodules_moved)],
        ["files touched", str(s.files_touched)],
        ["edits", edits],
        ["edits marked for review", str(s.edits_review)],
        ["tests split", str(s.tests_split)],
        ["groups added", ", ".join(code(g) for g in s.groups_added) or "none"],
    ]
    return ["### Summary", "", *table(["what", "count"], rows, "-r"), ""]


def moves(d: ReportData) -> list[str]:
    out = ["### Moves", ""]
    if not d.moves and not d.moves_not_drawn:
        return out + ["_No file moves._", ""]
    if d.moves:
        out += ["```mermaid", graph(d.moves), "```", ""]
    if d.moves_not_drawn:
        n = d.moves_not_drawn
        out += [
            f"Not drawn: {n} moved file{'s' if n != 1 else ''} outside the import roots"
            " (tests, docs).",
            "",
        ]
    return out


def _verify_cell(status: str, step: str | None) -> str:
    """A commit without a Migrate-Step is no mechanical step: verify has nothing to replay."""
    marks = {PASS: "✅ PASS", FAIL: "❌ **FAIL**", SKIP: "SKIP", COULD_NOT_RUN: "⚪ could not run"}
    return marks.get(status, "not run" if step else "— (not a migrate step)")


def commits(d: ReportData, link_base: str | None) -> list[str]:
    if d.meta.mode != "range":
        return []
    out = ["### Commits", ""]
    if not d.commits:
        return out + ["_No commits in the range._", ""]
    if d.verify.status != OK:
        out += status_line(d.verify.status, "`migrate verify`")
    rows = [
        [
            str(i),
            code(c.sha[:10]),
            code(c.step or "—"),
            cell(c.subject),
            _verify_cell(c.verify, c.step),
        ]
        for i, c in enumerate(d.commits, 1)
    ]
    out += table(["#", "commit", "Migrate-Step", "subject", "verify"], rows, "r----")
    out.append("")
    for c in d.commits:
        if c.residual_diff:
            out += [
                f"<details><summary>residual diff of <code>{c.sha[:10]}</code>"
                f" ({c.step or 'no Migrate-Step'})</summary>",
                "",
                "```diff",
                c.residual_diff.rstrip("\n"),
                "```",
                "",
                "</details>",
                "",
            ]
    out += static_checks(d, link_base)
    return out


MARKS = {PASS: "✅", FAIL: "❌", SKIP: "⏭️", COULD_NOT_RUN: "⚪"}
STATE_TEXT = {SKIP: " skipped", COULD_NOT_RUN: " could not run"}


def static_checks(d: ReportData, link_base: str | None) -> list[str]:
    """One line of check results, then the findings of the failed ones."""
    checks = d.verify.static_checks
    if not checks:
        return []
    line = " · ".join(
        f"{MARKS.get(c.status, '')} {code(c.name)}"
        + (f" ({len(c.findings)})" if c.findings else "")
        + STATE_TEXT.get(c.status, "")
        for c in checks
    )
    out = [f"Static checks on HEAD: {line}", ""]
    for c in checks:
        if c.status == COULD_NOT_RUN:  # neither passed nor failed: say why, in its own words
            why = cell(c.summary) or "no reason given"
            out += [f"**{code(c.name)} could not run** (no evidence either way): {why}", ""]
        if c.findings:
            rows = [
                [where(f.file, f.line, link_base), cell(f.message), cell(f.fix)] for f in c.findings
            ]
            body = table(["where", "finding", "fix"], rows)
            title = f"{code(c.name)} {c.status}: {len(rows)} finding(s)"
            if len(rows) <= FOLD_OVER:
                out += [f"**{title}**", "", *body, ""]
            else:  # <summary> holds HTML, not Markdown
                out += fold(
                    f"<code>{c.name}</code> {c.status}: {len(rows)} finding(s)", body, len(rows)
                )
    return out


def rules(d: ReportData, link_base: str | None) -> list[str]:
    out = ["### Rules (`migrate check`)", ""]
    r = d.rules
    if r.status != OK:
        return out + status_line(r.status, "rules")
    if not r.findings:
        return out + ["No findings.", ""]
    rows = [
        [where(f.file, f.line, link_base), code(f.check), f.severity, cell(f.message), cell(f.fix)]
        for f in r.findings
    ]
    body = table(["where", "rule", "severity", "finding", "fix"], rows)
    return out + fold(f"{len(rows)} finding(s)", body, len(rows))


def inventory(d: ReportData) -> list[str]:
    out = ["### Test inventory", ""]
    inv = d.inventory
    if inv.status != OK:
        return out + status_line(inv.status, "test inventory diff")
    rows = [
        [
            code(s.suite),
            f"{s.files_before} → {s.files_after}",
            f"{s.cases_before} → {s.cases_after}",
            f"{s.est_time_before:g}",
            f"{s.est_time_after:g}",
        ]
        for s in inv.suites
    ]
    body = table(
        ["suite", "files", "cases", "est_time before (s)", "est_time after (s)"], rows, "---rr"
    )
    before = sum(s.est_time_before for s in inv.suites)
    after = sum(s.est_time_after for s in inv.suites)
    changed = sum(s.est_time_before != s.est_time_after for s in inv.suites)
    cases = (sum(s.cases_before for s in inv.suites), sum(s.cases_after for s in inv.suites))
    out += [
        f"{len(rows)} suite(s), {cases[0]} → {cases[1]} registered cases; est_time"
        f" {before:g} s → {after:g} s, "
        + (f"**{changed} suite(s) changed**" if changed else "no suite changed")
        + ".",
        "",
    ]
    out += fold(f"per-suite est_time ({len(rows)} suites)", body, len(rows))
    if inv.lost:
        out.append(f"**Lost: {len(inv.lost)}**")
        out.append("")
        out += [
            f"- {x.kind} {code(x.name)} (was in {code(x.file)})"
            + (f": {cell(x.detail)}" if x.detail else "")
            for x in inv.lost
        ]
        out.append("")
    else:
        out += ["No test case or registration lost.", ""]
    out += [f"- {cell(p)}" for p in inv.problems]
    return out + ([""] if inv.problems else [])


def _parity_cell(status: str) -> str:
    return {"identical": "✅ identical", "different": "❌ **different**"}.get(
        status, status.replace("_", " ")
    )


def parity(d: ReportData) -> list[str]:
    out = ["### Numerical parity", ""]
    p = d.parity
    if p.status != OK:
        out += status_line(p.status, "parity (no GPU or CPU parity check was run)")
        return out + ([f"Parity failed to run: {cell(p.error)}", ""] if p.error else [])
    device = p.device or "unknown"
    if device == "cpu":
        device = "CPU (Triton interpreter, TRITON_INTERPRET=1): no GPU check ran"
    env = [f"device: **{device}**"]
    if p.gpu_model:
        env.append(f"GPU: {p.gpu_model}")
    env.append(f"torch {p.torch or '?'}, triton {p.triton or '?'}")
    out += [" · ".join(env), ""]
    rows = [
        [
            code(o.op),
            _parity_cell(o.status),
            f"{o.identical}/{o.calls}",
            ", ".join(o.devices) or "—",
        ]
        for o in p.ops
    ]
    body = table(["op", "result", "bit-identical calls", "devices"], rows, "--r-")
    if rows:
        counts: dict[str, int] = {}
        for o in p.ops:
            counts[o.status] = counts.get(o.status, 0) + 1
        tally = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in sorted(counts.items()))
        out += [f"{len(rows)} moved op(s): {tally}.", ""]
        out += fold(f"per-op results ({len(rows)} ops)", body, len(rows))
    else:
        out += ["_No moved module defines or wraps a Triton kernel: nothing to compare._", ""]
    out += [f"- {'' if f.severity == 'error' else 'warning: '}{cell(str(f))}" for f in p.findings]
    return out + ([""] if p.findings else [])


def review(d: ReportData, link_base: str | None) -> list[str]:
    out = ["### Needs a human", ""]
    if not d.review:
        return out + ["Nothing: every edit is mechanical and marked safe.", ""]
    rows = [
        [
            where(r.file, r.line, link_base),
            f"{r.kind} (**review**)"
            if r.applicability == "review" and r.kind != "note"
            else r.kind,
            cell(r.reason),
            f"{code(r.old)} → {code(r.new)}" if r.old or r.new else "",
        ]
        for r in d.review
    ]
    body = table(["where", "kind", "why", "change"], rows)
    return out + fold(f"{len(rows)} item(s) to review", body, len(rows))


def leftovers(d: ReportData, link_base: str | None) -> list[str]:
    out = ["### Leftover references", ""]
    lo = d.leftovers
    if lo.status != OK:
        return out + status_line(
            lo.status, f"leftover scan ({lo.where})" if lo.where else "leftover scan"
        )
    if not lo.items:
        return out + [f"None (scanned {lo.where}).", ""]
    rows = [[where(x.file, x.line, link_base), code(x.name), code(x.text)] for x in lo.items]
    body = table(["where", "old name", "line"], rows)
    return out + fold(f"{len(rows)} leftover reference(s) in {lo.where}", body, len(rows))


def to_markdown(d: ReportData, link_base: str | None = None) -> str:
    """The whole report; `link_base` (e.g. `https://github.com/o/r/blob/<sha>`) links file:line."""
    parts = [
        header(d),
        summary(d),
        moves(d),
        commits(d, link_base),
        rules(d, link_base),
        inventory(d),
        parity(d),
        review(d, link_base),
        leftovers(d, link_base),
    ]
    text = "\n".join(line for part in parts for line in part)
    return text.rstrip("\n") + "\n"
