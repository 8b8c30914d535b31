"""`migrate report`: the review report of a migration, as Markdown (PR comment) and JSON (CI).

collect (facts -> `ReportData`) -> `verdict` -> renderers (`to_markdown`, `to_json`).
"""

from migrate.report.collect import Given, collect_preview, collect_range
from migrate.report.data import ReportData
from migrate.report.jsonout import SCHEMA_VERSION, to_dict, to_json
from migrate.report.markdown import to_markdown
from migrate.report.preview import render_preview_json, render_preview_md
from migrate.report.verdict import verdict

__all__ = [
    "SCHEMA_VERSION",
    "Given",
    "ReportData",
    "collect_preview",
    "collect_range",
    "render_preview_json",
    "render_preview_md",
    "to_dict",
    "to_json",
    "to_markdown",
    "verdict",
]
