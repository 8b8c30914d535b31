"""Render the golden sample report to HTML and screenshot it: docs/report-example.png.

    .venv/bin/python bench/render_report_example.py [REPORT.md] [--out docs/report-example.png]

Uses Python-Markdown (dev extra) and a headless Debian `chromium`; reproduces the image
linked from README.md so a reviewer can see what the PR comment looks like.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from migrate.report.html import to_html  # noqa: E402

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
]


def screenshot(html: str, out: Path, size: str = "1200,1800") -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        sys.exit("chromium not found: apt-get install -y chromium")
    with tempfile.TemporaryDirectory(prefix="migrate-shot-") as tmp:
        page = Path(tmp) / "report.html"
        page.write_text(html, encoding="utf-8")
        cmd = [browser, *CHROMIUM_FLAGS, f"--user-data-dir={tmp}/profile"]
        cmd += [f"--screenshot={out}", f"--window-size={size}", page.as_uri()]
        subprocess.run(cmd, check=True, capture_output=True, timeout=120)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report", nargs="?", default=str(ROOT / "golden/report/sample.md"))
    ap.add_argument("--out", default=str(ROOT / "docs/report-example.png"))
    ap.add_argument("--size", default="1200,1800")
    args = ap.parse_args()
    html = to_html(Path(args.report).read_text(encoding="utf-8"))
    screenshot(html, Path(args.out).resolve(), args.size)
    print(args.out)


if __name__ == "__main__":
    main()
