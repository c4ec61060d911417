"""Experiment files and sweeps, bands and the sequential check, paired comparisons."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import polars as pl
import pytest

from simkit._cache import ROOT
from simkit.check import check, load as load_bands
from simkit.compare import compare
from simkit.errors import UserError
from simkit.games import get
from simkit.params import build
from simkit.runner import RunSpec
from simkit.sweep import load as load_experiment
from simkit.sweep import sweep

EXPERIMENT = """
name = "tiny"
game = "ufs"
seed = 3
chunk_size = 50
report = "{report}"
[[grid]]
games = 120
threat = [0, 2]
bots = ["greedy"]
[[grid]]
games = 60
threat = [0]
bots = ["random"]
"""


def test_sweep_runs_every_cell_resumes_and_reports(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(EXPERIMENT.format(report=tmp_path / "reports" / "under-falling-skies"))
    first = sweep(path, out_root=tmp_path / "runs", progress=False)
    assert first.frame.height == 120 * 2 + 60
    assert set(first.frame["threat"].unique().to_list()) == {0, 2}
    # the report reads text as categories (every row repeats its cell's settings: the EFTAIOS
    # sweep held 390 MB of text), and the values are those written
    assert first.frame.schema["bot"] == pl.Categorical
    assert first.frame.with_columns(pl.col(pl.Categorical).cast(pl.String)).equals(pl.read_parquet(first.out / "all.parquet"))
    assert (tmp_path / "reports" / "under-falling-skies" / "README.md").exists()
    assert (tmp_path / "reports" / "under-falling-skies" / "index.html").exists()
    # its link to the rules holds wherever the report is (a quick look's pointed into runs/)
    page = tmp_path / "reports" / "under-falling-skies" / "README.md"
    (rules,) = re.findall(r"\]\(([^)]*docs/rules/[^)]*)\)", page.read_text())
    assert (page.parent / rules).resolve() == ROOT / "docs" / "rules" / "under-falling-skies.md"
    assert (tmp_path / "reports" / "index.html").exists()
    cells = sorted((tmp_path / "runs" / "tiny").glob("*/manifest.json"))
    assert len(cells) == 3
    again = sweep(path, out_root=tmp_path / "runs", progress=False, report=False)
    assert again.frame.equals(first.frame)
    for m in cells:
        assert json.loads(m.read_text())["resumed_games"] > 0  # nothing replayed


@pytest.mark.parametrize("text, message", [
    ("name = 'x'\n", "game"),
    ("name = 'x'\ngame = 'ufs'\n", "[[grid]]"),
    ("name = 'x'\ngame = 'ufs'\n[[grid]]\ngames = 10\nthreat = [9]\n", "out of range"),
    ("name = 'x'\ngame = 'ufs'\n[[grid]]\ngames = 10\nwibble = [1]\n", "no parameter 'wibble'"),
    ("name = 'x'\ngame = 'ufs'\ncolour = 1\n[[grid]]\ngames = 10\n", "unknown key"),
    ("name = 'x'\ngame = 'ufs'\n[[grid]]\nthreat = [1]\n", "games"),
    ("name = = 'x'", "not valid TOML"),
])
def test_experiment_file_errors(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(UserError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_experiment(path)


BAND = """
batch = 1000
seed = 4
[[band]]
name = "{name}"
game = "ufs"
metric = "{metric}"
centre = {centre}
lo = {lo}
hi = {hi}
detect = 0.1
set = {{ threat = 0 }}
"""


def _band(name, centre, lo, hi, metric="won"):
    return BAND.format(name=name, metric=metric, centre=centre, lo=lo, hi=hi)


def test_check_accepts_a_band_around_the_truth_and_rejects_one_far_away(tmp_path):
    path = tmp_path / "bands.toml"
    path.write_text(_band("around", 0.3, 0.25, 0.35) + _band("far", 0.85, 0.8, 0.9).split("seed = 4")[1])
    verdicts = {v.band.name: v for v in check(path)}
    assert verdicts["around"].verdict == "holds" and not verdicts["around"].failed
    assert verdicts["far"].verdict == "fails low" and verdicts["far"].games == 1000  # decided at the first look
    ci = verdicts["far"].interval
    assert ci.hi < 0.8 and ci.lo <= verdicts["far"].successes / 1000 <= ci.hi


def test_a_sweep_leaves_a_folder_that_is_not_its_own_alone(tmp_path):
    """Any manifest.json made a folder a sweep's: a user's was replaced by the sweep's (exit 0)."""
    path = tmp_path / "tiny.toml"
    path.write_text(EXPERIMENT.format(report=tmp_path / "reports" / "x"))
    mine = tmp_path / "runs" / "tiny" / "manifest.json"
    mine.parent.mkdir(parents=True)
    mine.write_text('{"my": "precious"}')
    with pytest.raises(UserError, match="is not a simkit sweep folder"):
        sweep(path, out_root=tmp_path / "runs", progress=False, report=False)
    assert mine.read_text() == '{"my": "precious"}'
    mine.unlink()  # a sweep folder from before experiment.json: still the sweep's own
    first = sweep(path, out_root=tmp_path / "runs", progress=False, report=False)
    (mine.parent / "experiment.json").unlink()
    assert sweep(path, out_root=tmp_path / "runs", progress=False, report=False).frame.equals(first.frame)


def test_check_outcome_is_the_same_games_whatever_the_jobs(tmp_path):
    path = tmp_path / "bands.toml"
    path.write_text(_band("around", 0.3, 0.25, 0.35))
    one, two = check(path, jobs=1)[0], check(path, jobs=2)[0]
    assert (one.games, one.successes, one.verdict) == (two.games, two.successes, two.verdict)


GOOD = 'name = "a"\ngame = "ufs"\nmetric = "won"\ncentre = 0.3\nlo = 0.25\nhi = 0.35\ndetect = 0.1\n'


@pytest.mark.parametrize("band, message", [
    ('name = "a"\ngame = "ufs"\nmetric = "won"\ncentre = 0.45\nlo = 0.5\nhi = 0.4', "lo is above hi"),
    ('name = "a"\ngame = "ufs"\nmetric = "won"\nlo = 0.2\nhi = 0.4', "needs centre"),
    ('name = "a"\ngame = "ufs"\nmetric = "won"\ncentre = 0.3', "needs lo, hi or both"),
    ('name = "a"\ngame = "ufs"\nmetric = "won"\ncentre = 0.5\nlo = 0.1\nhi = 0.4', "outside"),
    ('name = "a"\ngame = "nope"\nmetric = "won"\ncentre = 0.3\nlo = 0.25\nhi = 0.35\ndetect = 0.1', "unknown game"),
    (GOOD + 'set = { threat = 7 }', "out of range"),
    (GOOD + 'speed = 3', "unknown key"),
    (GOOD + 'margin = 0.01', "margin is now detect"),
    (GOOD.replace("ufs", "aau") + 'seat = 9', "seat must be"),
    (GOOD.replace("ufs", "aau") + 'seat = true', "seat must be"),
    (GOOD.replace("ufs", "aau"), "give seat = N"),
    (GOOD + 'bots = [1]', "bots must be a list of bot names"),
    (GOOD + 'rotate_seats = "false"', "rotate_seats must be true or false"),
    (GOOD.replace('"won"', '"nosuch"'), "not an output column"),
    (GOOD.replace('"won"', '"rounds"'), "not a yes/no column"),
    (GOOD.replace("detect = 0.1", "detect = 0.03"), "detect 0.03 must exceed"),
    (GOOD.replace("lo = 0.25", "lo = true"), "lo must be a number"),
    (GOOD + "max_games = 1000", "too small"),
    (GOOD.replace("detect = 0.1", "detect = 0.1\nbatch = 0"), "batch must be an integer"),
    (GOOD.replace("detect = 0.1", "detect = 0.1\nbatch = 1000000000"), "batch 1,000,000,000 is more games than"),  # it played on
    (GOOD.replace("detect = 0.1", "detect = 0.05001"), "no cap up to"),
])
def test_bands_file_errors(tmp_path, band, message):
    path = tmp_path / "bands.toml"
    path.write_text("[[band]]\n" + band + "\n")
    with pytest.raises(UserError, match=message):
        load_bands(path)


def test_bands_file_structure_errors(tmp_path):
    path = tmp_path / "bands.toml"
    for text, message in (("band = [1, 2]\n", "needs one or more"), ("alpha = 2\n[[band]]\n" + GOOD, "alpha must be"),
                          ("colour = 1\n[[band]]\n" + GOOD, "unknown key")):
        path.write_text(text)
        with pytest.raises(UserError, match=message):
            load_bands(path)


def test_a_bad_later_band_stops_the_check_before_any_game(tmp_path, monkeypatch):
    import simkit.check as check_mod

    played = []
    monkeypatch.setattr(check_mod, "_successes", lambda *a, **k: played.append(a))
    path = tmp_path / "bands.toml"
    path.write_text("[[band]]\n" + GOOD + "\n[[band]]\n" + GOOD.replace('"a"', '"b"').replace('"won"', '"nosuch"'))
    with pytest.raises(UserError, match="band #2"):
        check(path)
    assert not played


def test_check_command_exit_codes(tmp_path, simkit_cli):
    good = tmp_path / "good.toml"
    good.write_text(_band("ok", 0.3, 0.25, 0.35))
    bad = tmp_path / "bad.toml"
    bad.write_text(_band("broken", 0.85, 0.8, 0.9))
    malformed = tmp_path / "malformed.toml"
    malformed.write_text("[[band]]\nname = 1\n")
    ok = simkit_cli(["check", str(good), "--jobs", "1"], tmp_path)
    assert ok.returncode == 0 and "holds" in ok.stdout and "+-10 pts" in ok.stdout
    failed = simkit_cli(["check", str(bad), "--jobs", "1"], tmp_path)
    assert failed.returncode == 1 and "band broken failed" in failed.stderr and "below its lower edge 80.00%" in failed.stderr
    proc = simkit_cli(["check", str(malformed)], tmp_path)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    malformed.write_text("band = [1, 2]\n")
    proc = simkit_cli(["check", str(malformed)], tmp_path)
    assert proc.returncode == 2 and "needs one or more [[band]] tables" in proc.stderr  # printed as written, not as markup
    nonbool = tmp_path / "nonbool.toml"
    nonbool.write_text(_band("x", 0.3, 0.25, 0.35, metric="rounds"))
    proc = simkit_cli(["check", str(nonbool)], tmp_path)
    assert proc.returncode == 2 and "not a yes/no column" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    proc = simkit_cli(["check", str(good), "--format", "json", "--output", str(tmp_path / "no" / "such" / "x.json")], tmp_path)
    assert proc.returncode == 2 and "does not exist" in proc.stderr


def test_check_json_holds_numbers_under_stable_keys(tmp_path, simkit_cli):
    """Rates are fractions and counts are integers, under keys that do not change with alpha."""
    good = tmp_path / "good.toml"
    good.write_text(_band("ok", 0.3, 0.25, 0.35))
    proc = simkit_cli(["check", str(good), "--jobs", "1", "--format", "json"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["alpha"] == 0.01 and doc["beta"] == 0.01
    row, = doc["rows"]
    assert row["band"] == "ok" and row["verdict"] == "holds" and row["metric"] == "won" and row["seat"] is None
    assert 0 <= row["lo"] <= row["rate"] <= row["hi"] <= 1 and 0 < row["level"] < 1
    assert isinstance(row["successes"], int) and isinstance(row["games"], int) and row["games"] <= row["max_games"]
    assert abs(row["rate"] - row["successes"] / row["games"]) < 1e-12
    assert (row["band_lo"], row["band_hi"], row["centre"], row["detect"]) == (0.25, 0.35, 0.3, 0.1)


def test_undecided_is_its_own_verdict_and_fails_ci(tmp_path, monkeypatch):
    """A band whose tests cannot decide by its cap is reported undecided (exit 1 in CI)."""
    import simkit.check as check_mod
    from simkit.check import message

    path = tmp_path / "bands.toml"
    path.write_text(_band("edge", 0.3, 0.25, 0.35))
    band = load_bands(path)[0]
    band = dataclasses.replace(band, spec=dataclasses.replace(band.spec, n_games=2000))  # a cap too short to decide
    # a rate of 22%, between the band's edge (25%) and the rate it must catch (20%)
    monkeypatch.setattr(check_mod, "_successes", lambda band, start, stop, *a: sum(i % 100 < 22 for i in range(start, stop)))
    v = check_mod.decide(band)
    assert v.verdict == "undecided" and v.failed and v.games == band.cap
    assert "undecided at its cap" in message(v)


def test_paired_comparison_needs_fewer_games_than_independent_runs():
    """A variant that changes little (one fewer hit allowed) keeps most games identical
    on common seeds, so the paired interval is far narrower."""
    g = get("ufs")
    a = build(g.params, {"threat": 0}, g.name)
    b = build(g.params, {"threat": 0, "damage_rule": "strict"}, g.name)
    bots = tuple(g.resolve_bots([], a))
    c = compare(g, RunSpec(g, a, bots, 3000, 1), RunSpec(g, b, bots, 3000, 1), progress=False, metrics=["won"])
    won = c.metrics[0]
    assert won.b < won.a  # losing one hit earlier can only hurt
    assert won.paired.significant
    assert won.agreement > 0.85
    assert won.games_ratio > 2.0  # two independent runs would need more than twice the games


def test_compare_refuses_identical_variants(tmp_path, simkit_cli):
    proc = simkit_cli(["compare", "ufs", "--set", "threat=1"], tmp_path)
    assert proc.returncode == 2 and "both variants are the same" in proc.stderr


UFS_REPORT = """
name = "ufs-report"
game = "ufs"
seed = 5
chunk_size = 300
sensitivity = 100
report = "{report}"
[[grid]]
games = 300
threat = [0, 4]
city = ["roswell", "new_york"]
city_side = ["normal", "damaged"]
bots = ["greedy"]
[[grid]]
games = 40
threat = [0, 4]
city = ["roswell", "new_york"]
city_side = ["normal", "damaged"]
bots = ["random"]
[[grid]]
games = 300
threat = [0]
city = ["roswell"]
city_side = ["normal"]
damage_rule = ["strict"]
bots = ["greedy"]
"""


def test_ufs_report_is_honest_about_shared_seeds(tmp_path):
    """Pooled rates are clustered by seed, small rates keep their digits, no p-value
    prints as 0, the Method does not call the cells independent, and the paired
    comparison's wording follows its numbers."""
    import re

    from simkit.stats import wilson

    path = tmp_path / "ufs.toml"
    path.write_text(UFS_REPORT.format(report=tmp_path / "r" / "under-falling-skies"))
    sweep(path, out_root=tmp_path / "runs", progress=False)
    text = (tmp_path / "r" / "under-falling-skies" / "README.md").read_text()
    assert "independent batch" not in text and "clustered by seed" in text
    assert "several times more precisely" not in text
    # random never won: 8 cells x 40 games on the same 40 seeds, so the bound is 0 of 40
    assert "never won in 320 games (8 cells played on the same 40 seeds)" in text
    assert f"{100 * wilson(0, 40).hi:.3f}% per game" in text
    assert "0.0% [0.0, 0.0]" not in text
    assert not re.search(r"\| 0 \| (yes|no) \|", text)  # no p-value of the threat steps prints as 0
    assert "McNemar's test" in text and "score test it inverts" in text  # named as what it is
    m = re.search(r"paired interval is ([\d.]+)x to ([\d.]+)x narrower.*need ([\d.]+)x to ([\d.]+)x the games", text)
    assert m and abs(float(m[1]) ** 2 - float(m[3])) < 0.06 and abs(float(m[2]) ** 2 - float(m[4])) < 0.06
    # the section on the readings of unclear rules, from runs kept beside the sweep's
    assert "How sure are these numbers" in text and "100 games per cell and reading" in text
    # kept inside the --out folder a user named (beside a folder named sweeps: runs/sensitivity)
    assert "Holm-adjusted over all" in text and (tmp_path / "runs" / "sensitivity" / "ufs").is_dir()
    assert not (tmp_path / "sensitivity").exists()


def test_numbers_are_printed_with_their_digits():
    from simkit.fmt import fmt_p, pct
    from simkit.stats import wilson

    assert fmt_p(0.0) == "<1e-300" and fmt_p(1.6e-49) == "1.6e-49"
    assert pct(wilson(0, 10_000)) == "0.000% [0.000, 0.038]"
    assert pct(wilson(268, 100_000)) == "0.27% [0.24, 0.30]"
    assert pct(wilson(29_718, 100_000)) == "29.7% [29.4, 30.0]"
    assert pct(wilson(10_000, 10_000)) == "100.000% [99.962, 100.000]"
    assert pct(wilson(99_732, 100_000)) == "99.73% [99.70, 99.76]"


AAU_REPORT = """
name = "aau-report"
game = "aau"
seed = 5
chunk_size = 200
sensitivity = 30
report = "{report}"
[[grid]]
games = 300
players = [2, 3]
semi_coop = [false]
bots = ["strategic"]
rotate_seats = true
[[grid]]
games = 100
players = [3]
semi_coop = [true, false]
bots = ["team"]
rotate_seats = true
[[grid]]
games = 200
players = [2]
semi_coop = [false]
bots = [["strategic", "strategic:no-cover"]]
rotate_seats = true
"""


def test_aau_report_states_games_per_cell_multiplicity_and_equivalence(tmp_path):
    path = tmp_path / "aau.toml"
    path.write_text(AAU_REPORT.format(report=tmp_path / "r" / "alien-attack-usa"))
    sweep(path, out_root=tmp_path / "runs", progress=False)
    text = (tmp_path / "r" / "alien-attack-usa" / "README.md").read_text()
    assert text.index("## Answers") < text.index("How sure are these numbers")  # the answers first
    assert "+ seeded games" not in text
    # the semi-cooperative mode as a paired effect; the cards by one ranking measure, adjusted, with its family named
    assert "(paired, 5%)" in text and "McNemar's test" in text
    assert "Which city mission card helps its holder win?" in text and "adjusted for players and seat" in text
    assert "Holm over the cards" in text and "Points scored by each mission card (not a ranking)" in text
    assert "fair share" in text
    assert "How sure are these numbers" in text and "30 games per cell and reading" in text


def test_games_caps_each_cell_and_never_enlarges_it(tmp_path):
    """`--games N` is a quick look: cells of more than N games play N, smaller cells keep
    their size (it used to replace every size, so a quick look could take hours)."""
    from simkit.sweep import load

    (tmp_path / "e.toml").write_text('name = "e"\ngame = "template"\n[[grid]]\ngames = 100\n[[grid]]\ngames = 5000\nplayers = [3]\n')
    sizes = [c.spec.n_games for c in load(tmp_path / "e.toml", games_override=1000).cells]
    assert sizes == [100, 1000]


def test_a_report_keeps_its_other_runs_inside_the_out_folder_a_user_named(tmp_path):
    """The default layout keeps a report's other runs beside runs/sweeps (runs/sensitivity,
    runs/ladder, runs/tune, runs/reports); any other --out keeps them inside it (--out
    /tmp/x wrote /tmp/sensitivity, /tmp/ladder and /tmp/tune), so an experiment may not
    take one of their names."""
    from simkit.sweep import BESIDE, beside, load

    assert beside(Path("runs/sweeps"), "ladder") == Path("runs/ladder")
    assert beside(tmp_path / "mine", "tune") == tmp_path / "mine" / "tune"
    for name in BESIDE:
        (tmp_path / "e.toml").write_text(f'name = "{name}"\ngame = "template"\n[[grid]]\ngames = 10\n')
        with pytest.raises(UserError, match="name.*a report's own folder"):
            load(tmp_path / "e.toml")
