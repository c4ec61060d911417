"""How much stronger one bot is than another: the ladder of a game's bots (issue 25).

The estimand, one for every game and player count: **the points of win share one seat
gains when its bot is swapped from the weaker bot to the stronger, every other seat kept
on the weaker bot.** The stronger bot plays one seat against the weaker bot in all the
others, seats rotated (game *i* puts it in seat ``-i mod n``); the weaker bot plays the
same seeds against itself, and game *i*'s difference is the stronger bot's share minus
what the weaker bot's seat got there. The mean of those paired differences is the margin
(a t interval over games, corrected for skewness). A seat's share is the game's ``win_share`` column where it has
one (1/k when k seats share a win) and ``won`` otherwise, so the same figure reads

- heads up: the stronger bot's win share minus 50% (60% is a 10-point margin);
- one seat against three: its share minus the weaker bot's in that seat (25% on average);
- a solo game: the difference of the two bots' win rates on the same seeds;
- a team game (EFTAIOS): what one seat's team result gains by the swap.

The verdict is a question asked once (:func:`verdict`): the margin is claimed to be at
least ``target`` points only when its 95% interval lies above it, and a bot is called
stronger only when the interval lies above 0; the error rates are checked by simulation
in tests/test_strength.py.

In a game whose questions ask about two sides (a :class:`~simkit.questions.SideBalance`,
e.g. EFTAIOS's humans and aliens) the margin is also split by the side the stronger bot's
seat was dealt (:attr:`Matchup.sides`): where skill pays. The split is descriptive, each
part with its interval and no verdict of its own.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from .bots import bot_table
from .errors import UserError
from .game import GameSpec, Number
from .stats import bernstein_half_width, games_for_t, mean_interval, skew_corrected_interval, wilson

# Issue 25: the top bot beats the next strongest by at least 10 points of win share.
TARGET = 0.10

AT_LEAST = "at least {t} points stronger"
STRONGER_BELOW = "stronger, by less than {t} points"
STRONGER = "stronger ({t} points neither shown nor ruled out)"
NOT_SHOWN = "not shown stronger or weaker"
WEAKER = "weaker"
# The verdicts in a table's few columns (the notes under it spell them out).
SHORT = {AT_LEAST.format(t="10"): ">= 10 shown", STRONGER_BELOW.format(t="10"): "< 10 shown",
         STRONGER.format(t="10"): "stronger", NOT_SHOWN: "not shown", WEAKER: "weaker"}


@dataclasses.dataclass(frozen=True)
class Matchup:
    """One bot against another: its share in its seat, the weaker bot's share in the same
    seats and games, and the paired margin (shares as fractions, 95% intervals)."""

    strong: str
    weak: str
    players: int
    games: int
    seed: int
    share: tuple[float, float, float]
    fair: tuple[float, float, float]
    margin: tuple[float, float, float]
    verdict: str
    # the margin over the games where the stronger bot's seat was dealt each side (a game
    # with sides): (the side's seat name, games, (estimate, lo, hi))
    sides: tuple[tuple[str, int, tuple[float, float, float]], ...] = ()

    def row(self) -> dict[str, str]:
        """A table row narrow enough for 80 columns: percentages and points with the half
        width of their (symmetric t) interval."""
        pm = lambda e, sign="": f"{100 * e[0]:{sign}.1f} ±{50 * (e[2] - e[1]):.1f}"  # noqa: E731
        return {"bot": self.strong, "against": self.weak, "its share %": pm(self.share),
                "against's %": pm(self.fair), "margin pts": pm(self.margin, "+"), "verdict": SHORT.get(self.verdict, self.verdict)}


def verdict(diffs: np.ndarray, target: float = TARGET) -> tuple[tuple[float, float, float], str]:
    """The margin (mean of paired differences) with, on each side, the farther bound of
    the t interval and the skewness-corrected one (and of the empirical Bernstein bound
    where the differences are too skewed for a t interval), and what it shows. A claim needs its
    interval on one side of the line. The t interval's upper bound erred on the skewed
    differences of a rare gain (a bot winning one game in ten more, else the same: 'by less
    than 10 points' 6.1% of the time at 100 games, 3.2% at 2,000, against 2.5%; a
    statistician's review): :func:`~simkit.stats.skew_corrected_interval`; that one alone
    erred the other way on mostly tied games with a few decisive ones. With no spread at all (every game the same
    difference c, in [-1, 1]) the interval is exact: fewer than a share
    ``q = 1 - 0.025^(1/n)`` of games can differ, each by at most the range, so the margin
    lies in ``[c - (c + 1) q, c + (1 - c) q]``. A handful of games claims nothing; a bot
    that won all of 20 games against one that lost them is at least 10 points stronger
    (it said 'not shown', with '±0.0')."""
    x = np.asarray(diffs, np.float64)
    d, t = skew_corrected_interval(x), mean_interval(x)
    # each bound the farther of the two: the correction fixes a rare gain's skewed upper
    # bound, but estimated from two decisive games among ties it called equal bots stronger
    # or weaker about 10% of the time (a second review), where the t interval did not
    c, lo, hi = d.estimate, min(d.lo, t.lo), max(d.hi, t.hi)
    if hi > lo and x.size < games_for_t(x):  # (no spread: the exact bound below)
        # too skewed for any t interval (stats.games_for_t): the empirical Bernstein bound
        # too, valid at any number of games for differences within [-1, 1]. A rare large gain
        # against frequent small losses had equal bots called weaker 5.9% of the time at 100
        # games; widening only the long tail's side does not help, since the samples that
        # err are those that lack the tail. The price: a sparse one-way gain needs more games
        # (10 wins and 290 ties are not shown; 40 and 1,960 are)
        b = bernstein_half_width(x, 2.0, 0.05)
        lo, hi = max(-1.0, min(lo, c - b)), min(1.0, max(hi, c + b))
    if x.size >= 2 and not hi > lo:
        q = 1 - 0.025 ** (1 / x.size)
        lo, hi = c - (c + 1) * q, c + (1 - c) * q
    est = (c, lo, hi)
    t = f"{100 * target:g}"
    if not hi > lo:
        return est, NOT_SHOWN
    if lo >= target:
        return est, AT_LEAST.format(t=t)
    if lo > 0:
        return est, (STRONGER_BELOW if hi < target else STRONGER).format(t=t)
    if hi < 0:
        return est, WEAKER
    return est, NOT_SHOWN


def value_column(columns: Sequence[str]) -> str:
    return "win_share" if "win_share" in columns else "won"


def seat_values(result, games: int, seats: int) -> np.ndarray:
    """``values[g, seat]``: each seat's share of game ``g`` (``win_share``, else ``won``)."""
    col = value_column(result.schema)
    f = result.read(["game_index", "seat", col]).sort("game_index", "seat")
    return f[col].cast(float).to_numpy().reshape(games, seats)


def strong_seats(games: int, seats: int) -> np.ndarray:
    """The seat (0-based) of the run's first bot in each game, seats rotated."""
    return np.argmax(bot_table(seats, 0, games, True) == 0, axis=1)


def side_question(game: GameSpec):
    """The game's question about two sides (:class:`~simkit.questions.SideBalance`), if any."""
    from .questions import SideBalance, declared

    return next((q for q in declared(game) if isinstance(q, SideBalance)), None)


def seat_sides(result, games: int, seats: int, column: str) -> np.ndarray:
    """``sides[g, seat]``: the side each seat of game ``g`` was dealt."""
    f = result.read(["game_index", "seat", column]).sort("game_index", "seat")
    return f[column].to_numpy().reshape(games, seats)


def split_by_side(diffs: np.ndarray, dealt: np.ndarray, question) -> tuple:
    """The paired differences' mean and interval over the games of each side."""
    return tuple((name, int((dealt == side).sum()), _interval(diffs[dealt == side]))
                 for side, name in zip(question.sides, question.seat_name) if (dealt == side).sum() >= 2)


def _folder(name: str) -> str:
    """A bot pairing as a folder name (``search:budget=4`` -> ``search-budget-4``)."""
    return re.sub(r"[^A-Za-z0-9_.]+", "-", name).strip("-")


def _interval(x: np.ndarray) -> tuple[float, float, float]:
    iv = mean_interval(x)
    return (iv.estimate, iv.lo, iv.hi)


def _share_interval(x: np.ndarray) -> tuple[float, float, float]:
    """A mean win share's interval: the t interval, or where every game gave the seat the
    same share (a bot that won all 2,000 games: '100.0 ±0.0') the Wilson interval of that
    mean, which a share in [0, 1] keeps (its variance is at most p(1 - p))."""
    est, lo, hi = _interval(x)
    if len(x) and not hi > lo:
        iv = wilson(float(np.mean(x)) * len(x), len(x))
        return (est, iv.lo, iv.hi)
    return est, lo, hi


def head_to_head(game: GameSpec, params: Any, strong: str, weak: str, games: int, seed: int = 0, *,
                 jobs: int = 1, progress: bool | Callable[[int], None] = False, target: float = TARGET,
                 selfplay: dict | None = None, out: Path | None = None) -> Matchup:
    """``strong`` in one seat against ``weak`` in every other, seats rotated, paired with
    ``weak`` against itself on the same seeds. ``selfplay`` caches the weaker bot's runs
    across calls (a budget curve reuses one); ``out``: a folder simkit manages keeping
    both runs (resumable, one folder per bot and pairing; a run there of older code or
    settings is played again, as a sweep's cells are)."""
    from .runner import run_many

    if games < 2:
        raise UserError("a head-to-head needs at least 2 games")
    cache = {} if selfplay is None else selfplay
    needed = _runs_needed(game, params, strong, weak, games, seed, cache, out)
    results = run_many([(spec, where) for _, spec, where in needed], jobs=jobs, progress=progress,
                       label=f"{game.name} {strong} vs {weak}", replace_stale=True) if needed else []
    played = None
    for (key, _, _), result in zip(needed, results):
        if key is None:  # a user's bot: played at each call, never cached
            played = seat_values(result, games, game.seats(params))
        else:
            _keep(cache, game, params, key, result, games)
    seats = game.seats(params)
    same = _strong_key(game, params, strong, weak, games, seed)
    key = (weak, seed, games)
    values = cache[same] if same is not None else played
    at = strong_seats(games, seats)
    rows = np.arange(games)
    mine = values[rows, at]
    theirs = cache[key][rows, at]
    margin, said = verdict(mine - theirs, target)
    question = side_question(game) if seats > 1 else None
    dealt = cache.get(("sides", key)) if question is not None else None
    sides = split_by_side(mine - theirs, dealt[rows, at], question) if dealt is not None else ()
    return Matchup(strong, weak, seats, games, seed, _share_interval(mine), _share_interval(theirs), margin, said, sides)


def _strong_key(game: GameSpec, params: Any, strong: str, weak: str, games: int, seed: int) -> tuple | None:
    """The cache key of the stronger bot's run: a built-in bot is its code and flags
    (search:budget=D is search, played once); None for a user's bot."""
    bot = game.resolve_bots([strong], params)[0]
    return (bot.code, bot.flags, weak, seed, games) if bot.fn is None and bot.source is None else None


def _runs_needed(game: GameSpec, params: Any, strong: str, weak: str, games: int, seed: int, cache: dict,
                 out: Path | None) -> list[tuple[tuple | None, Any, Path | None]]:
    """The runs a head-to-head still needs, each with the cache key its seat values go
    under: the stronger bot against the weaker, and the weaker bot's self-play."""
    from .runner import RunSpec

    seats = game.seats(params)
    same = _strong_key(game, params, strong, weak, games, seed)
    key = (weak, seed, games)
    where = (lambda name: out / _folder(name)) if out is not None else (lambda name: None)
    needed = []
    if same is None or same not in cache:
        bots = tuple(game.resolve_bots([strong] + [weak] * (seats - 1), params))
        needed.append((same, RunSpec(game, params, bots, games, seed, True), where(f"{strong}-vs-{weak}")))
    if key not in cache:
        needed.append((key, RunSpec(game, params, tuple(game.resolve_bots([weak], params)), games, seed, True), where(f"{weak}-self")))
    return needed


def _keep(cache: dict, game: GameSpec, params: Any, key: tuple, result, games: int) -> None:
    """Keeps a run's seat values in the cache (and, of a self-play run, the sides dealt:
    the same seeds deal the same sides whoever plays)."""
    seats = game.seats(params)
    cache[key] = seat_values(result, games, seats)
    question = side_question(game) if seats > 1 else None
    if len(key) == 3 and question is not None:
        cache[("sides", key)] = seat_sides(result, games, seats, question.side)


def ladder(game: GameSpec, params: Any, bots: Sequence[str] | None = None, games: int = 1000, seed: int = 0, *,
           jobs: int = 1, progress: bool | Callable[[int], None] = False, target: float = TARGET,
           say: Callable[[str], None] = lambda text: None, selfplay: dict | None = None,
           out: Path | None = None) -> list[Matchup]:
    """Each bot against the one before it (``bots`` weakest first; default: the game's
    built-in bots in the order it declares them, at the strengths the tests play them
    with none given)."""
    names = list(bots) if bots else list(game.bots)
    if len(names) < 2:
        raise UserError("a ladder needs at least two bots, weakest first")
    cache = {} if selfplay is None else selfplay
    found = []
    for k, (weak, strong) in enumerate(zip(names, names[1:])):
        say(f"[{k + 1}/{len(names) - 1}] {strong} against {weak}, {games:,} games")
        found.append(head_to_head(game, params, strong, weak, games, seed, jobs=jobs, progress=progress, target=target,
                                  selfplay=cache, out=out))
    return found


def budget_option(game: GameSpec, bot: str) -> Number | None:
    """The built-in bot's ``budget=`` option, if it has one."""
    info = game.bots.get(bot.partition(":")[0])
    option = info.options.get("budget") if info else None
    return option if isinstance(option, Number) else None


def budgets(game: GameSpec, bot: str) -> tuple[str, list[int]]:
    """The bot's numeric strength option (``budget``) and the budgets of its curve: a
    quarter, half, once and twice its default, within its allowed range."""
    name = bot.partition(":")[0]
    option = budget_option(game, bot)
    if option is None:
        raise UserError(f"{game.name}: bot {name!r} has no budget= option to grow")
    d = option.default
    return name, sorted({min(max(b, max(option.lo, 1)), option.hi) for b in (d // 4, d // 2, d, 2 * d)})


def budget_curve(game: GameSpec, params: Any, bot: str, against: str, games: int = 1000, seed: int = 0, *,
                 jobs: int = 1, progress: bool | Callable[[int], None] = False, target: float = TARGET,
                 say: Callable[[str], None] = lambda text: None, selfplay: dict | None = None,
                 out: Path | None = None) -> list[Matchup]:
    """The bot at each budget of :func:`budgets` against ``against``: strength against budget."""
    name, steps = budgets(game, bot)
    cache = {} if selfplay is None else selfplay
    found = []
    for k, b in enumerate(steps):
        text = f"{name}:budget={b}"
        say(f"[{k + 1}/{len(steps)}] {text} against {against}, {games:,} games")
        found.append(head_to_head(game, params, text, against, games, seed, jobs=jobs, progress=progress, target=target,
                                  selfplay=cache, out=out))
    return found


def play_ladder(game: GameSpec, params: Any, bots: Sequence[str], games: int, seed: int = 0, *, curve: bool = True,
                jobs: int = 1, progress: bool | Callable[[int], None] = False, say: Callable[[str], None] = lambda text: None,
                out: Path | None = None) -> list[Matchup]:
    """The ladder, then (``curve``, when the top bot has a ``budget=``) its budget curve
    against the next strongest, sharing the weaker bots' self-play."""
    return play_ladders(game, [(params, out)], bots, games, seed, curve=curve, jobs=jobs, progress=progress, say=say)[0]


def play_ladders(game: GameSpec, cases: Sequence[tuple[Any, Path | None]], bots: Sequence[str], games: int, seed: int = 0, *,
                 curve: bool = True, jobs: int = 1, progress: bool | Callable[[int], None] = False,
                 say: Callable[[str], None] = lambda text: None) -> list[list[Matchup]]:
    """:func:`play_ladder` at each ``(params, out)`` of ``cases`` (a report's player
    counts). Every run of built-in bots is played in one pool, under one progress bar and
    one estimate of its time: a pool per pairing left a core idle at each pairing's end,
    and said no time at all when each pairing was short."""
    from .runner import run_many

    planned = [ladder_runs(game, params, bots, games, seed, curve=curve, out=out) for params, out in cases]
    flat = [(spec, where) for runs in planned for _, spec, where in runs]
    if flat:
        say(f"{len(flat)} runs of {games:,} games")
    seats = sorted({game.seats(params) for params, _ in cases})
    label = f"{game.name} ladder" + (f", {'/'.join(map(str, seats))} seats" if seats != [1] else "")
    results = iter(run_many(flat, jobs=jobs, progress=progress, label=label, replace_stale=True) if flat else [])
    found = []
    for (params, out), runs in zip(cases, planned):
        cache: dict = {}
        for key, _, _ in runs:
            _keep(cache, game, params, key, next(results), games)
        tell = say if not flat else (lambda text: None)  # (played above: its lines would follow the games)
        rows = ladder(game, params, bots, games, seed, jobs=jobs, progress=progress, say=tell, selfplay=cache, out=out)
        if curve and budget_option(game, bots[-1]) is not None:
            rows += budget_curve(game, params, bots[-1], bots[-2], games, seed, jobs=jobs, progress=progress, say=tell,
                                 selfplay=cache, out=out)
        found.append(rows)
    return found


def report_cases(exp, root: Path) -> list[tuple[Any, Any, Path]]:
    """The experiment's [ladder] at each player count it names: ``(players, params,
    folder)``, the folders under ``root`` (runs/ladder/<experiment>/)."""
    from .params import build

    lad = exp.ladder
    cases = []
    for n in (lad["players"] or [None]) if lad else []:
        sets = {**lad["set"], **({"players": n} if n is not None else {})}
        folder = root / "-".join(f"{k}={v}" for k, v in sorted(sets.items())) if sets else root / "default"
        cases.append((n, build(exp.game.params, sets, exp.game.name), folder))
    return cases


def ladder_runs(game: GameSpec, params: Any, bots: Sequence[str], games: int, seed: int = 0, *, curve: bool = True,
                out: Path | None = None) -> list[tuple[tuple, Any, Path | None]]:
    """The runs of :func:`play_ladder` whose bots are all built in (a user's bot is played
    pairing by pairing), each once, with the cache key of its seat values."""
    pairs = list(zip(bots[1:], bots[:-1]))
    if curve and len(bots) > 1 and budget_option(game, bots[-1]) is not None:
        name, steps = budgets(game, bots[-1])
        pairs += [(f"{name}:budget={b}", bots[-2]) for b in steps]
    seen: dict = {}
    runs = []
    for strong, weak in pairs:
        for key, spec, where in _runs_needed(game, params, strong, weak, games, seed, seen, out):
            if key is None or any(b.fn is not None or b.source is not None for b in spec.bots):
                continue
            seen[key] = True
            runs.append((key, spec, where))
    return runs


NOTES = ("'its share %': the bot's mean win share in its seat (a shared win split), ± the half width of its 95% "
         "interval; 'against's %': what the other bot got in the same seats and games playing itself; 'margin pts': "
         "the paired difference, ± half its 95% interval's width (t, corrected for skewness; a bound valid at any "
         "number of games where too skewed). The top bot at its default budget is its row above. Verdicts: '>= 10 shown' when the margin's interval lies above 10 points; "
         "'< 10 shown' above 0 and below 10; 'stronger' above 0 but holding 10; 'not shown' holding 0; 'weaker' below 0.")


SIDE_NOTES = ("The margin over the games where the bot's seat was dealt each side, ± the half width of its 95% interval, "
              "games in brackets: where the skill pays. Descriptive: no verdict of its own; weighted by their games, the parts "
              "average to the margin.")


def shown_once(rows: Sequence[Matchup]) -> list[Matchup]:
    """The rows of a ladder table: the budget curve's 1x step is the top bot's own row
    again (the same games), so it is left out."""
    return [m for i, m in enumerate(rows) if not any((p.weak, p.share, p.margin) == (m.weak, m.share, m.margin) for p in rows[:i])]


def side_rows(rows: Sequence[Matchup]) -> list[dict[str, str]]:
    """The margins split by side (:attr:`Matchup.sides`), a row per matchup that has them."""
    return [{"bot": m.strong, "against": m.weak,
             **{f"as {name} pts": f"{100 * e[0]:+.1f} ±{50 * (e[2] - e[1]):.1f} ({n:,})" for name, n, e in m.sides}}
            for m in rows if m.sides]


def summary(rows: Sequence[Matchup], bots: Sequence[str]) -> str:
    """One sentence on the top of the ladder: the top bot against the next strongest."""
    top = next((m for m in rows if m.strong == bots[-1] and m.weak == bots[-2]), None)
    if top is None:
        return ""
    lo, hi = 100 * top.margin[1], 100 * top.margin[2]
    return (f"At {top.players} seat{'s' if top.players > 1 else ''}, `{top.strong}` against `{top.weak}`: margin "
            f"{100 * top.margin[0]:+.1f} points [{lo:+.1f}, {hi:+.1f}] ({top.games:,} games): {top.verdict}.")


def section(rep, result) -> None:
    """A report's "How strong are the bots?": the experiment's [ladder] at each player
    count it names, runs kept under runs/ladder/<experiment>/ (resumed)."""
    exp = result.experiment
    lad = exp.ladder
    if not lad:
        return
    game = exp.game
    rep.heading("How strong are the bots?")
    rep.text("Every conclusion above is for the bots that played it; this is how far apart they are. Each bot plays one "
             "seat against the bot before it in every other seat, seats rotated, and the same seeds are played by the "
             "weaker bot against itself: the margin is the win share one seat gains by the swap (heads up, the share "
             "minus 50%; one seat against three, minus what the weaker bot got in that seat; solo, the difference of win "
             f"rates). Then the top bot at 1/4, 1/2, 1 and 2 times its default budget against the next strongest. Root seed "
             f"{exp.seed}; `simkit bench {game.name} --ladder` reproduces a table.")
    from .sweep import beside

    cases = report_cases(exp, beside(result.out.parent, "ladder") / exp.name)
    played = play_ladders(game, [(params, folder) for _, params, folder in cases], lad["bots"], lad["games"], exp.seed,
                          curve=lad["budgets"], jobs=result.jobs, progress=result.progress)
    for (_, params, _), rows in zip(cases, played):
        seats = game.seats(params)
        if len(lad["players"]) > 1:
            rep.heading(f"{seats} players", 3)
        rep.text(summary(rows, lad["bots"]))
        for m in rows:
            rep.conclude(f"`{m.strong}` against `{m.weak}` at {m.players} seat{'s' if m.players > 1 else ''}", m.verdict)
        rep.table([m.row() for m in shown_once(rows)], caption=f"{lad['games']:,} games per row. " + NOTES)
        if split := side_rows(rows):
            rep.table(split, caption=SIDE_NOTES)
