"""Property-based fuzzing of everything a user hands to simkit (Hypothesis): command-line
arguments, data files, experiment files and bands files. Each generated input either
works or gives one line on stderr and exit code 2 (a one-line UserError in the
library), never a traceback, and leaves nothing half-written."""

from __future__ import annotations

import copy
import json
import sys
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simkit.errors import UserError
from simkit.games import get

ROOT = Path(__file__).resolve().parent.parent
FUZZ = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# Values a hostile user types: numbers of every size and sign, console markup, paths
# that climb out, empty text, non-ASCII, numbers written as text.
WEIRD_TEXT = st.sampled_from(["", " ", "[/x]", "[bold]", "[[grid]]", "../../x", "/", "-1", "0", "1e11", "nan",
                              "true", "None", "é☃", "a" * 300, "x=y=z", "--set", "\x00"])
WEIRD_INT = st.one_of(st.integers(-10**25, 10**25), st.sampled_from([0, -1, 1, 2**63, 2**64, 10**20]))
LEAF = st.one_of(WEIRD_INT, st.floats(allow_nan=True), WEIRD_TEXT, st.booleans(), st.just([]), st.just({}),
                 st.lists(st.integers(-5, 5), max_size=4))


def _one_line_error(exc: UserError) -> None:
    text = str(exc)
    assert text and "\n" not in text and "Traceback" not in text, text


# ---- the command line ---------------------------------------------------------------
def _cli(argv: list[str], capsys) -> tuple[int, str, str]:
    from simkit import cli

    old = sys.argv
    sys.argv = ["simkit", *argv]
    try:
        cli.main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.argv = old
    out, err = capsys.readouterr()
    return code, out, err


SMALL_N = st.one_of(st.integers(1, 20).map(str), WEIRD_INT.map(str), WEIRD_TEXT)
OPTION = st.one_of(
    st.tuples(st.just("-n"), SMALL_N),
    st.tuples(st.just("--seed"), st.one_of(st.integers(0, 5).map(str), WEIRD_INT.map(str), WEIRD_TEXT)),
    st.tuples(st.just("--jobs"), st.one_of(st.sampled_from(["1", "-3", "x", "1000000000000"]))),
    st.tuples(st.just("--chunk-size"), st.one_of(st.integers(1, 10).map(str), WEIRD_INT.map(str))),
    st.tuples(st.just("--bot"), st.one_of(st.sampled_from(["greedy", "random", "nosuch", "a.b:c", "greedy:nosuch", "os:system"]), WEIRD_TEXT)),
    st.tuples(st.just("--set"), st.one_of(st.sampled_from(["threat=2", "threat=9", "city=paris", "robots=maybe", "data=/nonexistent"]), WEIRD_TEXT)),
    st.tuples(st.just("--backend"), st.one_of(st.just("threading"), WEIRD_TEXT)),
    st.tuples(st.just("--format"), st.sampled_from(["json", "csv", "xml", ""])),
    st.tuples(st.just("--nosuchoption"), WEIRD_TEXT),
)


@FUZZ
@given(game=st.sampled_from(["ufs", "aau", "template", "nosuch", "[/x]"]), options=st.lists(OPTION, max_size=4))
def test_run_arguments_work_or_are_one_line(tmp_path_factory, capsys, game, options):
    if not any(o[0] == "-n" for o in options):
        options = [("-n", "3"), *options]
    out = tmp_path_factory.mktemp("run") / "out"
    argv = ["run", game, "--no-progress", "--out", str(out)] + [x for o in options for x in o]
    code, _, err = _cli(argv, capsys)
    assert code in (0, 2), (argv, err)
    assert "Traceback" not in err, (argv, err)
    if code == 2:
        assert len([x for x in err.splitlines() if x.strip()]) == 1, (argv, err)
        assert not (out / "games.parquet").exists()
        assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")] if out.exists() else True


@FUZZ
@given(cmd=st.sampled_from(["trace", "bench", "compare", "check", "sweep", "report", "games", "compile", "nosuch"]),
       args=st.lists(st.one_of(WEIRD_TEXT, WEIRD_INT.map(str), st.sampled_from(["ufs", "--seed", "--game-index", "-n", "--repeat",
                                                                              "--metric", "--vs", "threat=2", "0", "--output"])), max_size=5))
def test_other_commands_work_or_are_one_line(tmp_path_factory, capsys, monkeypatch, cmd, args):
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))
    if cmd in ("bench", "compile", "report", "sweep") and "ufs" in args and not any(a.startswith("-") for a in args):
        return  # a real benchmark, compile or report: too slow for a fuzz example
    if cmd == "bench":
        args = args + ["-n", "3", "--python-games", "0", "--repeat", "1"]
    if cmd == "compare":
        args = args + ["-n", "3"]
    code, _, err = _cli([cmd, *args], capsys)
    assert code in (0, 2), ([cmd, *args], err)
    assert "Traceback" not in err
    if code == 2:
        assert len([x for x in err.splitlines() if x.strip()]) == 1, ([cmd, *args], err)


# ---- data files ---------------------------------------------------------------------
def _mutations(doc):
    """Paths to every leaf and table of a document."""
    paths = []

    def walk(node, path):
        paths.append(path)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, path + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, path + (i,))

    walk(doc, ())
    return [p for p in paths if p]


def _mutate(doc, data):
    doc = copy.deepcopy(doc)
    paths = _mutations(doc)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        parent = doc
        try:
            for k in path[:-1]:
                parent = parent[k]
            how = data.draw(st.sampled_from(["replace", "delete", "add"]))
            if how == "replace":
                parent[path[-1]] = data.draw(LEAF)
            elif how == "delete":
                del parent[path[-1]]
            elif isinstance(parent, dict):
                parent[data.draw(st.sampled_from(["wibble", "A", "1", ""]))] = data.draw(LEAF)
            else:
                parent.append(data.draw(LEAF))
        except (KeyError, IndexError, TypeError):
            continue
    return doc


def _toml(doc) -> str:
    """A minimal TOML writer for the fuzzed documents (JSON-like values)."""
    def val(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, float) and v != v:
            return "nan"
        if isinstance(v, float) and abs(v) == float("inf"):
            return "inf" if v > 0 else "-inf"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, list):
            return "[" + ", ".join(val(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{json.dumps(str(k))} = {val(x)}" for k, x in v.items()) + "}"
        raise TypeError(v)

    return "\n".join(f"{json.dumps(str(k))} = {val(v)}" for k, v in doc.items()) + "\n"


def _check_board(game_name: str, setting: str, path: Path) -> None:
    from simkit.params import build
    from simkit.runner import RunSpec, run

    g = get(game_name)
    try:
        params = build(g.params, {setting: str(path)}, g.name)
        g.board(params)
    except UserError as exc:
        _one_line_error(exc)
        return
    # a file the checks accept must play: a few games, every action checked
    res = run(RunSpec(g, params, tuple(g.resolve_bots(["random"], params)), 2, 0), None, progress=False)
    assert res.frame.height > 0


UFS_DOC = tomllib.loads((ROOT / "simkit/games/ufs/data/components.toml").read_text())
AAU_DOC = json.loads((ROOT / "simkit/games/aau/data/board.json").read_text())


@FUZZ
@given(data=st.data())
def test_ufs_components_file_works_or_is_one_line(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("data") / "components.toml"
    try:
        path.write_text(_toml(_mutate(UFS_DOC, data)))
    except TypeError:
        return
    _check_board("ufs", "data", path)


@FUZZ
@given(data=st.data())
def test_aau_board_file_works_or_is_one_line(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("data") / "board.json"
    path.write_text(json.dumps(_mutate(AAU_DOC, data)))
    _check_board("aau", "board", path)


@FUZZ
@given(raw=st.one_of(st.binary(max_size=200), st.text(max_size=200)))
def test_garbage_data_files_are_one_line(tmp_path_factory, raw):
    folder = tmp_path_factory.mktemp("data")
    for name, setting, game in (("c.toml", "data", "ufs"), ("b.json", "board", "aau")):
        path = folder / name
        path.write_bytes(raw if isinstance(raw, bytes) else raw.encode("utf-8", "surrogatepass"))
        _check_board(game, setting, path)


# ---- experiment and bands files ----------------------------------------------------------
EXPERIMENT = tomllib.loads("""
name = "fuzz"
game = "ufs"
seed = 1
report = "reports/fuzz"
chunk_size = 100
[fixed]
robots = true
[[grid]]
games = 10
threat = [0, 1]
bots = ["greedy", "random"]
rotate_seats = false
""")


@FUZZ
@given(data=st.data())
def test_experiment_files_work_or_are_one_line(tmp_path_factory, data):
    from simkit.sweep import load

    doc = _mutate(EXPERIMENT, data)
    path = tmp_path_factory.mktemp("exp") / "e.toml"
    try:
        path.write_text(_toml(doc))
    except TypeError:
        return
    try:
        exp = load(path)
    except UserError as exc:
        _one_line_error(exc)
        return
    assert exp.cells and all(c.spec.n_games >= 1 for c in exp.cells)
    assert all(isinstance(c.spec.rotate_seats, bool) for c in exp.cells)


BANDS = tomllib.loads((ROOT / "experiments/bands.toml").read_text())


@FUZZ
@given(data=st.data())
def test_bands_files_work_or_are_one_line(tmp_path_factory, data):
    from simkit.check import load

    doc = _mutate(BANDS, data)
    path = tmp_path_factory.mktemp("bands") / "b.toml"
    try:
        text = _toml({k: v for k, v in doc.items() if k != "band"})
        for band in doc.get("band", []) if isinstance(doc.get("band"), list) else []:
            text += "[[band]]\n" + (_toml(band) if isinstance(band, dict) else "")
        if not isinstance(doc.get("band", []), list):
            text += f"band = {json.dumps(doc['band']) if not isinstance(doc['band'], bool) else 'true'}\n"
        path.write_text(text)
    except (TypeError, ValueError):
        return
    try:
        bands = load(path)
    except UserError as exc:
        _one_line_error(exc)
        return
    assert bands
