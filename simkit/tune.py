"""``simkit tune``: the smallest rule change that balances a game, proven on fresh games.

A *goal* is a question a game declares (:mod:`simkit.questions`: seat fairness, a card's
payoff against an average card, a win rate against a target); a *knob* is a setting the
search may change — by default the game's *compensations*, rule changes a designer might
make that are not in the rulebook (``setting(..., compensation=True)``). The search:

1. **Candidates**: the rules as written and every single-knob change, raced first (the
   smallest changes), then the values between the leaders and their neighbours. Only when
   none of them looks fair: the leading change together with each change of another knob;
   then, if still none looks fair and two or more knobs are numeric, a model-based search
   over their joint space (optuna's TPE sampler; Bergstra et al. 2011, each trial a short run
   on the same seeds). Each new set of candidates is raced again with the survivors. What the
   search does not need ranks the leaders more surely and strengthens the proof.
2. **Racing** (successive halving; Karnin et al. 2013): every candidate plays the same games
   (common random numbers: game *i* gets the same seed in every candidate), the worse half
   by the goal's imbalance is dropped, the rest play twice as many, until a few are left
   or the search budget is spent. The imbalance is the largest distance of the question's
   estimates from fair (its target).
3. **Proof**: the few survivors and the rules as written play fresh games (another root
   seed, never used in the search). A candidate is *a fix* only if every estimate's
   ``1 - 2 alpha / k`` interval lies within ±margin of fair: an equivalence test at level
   ``alpha`` with Bonferroni over the ``k`` candidates confirmed, so the chance of
   proposing any fix that is not fair within the margin stays below ``alpha``. The search
   never claims what this confirmation does not show. Its costs are measured on the same
   fresh games, paired with the rules as written: the change of game length and of the
   game's other seat questions.

The one to try first is the smallest confirmed fix (fewest knobs changed, then the smallest
move of each from its default); optional constraints leave out a fix shown to change the mean
game length by more than ``length_tolerance``, or (``keep_seats``) one under which another seat
question is shown unfair where the rules as written are not. Both are reported as costs anyway.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import time
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
import polars as pl

from .errors import UserError
from .params import build, describe
from .questions import Z95, Answer, Payoff, Question, SeatFairness, SideBalance, WinRate, declared, equivalent, fmt_interval
from .runner import MAX_GAMES, kept_workers
from .stats import clopper_pearson
from .workers import worker_count

MAX_VALUES = 9  # values tried per numeric knob on its own (evenly spread over its range)


# ---- knobs and candidates -----------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Knob:
    """A setting the search may change: its default and the values it tries."""

    name: str
    default: Any
    values: tuple  # the values the search tries first, the default included (at most MAX_VALUES of a range)
    numeric: bool
    compensation: bool
    every: tuple = ()  # every allowed value of an integer range (brute force, and refining around a leader)
    meaning: str = ""  # the setting's help: what a value of it does to the rules

    def between(self, value: Any) -> list:
        """The allowed values strictly between ``value`` and its neighbours among ``values``:
        where a search that found ``value`` best looks next."""
        if not self.every or value not in self.values:
            return []
        grid = sorted(self.values)
        i = grid.index(value)
        lo = grid[i - 1] if i > 0 else value
        hi = grid[i + 1] if i + 1 < len(grid) else value
        return [v for v in self.every if lo < v < hi and v != value and v not in self.values]

    def move(self, value: Any) -> float:
        """How far a value is from the default: 0 to 1 over a numeric range, 1 for any
        other change of a choice."""
        if value == self.default:
            return 0.0
        if self.numeric:
            span = max(self.values) - min(self.values)
            return abs(value - self.default) / span if span else 1.0
        return 1.0


def knobs(game, names: Sequence[str] = ()) -> list[Knob]:
    """The knobs named (any setting with allowed values or a range), or by default every
    compensation the game declares."""
    infos = {i.name: i for i in describe(game.params)}
    if names:
        unknown = [n for n in names if n not in infos]
        if unknown:
            raise UserError(f"{game.name} has no setting {unknown[0]!r}; its settings: {', '.join(infos)} (see 'simkit games {game.name}')")
        chosen = [infos[n] for n in dict.fromkeys(names)]
    else:
        chosen = [i for i in infos.values() if i.compensation]
        if not chosen:
            raise UserError(f"{game.name} declares no compensations; name the settings to search with --knob NAME "
                            f"('simkit games {game.name}' lists them)")
    out = []
    for i in chosen:
        if i.type is bool:
            values, numeric = (False, True), False
        elif i.choices is not None:
            values, numeric = tuple(i.choices), i.type in (int, float)
        elif i.type in (int, float) and i.lo is not None and i.hi is not None:
            values, numeric = _spread(i.type, i.lo, i.hi, i.default), True
        else:
            raise UserError(f"{game.name}: {i.name} has no allowed values or range to search ({i.allowed()}); "
                            "name a setting with choices or a range (--knob)")
        every = tuple(range(int(i.lo), int(i.hi) + 1)) if i.type is int and i.lo is not None and i.hi is not None and i.hi - i.lo <= 1000 else ()
        out.append(Knob(i.name, i.default, values, numeric, i.compensation, every,
                        i.help.removeprefix("Compensation (not in the rulebook): ")))
    return out


def _spread(kind: type, lo: float, hi: float, default: Any) -> tuple:
    if kind is int and hi - lo + 1 <= MAX_VALUES:
        values = list(range(int(lo), int(hi) + 1))
    else:
        grid = np.linspace(lo, hi, MAX_VALUES)
        values = sorted({int(round(v)) for v in grid}) if kind is int else [float(v) for v in grid]
    return tuple(sorted(set(values) | {default}))


@dataclasses.dataclass(frozen=True)
class Candidate:
    """A set of changes to the rules; no change is the rules as written."""

    changes: tuple[tuple[str, Any], ...] = ()

    @property
    def label(self) -> str:
        return ", ".join(f"{k}={_text(v)}" for k, v in self.changes) or "the rules as written"

    @property
    def key(self) -> str:
        """A short folder name for the candidate's runs."""
        if not self.changes:
            return "rules-as-written"
        text = ",".join(f"{k}={_text(v)}" for k, v in self.changes)
        return text if len(text) <= 80 else hashlib.blake2b(text.encode(), digest_size=8).hexdigest()

    def size(self, knob_map: dict[str, Knob]) -> tuple[int, float]:
        """(knobs changed, total move): the smaller, the smaller the change."""
        return len(self.changes), sum(knob_map[k].move(v) for k, v in self.changes)


def _longer(c: "Confirmed") -> str:
    """A fix's cost in game length, in its sentence when shown (a designer took a fix that
    lengthened games by 11% to a playtest: the cost was only in the table)."""
    if c.length is None or c.length[1] <= 0 <= c.length[2]:
        return ""
    est, lo, hi = (100 * x for x in c.length)
    return f"; games {'longer' if est > 0 else 'shorter'} by {abs(est):.1f}% [{min(abs(lo), abs(hi)):.1f}, {max(abs(lo), abs(hi)):.1f}]"


def _text(v: Any) -> str:
    return json.dumps(v) if isinstance(v, bool) else str(v)


def single_changes(ks: Sequence[Knob], every: bool = False) -> list[Candidate]:
    """Every change of one knob (``every``: to each allowed value of an integer range, as
    brute force would; otherwise to the values tried first)."""
    return [Candidate(((k.name, v),)) for k in ks for v in (k.every if every and k.every else k.values) if v != k.default]


def refinements(searched: list["Scored"], ks: Sequence[Knob], keep: int) -> list[Candidate]:
    """Single changes between a leading single change of an integer knob and the values
    tried beside it (the coarse values can step over the fair one)."""
    by_name = {k.name: k for k in ks}
    out = []
    for s in [s for s in searched if s.dropped_after is None and len(s.candidate.changes) == 1][:keep]:
        name, value = s.candidate.changes[0]
        out += [Candidate(((name, v),)) for v in by_name[name].between(value)]
    return list(dict.fromkeys(out))


# ---- the goal ---------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Goal:
    """What "balanced" means: a declared question, its estimates' fair value (0 for a
    deviation from the fair share, ``target`` for a win rate) and the margin within which
    a fix must be shown to be fair. A *difficulty curve* (``over`` a setting, ``curve``:
    its values with a target win rate each) plays every candidate at each value and asks
    every rate to be within the margin of its target."""

    question: Question
    margin: float
    target: float = 0.0
    over: str = ""  # the setting a curve runs over (e.g. threat)
    curve: tuple = ()  # ((value, target rate), ...)

    @property
    def id(self) -> str:
        return self.question.id

    def answer(self, frame: pl.DataFrame) -> Answer | None:
        if self.curve:
            return self._curve_answer(frame)
        got = self.question.answers(frame, use_where=False)
        if len(got) > 1:
            raise UserError(f"the goal {self.id!r} is answered for {len(got)} groups of these games; fix the "
                            f"group with --set (e.g. --set players=2)")
        return got[0] if got else None

    def _curve_answer(self, frame: pl.DataFrame) -> Answer | None:
        est, games = [], 0
        for value, target in self.curve:
            got = self.question.answers(frame.filter(pl.col(self.over) == value), use_where=False)
            if len(got) != 1:
                return None
            e = got[0].estimates[0]
            est.append(dataclasses.replace(e, label=f"{self.over} {value}"))
            games += got[0].games
        return Answer(self.id, self.question.title, {}, "", "", f"win rate at each {self.over} against its target",
                      "Wilson interval per level", tuple(est), games)

    def targets(self, answer: Answer) -> list[float]:
        return [t for _, t in self.curve] if self.curve else [self.target] * len(answer.estimates)

    def worst(self, answer: Answer):
        """The estimate farthest from its target, and that target."""
        return max(zip(answer.estimates, self.targets(answer)), key=lambda et: abs(et[0].estimate - et[1]))

    def imbalance(self, answer: Answer) -> tuple[float, float]:
        """The largest distance of an estimate from fair, and that estimate's standard error."""
        e, t = self.worst(answer)
        return abs(e.estimate - t), e.se

    def fair(self, answer: Answer, alpha: float) -> bool:
        """Every estimate's ``1 - 2 alpha`` interval within ±margin of its target (an
        intersection-union equivalence test at level ``alpha``). A win rate's interval is
        Clopper-Pearson's, exact: a normal one read from its Wilson interval is too narrow on
        one side near 0 or 1 (7.1% false "fair" at 5%, a 2% target, n = 1,500)."""
        return all(_within(e, t, self.margin, alpha) for e, t in zip(answer.estimates, self.targets(answer)))


def _within(e, target: float, margin: float, alpha: float) -> bool:
    if e.unit == "rate" and e.n:
        iv = clopper_pearson(round(e.estimate * e.n), e.n, 1 - 2 * alpha)
        return target - margin < iv.lo and iv.hi < target + margin
    return equivalent(e.estimate - target, e.se, margin, alpha)


def goal(game, name: str, margin: float | None = None, target: float | None = None, curve: str | None = None) -> Goal:
    """The declared question ``name`` of ``game`` as a tuning goal; ``curve``: a difficulty
    curve ``SETTING=V1:T1,V2:T2,...`` (a target win rate at each value of a setting)."""
    questions = [q for q in declared(game) if isinstance(q, Question)]
    usable = {q.id: q for q in questions if isinstance(q, (SeatFairness, SideBalance, Payoff, WinRate))}
    if name not in usable:
        raise UserError(f"{game.name} has no question {name!r} to tune; its questions: {', '.join(usable) or 'none'}")
    q = usable[name]
    over, points = "", ()
    if isinstance(q, WinRate):
        if target is not None and curve is not None:
            raise UserError("--target and --curve were both given: give one rate to reach (--target) or one per value of a "
                            "setting (--curve), not both")
        if target is None and curve is None:
            raise UserError(f"the goal {name!r} is a win rate: give the rate to reach with --target (e.g. --target 0.5) "
                            "or a difficulty curve with --curve (e.g. --curve threat=0:0.5,1:0.3,2:0.15)")
        if curve is not None:
            over, points = parse_curve(game, curve)
        elif not 0 <= target <= 1:  # (also refuses nan)
            raise UserError(f"--target is a win rate from 0 to 1 (0.3 is 30%), not {target}")
    elif target is not None or curve is not None:
        raise UserError(f"the goal {name!r} measures a distance from fair (0); --target and --curve are for win-rate goals")
    m = margin if margin is not None else getattr(q, "margin", 0.02)
    if not 0 < m < 1:
        raise UserError(f"--margin must be between 0 and 1 (0.02 is 2 points), not {m}")
    return Goal(q, m, target or 0.0, over, points)


def parse_curve(game, text: str) -> tuple[str, tuple]:
    """``threat=0:0.5,1:0.3`` -> ("threat", ((0, 0.5), (1, 0.3))), each value checked as --set checks it."""
    name, sep, rest = str(text).partition("=")
    name = name.strip()
    try:
        pairs = [p.split(":") for p in rest.split(",")] if sep else []
        points = [(v.strip(), float(t)) for v, t in pairs]
    except ValueError:
        points = []
    if not name or not points or not all(0 <= t <= 1 for _, t in points):
        raise UserError(f"--curve {text!r}: write SETTING=VALUE:RATE,..., e.g. --curve threat=0:0.5,1:0.3,2:0.15")
    values = [getattr(build(game.params, {name: v}, game.name), name) for v, _ in points]
    if len(set(values)) != len(values):
        raise UserError(f"--curve {text!r}: each value of {name} once")
    return name, tuple(zip(values, (t for _, t in points)))


# ---- playing candidates -----------------------------------------------------------------------------
@dataclasses.dataclass
class Scored:
    candidate: Candidate
    games: int = 0
    imbalance: float = float("nan")
    se: float = float("nan")
    answer: Answer | None = None
    dropped_after: int | None = None  # games played when racing dropped it


@dataclasses.dataclass(frozen=True)
class Setup:
    """What every candidate shares: the game, the base settings, bots and seed."""

    game: Any
    base: dict[str, Any]  # --set overrides every candidate starts from
    bots: tuple[str, ...]
    seed: int
    jobs: int
    out: Path | None
    advance: Callable[[int], None]
    over: str = ""  # a difficulty curve's setting, played at each of ``levels``
    levels: tuple = ()
    used: dict = dataclasses.field(default_factory=dict)  # (folder, candidate, level): the games its answer stands on

    def spec(self, c: Candidate, n: int, seed: int):
        from .runner import RunSpec

        params = build(self.game.params, {**self.base, **dict(c.changes)}, self.game.name)
        if self.game.validate is not None:
            self.game.validate(params)
        bots = tuple(self.game.resolve_bots(list(self.bots), params))
        return RunSpec(self.game, params, bots, n, seed)

    def counted(self, wanted: list[tuple[Candidate, int]], seed: int, folder: str) -> list[pl.DataFrame]:
        """:meth:`play`, keeping count of the games each answer stands on (``used``): what a
        tune says it searched and proved on."""
        for c, n in wanted:
            for v in self.levels or [None]:
                key = (folder, c.key, v)
                self.used[key] = max(self.used.get(key, 0), n)
        return self.play(wanted, seed, folder)

    def play(self, wanted: list[tuple[Candidate, int]], seed: int, folder: str) -> list[pl.DataFrame]:
        """Games ``0 .. n-1`` of each candidate (resumed from its folder: a racing round
        plays only the games its candidates have not played yet); along a difficulty curve,
        at each of its values."""
        from .runner import run_many

        if not wanted:
            return []
        levels = [{self.over: v} for v in self.levels] or [{}]
        runs = []
        for c, n in wanted:
            for level in levels:
                where = self.out / folder / c.key / "".join(f"{k}={v}" for k, v in level.items()) if self.out else None
                runs.append((self.spec(Candidate(c.changes + tuple(level.items())), n, seed), where))
        chunk = max(200, min(10_000, max(n for _, n in wanted) // (2 * self.jobs)))
        frames = [r.frame for r in run_many(runs, jobs=self.jobs, chunk_size=chunk, progress=self.advance, replace_stale=True)]
        k = len(levels)
        return [pl.concat(frames[i * k:(i + 1) * k], how="vertical_relaxed") for i in range(len(wanted))]


def _score(goal_: Goal, s: Scored, frame: pl.DataFrame) -> None:
    s.games = frame["game_index"].n_unique()
    s.answer = goal_.answer(frame)
    if s.answer is None or not s.answer.estimates:
        raise UserError(f"the goal {goal_.id!r} cannot be answered on these games (a solo game has no seats to be fair "
                        "between; check the goal and --set)")
    s.imbalance, s.se = goal_.imbalance(s.answer)


def promising(searched: list[Scored], goal_: Goal, keep: int) -> bool:
    """Whether a finalist of the search already looks fair: its imbalance plus one-sided
    90% of its error inside the margin (the proof, on fresh games, decides)."""
    finalists = [s for s in searched if s.candidate.changes][:keep]
    return any(s.imbalance + 1.645 * s.se < goal_.margin for s in finalists if math.isfinite(s.se))


def race(setup: Setup, goal_: Goal, pool: list[Candidate], budget: int, keep: int, knob_map: dict[str, Knob],
         strategy: str = "halving", start: int = 0) -> tuple[list[Scored], list[dict]]:
    """Successive halving over ``pool`` within ``budget`` games (``strategy="grid"``: every
    candidate gets the same share, the brute-force baseline the measurement compares with).
    ``start``: games the first round plays at least (a second race resumes the first's).
    Returns every candidate scored, best first, and the log of rounds."""
    scored = {c: Scored(c) for c in pool}
    alive = list(pool)
    rounds = max(1, math.ceil(math.log2(max(2, len(pool) / keep)))) if strategy == "halving" else 1
    # Round r plays n0 * 2^r games for the |pool| / 2^r survivors: about |pool| n0 (1 + r/2) in all.
    n = max(100, int(budget / (len(pool) * (1 + (rounds - 1) / 2)))) if strategy == "halving" else max(100, budget // len(pool))
    n = max(n, start)
    log = []
    spent = 0
    for r in range(rounds):
        new = sum(max(0, n - scored[c].games) for c in alive)
        if r and spent + new > budget:
            break
        frames = setup.counted([(c, n) for c in alive], setup.seed, "search")
        spent += new
        for c, f in zip(alive, frames):
            _score(goal_, scored[c], f)
        ranked = sorted(alive, key=lambda c: (scored[c].imbalance, c.size(knob_map)))
        log.append({"round": r + 1, "candidates": len(alive), "games_each": n, "best": ranked[0].label,
                    "best_imbalance": scored[ranked[0]].imbalance})
        if len(alive) <= keep or r == rounds - 1:
            break
        survivors = ranked[:max(keep, math.ceil(len(alive) / 2))]
        for c in alive:
            if c not in survivors:
                scored[c].dropped_after = n
        alive = survivors
        n *= 2
    order = sorted(scored.values(), key=lambda s: (s.dropped_after is not None, -(s.dropped_after or 0),
                                                   s.imbalance, s.candidate.size(knob_map)))
    return order, log


def model_search(setup: Setup, goal_: Goal, ks: Sequence[Knob], trials: int, games: int, best: int) -> list[Candidate]:
    """Optuna's TPE over the joint space of the numeric knobs: ``trials`` points, each
    scored on the same ``games`` seeds; the ``best`` distinct points found."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    space = {k.name: (optuna.distributions.IntDistribution(int(min(k.values)), int(max(k.values)))
                      if isinstance(k.default, int) else optuna.distributions.FloatDistribution(min(k.values), max(k.values)))
             for k in ks}
    study = optuna.create_study(direction="minimize", sampler=optuna.samplers.TPESampler(seed=setup.seed % 2**32))
    defaults = {k.name: k.default for k in ks}
    study.enqueue_trial(defaults)
    found: dict[Candidate, float] = {}
    batch = 4  # trials asked at once: not from the cores, so that the search is the same on every machine
    done = 0
    while done < trials:
        asked = [study.ask(space) for _ in range(min(batch, trials - done))]
        cands = [Candidate(tuple((k, v) for k, v in t.params.items() if v != defaults[k])) for t in asked]
        # TPE may ask the same candidate twice in one batch: play it once (one folder per candidate)
        unique = list(dict.fromkeys(cands))
        played = dict(zip(unique, setup.counted([(c, games) for c in unique], setup.seed, "model-search")))
        frames = [played[c] for c in cands]
        for t, c, f in zip(asked, cands, frames):
            s = Scored(c)
            _score(goal_, s, f)
            study.tell(t, s.imbalance)
            found[c] = min(found.get(c, math.inf), s.imbalance)
        done += len(asked)
    return [c for c, _ in sorted(found.items(), key=lambda kv: kv[1]) if c.changes][:best]


# ---- proof ----------------------------------------------------------------------------------------------
@dataclasses.dataclass
class Confirmed:
    candidate: Candidate
    answer: Answer
    imbalance: float
    fair: bool
    length: tuple[float, float, float] | None  # relative change of mean length vs the rules as written: est, lo, hi
    others: list[Answer]  # the game's other seat questions on the same games
    size: tuple[int, float]


def confirm_seed(seed: int) -> int:
    """The root seed of the confirmation games: derived from the search's, never equal to it."""
    h = hashlib.blake2b(f"simkit tune confirmation {seed}".encode(), digest_size=7).digest()
    return int.from_bytes(h, "big")


def length_column(game, frame: pl.DataFrame) -> str | None:
    for c in ("turns", "rounds"):
        if c in frame.columns and c in game.columns:
            return c
    return None


def _per_game(frame: pl.DataFrame, col: str, over: str = "") -> np.ndarray:
    """One value per game (and per level of a curve), in the same order for every candidate."""
    return frame.filter(pl.col("seat") == 1).sort(["game_index", *([over] if over else [])])[col].cast(pl.Float64).to_numpy()


def relative_change(base: np.ndarray, other: np.ndarray) -> tuple[float, float, float]:
    """Mean of ``other`` over mean of ``base``, minus 1, on paired games: delta-method
    interval of the ratio of means."""
    mb, mo = base.mean(), other.mean()
    if mb == 0:
        return float("nan"), float("nan"), float("nan")
    r = mo / mb
    resid = (other - r * base) / mb  # influence of each game on the ratio
    se = resid.std(ddof=1) / math.sqrt(base.size)
    return r - 1, r - 1 - Z95 * se, r - 1 + Z95 * se


@dataclasses.dataclass
class TuneResult:
    game: str
    goal: str
    goal_title: str
    margin: float
    target: float
    alpha: float
    knobs: list[Knob]
    base: dict[str, Any]
    bots: tuple[str, ...]
    seed: int
    confirm_seed: int
    strategy: str
    searched: list[Scored]
    rounds: list[dict]
    baseline: Confirmed
    confirmed: list[Confirmed]
    chosen: Confirmed | None
    search_games: int
    confirm_games: int
    seconds: float
    length_tolerance: float | None
    goal_spec: Goal | None = None
    budget: int = 0  # games: given, or what the minutes came to on this machine (--budget N reproduces it)
    played_by: tuple[str, ...] = ()  # the bots' names as played (the game's default where none was given)

    def sentence(self) -> str:
        """What a designer takes to a playtest."""
        b = self.baseline
        where = _where(self.base)
        tests = f"equivalence, {100 * self.alpha:.0f}%, Bonferroni over {len(self.confirmed) + 1} tests"
        if b.fair:
            return (f"No change is needed{where}: as written, {_worst(b.answer, self.goal_spec)}, fair within "
                    f"±{100 * self.margin:.0f} points ({tests}; {b.answer.games:,} fresh games).")
        if self.chosen is None:
            best = min(self.confirmed, key=lambda c: c.imbalance) if self.confirmed else None
            tail = f" The closest is {best.candidate.label}: {_worst(best.answer, self.goal_spec)}." if best else ""
            return (f"No fix is shown{where}: none of the {len(self.confirmed)} best changes found is shown fair within "
                    f"±{100 * self.margin:.0f} points on {self.confirm_games:,} fresh games.{tail} As written, on "
                    f"the same {b.answer.games:,} fresh games: {_worst(b.answer, self.goal_spec)}.")
        c = self.chosen
        # (a fix is proven for these bots and these settings only: a designer took it for the game's)
        by = f", played by {' and '.join(self.played_by)} bots" if self.played_by else ""
        return (f"With {c.candidate.label} (not in the rulebook){where}{by}, {_worst(c.answer, self.goal_spec)}: fair within "
                f"±{100 * self.margin:.0f} points ({tests}; {c.answer.games:,} fresh games){_longer(c)}. As written, on "
                f"the same {b.answer.games:,} fresh games: {_worst(b.answer, self.goal_spec)}.")

    def meanings(self) -> list[str]:
        """Each change of the one to try first in the words of its setting's help (a designer
        read 'city_mission_4_points=5' as a name, not as a rule); none when there is none."""
        if self.chosen is None:
            return []
        knob = {k.name: k for k in self.knobs}
        return [f"{k}={_text(v)} (as written {_text(knob[k].default)}): {knob[k].meaning}" for k, v in self.chosen.candidate.changes]

    def rows(self) -> list[dict[str, str]]:
        """The confirmed candidates, the one to try first on top, then the rules as written."""
        out = []
        for c in sorted(self.confirmed, key=lambda c: (c is not self.chosen, not c.fair, c.size, c.imbalance)):
            out.append(self._row(c, "try first" if c is self.chosen else ("fair" if c.fair else "not shown fair")))
        out.append(self._row(self.baseline, "as written"))
        return out

    def _row(self, c: Confirmed, status: str) -> dict[str, str]:
        worst = self.goal_spec.worst(c.answer)[0]
        length = "-" if c.length is None else f"{100 * c.length[0]:+.1f}% [{100 * c.length[1]:+.1f}, {100 * c.length[2]:+.1f}]"
        row = {"change": c.candidate.label, "verdict": status, "farthest from fair [95% CI]": worst.text(), "length change": length}
        if c.others:
            new = self.new_imbalances(c)
            row["other seat questions"] = ("-" if c is self.baseline else "; ".join(new) + " newly shown" if new
                                           else "none newly shown unfair")  # (not 'no new imbalance': none is shown fair)
        return row

    def new_imbalances(self, c: Confirmed) -> list[str]:
        """The game's other seat questions shown unfair with this change but not as written."""
        before = {a.question for a in self.baseline.others if a.verdict == "shown"}
        return sorted({a.question for a in c.others if a.verdict == "shown"} - before)

    def as_dict(self) -> dict:
        def conf(c: Confirmed) -> dict:
            return {"change": dict(c.candidate.changes), "label": c.candidate.label, "fair": c.fair, "imbalance": c.imbalance,
                    "length_change": c.length, "answer": c.answer.as_dict(), "others": [a.as_dict() for a in c.others]}

        return {
            "game": self.game, "goal": self.goal, "margin": self.margin, "target": self.target, "alpha": self.alpha,
            "curve": {"over": self.goal_spec.over, "targets": [[v, t] for v, t in self.goal_spec.curve]} if self.goal_spec and self.goal_spec.curve else None,
            "knobs": [k.name for k in self.knobs], "settings": self.base, "bots": list(self.bots), "seed": self.seed,
            "confirm_seed": self.confirm_seed, "strategy": self.strategy, "budget": self.budget, "sentence": self.sentence(),
            "chosen": self.chosen.candidate.label if self.chosen else None, "meanings": self.meanings(),
            "search": [{"change": s.candidate.label, "games": s.games, "imbalance": s.imbalance, "se": s.se,
                        "dropped_after": s.dropped_after} for s in self.searched],
            "rounds": self.rounds, "baseline": conf(self.baseline), "confirmed": [conf(c) for c in self.confirmed],
            "search_games": self.search_games, "confirm_games": self.confirm_games, "seconds": round(self.seconds, 1),
            "length_tolerance": self.length_tolerance,
        }


def _where(base: dict) -> str:
    return f" ({', '.join(f'{k}={v}' for k, v in base.items())})" if base else ""


def _worst(answer: Answer, goal_: Goal) -> str:
    """The estimate farthest from fair, in words: "seat 1 at 57.2% (fair share 50.0%) is
    +7.2 points [+4.4, +10.1] from fair"."""
    e, target = goal_.worst(answer)
    name = e.label.split(" (held")[0].replace(": ", " at ", 1)
    if goal_.curve:
        return f"at {e.label} the win rate is {fmt_interval(e.estimate, e.lo, e.hi, e.unit)} (target {100 * target:.1f}%)"
    if target == 0:
        return f"{name} is {fmt_interval(e.estimate, e.lo, e.hi, e.unit)} from fair"
    return f"{name} is {fmt_interval(e.estimate, e.lo, e.hi, e.unit)} (target {100 * target:.1f}%)"


# ---- the whole search -------------------------------------------------------------------------------
def first_pool(ks: Sequence[Knob], strategy: str) -> list[Candidate]:
    """What a tune races first: the rules as written and every single change (the knobs'
    spread values; the brute-force ``grid``: every allowed value)."""
    return [Candidate(), *single_changes(ks, every=strategy != "halving")]


def least_budget(ks: Sequence[Knob] = (), strategy: str = "halving", keep: int = 2, confirm_share: float = 0.4,
                 levels: int = 1) -> int:
    """The fewest games a tune of knobs ``ks`` can spend: every candidate plays 100 games at
    least and the proof 500 a finalist (1,000 played 3,400), at each of a difficulty curve's
    ``levels``."""
    candidates = len(first_pool(ks, strategy)) if ks else 0
    first_share = 0.4 if strategy == "halving" else 1.0
    return max(1000, levels * max(math.ceil(candidates * 100 / (first_share * (1 - confirm_share))),
                                  math.ceil(500 * (keep + 1) / confirm_share)))


def check_budget(budget: int, ks: Sequence[Knob] = (), strategy: str = "halving", keep: int = 2,
                 confirm_share: float = 0.4, levels: int = 1) -> None:
    """Refuses a budget a tune of knobs ``ks`` would spend several times over (least_budget)."""
    if not isinstance(budget, int) or budget < 1000:
        raise UserError(f"a budget of {budget!r} games is too small to find and prove a fix; give at least 1,000 games "
                        "or more minutes (--budget)")
    least = least_budget(ks, strategy, keep, confirm_share, levels)
    if ks and budget < least:
        raise UserError(f"a budget of {budget:,} games is too small for {len(first_pool(ks, strategy))} candidates (100 games "
                        f"each at least) and the proof; give at least {least:,} games, more minutes, or fewer knobs (--budget, --knob)")


def games_in(setup: Setup, seconds: float, say: Callable[[str], None] | None = None) -> int:
    """The games of the rules as written this machine plays in what is left of ``seconds``
    after a pilot: the game's loop compiled first (a pilot played while it compiled timed
    plain Python), a first play that starts the workers (not timed), then plays sized to
    last 2 s at the speed seen so far, until one lasts 1.5 s or they a fifth of the
    time (start-up dominated a pilot of 500 games: budgets up to 30 times too small). The
    pilot keeps no games, so that every step plays all of its own. ``say`` hears of the
    compiling."""
    from .compiled import compile_loops, uncompiled

    start = time.perf_counter()
    spec = setup.spec(Candidate(), 1, setup.seed)
    compile_loops(uncompiled([(spec.game, spec.bots)]), say)
    pilot = dataclasses.replace(setup, out=None, advance=lambda n: None)
    n = 500 * setup.jobs
    pilot.play([(Candidate(), n)], setup.seed, "pilot")
    timed = time.perf_counter()  # (the start-up is not in the pilot's fifth: it could fill all of it)
    while True:
        step = time.perf_counter()
        pilot.play([(Candidate(), n)], setup.seed, "pilot")
        took = max(time.perf_counter() - step, 1e-3)
        if took >= 1.5 or time.perf_counter() - timed >= seconds / 5:
            break
        n = max(n, int(n / took * 2))
    return max(0, int(n / took * (seconds - (time.perf_counter() - start))))


def interrupted_in(out: Path) -> Exception:
    """The one line for a tune stopped by Ctrl-C: its games are kept in ``out`` (the line of
    the play it stopped counted that play's folders only: '24,000 finished games are kept in
    3 folders' of a tune that had played 48,000)."""
    from .errors import Interrupted

    if not (out.is_dir() and any(out.iterdir())):  # (stopped in the pilot, which keeps nothing)
        return Interrupted("interrupted before any game was kept; run the same command again to start")
    return Interrupted(f"interrupted: the games played so far are kept in {out}; run the same command again to resume")


@kept_workers()  # its rounds are plays in a row
def tune(game, goal_: Goal, ks: Sequence[Knob], *, base: dict[str, Any] | None = None, bots: Sequence[str] = (),
         budget: int = 200_000, minutes: float | None = None, seed: int = 0, jobs: int = 1, out: Path | None = None, alpha: float = 0.05,
         keep: int = 2, confirm_share: float = 0.4, length_tolerance: float | None = None, keep_seats: bool = False,
         strategy: str = "halving",
         progress: Callable[[int], None] | None = None) -> TuneResult:
    """Searches ``ks`` for the smallest change that makes ``goal_`` fair, within ``budget``
    games, or ``minutes`` of this machine's time (from a pilot of the rules as written);
    a share ``confirm_share`` of them is for the proof on fresh seeds. ``out``: where each
    candidate's games are kept (a racing round resumes them); none: a temporary folder."""
    if out is None:  # without one, every round played each candidate's games again (a budget of 60,000: 92,000)
        import tempfile

        from .errors import Interrupted

        with tempfile.TemporaryDirectory(prefix="simkit-tune-") as scratch:
            try:
                return tune(game, goal_, ks, base=base, bots=bots, budget=budget, minutes=minutes, seed=seed, jobs=jobs,
                            out=Path(scratch), alpha=alpha, keep=keep, confirm_share=confirm_share,
                            length_tolerance=length_tolerance, keep_seats=keep_seats, strategy=strategy, progress=progress)
            except Interrupted:  # (it named the temporary folders, which go now)
                raise Interrupted("interrupted: nothing was saved (no output folder)") from None
    t0 = time.perf_counter()
    jobs = worker_count(jobs)  # 0: every core
    base = dict(base or {})
    clash = [k.name for k in ks if k.name in base]
    if clash:
        raise UserError(f"{clash[0]} is both fixed with --set and searched as a knob; drop one of them")
    if goal_.over and (goal_.over in base or goal_.over in {k.name for k in ks}):
        raise UserError(f"{goal_.over} runs along the curve; it cannot also be fixed with --set or searched as a knob")
    setup = Setup(game, base, tuple(bots), seed, jobs, out, progress or (lambda n: None), goal_.over,
                  tuple(v for v, _ in goal_.curve))
    setup.spec(Candidate(), 1, seed)  # settings and bots are checked before any game is played
    if minutes is not None:
        from .progress import warn

        budget = int(games_in(setup, minutes * 60 - (time.perf_counter() - t0), warn if progress else None) * 0.9)  # a tenth for the analysis
        getattr(progress, "total", lambda n: None)(budget)  # a progress bar learns its total (simkit.progress.bar)
    levels = max(1, len(setup.levels))
    if minutes is not None and budget < (least := least_budget(ks, strategy, keep, confirm_share, levels)):
        raise UserError(f"{minutes:g} min buys about {budget:,} games here, too few to find and prove a fix; give at least "
                        f"{least:,} games or more minutes (--budget)")
    check_budget(budget, ks, strategy, keep, confirm_share, levels)
    knob_map = {k.name: k for k in ks}
    # the shares below count games per level: a curve plays each at every level
    confirm_total = int(budget // levels * confirm_share)
    search_budget = budget // levels - confirm_total
    numeric = [k for k in ks if k.numeric]
    pool = first_pool(ks, strategy)
    if strategy == "halving":
        # Single changes first, on 40% of the search budget: the smallest fixes, and often enough.
        searched, rounds = race(setup, goal_, pool, int(search_budget * 0.4), keep, knob_map, strategy)

        def again(extra: list[Candidate], budget_: int, phase: str) -> None:
            nonlocal searched, rounds
            pool2 = [Candidate(), *[s.candidate for s in searched if s.dropped_after is None and s.candidate.changes],
                     *[c for c in extra if c not in {s.candidate for s in searched}]]
            more, log = race(setup, goal_, pool2, max(1000, budget_), keep, knob_map, strategy,
                             start=max(s.games for s in searched))
            rounds += [{**r, "round": len(rounds) + r["round"], "phase": phase} for r in log]
            searched = more + [s for s in searched if s.candidate not in set(pool2)]

        finer = refinements(searched, ks, keep)
        if finer:  # the values between a leader and its neighbours
            again(finer, int(search_budget * 0.2), "refine")
        spent = sum(s.games for s in searched)
        if promising(searched, goal_, keep) or len(numeric) < 2:
            # Half of what is left ranks the leaders more surely (the proof tests only the best
            # few); the other half makes the proof stronger.
            rest = max(0, search_budget - spent)
            leaders = [x for x in searched if x.dropped_after is None and x.candidate.changes][:2 * keep]
            if leaders and rest >= 1000:
                n = max(x.games for x in leaders) + (rest // 2) // len(leaders)
                for x, f in zip(leaders, setup.counted([(x.candidate, n) for x in leaders], setup.seed, "search")):
                    _score(goal_, x, f)
                rounds.append({"round": len(rounds) + 1, "candidates": len(leaders), "games_each": n, "phase": "final",
                               "best": min(leaders, key=lambda x: x.imbalance).candidate.label,
                               "best_imbalance": min(x.imbalance for x in leaders)})
                searched = sorted(leaders, key=lambda x: (x.imbalance, x.candidate.size(knob_map))) + [
                    x for x in searched if x not in leaders]
            confirm_total += max(0, search_budget - sum(x.games for x in searched))
        else:  # no single change looks fair: the leader with a second knob, then optuna over all together
            rest = max(0, search_budget - spent)
            order = {k.name: i for i, k in enumerate(ks)}
            leader = next((x.candidate for x in searched if x.dropped_after is None and len(x.candidate.changes) == 1), None)
            if leader is not None:
                name = leader.changes[0][0]
                pairs = [Candidate(tuple(sorted(leader.changes + ((k.name, v),), key=lambda kv: order[kv[0]])))
                         for k in ks if k.name != name for v in k.values if v != k.default]
                again(pairs, rest // 2, "pairs")
                rest = max(0, search_budget - sum(x.games for x in searched))
            if not promising(searched, goal_, keep) and len(numeric) >= 2 and rest >= 2 * 16 * 200:  # (its least: 16 trials of 200)
                trial_games = max(200, rest // 64)  # many short trials: TPE needs a few dozen to model the space
                trials = max(16, (rest // 2) // trial_games)
                joint = model_search(setup, goal_, numeric, trials, trial_games, best=keep + 1)
                again(joint, rest - trials * trial_games, "joint")
    else:  # brute force: every allowed single change, the budget shared evenly
        searched, rounds = race(setup, goal_, pool, search_budget, keep, knob_map, strategy)
    finalists = [s.candidate for s in searched if s.candidate.changes][:keep]
    n_confirm = max(500, confirm_total // (len(finalists) + 1))
    cseed = confirm_seed(seed)
    frames = setup.counted([(c, n_confirm) for c in [Candidate(), *finalists]], cseed, "confirm")
    col = length_column(game, frames[0])
    others = [q for q in declared(game) if isinstance(q, (SeatFairness, SideBalance)) and q.id != goal_.id]
    level = alpha / (len(finalists) + 1)  # Bonferroni over the finalists and the rules as written

    def confirmed(c: Candidate, f: pl.DataFrame) -> Confirmed:
        ans = goal_.answer(f)
        length = relative_change(_per_game(frames[0], col, goal_.over), _per_game(f, col, goal_.over)) if col and c.changes else None
        other = [a for q in others for a in q.answers(f, use_where=False)]
        return Confirmed(c, ans, goal_.imbalance(ans)[0], goal_.fair(ans, level), length, other, c.size(knob_map))

    baseline = confirmed(Candidate(), frames[0])
    results = [confirmed(c, f) for c, f in zip(finalists, frames[1:])]

    def acceptable(c: Confirmed) -> bool:
        if not c.fair:
            return False
        if length_tolerance is not None and c.length is not None and (c.length[1] > length_tolerance or c.length[2] < -length_tolerance):
            return False  # shown to change the length by more than the tolerance
        before = {a.question for a in baseline.others if a.verdict == "shown"}
        return not (keep_seats and {a.question for a in c.others if a.verdict == "shown"} - before)

    ok = sorted((c for c in results if acceptable(c)), key=lambda c: (c.size, c.imbalance))
    return TuneResult(game.name, goal_.id, goal_.question.title, goal_.margin, goal_.target, alpha, list(ks), base,
                      tuple(bots), seed, cseed, strategy, searched, rounds, baseline, results, ok[0] if ok else None,
                      sum(v for k, v in setup.used.items() if k[0] != "confirm"), sum(v for k, v in setup.used.items() if k[0] == "confirm"),
                      time.perf_counter() - t0, length_tolerance, goal_, budget,
                      tuple(dict.fromkeys(b.name for b in setup.spec(Candidate(), 1, seed).bots)))


def parse_budget(text: str) -> tuple[int | None, float | None]:
    """``--budget``: games (``200000``, ``200k``) or minutes (``10min``, ``10m``):
    ``(games, None)`` or ``(None, minutes)``."""
    t = str(text).strip().lower().replace(",", "").replace("_", "")
    try:
        for suffix in ("min", "m"):
            if t.endswith(suffix):
                minutes = float(t[: -len(suffix)])
                if not 0 < minutes <= 24 * 60:
                    raise ValueError
                return None, minutes
        games = int(float(t[:-1]) * 1000) if t.endswith("k") else int(t)
    except ValueError:
        raise UserError(f"--budget {text!r}: give games (e.g. 200000 or 200k) or minutes (e.g. 10min, at most a day)") from None
    if games > MAX_GAMES:  # (the runner's own line named -n, which tune does not have)
        raise UserError(f"--budget {text!r}: at most {MAX_GAMES:,} games")
    return games, None
