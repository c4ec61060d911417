"""The pieces of the game contract: named layouts and action spaces, the per-game
compile cache, the notebook Rules, and what user bots may and may not do."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest

from simkit import _cache
from simkit.errors import UserError
from simkit.games import REGISTRY, get
from simkit.layout import ActionSpace, Layout
from simkit.rules import IllegalAction


def test_layout_hands_out_named_offsets_and_derives_seat_strides():
    L = Layout("t")
    a, b = L.scalars("a", "b")
    arr = L.array("arr", 5)
    blk = L.seats("player", 3, "score", ("hand", 4), "won")
    assert (a, b, arr) == (0, 1, 2)
    assert blk.base == 7 and blk.stride == 6 and (blk.score, blk.hand, blk.won) == (0, 1, 5)
    assert L.size == 7 + 3 * 6
    v = np.arange(L.size, dtype=np.int32)
    view = L.view(v, seats=2)
    assert view["b"] == 1 and list(view["arr"]) == [2, 3, 4, 5, 6]
    assert view["player"][1]["won"] == 7 + 6 + 5 and list(view["player"][0]["hand"]) == [8, 9, 10, 11]
    assert len(view["player"]) == 2
    with pytest.raises(ValueError):
        L.scalar("a")
    with pytest.raises(ValueError):
        L.seats("too_many", 9, "x")


def test_action_space_ranges_are_disjoint_and_decode():
    A = ActionSpace()
    move = A.range("move", 10)
    stop = A.single("stop")
    assert (move, stop, A.size) == (0, 10, 11)
    assert A.decode(7) == ("move", 7) and A.decode(10) == ("stop", 0)
    with pytest.raises(ValueError):
        A.decode(11)
    with pytest.raises(ValueError):
        A.range("move", 3)


def test_each_game_compiles_from_its_own_files_only():
    """Editing one game changes only its own compile-cache folder."""
    names = list(REGISTRY)
    for name in names:
        files = {str(p) for p in _cache.compiled_files(name)}
        for other in names:
            if other != name:
                assert not any(f"/games/{other}/" in f or f"/strategies/{other}/" in f for f in files)
    assert len({_cache.compiled_hash(n) for n in names}) == len(names)


def test_rules_take_settings_validated_like_set():
    from simkit.games.ufs import Rules

    rules = Rules(threat=3, city="new_york")
    assert rules.params.threat == 3 and rules.params.city == "new_york"
    with pytest.raises(UserError, match="threat"):
        Rules(threat=9)
    with pytest.raises(UserError, match="no parameter"):
        Rules(colour="red")
    st = rules.new(1)
    a = int(rules.legal(st)[0])
    assert rules.describe_action(st, a).startswith("place")
    assert rules.view(st)["round"] == 1 and len(rules.view(st)["die_val"]) == 5
    with pytest.raises(IllegalAction):
        rules.step(st, 10**6)
    with pytest.raises(UserError):
        rules.new(-1)


def _user_run(tmp_path, monkeypatch, source, game="template", n=3):
    from simkit.runner import RunSpec, run

    (tmp_path / "ubot.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    g = get(game)
    params = g.params()
    bots = tuple(g.resolve_bots(["ubot:fn", "count"], params))
    return run(RunSpec(g, params, bots, n, 1), None, progress=False)


@pytest.mark.parametrize("body, message", [
    ("return None", "returned None"),
    ("return 'liar'", "returned 'liar'"),
    ("return 1.0", "returned 1.0"),
    ("return True", "returned True"),
    ("return legal", "returned array"),
    ("raise RuntimeError('boom')", "raised RuntimeError: boom"),
    ("import sys; sys.exit(3)", "raised SystemExit"),
    ("raise KeyboardInterrupt", "raised KeyboardInterrupt"),  # in a worker, which ignores Ctrl-C: the bot's own (it said "interrupted")
    ("return 2_000_000_000", "not legal"),
])
def test_a_misbehaving_user_bot_is_one_line_naming_it(tmp_path, monkeypatch, body, message):
    import sys

    sys.modules.pop("ubot", None)
    with pytest.raises(UserError) as exc:
        _user_run(tmp_path, monkeypatch, f"def fn(observation, legal, rng):\n    {body}\n")
    text = str(exc.value)
    assert "\n" not in text and "ubot:fn" in text and "game 0" in text and message in text


class _RaisingStr(Exception):
    def __str__(self):
        raise RuntimeError("str")


class _RaisingRepr:
    def __repr__(self):
        raise RuntimeError("repr")


class _RaisingInt(int):
    __hash__ = int.__hash__

    def __int__(self):
        raise RuntimeError("int")

    def __eq__(self, other):
        raise RuntimeError("eq")


def _raise(exc):
    raise exc


@pytest.mark.parametrize("fn, message", [
    (lambda o, legal, rng: _raise(_RaisingStr()), "raised _RaisingStr"),
    (lambda o, legal, rng: _RaisingRepr(), "returned an object (_RaisingRepr)"),
    (lambda o, legal, rng: _RaisingInt(2_000_000_000), "chose 2000000000, which is not legal"),
    (lambda o, legal, rng: _RaisingInt(int(legal[0])), None),
])
def test_a_user_bots_objects_whose_own_methods_raise_are_one_line(fn, message):
    """Each was a traceback from the worker (a hostile-user review)."""
    import numpy as np

    from simkit.bots import call_user_bot

    legal = np.array([3, 5], np.int32)
    if message is None:
        assert call_user_bot("m:f", fn, np.zeros(2, np.int32), legal, None, 0, 1) == 3
        return
    with pytest.raises(UserError, match=re.escape(message)) as exc:
        call_user_bot("m:f", fn, np.zeros(2, np.int32), legal, None, 0, 1)
    assert "\n" not in str(exc.value)


def test_a_user_bot_gets_copies(tmp_path, monkeypatch):
    """Writing into its arguments changes nothing: same games as a bot that does not."""
    import sys

    sys.modules.pop("ubot", None)
    clean = _user_run(tmp_path, monkeypatch, "def fn(observation, legal, rng):\n    return int(legal[-1])\n", n=20)
    sys.modules.pop("ubot", None)
    dirty = _user_run(tmp_path, monkeypatch, "def fn(observation, legal, rng):\n    a = int(legal[-1])\n    legal[:] = 0\n    observation[:] = 99\n    return a\n", n=20)
    assert clean.frame.drop("bot").equals(dirty.frame.drop("bot"))


def test_reports_and_declarations_are_outside_the_compile_and_outcome_hashes():
    """A game's report, text descriptions and sensitivity declaration are plain Python:
    editing them neither recompiles the game nor invalidates its finished runs."""
    for name in REGISTRY:
        files = {p.name for p in _cache.compiled_files(name)}
        assert not files & _cache.NOT_OUTCOMES


def test_outcome_hash_ignores_comments_docstrings_and_help_texts(tmp_path, monkeypatch):
    """Editing a comment, a docstring or a setting's help keeps finished runs valid; editing
    code (a default, a rule) does not."""
    rules, bots = tmp_path / "simkit" / "games" / "g", tmp_path / "strategies" / "g"
    rules.mkdir(parents=True)
    monkeypatch.setattr(_cache, "ROOT", tmp_path)
    monkeypatch.setattr(_cache, "CORE", [])
    params = rules / "params.py"

    def digest(text: str) -> str:
        params.write_text(text)
        return _cache.outcome_hash(rules, bots)

    base = digest('"""Doc."""\nx: int = setting(2, help="two")  # note\n')
    assert digest('"""Other doc."""\n# a comment\nx: int = setting(2, help="the rulebook\'s two")\n') == base
    assert digest('"""Doc."""\nx: int = setting(3, help="two")\n') != base
    assert digest('"""Doc."""\nx: int = setting(2, lo=0, help="two")\n') != base
    # a game's title and text records (trace legends, descriptions) are words, not rules
    spec = 'SPEC = GameSpec(name="g", title="{}", text=Text(trace_legend="{}"), max_steps={})\n'
    base = digest(spec.format("G", "x: a ship", 50))
    assert digest(spec.format("The G", "x: a ship shot down", 50)) == base
    assert digest(spec.format("G", "x: a ship", 60)) != base
    # a bot's help and a column's meaning too; not a bot's name or code, nor a column's name
    decl = 'BOTS = {{"greedy": BotInfo("greedy", {}, "{}")}}\nCOLS = [seat_column("{}", 3, "{}")]\n'
    base = digest(decl.format(1, "the most points", "won", "whether the seat won"))
    assert digest(decl.format(1, "the most points now", "won", "did the seat win")) == base
    assert digest(decl.format(2, "the most points", "won", "whether the seat won")) != base
    assert digest(decl.format(1, "the most points", "win", "whether the seat won")) != base


def test_check_contract_names_a_loop_bound_to_other_bots_and_a_wrong_arity():
    """A copied __init__.py or loop.py that still imports another game's bots, or a protocol function with
    the wrong arguments, is named by the contract check (the conformance suite runs it on
    every game) instead of hanging or failing deep in compiled code."""
    import dataclasses
    import types

    import strategies.ufs

    from simkit.conformance import check_contract
    from simkit.games import get

    t = get("template")
    problems = check_contract(dataclasses.replace(t, strategies=strategies.ufs))
    # a copied __init__.py still naming another game's bots is named there, not blamed on loop.py
    assert any("__init__.py declares the bots of 'strategies.ufs': write 'import strategies.template as bots'" in p
               for p in problems), problems
    assert not any("loop.py binds" in p for p in problems), problems
    copied = dataclasses.replace(t, name="dice2", checks=t.checks)
    assert any("Checks(template=True) hides this game" in p for p in check_contract(copied))
    engine = types.ModuleType(t.engine.__name__)
    engine.__dict__.update({k: v for k, v in vars(t.engine).items() if not k.startswith("__")}, __file__=t.engine.__file__)
    engine.legal_actions = lambda s, b: None
    problems = check_contract(dataclasses.replace(t, engine=engine))
    assert "engine legal_actions() takes 2 arguments; the loop calls legal_actions(s, b, out)" in problems
    assert any("must bind this game's engine" in p for p in problems)
    bots = types.ModuleType(t.strategies.__name__)
    bots.__dict__.update(vars(t.strategies))
    bots.CHOOSE = (lambda flags, obs: 0,) + t.strategies.CHOOSE[1:]
    assert "strategies CHOOSE[0] must be a function (flags, obs, legal, rng, b, mem, ib, fb)" in check_contract(
        dataclasses.replace(t, strategies=bots))
    bots.CHOOSE = t.strategies.CHOOSE[:1]
    assert any("one function per bot code" in p for p in check_contract(dataclasses.replace(t, strategies=bots)))


def test_a_run_compiles_only_the_bots_it_plays(tmp_path):
    """The compiled loop is compiled per set of built-in bots: playing the template's
    random bot (in a fresh process with an empty cache) compiles no other bot's function."""
    import subprocess
    import sys

    script = ("import strategies.template as S; from simkit.games import get; from simkit.bots import bot_table; from simkit.play import simulate; "
              "from simkit.seeding import game_seeds; t = get('template'); p = t.params(); "
              "simulate(t, p, game_seeds(0, 0, 2), bot_table(1, 0, 2, False), t.resolve_bots(['random'], p)); "
              "print(len(S.CHOOSE[0].signatures), len(S.CHOOSE[1].signatures))")
    env = dict(os.environ, SIMKIT_CACHE_DIR=str(tmp_path))
    env.pop("SIMKIT_EVERY_BOT_LOOP", None)  # the suite's one loop for every bot (conftest)
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert out.stdout.split() == ["1", "0"], out.stderr[-2000:]
    # Another fresh process compiles the count bot's loop, then loads the random one from the
    # cache: numba names compiled code by qualified name and a counter of the compiling
    # process, so both loops were once `chunk$1`, and a process holding two such loops
    # mixed them up (AAU: "'descr' is NULL" in `python -m simkit.golden`).
    script = ("from simkit.games import get; from simkit.bots import bot_table; from simkit.play import simulate; "
              "from simkit.protocol import game_loop; from simkit.seeding import game_seeds; t = get('template'); p = t.params(); "
              "[simulate(t, p, game_seeds(0, 0, 2), bot_table(1, 0, 2, False), t.resolve_bots([b], p)) for b in ('count', 'random')]; "
              "names = [c.fndesc.mangled_name for used in (1, 2) for c in game_loop(t).play_chunk(used).overloads.values()]; "
              "print(len(names), len(set(names)))")
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert out.stdout.split() == ["2", "2"], out.stderr[-2000:]


def test_compiled_closures_are_named_after_what_they_hold():
    """Closures that numba compiles into a loop (the bot chain, the searches' sequential
    halving) carry what they hold in their names, so that code compiled in different
    processes never shares a name with different code (simkit.loop.named_after)."""
    import strategies.aau
    import strategies.ufs

    from simkit.loop import _chain

    chains = [_chain(codes, S.CHOOSE) for S in (strategies.ufs, strategies.aau) for codes in ([0], [1], [0, 1], [0, 2])]
    assert len({f.__qualname__ for f in chains}) == len(chains)
    assert strategies.ufs.search.halve.py_func.__qualname__ != strategies.aau.search.halve.py_func.__qualname__


def test_a_run_says_once_what_it_compiles(tmp_path, monkeypatch):
    """Before a loop that is not in the cache yet, one line names the game and its bots;
    once compiled, nothing is said."""
    from simkit.compiled import ensure_compiled
    from simkit.games import get

    monkeypatch.setenv("SIMKIT_CACHE_DIR", str(tmp_path))
    t = get("template")
    bots = t.resolve_bots(["random"], t.params())
    said: list[str] = []
    ensure_compiled([(t, bots), (t, bots)], said.append)
    assert len(said) == 1 and "compiling" in said[0] and "template with random" in said[0], said
    ensure_compiled([(t, bots)], said.append)
    assert len(said) == 1


def test_bots_that_ask_get_the_legal_actions_in_perfect_information_games():
    """The random bots of UFS, AAU and Ufo.O pick from the list the loop hands them
    (BotInfo(legal=True)); the other bots of those games get it empty (see simkit.loop).
    Their games are the goldens' (listing by the loop changed no outcome)."""
    from simkit.games import get
    from simkit.loop import listing_bots
    from simkit.params import build
    from simkit.play import Table

    for name in ("ufs", "aau", "ufoo"):
        game = get(name)
        assert listing_bots(game.strategies.BOTS) == 1 << game.bots["random"].code
        t = Table(game, game.board(build(game.params, {}, name)), 5)
        seen = []

        class Spy:  # the game's entries, noting how many legal actions each bot is handed
            def __getattr__(self, name, inner=t.fns):
                return getattr(inner, name)

            def choose(self, code, flags, obs, legal, *rest, inner=t.fns):
                seen.append(len(legal))
                return inner.choose(code, flags, obs, legal, *rest)

        t.fns = Spy()
        for bot in ("random", game.default_bot):
            t.decide(game.resolve_bot(bot), 0)
        assert seen[0] > 0 and seen[1] == 0, name


def test_a_user_bot_module_that_imports_a_missing_module_is_named_as_found(tmp_path, monkeypatch):
    """Found but failing on an import of its own: said so, with the missing module (it was
    "unknown bot 'depbot' ... no module 'depbot' here" beside the file)."""
    import sys

    from simkit.games import get

    (tmp_path / "depbot.py").write_text("import nonexistent_mod_xyz\ndef choose(observation, legal, rng):\n    return legal[0]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("depbot", None)
    with pytest.raises(UserError, match="importing depbot failed: No module named 'nonexistent_mod_xyz'"):
        get("ufs").resolve_bot("depbot:choose")
    with pytest.raises(UserError, match="no module 'nobot' here"):
        get("ufs").resolve_bot("nobot:choose")


def test_a_compilation_left_running_that_failed_is_said(monkeypatch):
    """A small run plays as plain Python while its loop compiles, and leaves the compiler
    to finish: on a full cache disk it failed unsaid, and every later run played as plain
    Python (a hundred times slower)."""
    from concurrent.futures import Future

    from simkit import compiled

    class Pool:
        def shutdown(self, wait=True, kill_workers=False):
            pass

    failed = Future()
    failed.set_exception(ValueError("the compile cache /x cannot be written (No space left on device)\nmore lines"))
    monkeypatch.setattr(compiled, "_LEFT_RUNNING", [(Pool(), {failed})])
    said: list[str] = []
    compiled.finish_compiling(said.append)
    assert said == ["the compilation failed, and the next run plays as plain Python again: the compile cache /x "
                    "cannot be written (No space left on device)"]
