"""Experiment files and sweeps, bands and the sequential check, paired comparisons."""

from __future__ import annotations

import json
import subprocess

import pytest

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
    assert (tmp_path / "reports" / "under-falling-skies" / "README.md").exists()
    assert (tmp_path / "reports" / "under-falling-skies" / "index.html").exists()
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
max_games = 6000
seed = 4
[[band]]
name = "{name}"
game = "ufs"
metric = "{metric}"
lo = {lo}
hi = {hi}
set = {{ threat = 0 }}
"""


def test_check_accepts_a_band_around_the_truth_and_rejects_one_far_away(tmp_path):
    path = tmp_path / "bands.toml"
    path.write_text(BAND.format(name="around", metric="won", lo=0.2, hi=0.45) + BAND.split("[[band]]")[1].join(["\n[[band]]", ""]).format(name="far", metric="won", lo=0.8, hi=0.9))
    verdicts = {v.band.name: v for v in check(path)}
    assert not verdicts["around"].failed and verdicts["around"].sprt == "inside"
    assert verdicts["far"].failed and verdicts["far"].games <= 2000  # decided in few games


@pytest.mark.parametrize("band, message", [
    ('name = "a"\ngame = "ufs"\nmetric = "won"\nlo = 0.5\nhi = 0.4', "lo is above hi"),
    ('name = "a"\ngame = "ufs"\nmetric = "won"\nlo = 0.5', "needs hi"),
    ('name = "a"\ngame = "nope"\nmetric = "won"\nlo = 0.1\nhi = 0.4', "unknown game"),
    ('name = "a"\ngame = "ufs"\nmetric = "won"\nlo = 0.1\nhi = 0.4\nset = { threat = 7 }', "out of range"),
    ('name = "a"\ngame = "ufs"\nmetric = "won"\nlo = 0.1\nhi = 0.4\nspeed = 3', "unknown key"),
    ('name = "a"\ngame = "aau"\nmetric = "won"\nlo = 0.1\nhi = 0.4\nseat = 9', "seat must be"),
])
def test_bands_file_errors(tmp_path, band, message):
    path = tmp_path / "bands.toml"
    path.write_text("[[band]]\n" + band + "\n")
    with pytest.raises(UserError, match=message):
        load_bands(path)


def test_check_command_exit_codes(tmp_path, simkit_cmd):
    good = tmp_path / "good.toml"
    good.write_text(BAND.format(name="ok", metric="won", lo=0.2, hi=0.45))
    bad = tmp_path / "bad.toml"
    bad.write_text(BAND.format(name="broken", metric="won", lo=0.8, hi=0.9))
    malformed = tmp_path / "malformed.toml"
    malformed.write_text("[[band]]\nname = 1\n")
    assert subprocess.run(simkit_cmd + ["check", str(good), "--jobs", "1"], capture_output=True, timeout=600).returncode == 0
    failed = subprocess.run(simkit_cmd + ["check", str(bad), "--jobs", "1"], capture_output=True, text=True, timeout=600)
    assert failed.returncode == 1 and "band broken failed" in failed.stderr and "below its lower edge 0.800" in failed.stderr
    assert subprocess.run(simkit_cmd + ["check", str(malformed)], capture_output=True, timeout=600).returncode == 2
    nonbool = tmp_path / "nonbool.toml"
    nonbool.write_text(BAND.format(name="x", metric="rounds", lo=0.2, hi=0.45))
    proc = subprocess.run(simkit_cmd + ["check", str(nonbool)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 2 and "not a yes/no column" in proc.stderr


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


def test_compare_refuses_identical_variants(tmp_path, simkit_cmd):
    proc = subprocess.run(simkit_cmd + ["compare", "ufs", "--set", "threat=1"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "both variants are the same" in proc.stderr
