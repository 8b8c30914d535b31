"""Rendering: Markdown that a real Markdown library turns into tables, folds and a diagram;
JSON that validates against docs/report-schema.json; the verdict rules; the leftover scan."""

from __future__ import annotations

import json
import re

import jsonschema
import markdown
import pytest
from helpers import GOLDEN, REPO_ROOT

from migrate.findings import Finding
from migrate.oldnames import OldNames
from migrate.relocate import Relocation
from migrate.report.data import (
    OK,
    LeftoverSection,
    Meta,
    MoveEdge,
    ParityOp,
    ParitySection,
    ReportData,
    ReviewItem,
    RulesSection,
)
from migrate.report.html import EXTENSIONS, to_html
from migrate.report.jsonout import to_dict
from migrate.report.leftovers import scan_leftovers
from migrate.report.markdown import to_markdown
from migrate.report.verdict import verdict

SCHEMA = json.loads((REPO_ROOT / "docs/report-schema.json").read_text())


def _all_ok(**kw) -> ReportData:
    d = ReportData(Meta("preview", "plan.yaml", "ab" * 32, tool_version="0.1.0"), **kw)
    d.rules.status = d.inventory.status = d.leftovers.status = OK
    d.parity = ParitySection(OK, "cuda", "NVIDIA H200 (sm_90)", "2.13.0", "3.5.1")
    return d


def test_safe_only_when_every_check_ran_and_nothing_needs_a_human():
    d = _all_ok(moves=[MoveEdge("sglang.jit_kernel", "ops.layernorm", 2)])
    assert verdict(d).level == "safe"
    assert to_markdown(d).startswith("## 🟢 Migration report: **safe to merge**")
    d.parity.status = "not_run"
    v = verdict(d)
    assert v.level == "review" and v.reasons == ["not run: parity"]


def test_long_lists_fold_and_render_as_html_tables():
    items = [
        ReviewItem(f"docs/f{i}.md", i + 1, 1, "prose", "dotted name", "a.b", "c.d")
        for i in range(7)
    ]
    d = _all_ok(moves=[MoveEdge("sglang.jit_kernel", "ops.moe", 3)], review=items)
    d.rules = RulesSection(OK, [Finding("x.py", 3, "KO101", "a | b", "fix it", "warning")])
    md = to_markdown(d)
    assert '<details markdown="1"><summary>7 item(s) to review</summary>' in md
    html = markdown.markdown(md, extensions=list(EXTENSIONS))
    details = re.search(r"<details>(.*?)</details>", html, re.S).group(1)
    assert "<table>" in details and details.count("<tr>") == 8  # header + 7 rows
    assert "<code>docs/f6.md:7</code>" in details
    assert '<code class="language-mermaid">graph LR' in html
    assert "L0 --&gt;|3 files| G0" in html  # the diagram text survives intact
    assert "<td>a | b</td>" in html  # escaped pipe stays in its cell
    assert html.count("<table>") == 4  # summary, rules, parity, review


def test_golden_sample_renders_with_its_sections():
    md = (GOLDEN / "report/sample.md").read_text(encoding="utf-8")
    html = to_html(md)
    for title in ("Summary", "Moves", "Commits", "Rules", "Test inventory", "Numerical parity"):
        assert f"<h3>{title}" in html
    assert '<code class="language-mermaid">graph LR' in html
    assert "<details>" in html and "<table>" in html


def test_json_validates_and_carries_the_verdict():
    d = _all_ok(
        leftovers=LeftoverSection(OK, [], "HEAD"),
    )
    d.parity.ops = [ParityOp("ops.x:f", "old.x:f", "different", 2, 1, 1, ["cuda:0"])]
    doc = to_dict(d)
    jsonschema.validate(doc, SCHEMA)
    assert doc["verdict"]["level"] == "broken"
    assert doc["verdict"]["reasons"][0].startswith("parity: `ops.x:f` differs")
    assert doc["checks"] == {
        "rules": "ok",
        "inventory": "ok",
        "parity": "ok",
        "leftovers": "ok",
    }
    doc["verdict"]["level"] = "fine"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, SCHEMA)


RELOC = Relocation(
    modules={"sglang.jit_kernel.norm": "sglang.kernels.ops.layernorm.norm"},
    moved_modules={"sglang.jit_kernel.norm": "sglang.kernels.ops.layernorm.norm"},
    files={"python/sglang/jit_kernel/norm.py": "python/sglang/kernels/ops/layernorm/norm.py"},
)


class _Plan:
    roots = ("python",)
    delete = ("sglang.jit_kernel",)
    keep_prose = ("CHANGELOG.md",)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("from sglang.jit_kernel.norm import f", ["sglang.jit_kernel.norm"]),
        ("import sglang.jit_kernel", ["sglang.jit_kernel"]),
        ('mock.patch("sglang.jit_kernel.norm.f")', ["sglang.jit_kernel.norm.f"]),
        ("see python/sglang/jit_kernel/norm.py", ["python/sglang/jit_kernel/norm.py"]),
        ("see `sglang/jit_kernel/` for sources", ["sglang/jit_kernel"]),
        ("if can_use_hicache_jit_kernel():", []),
        ("import sglang.jit_kernel_extra", []),
        ("from sglang.kernels.ops.layernorm.norm import f", []),
        ("x.sglang.jit_kernel.norm", []),
    ],
)
def test_leftover_scan_is_token_bounded(text, found):
    got = scan_leftovers(["a.py"], {"a.py": text}.get, RELOC, _Plan())
    assert [x.name for x in got] == found


def test_leftover_scan_skips_keep_prose_and_unmoved_names():
    files = {"CHANGELOG.md": "sglang.jit_kernel.norm", "b.py": "import sglang.other"}
    assert scan_leftovers(files, files.get, RELOC, _Plan()) == []
    names = OldNames(RELOC, type("P", (), {"delete": (), "roots": ("python",)})())
    assert names.now_dotted("sglang.jit_kernel.norm.f") == "sglang.kernels.ops.layernorm.norm.f"
    assert names.now_dotted("sglang.jit_kernel.utils") is None


def test_move_diagram_groups_by_legacy_package_and_destination():
    from migrate.changes import ChangeSet, FileMove
    from migrate.report.facts import move_edges
    from migrate.report.mermaid import graph

    j, k = "python/sglang/jit_kernel", "python/sglang/kernels"
    cs = ChangeSet(
        moves=[
            FileMove(f"{j}/norm.py", f"{k}/ops/layernorm/norm.py"),
            FileMove(f"{j}/rope.py", f"{k}/ops/attention/rope.py"),
            FileMove(f"{j}/csrc/a/x.cuh", f"{k}/jit/csrc/a/x.cuh"),
            FileMove(f"{j}/csrc/b/y.cuh", f"{k}/jit/csrc/b/y.cuh"),
            FileMove("test/registered/test_norm.py", "test/registered/kernels/ops/t.py"),
        ]
    )
    edges, not_drawn = move_edges(cs, ("python",), (f"{j}/csrc",), (f"{k}/jit/csrc",))
    assert [(e.src, e.dst, e.files) for e in edges] == [
        ("sglang.jit_kernel", "ops.attention", 1),
        ("sglang.jit_kernel", "ops.layernorm", 1),
        ("sglang.jit_kernel.csrc", "sglang.kernels.jit.csrc", 2),
    ]
    assert not_drawn == 1  # the test file: outside the import root
    src = graph(edges)
    assert src.splitlines()[0] == "graph LR"
    assert 'L1["sglang.jit_kernel.csrc"]' in src and "L1 -->|2 files| G2" in src


def test_parity_findings_are_the_one_finding_type_from_result_and_json_alike():
    """The report reads parity's `Finding`s as they are (typed result or its `--json`): an
    error makes the verdict broken, a warning is shown and does not."""
    from migrate.parity.model import ParityResult, SideRun, problem, warning
    from migrate.report.sources import parity_section

    env = {"torch": "2.13.0", "triton": "3.5.1"}
    result = ParityResult(
        SideRun("B", "b" * 40, env=env), SideRun("H", "h" * 40, env=env), "cpu", "cpu"
    )
    result.findings = [
        problem("imports", "HEAD: import ops.x fails (BASE old.x imports): boom", "ops/x.py"),
        warning("coverage", "ops.x:g: never called by the tests; not checked"),
    ]
    assert not result.ok and [f.check for f in result.problems] == ["imports"]
    typed, read_back = (
        parity_section(result),
        parity_section(json.loads(json.dumps(result.to_dict()))),
    )
    assert typed == read_back and typed.findings == result.findings
    d = _all_ok()
    d.parity = typed
    v = verdict(d)
    assert v.level == "broken"
    assert v.reasons[0] == "parity: ops/x.py: HEAD: import ops.x fails (BASE old.x imports): boom"
    assert not any("never called" in r for r in v.reasons)
    md = to_markdown(d)
    assert "- warning: ops.x:g: never called by the tests; not checked" in md
    jsonschema.validate(to_dict(d), SCHEMA)
    assert to_dict(d)["parity"]["findings"][0]["check"] == "imports"
