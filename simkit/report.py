"""Building balance reports: one list of blocks rendered as Markdown with PNG files
beside it (for the repository), and that Markdown rendered by markdown-it-py into one
self-contained HTML page with the plots embedded (for people), plus a one-page overview
of every game's answers.

Every report opens with ``## Answers``: the game's declared questions
(:mod:`simkit.questions`) answered in plain sentences, each with its number, interval and
verdict. :func:`compose` builds a whole report from the declarations; a game's own report
code only adds the sections that are truly about that game."""

from __future__ import annotations

import base64
import dataclasses
import html
import inspect
import itertools
import io
import json
import re
from pathlib import Path
from typing import Any, Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from . import __version__
from .errors import UserError  # noqa: E402
from .fmt import PALETTE, fmt_p, pct  # noqa: E402,F401  (re-exported for the game reports)



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
        self.answers: list = []  # simkit.questions.Answer: the opening section
        self.fixes: list[str] = []  # simkit tune's sentences, after the answers
        self.headline_figure: str | None = None  # the figure the overview page shows
        self.conclusions: dict[str, str] = {}  # a conclusion's words -> its verdict or class (besides the answers)
        self.changed: list[str] = []  # verdicts that differ from the report this one replaces (see write)
        # what the sections below find against the answers, said beside them (a headline that
        # rests on one reading of a rule, or that stronger play reverses, read as the game's)
        self.caveats: dict[str, list[str]] = {}

    def answer(self, answers) -> None:
        """Adds answers to the report's opening ``## Answers`` section."""
        self.answers += list(answers)

    def conclude(self, claim: str, verdict: str) -> None:
        """Records a conclusion of a section (e.g. a stronger-play class, a ladder step), so
        that the next version of the report says when it changes."""
        self.conclusions[claim] = verdict

    def caveat(self, kind: str, claim: str) -> None:
        """Puts a section's finding against a claim beside the answers: ``kind`` is its
        heading there (e.g. "Depends on a reading of the rules")."""
        self.caveats.setdefault(kind, []).append(claim)

    def verdicts(self) -> dict[str, str]:
        """Every conclusion and its verdict: the answers' (by question and group) and the
        sections' own."""
        return {**{_answer_key(a.title, a.group): a.verdict for a in self.answers}, **self.conclusions}

    def compare_with(self, old: dict, old_markdown: str = "") -> None:
        """What changed since ``old`` (a report.json): each conclusion both hold whose
        verdict differs."""
        before = old.get("conclusions")
        if not isinstance(before, dict):
            # a report written before conclusions were kept: its answers, and its classed
            # lines ("- **Survives**: CLAIM: `bot` ...", ladder.classed_line)
            before = {_answer_key(a.get("title", ""), a.get("group") or {}): a.get("verdict") for a in old.get("answers", [])
                      if isinstance(a, dict)}
            for m in re.finditer(r"^- \*\*(Survives|Flips|Fades|Undecided)\*\*: (.+?): `", old_markdown, re.M):
                before[m.group(2)] = m.group(1).lower()
        now = self.verdicts()
        self.changed = [f"{claim}: was *{before[claim]}*, now **{v}**." for claim, v in now.items()
                        if claim in before and before[claim] != v]

    def evidence(self, answer, caption: str | None = None) -> None:
        """One answer's evidence: its sentence, what it estimates, and its figures as a table."""
        self.text(f"{answer.sentence}")
        self.table(answer.rows(), caption or f"{answer.title} Estimand: {answer.estimand}. Method: {answer.method}.")

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
        if self.answers or self.fixes or self.caveats:
            # one bullet per question: its answers for each player count or cell read as one
            out += ["## Answers", ""] + [f"- {' '.join(a.sentence for a in group)}"
                                         for _, group in itertools.groupby(self.answers, key=lambda a: a.question)]
            out += [f"- **How to fix it.** {f}" for f in self.fixes]
            out += [f"- **{kind}** (sections below): " + "; ".join(claims) + "." for kind, claims in self.caveats.items()] + [""]
        if self.changed:
            out += ["## What changed since the last report", "",
                    "Conclusions whose verdict differs from the version of this report that this one replaced "
                    "(new bots, rules or sizes; the sections below give the figures):", ""]
            out += [f"- {c}" for c in self.changed] + [""]
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
                out += ["| " + " | ".join(_cell(r.get(c, "")) for c in cols) + " |" for r in rows]
                out.append("")
            elif kind == "figure":
                name, caption = data
                out += [f"![{caption}]({name}.png)", "", f"*{caption}*", ""]
        return "\n".join(out)

    def html(self) -> str:
        """The Markdown rendered by markdown-it-py (CommonMark with tables), the plots
        embedded as data URIs so the page stands alone."""
        body = _markdown_it().render(self.markdown())
        for name, png in self.figures.items():
            b64 = base64.b64encode(png).decode()
            body = body.replace(f'src="{name}.png"', f'src="data:image/png;base64,{b64}"')
        return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(self.title)}</title>{STYLE}</head><body>"
                f"<p><a href='../index.html'>all reports</a></p>\n{body}"
                # no date: a report is a function of its runs, and `make run` left two tracked pages changed by their date alone
                f"<hr><p style='color:#777'>simkit {__version__}</p></body></html>")

    def write(self, target: Path) -> None:
        """Writes the report into ``target``, overwriting or removing only files simkit
        wrote there, unchanged since (its ``report.json`` keeps each one's hash); any
        other file of the same name is an error."""
        target = Path(target)
        try:
            page = target / "README.md"
            self.compare_with(json.loads((target / "report.json").read_text()), page.read_text() if page.is_file() else "")
        except (OSError, ValueError, AttributeError):
            self.changed = []  # no earlier report (or not one simkit can read): nothing to compare
        pages = {"README.md": self.markdown().encode(), "index.html": self.html().encode()}
        files = {**{f"{n}.png": png for n, png in self.figures.items()}, **pages}
        ours = owned_files(target)
        clash = [n for n in [*files, "report.json"] if _present(target / n) and n not in ours]
        if clash:
            raise UserError(f"{target / clash[0]} exists and was not written by simkit, or was edited since; "
                            "choose another report folder or move the file")
        new_folder = not target.exists()
        target.mkdir(parents=True, exist_ok=True)
        meta = {"title": self.title, "slug": self.slug, "summary": self.summary,
                "files": {name: _sha256(data) for name, data in files.items()},
                "answers": [a.as_dict() for a in self.answers], "fixes": self.fixes, "caveats": self.caveats,
                "headline_figure": self.headline_figure,
                "conclusions": self.verdicts()}
        before = {n: _sha256((target / n).read_bytes()) for n in ours - {"report.json"} if (target / n).is_file()}
        # Every file is written beside its place first: a full disk leaves the earlier report
        # as it was (it left half a new one: pages, no index.html). Then report.json records
        # both versions' hashes, so that a stop among the renames leaves every file simkit's.
        from .runner import _tmp_of

        try:
            for name, data in files.items():
                _atomic(target / name, data, place=False)
            _atomic(target / "report.json", json.dumps({**meta, "replacing": before}, indent=1).encode())
            for name in set(before) - set(files):  # figures of an earlier version of the report
                if name.endswith(".png"):
                    (target / name).unlink(missing_ok=True)
            for name in files:
                _tmp_of(target / name).replace(target / name)
            _atomic(target / "report.json", json.dumps(meta, indent=1).encode())
        finally:
            for name in files:
                _tmp_of(target / name).unlink(missing_ok=True)
            if new_folder and not any(target.iterdir()):
                target.rmdir()


def rules_link(result, filename: str) -> str:
    """A Markdown link from the report's folder to ``docs/rules/<filename>``: relative, so
    that it holds wherever the report is written (a quick look's folder is deeper than
    reports/<slug>, where "../../docs" pointed into runs/)."""
    import os

    from ._cache import ROOT

    folder = result.experiment.report or ROOT / "reports" / result.experiment.game.slug
    target = os.path.relpath(ROOT / "docs" / "rules" / filename, Path(folder).resolve())
    return f"[docs/rules/{filename}]({Path(target).as_posix()})"


def _answer_key(title: str, group: dict) -> str:
    return f"{title} ({', '.join(f'{k} = {v}' for k, v in sorted(group.items()))})" if group else title


def owned_files(target: Path) -> set[str]:
    """The files of ``target`` that simkit may replace or remove: those its report.json
    lists with the hash they still have (``files``, or ``replacing`` while a write was
    under way; plain names inside the folder only: a name like ``../x.png`` is never one),
    and report.json itself. A folder without such hashes holds nothing of simkit's."""
    target = Path(target)
    if (target / "report.json").is_symlink():
        return set()
    try:
        meta = json.loads((target / "report.json").read_text())
    except (OSError, ValueError):
        return set()
    files = meta.get("files") if isinstance(meta, dict) else None
    if not isinstance(files, dict):  # (a list of names, as reports kept before hashes, is anybody's claim)
        return set()
    replacing = meta.get("replacing")
    hashes = [files, replacing if isinstance(replacing, dict) else {}]
    named = {str(n) for h in hashes for n, d in h.items() if _plain(n) and _unchanged(target / n, d)}
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


def _atomic(path: Path, data: bytes, place: bool = True) -> None:
    """Writes ``data`` to ``path`` whole or not at all (``place=False``: left beside it, in
    ``runner._tmp_of(path)``, for the caller to rename)."""
    from .runner import _write_atomic

    _write_atomic(path, lambda tmp: tmp.write_bytes(data), hint="free some space or choose another report folder", place=place)


def _cell(value: Any) -> str:
    """A table cell: one line, its pipes escaped (a pipe would end the cell)."""
    return str(value).replace("\n", " ").replace("|", "\\|")


def _columns(rows: list[dict]) -> list[str]:
    cols: dict[str, None] = {}
    for r in rows:
        cols.update(dict.fromkeys(r))
    return list(cols)


STYLE = ("<style>body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}"
         "table{border-collapse:collapse;margin:0.5em 0 1.5em;font-size:0.9em}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
         "th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}img{max-width:100%}"
         "code,pre{background:#f6f6f6;padding:2px 4px}pre{padding:8px;overflow-x:auto}</style>")


def _markdown_it():
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).enable("table")


INDEX_TITLE = "<title>simkit reports</title>"


def write_index(root: Path) -> Path | None:
    """``root/index.html``: a one-page overview of every report folder below ``root``
    (each game's answers with their intervals and its headline plot, from the same
    ``report.json`` the report wrote) — unless an index.html there is not simkit's (then
    it is left alone and None returned)."""
    root = Path(root)
    index = root / "index.html"
    if index.exists() and not _index_unchanged(index):
        return None
    esc = html.escape
    items = []
    for meta in sorted(root.glob("*/report.json")):
        try:
            info = json.loads(meta.read_text())
            title = str(info["title"])
            answers = [" ".join(str(a["sentence"]) for a in group)
                       for _, group in itertools.groupby(info.get("answers") or [], key=lambda a: a.get("question"))]
            answers += [f"How to fix it: {f}" for f in info.get("fixes") or [] if isinstance(f, str)]
            answers += [f"{kind}: {'; '.join(map(str, claims))}." for kind, claims in (info.get("caveats") or {}).items()
                        if isinstance(claims, list)]  # (the answers are not read without them here either)
            figure = info.get("headline_figure")
        except (OSError, ValueError, KeyError, TypeError):
            continue
        folder = esc(meta.parent.name)
        img = ""
        if isinstance(figure, str) and (meta.parent / f"{figure}.png").is_file():
            img = f"<a href='{folder}/index.html'><img src='{folder}/{esc(figure)}.png' alt='{esc(title)}: {esc(figure)}'></a>"
        lines = "".join(f"<li>{esc(a)}</li>" for a in answers) or f"<li>{esc(str(info.get('summary', '')))}</li>"
        items.append(f"<section><h2><a href='{folder}/index.html'>{esc(title)}</a> <small>(<a href='{folder}/README.md'>"
                     f"Markdown</a>)</small></h2><div class='row'><ul>{lines}</ul>{img}</div></section>")
    page = ("<!doctype html><html><head><meta charset='utf-8'>" + INDEX_TITLE +
            "<style>body{font-family:system-ui,sans-serif;max-width:1150px;margin:2em auto;padding:0 1em;color:#222;line-height:1.4}"
            "h2{font-size:1.15em;margin:1.6em 0 0.4em}.row{display:flex;gap:1.2em;align-items:flex-start}ul{flex:1;margin:0;padding-left:1.2em}"
            "li{margin:0.35em 0}img{width:340px;border:1px solid #ddd}</style></head><body><h1>simkit balance reports</h1>"
            "<p>Each game's answers to its balance questions, every number with its 95% interval and the verdict of a test "
            "defined once in simkit.questions; the full report has the evidence.</p>" + "".join(items) + "</body></html>")
    _atomic(index, (page + _index_mark(page)).encode())
    return index


def _index_mark(page: str) -> str:
    return f"\n<!-- simkit wrote this page; sha256 of the rest: {_sha256(page.encode())} -->\n"


def _index_unchanged(index: Path) -> bool:
    """Whether ``index`` is the overview page simkit wrote, unedited: its last line holds
    the hash of the rest (a page is carried by git, so the hash travels in it; a title
    alone let simkit replace a user's edit of its page)."""
    try:
        text = index.read_text()
    except (OSError, UnicodeDecodeError):
        return False
    page, sep, _ = text.rpartition("\n<!-- simkit wrote this page;")
    return bool(sep) and text == page + _index_mark(page)


def fixes(rep: Report, result) -> None:
    """"How to fix it": the experiment's [[tune]] searches (simkit.tune), each with the one
    change to try first and the runners-up, proven on fresh games (resumed from runs/tune/)."""
    exp = result.experiment
    if not exp.tunes:
        return
    from .errors import Interrupted
    from .progress import bar
    from .sweep import beside
    from .tune import goal, interrupted_in, knobs, tune

    game = exp.game
    rep.heading("How to fix it")
    rep.text("The smallest *compensation* (a rule change that is **not in the rulebook**, listed by "
             f"`simkit games {game.name}`) that makes a question fair, found by `simkit tune` and proven on fresh games: a "
             "fix is claimed only when those games show it fair within the margin (equivalence test, Bonferroni over "
             "the candidates proven). Game length and the game's other seat questions are its costs. A fix is proven "
             "for the bots that played it, at the settings named and every other reading at its default (stand-in "
             "components included): where the imbalance it corrects moves with a reading or with stronger play (the "
             "sections above), its size moves too, and a playtest decides.")
    root = beside(result.out.parent, "tune")
    for i, t in enumerate(exp.tunes):
        g = goal(game, t["goal"], t["margin"], t["target"], t["curve"])
        ks = knobs(game, t["knobs"])
        try:
            with bar(f"{game.name} tune {t['goal']}", t["budget"], enabled=result.progress is True) as advance:  # (it played unseen)
                res = tune(game, g, ks, base=t["set"], bots=t["bots"], budget=t["budget"], seed=t["seed"], jobs=result.jobs,
                           out=root / f"{exp.name}-{i}", length_tolerance=t["length_within"], keep_seats=t["keep_seats"],
                           progress=advance)
        except (Interrupted, KeyboardInterrupt):
            raise interrupted_in(root / f"{exp.name}-{i}") from None
        rep.heading(f"{g.question.title} ({', '.join(f'{k}={v}' for k, v in t['set'].items()) or 'default settings'})", 3)
        rep.text(res.sentence())
        if res.chosen is not None:
            rep.text("What it changes:")
            rep.bullets(res.meanings())
        rep.table(res.rows(), caption=(
            f"Searched {len(res.searched)} candidates on {res.search_games:,} games, proved the best {len(res.confirmed)} "
            f"and the rules as written on {res.confirm_games:,} fresh games in all. 'farthest from fair': the estimate farthest from fair, with its 95% "
            "interval; 'length change': mean game length against the rules as written, same fresh seeds."))
        cmd = " ".join([f"simkit tune {game.name} --goal {t['goal']}", *[f"--knob {k}" for k in t["knobs"]],
                        *[f"--set {k}={v}" for k, v in t["set"].items()], *[f"--bot {b}" for b in t["bots"]],
                        f"--budget {t['budget']}", *([f"--margin {t['margin']}"] if t["margin"] else []),
                        *([f"--seed {t['seed']}"] if t["seed"] else []),
                        *([f"--target {t['target']}"] if t["target"] is not None else []),
                        *([f"--curve {t['curve']}"] if t["curve"] else []),
                        *([f"--length-within {t['length_within']}"] if t["length_within"] else []),
                        *(["--keep-seats"] if t["keep_seats"] else [])])
        rep.text(f"Reproduce: `{cmd}`.")
        rep.fixes.append(res.sentence())


def _reading_only(result, questions, builder):
    """The sweep with only the columns its report reads: the questions', the settings' and
    those its builder's module declares in ``READS`` (a builder that declares none reads
    every column). A large sweep's report then holds a part of its games' columns (O.V.N.I.:
    60 of 93; its report's peak 1.55 -> 1.34 GB)."""
    from .questions import columns_read

    reads = getattr(inspect.getmodule(builder), "READS", None) if builder is not None else ()
    if reads is None:
        return result
    settings = [f.name for f in dataclasses.fields(result.experiment.game.params)]
    columns = tuple(columns_read(questions, result.schema, [*settings, *reads]))
    return dataclasses.replace(result, _frame=result.read(columns))


def compose(result, builder=None) -> Report:
    """A sweep's whole report: the answers to the game's declared questions, their
    evidence, the game's own sections (``builder(result, report)``, if it has one) and the
    section on the readings of unclear rules (when the experiment asks for it)."""
    from .questions import declared
    from . import strength
    from .sensitivity import section_for_report

    exp = result.experiment
    game = exp.game
    title = f"{game.title}: balance report"
    folder = exp.report.name if exp.report is not None else game.slug
    if folder != game.slug:  # another report of the same game (e.g. research sizes): the index must tell them apart
        title += f" ({folder.removeprefix(game.slug + '-').replace('-', ' ')})"
    rep = Report(title, game.slug)
    asked = declared(game)
    questions = [q for q in asked if hasattr(q, "answers")]  # Questions and games' own (e.g. paired families)
    result = _reading_only(result, asked, builder)
    frame = result.frame
    answered = [(q, q.answers(frame)) for q in questions]
    for _, answers in answered:
        rep.answer(answers)
    n_games = sum(c.spec.n_games for c in exp.cells)
    shipped = not str(exp.path).startswith("(")
    source = f"the {len(exp.cells)} cells of `{exp.path}`" if shipped else "its default experiment (default settings and bot, seats rotated)"
    again = f"simkit sweep {exp.path}" if shipped else f"simkit report {game.name}"
    if exp.games_cap is not None:  # a quick look: reproduced by the same cap, not by the file's sizes
        source += f", each capped at {exp.games_cap:,} games (a quick look)"
        again += f" --games {exp.games_cap}"
    rep.text(f"{n_games:,} simulated games in {source}, root seed {exp.seed}; every rate "
             f"with its 95% interval. Reproduce: `{again}`. Each answer above comes from a question defined "
             f"once in `simkit/questions.py` and declared for this game in `simkit/games/{game.name}/questions.py`; the "
             "sections below give its evidence. In their tables, each interval is the figure's own; a verdict and its p are "
             "adjusted for the family of tests it belongs to (each names its family and method, e.g. Holm's), so an interval that "
             "leaves out 0 can still read \"not shown\". Points are percentage points of a rate or share.")
    if exp.larger:
        rep.text(f"These are quick sizes, for an answer in minutes. `simkit sweep experiments/{exp.larger}` plays the larger "
                 "tables (more games per cell, the long research grids) in about 15 minutes on two cores; its report is the reference.")
    if builder is not None:
        builder(result, rep)  # its own sections, the sensitivity section where it belongs among them
    else:
        for q, answers in answered:
            if answers:
                rep.heading(q.title)
                for a in answers:
                    rep.evidence(a)
        section_for_report(rep, result)
    strength.section(rep, result)
    fixes(rep, result)
    if not rep.summary:
        rep.summary = " ".join(a.sentence for a in rep.answers[:2])
    return rep


