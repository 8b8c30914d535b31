"""The dry run's Markdown: the report of a plan before it is applied.

`migrate PLAN --dry-run --format md` calls `render_preview_md`, so the preview a reviewer
comments on and the report of the applied range share every section and every number.
"""

from __future__ import annotations

from migrate.report.collect import Given, collect_preview
from migrate.report.jsonout import to_json
from migrate.report.markdown import to_markdown


def render_preview_md(prep, changeset=None, given: Given | None = None, link_base=None) -> str:
    """Markdown preview of `prep` (a `Prepared` plan); `changeset` defaults to the engine's."""
    return to_markdown(collect_preview(prep, changeset, given), link_base)


def render_preview_json(prep, changeset=None, given: Given | None = None) -> str:
    return to_json(collect_preview(prep, changeset, given))
