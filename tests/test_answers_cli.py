"""`simkit run` and `simkit report` give the questions' answers: each line with its
interval and verdict, the machine-readable formats carry them as numbers and carry the
run's settings; a game without report code still gets a report from its declarations."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simkit.cli import app

RUN = ["run", "template", "-n", "2000", "--no-progress", "--set", "players=3", "--set", "dice=1", "--set", "wild=0"]


@pytest.fixture()
def runner(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return CliRunner()


def test_run_prints_each_answer_with_its_interval_and_verdict(runner):
    res = runner.invoke(app, RUN)
    assert res.exit_code == 0, res.output
    line = next(x for x in res.output.splitlines() if x.startswith("answer:"))
    assert "fair share" in line and "[" in line and "Holm" in line  # number, interval, verdict and its family
    # the table's win rates in percent, as the answers give them, and what its "±" means
    assert not re.search(r"\b0\.\d{3} \[0\.\d{3}, 0\.\d{3}\]", res.output), res.output
    assert "Y is the half width of the mean's 95% interval" in res.output


def test_json_carries_answers_as_numbers_and_the_settings(runner):
    res = runner.invoke(app, RUN + ["--format", "json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["run"]["settings"] == {"players": 3, "dice": 1, "wild": 0, "data": ""}
    assert doc["run"]["bots"] == ["count"] * 3 and doc["run"]["seed"] == 0
    est = doc["answers"][0]["estimates"][0]
    assert isinstance(est["estimate"], float) and est["lo"] < est["estimate"] < est["hi"]
    assert doc["answers"][0]["verdict"] in ("shown", "equivalent", "not shown")


def test_csv_rows_carry_the_settings_and_the_answers(runner):
    res = runner.invoke(app, RUN + ["--format", "csv"])
    assert res.exit_code == 0, res.output
    import io

    import polars as pl

    f = pl.read_csv(io.StringIO(res.stdout))
    assert set(f["row"]) == {"summary", "answer"}
    assert f.filter(pl.col("row") == "summary")["set_players"].to_list() == [3, 3, 3]
    assert f.filter(pl.col("row") == "answer")["estimate"].dtype == pl.Float64
    # each answer row says what its numbers are (a "pts" row held fractions)
    assert set(f.filter(pl.col("row") == "answer")["unit"]) <= {"share (0-1)", "difference of shares (-1 to 1)", "number"}


def test_by_column_prints_rates_per_value_and_the_verdict(runner):
    res = runner.invoke(app, RUN + ["--by", "calls_won"])
    assert res.exit_code == 0, res.output
    assert "win rate by calls_won:" in res.output and "calls_won = 0:" in res.output
    assert any(x.startswith("answer:") and "calls_won" in x for x in res.output.splitlines())


def test_by_unknown_column_is_one_line(runner):
    from simkit.errors import UserError

    res = runner.invoke(app, RUN + ["--by", "nope"])  # main() turns a UserError into one line and exit 2
    assert isinstance(res.exception, UserError) and "has no column 'nope'" in str(res.exception)
    assert not (Path("runs").exists() and any(Path("runs").iterdir()))  # refused before any game


def test_a_game_without_report_code_gets_a_report_from_its_questions(runner, tmp_path):
    res = runner.invoke(app, ["report", "template", "--games", "400", "--no-progress", "--jobs", "1"])
    assert res.exit_code == 0, res.output
    md = (tmp_path / "runs" / "reports" / "template" / "README.md").read_text()
    assert md.index("## Answers") < md.index("simulated games")  # the answer first, then the evidence
    assert "fair share" in md and "| verdict |" in md
    html = (tmp_path / "runs" / "reports" / "template" / "index.html").read_text()
    assert "<h2>Answers</h2>" in html and "*" not in html.split("<body>")[1].split("<hr>")[0].replace("**", "")


def test_tune_answers_first_and_keeps_every_number(runner):
    res = runner.invoke(app, ["tune", "template", "--goal", "seat_fairness", "--knob", "dice", "--budget", "6000",
                              "--jobs", "1", "--no-progress", "--out", "t"])
    assert res.exit_code == 0, res.output
    text = " ".join(res.output.split())  # lines wrap at the terminal's width
    answer = text[text.index("answer:"):text.index("searched ")]
    assert "fresh games" in answer and "[" in answer and "As written" in answer
    doc = json.loads(Path("t/tune.json").read_text())
    assert doc["knobs"] == ["dice"] and doc["baseline"]["label"] == "the rules as written" and doc["budget"] == 6000
    assert doc["confirm_seed"] != doc["seed"] and all(s["games"] > 0 for s in doc["search"])
    again = runner.invoke(app, ["tune", "template", "--goal", "seat_fairness", "--knob", "dice", "--budget", "6000",
                                "--jobs", "1", "--no-progress", "--out", "t", "--format", "json", "--output", "t.json"])
    assert again.exit_code == 0, again.output
    assert json.loads(Path("t.json").read_text())["sentence"] == doc["sentence"]  # resumed from its runs: the same answer


def test_a_report_tunes_on_every_core_as_on_one(tmp_path):
    """A report's tunes get the report's ``--jobs``, where 0 means every core (the tune's
    chunk size once divided by it: ``simkit report aau`` crashed after minutes)."""
    from simkit import tune as T
    from simkit.games import get

    game = get("template")
    sentences = [T.tune(game, T.goal(game, "seat_fairness"), T.knobs(game, ["dice"]), budget=4000, jobs=jobs,
                        out=tmp_path / str(jobs)).sentence() for jobs in (1, 0)]
    assert sentences[0] == sentences[1]


def test_a_quick_look_says_it_is_capped_and_how_to_play_it_again(tmp_path):
    """``--games N`` caps each cell: the report says so, and its reproduce line has the cap
    (it named the file alone, which plays the full sizes)."""
    from simkit.sweep import sweep

    (tmp_path / "e.toml").write_text('name = "quick"\ngame = "template"\nseed = 1\nreport = "rep"\n'
                                     '[[grid]]\ngames = 60\nplayers = [2, 3]\nbots = ["count"]\n')
    sweep(tmp_path / "e.toml", games=20, jobs=1, progress=False, out_root=tmp_path / "runs")
    md = (tmp_path / "runs" / "reports" / "rep-20-games" / "README.md").read_text()  # inside --out, never beside it
    assert "40 simulated games" in md and "each capped at 20 games (a quick look)" in md
    assert f"Reproduce: `simkit sweep {tmp_path / 'e.toml'} --games 20`" in md
