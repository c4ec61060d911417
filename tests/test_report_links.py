"""Every image and link in every committed report resolves: the Markdown (read with
markdown-it-py, as the HTML is rendered) and the overview page."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parent.parent
REPORTS = ROOT / "reports"
READMES = sorted(REPORTS.glob("*/README.md"))


def _targets(md: str) -> list[str]:
    out = []
    for tok in MarkdownIt("commonmark").enable("table").parse(md):
        for child in tok.children or []:
            if child.type == "image":
                out.append(child.attrGet("src"))
            elif child.type == "link_open":
                out.append(child.attrGet("href"))
    return out


def _local(target: str) -> bool:
    u = urlparse(target)
    return not u.scheme and not target.startswith("#")


@pytest.mark.parametrize("readme", READMES, ids=lambda p: p.parent.name)
def test_every_image_and_link_of_a_report_resolves(readme):
    targets = [t for t in _targets(readme.read_text()) if _local(t)]
    assert targets, "a report links its figures and rules"
    missing = [t for t in targets if not (readme.parent / unquote(t.split("#")[0])).exists()]
    assert not missing, f"{readme}: {missing}"


def test_the_overview_page_resolves():
    page = (REPORTS / "index.html").read_text()
    targets = re.findall(r"(?:src|href)='([^']+)'", page)
    assert targets
    missing = [t for t in targets if _local(t) and not (REPORTS / unquote(t)).exists()]
    assert not missing, missing


def test_reports_have_no_literal_markdown_in_their_html():
    for html in REPORTS.glob("*/index.html"):
        body = html.read_text()
        assert "game *i*" not in body, html
