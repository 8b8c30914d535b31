"""The README's layout section and docs/architecture.md name every package of `migrate/`."""

from __future__ import annotations

from helpers import REPO_ROOT

PACKAGES = sorted(
    p.parent.name for p in (REPO_ROOT / "migrate").glob("*/__init__.py") if p.parent.name
)


def _layout_section() -> str:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("## Layout")
    end = readme.find("\n## ", start + 1)
    return readme[start : end if end > 0 else None]


def test_readme_layout_names_every_package():
    section = _layout_section()
    assert len(PACKAGES) > 10
    assert [p for p in PACKAGES if f"`{p}/`" not in section] == []


def test_architecture_doc_names_every_package():
    doc = (REPO_ROOT / "docs/architecture.md").read_text(encoding="utf-8")
    assert [p for p in PACKAGES if f"{p}/" not in doc] == []
