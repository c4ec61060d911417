"""Building balance reports: one list of blocks rendered twice, as Markdown with PNG
files beside it (for the repository) and as one self-contained HTML page with the
plots embedded (for people), plus an index page over all games."""

from __future__ import annotations

import base64
import datetime as dt
import html
import io
import json
from pathlib import Path
from typing import Any, Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from . import __version__
from .errors import UserError  # noqa: E402
from .fmt import fmt_p, pct  # noqa: E402,F401  (re-exported for the game reports)

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#17becf", "#bcbd22"]


def style() -> None:
    plt.rcParams.update({
        "figure.dpi": 110, "savefig.dpi": 110, "axes.grid": True, "grid.alpha": 0.3,
        "axes.spines.top": False, "axes.spines.right": False, "font.size": 10,
        "axes.titlesize": 11, "legend.fontsize": 9, "legend.frameon": False,
    })


class Report:
    def __init__(self, title: str, slug: str):
        self.title = title
        self.slug = slug
        self.blocks: list[tuple[str, Any]] = []
        self.figures: dict[str, bytes] = {}
        self.summary = ""

    def heading(self, text: str, level: int = 2) -> None:
        self.blocks.append(("heading", (level, text)))

    def text(self, text: str) -> None:
        self.blocks.append(("text", text))

    def bullets(self, items: Sequence[str]) -> None:
        self.blocks.append(("bullets", list(items)))

    def code(self, text: str) -> None:
        self.blocks.append(("code", text))

    def table(self, rows: list[dict[str, Any]], caption: str | None = None) -> None:
        if rows:
            self.blocks.append(("table", (rows, caption)))

    def figure(self, fig, name: str, caption: str) -> None:
        buf = io.BytesIO()
        fig.savefig(buf, format="png", bbox_inches="tight")
        plt.close(fig)
        self.figures[name] = buf.getvalue()
        self.blocks.append(("figure", (name, caption)))

    # -- rendering -------------------------------------------------------------------
    def markdown(self) -> str:
        out = [f"# {self.title}", ""]
        for kind, data in self.blocks:
            if kind == "heading":
                out += ["#" * data[0] + " " + data[1], ""]
            elif kind == "text":
                out += [data, ""]
            elif kind == "bullets":
                out += [f"- {x}" for x in data] + [""]
            elif kind == "code":
                out += ["```", data, "```", ""]
            elif kind == "table":
                rows, caption = data
                cols = _columns(rows)
                if caption:
                    out += [f"*{caption}*", ""]
                out.append("| " + " | ".join(cols) + " |")
                out.append("|" + "|".join("---" for _ in cols) + "|")
                out += ["| " + " | ".join(str(r.get(c, "")) for c in cols) + " |" for r in rows]
                out.append("")
            elif kind == "figure":
                name, caption = data
                out += [f"![{caption}]({name}.png)", "", f"*{caption}*", ""]
        return "\n".join(out)

    def html(self) -> str:
        esc = html.escape
        parts = [
            "<!doctype html><html><head><meta charset='utf-8'>",
            f"<title>{esc(self.title)}</title>",
            "<style>body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}"
            "table{border-collapse:collapse;margin:0.5em 0 1.5em;font-size:0.9em}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
            "th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}img{max-width:100%}figure{margin:1em 0 2em}"
            "figcaption{color:#555;font-size:0.9em}code,pre{background:#f6f6f6;padding:2px 4px}pre{padding:8px;overflow-x:auto}</style>",
            "</head><body>", f"<p><a href='../index.html'>all reports</a></p><h1>{esc(self.title)}</h1>",
        ]
        for kind, data in self.blocks:
            if kind == "heading":
                parts.append(f"<h{data[0]}>{esc(data[1])}</h{data[0]}>")
            elif kind == "text":
                parts.append(f"<p>{_inline(data)}</p>")
            elif kind == "bullets":
                parts.append("<ul>" + "".join(f"<li>{_inline(x)}</li>" for x in data) + "</ul>")
            elif kind == "code":
                parts.append(f"<pre>{esc(data)}</pre>")
            elif kind == "table":
                rows, caption = data
                cols = _columns(rows)
                cap = f"<caption>{esc(caption)}</caption>" if caption else ""
                head = "".join(f"<th>{esc(str(c))}</th>" for c in cols)
                body = "".join("<tr>" + "".join(f"<td>{esc(str(r.get(c, '')))}</td>" for c in cols) + "</tr>" for r in rows)
                parts.append(f"<table>{cap}<tr>{head}</tr>{body}</table>")
            elif kind == "figure":
                name, caption = data
                b64 = base64.b64encode(self.figures[name]).decode()
                parts.append(f"<figure><img src='data:image/png;base64,{b64}' alt='{esc(caption)}'><figcaption>{esc(caption)}</figcaption></figure>")
        parts.append(f"<hr><p style='color:#777'>simkit {__version__}, generated {dt.date.today().isoformat()}</p></body></html>")
        return "\n".join(parts)

    def write(self, target: Path) -> None:
        """Writes the report into ``target``, overwriting or removing only files simkit
        wrote there, unchanged since (its ``report.json`` keeps each one's hash); any
        other file of the same name is an error."""
        target = Path(target)
        pages = {"README.md": self.markdown().encode(), "index.html": self.html().encode()}
        files = {**{f"{n}.png": png for n, png in self.figures.items()}, **pages}
        ours = owned_files(target)
        clash = [n for n in [*files, "report.json"] if _present(target / n) and n not in ours]
        if clash:
            raise UserError(f"{target / clash[0]} exists and was not written by simkit, or was edited since; "
                            "choose another report folder or move the file")
        target.mkdir(parents=True, exist_ok=True)
        meta = {"title": self.title, "slug": self.slug, "summary": self.summary,
                "files": {name: _sha256(data) for name, data in files.items()}}
        # Recorded first, with the hashes of the files being replaced: a write that stops
        # half-way (a full disk) leaves every file there simkit's, for the next attempt.
        before = {n: _sha256((target / n).read_bytes()) for n in ours - {"report.json"} if (target / n).is_file()}
        _atomic(target / "report.json", json.dumps({**meta, "replacing": before}, indent=1).encode())
        for name in set(before) - set(files):  # figures of an earlier version of the report
            if name.endswith(".png"):
                (target / name).unlink(missing_ok=True)
        for name, data in files.items():
            _atomic(target / name, data)
        _atomic(target / "report.json", json.dumps(meta, indent=1).encode())


def owned_files(target: Path) -> set[str]:
    """The files of ``target`` that simkit may replace or remove: those its report.json
    lists with the hash they still have (``files``, or ``replacing`` while a write was
    under way; plain names inside the folder only: a name like ``../x.png`` is never one),
    and report.json itself. Reports written before hashes were kept list names only; a
    folder without such a list holds nothing of simkit's."""
    target = Path(target)
    if (target / "report.json").is_symlink():
        return set()
    try:
        meta = json.loads((target / "report.json").read_text())
    except (OSError, ValueError):
        return set()
    files = meta.get("files") if isinstance(meta, dict) else None
    if isinstance(files, dict):
        replacing = meta.get("replacing")
        hashes = [files, replacing if isinstance(replacing, dict) else {}]
        named = {str(n) for h in hashes for n, d in h.items() if _plain(n) and _unchanged(target / n, d)}
    elif isinstance(files, list):
        named = {str(n) for n in files if _plain(n)}
    else:
        return set()
    return {n for n in named if not (target / n).is_symlink()} | {"report.json"}


def _plain(name) -> bool:
    """A file name inside the folder: no path, no "..", nothing hidden."""
    return isinstance(name, str) and name == Path(name).name and not name.startswith(".") and "\\" not in name and "\0" not in name


def _present(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def _sha256(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def _unchanged(path: Path, digest) -> bool:
    """The file is absent, or a regular file whose content still has ``digest``."""
    if not _present(path):
        return True
    try:
        return path.is_file() and not path.is_symlink() and path.stat().st_size < 2**30 and _sha256(path.read_bytes()) == digest
    except OSError:
        return False


def _atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_bytes(data)
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise UserError(f"cannot write {path}: {exc.strerror or exc}") from None


def _columns(rows: list[dict]) -> list[str]:
    cols: dict[str, None] = {}
    for r in rows:
        cols.update(dict.fromkeys(r))
    return list(cols)


def _inline(text: str) -> str:
    """Markdown's `code` and **bold** in a line of HTML."""
    import re

    t = html.escape(text)
    t = re.sub(r"`([^`]+)`", r"<code>\1</code>", t)
    t = re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", t)
    t = re.sub(r"\[([^\]]+)\]\(([^)]+)\)", r"<a href='\2'>\1</a>", t)
    return t


INDEX_TITLE = "<title>simkit reports</title>"


def write_index(root: Path) -> Path | None:
    """``root/index.html`` linking every report folder below ``root`` — unless an
    index.html there is not simkit's (then it is left alone and None returned)."""
    root = Path(root)
    index = root / "index.html"
    if index.exists():
        try:
            ours = INDEX_TITLE in index.read_text(errors="replace")[:2000]
        except OSError:
            ours = False
        if not ours:
            return None
    items = []
    for meta in sorted(root.glob("*/report.json")):
        try:
            info = json.loads(meta.read_text())
            title, summary = str(info["title"]), str(info.get("summary", ""))
        except (OSError, ValueError, KeyError, TypeError):
            continue
        items.append(f"<li><a href='{html.escape(meta.parent.name)}/index.html'>{html.escape(title)}</a>"
                     f" (<a href='{html.escape(meta.parent.name)}/README.md'>Markdown</a>)<br><small>{html.escape(summary)}</small></li>")
    page = ("<!doctype html><html><head><meta charset='utf-8'>" + INDEX_TITLE +
            "<style>body{font-family:system-ui,sans-serif;max-width:900px;margin:2em auto;padding:0 1em}li{margin:0.8em 0}</style>"
            "</head><body><h1>simkit balance reports</h1><ul>" + "".join(items) + "</ul></body></html>")
    _atomic(index, page.encode())
    return index
