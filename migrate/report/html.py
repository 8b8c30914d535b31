"""Render the Markdown report to HTML the way a reader sees it (tests and docs screenshot).

Uses Python-Markdown (the `dev` extra), imported lazily so the report itself needs no
extra dependency. `md_in_html` renders the tables inside `<details markdown="1">`.
"""

from __future__ import annotations

EXTENSIONS = ("tables", "fenced_code", "md_in_html")

CSS = """
body { font: 14px/1.5 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
       color: #1f2328; max-width: 1100px; margin: 24px auto; padding: 0 16px; }
h2 { border-bottom: 1px solid #d1d9e0; padding-bottom: .3em; }
h3 { margin-top: 1.4em; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid #d1d9e0; padding: 4px 10px; vertical-align: top; }
tr:nth-child(2n) { background: #f6f8fa; }
code { background: #eff1f3; border-radius: 4px; padding: .1em .3em; font-size: 85%; }
pre { background: #f6f8fa; padding: 12px; border-radius: 6px; overflow: auto; }
pre code { background: none; padding: 0; }
details { border: 1px solid #d1d9e0; border-radius: 6px; padding: 4px 12px; margin: 8px 0; }
summary { cursor: pointer; font-weight: 600; }
"""


def to_html(markdown_text: str, title: str = "migrate report") -> str:
    """A standalone HTML page of the report (GitHub-like styling, no scripts)."""
    import markdown

    body = markdown.markdown(markdown_text, extensions=list(EXTENSIONS))
    return (
        f'<!doctype html>\n<html><head><meta charset="utf-8"><title>{title}</title>'
        f"<style>{CSS}</style></head>\n<body>\n{body}\n</body></html>\n"
    )
