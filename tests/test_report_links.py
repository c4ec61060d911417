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


def test_report_html_is_rendered_markdown_not_literal_asterisks():
    """The HTML is markdown-it-py's rendering of the report's Markdown (the hand-written
    converter printed `game *i*` with its asterisks)."""
    from simkit.report import Report

    rep = Report("t", "t")
    rep.text("game *i* of every cell, **bold**, `code` and [a link](x.md)")
    rep.table([{"a": "1 | 2", "b": "*x*"}], "a caption")
    html = rep.html()
    assert "<em>i</em>" in html and "<strong>bold</strong>" in html and "<code>code</code>" in html
    assert "<a href=\"x.md\">a link</a>" in html and "<table>" in html and "1 | 2" in html
    assert "*i*" not in html


def test_a_report_page_is_the_same_whatever_the_day():
    """A report is a function of its runs: its page carries no date (`make run` on another
    day left two tracked pages changed by their date alone)."""
    import datetime as dt

    from simkit.report import Report

    rep = Report("t", "t")
    rep.text("a line")
    page = rep.html()
    assert dt.date.today().isoformat() not in page and "generated" not in page
