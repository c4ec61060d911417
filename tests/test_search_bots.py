"""Numeric bot options (``search:budget=64``) and the searching bots: what they may read,
what they must leave alone, and how their budget ladder starts."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.errors import UserError
from simkit.game import BotInfo, Number
from simkit.games import get
from simkit.params import build
from simkit.play import Table
from simkit.bots import bot_table
from simkit.seeding import game_seeds
from simkit.play import simulate
from simkit.protocol import entries

UFS = get("ufs")


# ---- numeric options ------------------------------------------------------------------
def test_a_numeric_option_travels_in_the_flags():
    budget = UFS.bots["search"].options["budget"]
    assert UFS.resolve_bot("search").flags == budget.default << budget.shift
    assert UFS.resolve_bot("search:budget=64").flags == 64 << budget.shift
    assert UFS.resolve_bot("search:budget=4096").flags == 4096 << budget.shift
    assert UFS.resolve_bot("search:budget=64").name == "search:budget=64"


@pytest.mark.parametrize("text, message", [
    ("search:budget=0", "out of range"),
    ("search:budget=4097", "out of range"),
    ("search:budget=-3", "out of range"),
    ("search:budget=1e3", "not a whole number"),
    ("search:budget=sixty", "not a whole number"),
    ("search:budget=1_000", "not a whole number"),
    ("search:budget= 64", "not a whole number"),
    ("search:budget", "needs a number"),
    ("search:budget=", "needs a number"),
    ("search:budget=8+budget=16", "given twice"),
    ("search:depth=2", "no option 'depth'"),
])
def test_numeric_options_are_validated(text, message):
    with pytest.raises(UserError, match=message):
        UFS.resolve_bot(text)


def test_switches_and_numbers_share_the_flags_without_overlap():
    info = BotInfo("x", 0, "test", {"fast": 1, "slow": 2, "n": Number(1, 100, 10, shift=2)})
    assert info.flags_for("", "g") == 10 << 2
    assert info.flags_for("fast+n=100", "g") == 1 | (100 << 2)
    assert info.flags_for("n=7+slow", "g") == 2 | (7 << 2)
    with pytest.raises(UserError, match="takes no value"):
        info.flags_for("fast=1", "g")
    with pytest.raises(ValueError, match="bits of flags of its own"):
        BotInfo("y", 0, "test", {"fast": 1, "n": Number(1, 100, 10, shift=0)})
    with pytest.raises(ValueError):
        Number(1, 10, 20, shift=0)  # default out of range


@pytest.mark.parametrize("game, old", [("ufoo", "x4"), ("eftaios", "b16"), ("ovni", "b2")])
def test_every_searching_bot_takes_a_budget_and_no_named_levels(game, old):
    g = get(game)
    budget = g.bots["search"].options["budget"]
    # (other numeric options with defaults may lie above the budget's bits: ovni's cand, pol)
    assert (g.resolve_bot(f"search:budget={budget.hi}").flags & budget.mask) >> budget.shift == budget.hi
    with pytest.raises(UserError, match=f"no option '{old}'"):
        g.resolve_bot(f"search:{old}")
    # the searching bots hand their flags to the other bots' code: the budget's bits must
    # mean nothing there
    for info in g.bots.values():
        for spec in info.options.values():
            assert spec is budget or not (budget.mask & (spec.mask if isinstance(spec, Number) else spec))


def test_option_names_describe_numbers():
    assert UFS.bots["search"].option_names() == ["budget=N (1-4096, default 16)"]
    assert get("aau").bots["strategic"].option_names()[0] == "no-protection"


# ---- Under Falling Skies: search --------------------------------------------------------
@pytest.mark.parametrize("sets", [{}, {"city": "washington", "city_side": "damaged", "threat": 2}])
def test_ufs_search_with_a_budget_of_one_is_the_planner(sets):
    params = build(UFS.params, sets, "ufs")
    seeds = game_seeds(5, 0, 60)
    table = bot_table(1, 0, 60, True)
    planner = simulate(UFS, params, seeds, table, UFS.resolve_bots(["planner"], params))
    search = simulate(UFS, params, seeds, table, UFS.resolve_bots(["search:budget=1"], params))
    for col in planner:
        assert np.array_equal(planner[col], search[col]), col


def _positions(game, params, bot_text, seeds, every=1):
    """Positions of real games of ``bot_text``, with the bot streams at each."""
    b = game.board(params)
    bot = game.resolve_bot(bot_text)
    for seed in seeds:
        t = Table(game, b, seed)
        k = 0
        while not t.over():
            if k % every == 0:
                yield t, bot
            a, _ = t.decide(bot, 0)
            t.step(a)
            k += 1


def test_ufs_search_reads_the_state_without_writing_it_and_reproduces():
    params = build(UFS.params, {"threat": 2}, "ufs")
    fns = entries(UFS)
    n = 0
    for t, bot in _positions(UFS, params, "search:budget=6", game_seeds(8, 0, 2), every=3):
        before = t.s.copy()
        brng = t.brng.copy()
        a1 = fns.choose(bot.code, bot.flags, t.s, t.s[:0].astype(np.int32), brng.copy(), t.b, t.mem[0, :1], t.ib, t.fb)
        assert np.array_equal(t.s, before), "the search wrote into the state it was shown"
        a2 = fns.choose(bot.code, bot.flags, t.s, t.s[:0].astype(np.int32), brng.copy(), t.b, t.mem[0, :1], t.ib, t.fb)
        assert a1 == a2, "the same bot stream gave another choice"
        n += 1
    assert n > 20


def test_ufs_search_needs_no_chance_stream():
    """The search's dice come from its own stream: a position played on with any game
    chance stream gets the same choice (the bot is never given the game's streams)."""
    params = build(UFS.params, {"threat": 1}, "ufs")
    fns = entries(UFS)
    bot = UFS.resolve_bot("search:budget=8")
    for t, _ in _positions(UFS, params, "planner", game_seeds(12, 0, 1), every=2):
        choices = set()
        for other in (1, 2):
            brng = np.zeros(3, np.uint64)
            brng[1] = t.brng[1]
            brng[0] = other  # whatever sits in the unused slots is overwritten, never read
            brng[2] = other * 7
            choices.add(int(fns.choose(bot.code, bot.flags, t.s, t.s[:0].astype(np.int32), brng, t.b, t.mem[0, :1], t.ib, t.fb)))
        assert len(choices) == 1


# ---- Alien Attack USA: search -------------------------------------------------------------
AAU = get("aau")


@pytest.mark.parametrize("sets, same_as", [({"players": 2}, "strategic"), ({"players": 3, "semi_coop": True}, "team")])
def test_aau_search_with_a_budget_of_one_is_its_rollout_bot(sets, same_as):
    params = build(AAU.params, sets, "aau")
    seeds = game_seeds(5, 0, 40)
    table = bot_table(params.players, 0, 40, True)
    base = simulate(AAU, params, seeds, table, AAU.resolve_bots([same_as], params))
    search = simulate(AAU, params, seeds, table, AAU.resolve_bots(["search:budget=1"], params))
    for col in base:
        assert np.array_equal(base[col], search[col]), col


def test_aau_search_never_reads_the_order_of_the_bag():
    """The state holds the bag's order, which no player knows: the search's choice must
    not change when the markers still in the bag are put in another order."""
    from simkit.games.aau.engine import BAG, BAG_N

    params = build(AAU.params, {"players": 2}, "aau")
    fns = entries(AAU)
    bot = AAU.resolve_bot("search:budget=12")
    rng = np.random.default_rng(3)
    checked = 0
    for t, _ in _positions(AAU, params, "strategic", game_seeds(21, 0, 1), every=4):
        before = t.s.copy()
        choices = set()
        for _ in range(3):
            s = t.s.copy()
            n = int(s[BAG_N])
            s[BAG:BAG + n] = rng.permutation(s[BAG:BAG + n])
            choices.add(int(fns.choose(bot.code, bot.flags, s, s[:0], t.brng.copy(), t.b, t.mem[0, :1], t.ib, t.fb)))
        assert len(choices) == 1, "the search's choice depends on the hidden order of the bag"
        a = fns.choose(bot.code, bot.flags, t.s, t.s[:0], t.brng.copy(), t.b, t.mem[0, :1], t.ib, t.fb)
        assert np.array_equal(t.s, before), "the search wrote into the state it was shown"
        assert int(a) in choices
        checked += 1
    assert checked > 10


def test_aau_search_keeps_its_power_switches():
    """search:no-extra never takes an Extra Turn (neither in its choices nor does it count
    on one in its simulations)."""
    from simkit.games.aau.engine import P_POWER

    params = build(AAU.params, {"players": 2}, "aau")
    res = simulate(AAU, params, game_seeds(4, 0, 6), bot_table(2, 0, 6, True), AAU.resolve_bots(["search:no-extra+budget=4"], params))
    assert not np.any(np.asarray(res["powers_used"]) & 8)
    assert P_POWER >= 0


# ---- the reports' "Does it hold under stronger play?" -------------------------------------
UFS_SKILL = """
name = "tiny-skill"
game = "ufs"
seed = 3
chunk_size = 100
report = "{report}"
[[grid]]
games = 40
threat = [0, 1, 2]
city = ["roswell", "new_york"]
city_side = ["normal", "damaged"]
bots = ["greedy", "planner"]
[[grid]]
games = 20
threat = [0, 1, 2]
city = ["roswell", "new_york"]
city_side = ["normal", "damaged"]
bots = ["search:budget=2"]
[[grid]]
games = 20
threat = [0, 1, 2]
city = ["roswell"]
city_side = ["normal"]
bots = ["search:budget=1", "search:budget=2", "search:budget=4"]
[[grid]]
games = 20
threat = [2]
city = ["roswell"]
city_side = ["normal"]
bots = ["search:budget=8"]
"""


def test_ufs_report_recomputes_its_headlines_for_every_bot(tmp_path):
    from simkit.sweep import sweep

    path = tmp_path / "skill.toml"
    path.write_text(UFS_SKILL.format(report=tmp_path / "reports" / "under-falling-skies"))
    sweep(path, out_root=tmp_path / "runs", progress=False)
    text = (tmp_path / "reports" / "under-falling-skies" / "README.md").read_text()
    section = text[text.index("## Does it hold under stronger play?"):]
    for heading in ("The search's budget ladder", "Each step up the ladder, by city and side", "Cities and sides by difficulty", "The hardest tile, by bot",
                    "The threat steps, by bot", "What survives, what flips"):
        assert f"### {heading}" in section
    assert "`greedy` < `planner` < `search:budget=2`" in section
    assert "budgets 1 to 8 (budget 8 at threat 2 only), 20 games per cell" in section  # the shared cell counted once
    assert "| 4 -> 8 |" in section
    assert "| 1 -> 2 |" in section and "| 2 -> 4 |" in section
    assert "greedy vs search:budget=2" in section  # rank correlations
    assert (tmp_path / "reports" / "under-falling-skies" / "search-budget.png").exists()
    # the ladder's one-city bots stay out of the tables of every cell
    assert "| search:budget=4 |" not in text[:text.index("## Does it hold")]


AAU_SKILL = """
name = "tiny-skill"
game = "aau"
seed = 3
chunk_size = 100
report = "{report}"
[[grid]]
games = 24
players = [2, 3]
semi_coop = [false]
bots = ["strategic", "greedy"]
rotate_seats = true
[[grid]]
games = 12
players = [2]
semi_coop = [true, false]
bots = ["team"]
rotate_seats = true
[[grid]]
games = 24
players = [2]
semi_coop = [false]
bots = [["strategic", "strategic:no-extra"], ["strategic", "strategic:no-cover"]]
rotate_seats = true
[[grid]]
games = 12
players = [2]
semi_coop = [false]
bots = [["search:budget=2", "strategic"], ["search:budget=3", "strategic"]]
rotate_seats = true
[[grid]]
games = 12
players = [2, 3]
semi_coop = [false]
bots = ["search:budget=2"]
rotate_seats = true
[[grid]]
games = 24
players = [2]
semi_coop = [false]
bots = [["greedy", "greedy:no-extra"], ["greedy", "greedy:no-cover"]]
rotate_seats = true
[[grid]]
games = 12
players = [2]
semi_coop = [false]
bots = [["search:budget=2", "search:no-extra+budget=2"], ["search:budget=2", "search:no-cover+budget=2"]]
rotate_seats = true
"""


def test_aau_report_recomputes_its_headlines_for_every_bot(tmp_path):
    from simkit.sweep import sweep

    path = tmp_path / "skill.toml"
    path.write_text(AAU_SKILL.format(report=tmp_path / "reports" / "alien-attack-usa"))
    sweep(path, out_root=tmp_path / "runs", progress=False)
    text = (tmp_path / "reports" / "alien-attack-usa" / "README.md").read_text()
    section = text[text.index("## Does it hold under stronger play?"):]
    for heading in ("The search against strategic", "Seat advantage, by bot", "Mission payoffs, by bot",
                    "Power values, by bot", "What survives, what flips"):
        assert f"### {heading}" in section
    assert "`greedy` < `strategic` < `search:budget=2`" in section
    assert "`search:budget=3`" in section
    assert "[+1.00, +1.00]" not in section and "Kendall" not in section  # no rank correlation with a bootstrap interval
    assert "Games: `greedy` 24 per power, `strategic` 24 per power, `search:budget=2` 12 per power" in section
