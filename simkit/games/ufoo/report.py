"""The Ufo.O balance report (experiments/ufo-o.toml), after its answers (questions.py):
who wins, by turn order and by seat, for every pairing of the bots; which bot is stronger
head to head; what laser, ion cannon and repair are worth; game length; and how sure the
numbers are: each reading of an unclear rule and the stand-in board's variants switched on
its own (simkit/games/ufoo/sensitivity.py), and A15 with A18 together."""

from __future__ import annotations

import json
import math

import numpy as np
import polars as pl
import scipy  # its parts load on first use: a game's module imports in a blink

from ...questions import VariantEffect, contrast_verdict, two_sided_p
from ...report import PALETTE, Report, fmt_p, pct, rules_link, style
from ...stats import holm_adjusted, wilson
from .questions import BOTS, DEFAULTS, QUESTIONS, OptionWorth, Seats, paired_family

# The columns build() reads beyond its questions' and the settings (simkit.report.compose reads only these;
# tests/test_questions.py checks that every column build() names is declared here).
READS = ("asteroid_damage", "backfires", "draw", "first_seat", "ions", "laser_wins", "lasers", "ms_attacks", "ms_hits",
         "pushes", "repairs", "repairs_ok", "turns", "ufos_lost", "volley_hits", "winner")


def _question(qid: str):
    return next(q for q in QUESTIONS if q.id == qid)


def _table_key(bots) -> str:
    return json.dumps(bots) if isinstance(bots, list) else bots


def _cell(f: pl.DataFrame, bots, **params) -> pl.DataFrame:
    """The rows of one cell: its bots (a name for self-play, a list for a pairing) and its
    parameters (the defaults unless given)."""
    want = {**DEFAULTS, **params}
    cond = pl.col("table") == _table_key(bots)
    for k, v in want.items():
        cond = cond & (pl.col(k) == v)
    return f.filter(cond).sort("game_index", "seat")


def _games(part: pl.DataFrame) -> pl.DataFrame:
    return part.filter(pl.col("seat") == 1).sort("game_index")


def _mean_ci(values) -> str:
    v = np.asarray(values, dtype=float)
    se = v.std(ddof=1) / math.sqrt(len(v)) if len(v) > 1 else float("nan")
    return f"{v.mean():.2f} [{v.mean() - 1.96 * se:.2f}, {v.mean() + 1.96 * se:.2f}]"


def _share(k, n) -> str:
    """A share of attempts with its Wilson interval ("-" when there was no attempt)."""
    return pct(wilson(int(k), int(n))) if n else "-"


def _survival(turns: np.ndarray, cap: int) -> tuple[np.ndarray, np.ndarray]:
    """S(t) = P(the game lasts more than t turns), t = 0 .. cap; every draw is censored at
    the cap, so below the cap this is the plain empirical survival (Kaplan-Meier with all
    censoring at the end)."""
    t = np.arange(cap + 1)
    counts = np.bincount(np.minimum(turns, cap), minlength=cap + 1)
    ended_by = np.cumsum(counts)
    return t, 1.0 - ended_by / len(turns)


def _pairings(f: pl.DataFrame) -> list[tuple[str, pl.DataFrame]]:
    """Every cell of two bots from the ladder under the default readings: self-play, then
    the pairs, in the ladder's listing order (a label and the cell's rows)."""
    out = []
    for i, a in enumerate(BOTS):
        for b in BOTS[i:]:
            for cand in ([a] if a == b else [[a, b], [b, a]]):
                part = _cell(f, a if a == b else cand)
                if part.height:
                    out.append((f"{a} vs {b}", part))
                    break
    return out


def _forest(ax, labels, estimates, shown) -> None:
    """Points with their 95% intervals, one row each (filled: shown, hollow: not shown)."""
    for y, (e, s) in enumerate(zip(estimates, shown)):
        ax.errorbar(100 * e.estimate, y, xerr=[[100 * (e.estimate - e.lo)], [100 * (e.hi - e.estimate)]], fmt="o",
                    color=PALETTE[0], mfc=PALETTE[0] if s else "white", capsize=3)
    ax.axvline(0, color="k", ls=":", lw=1)
    ax.set_yticks(range(len(labels)), labels)
    ax.set_ylim(len(labels) - 0.5, -0.5)


def _over_pairings(estimates, margin: float) -> list[tuple[str, str]]:
    """(Holm-adjusted p, verdict) of one position's deviation in each pairing, Holm over the
    pairings."""
    z = scipy.special.ndtri(0.975)
    se = [(e.hi - e.lo) / (2 * z) for e in estimates]
    p_adj = holm_adjusted([two_sided_p(e.estimate, s) for e, s in zip(estimates, se)])
    return [(fmt_p(p), contrast_verdict(e.estimate, s, margin, p)) for e, s, p in zip(estimates, se, p_adj)]


def _says(verdict: str, e, margin: float) -> str:
    return {"shown": "favoured" if e.estimate > 0 else "disfavoured",
            "equivalent": f"fair within ±{100 * margin:.0f} points"}.get(verdict, "neither an edge nor fairness is shown")


def build(result, rep: Report) -> None:
    import matplotlib.pyplot as plt

    style()
    exp = result.experiment
    game = exp.game
    f = result.frame.with_columns(pl.col("bot").cast(pl.Utf8))
    cap = int(f["turn_cap"][0])
    rep.headline_figure = "first-player"
    rep.bullets([
        f"Root seed {exp.seed}: game *i* of every cell has the same seed and, seats rotated, the same bot in the same seat, "
        "so cells are compared game by game (paired) where they differ only in a bot option, the board or a reading.",
        "Rules as implemented, with every reading (A1-A37) and stand-in: " + rules_link(result, "ufo-o.md") + ".",
        "**The board is a stand-in** (nothing public describes the real sheet: 9 x 11 hexes, motherships at the middle of the "
        "top and bottom rows, an asteroid belt with three gaps and four outliers); absolute numbers describe this board.",
        "Bots: " + "; ".join(f"`{k}`: {v.help}" for k, v in game.bots.items()) + ".",
        f"Turn cap (A33): {cap} turns (one player's turn each); a game reaching it is a draw, which counts as a win for "
        "neither player, so a player's fair share of wins is half the games that have a winner.",
    ])

    # -- 1. who wins: turn order and seat --------------------------------------------------------
    pairings = _pairings(f)
    first_q, seat_q = _question("first_player"), _question("seat")
    rep.heading("Who wins: the first player and the seats")
    rep.text("The rulebook's die roll decides who moves first (A32); with seats rotated each bot and each seat should move "
             "first in half of the games (the table of seats below checks the roll). A position's figure is its win rate "
             "minus the fair share (the average position's win rate); the headline games are the tactical bot against itself.")
    for q in (first_q, seat_q):
        for a in q.answers(f):
            rep.evidence(a)
    selfplay = _cell(f, "tactical")
    if selfplay.height:
        rows = []
        for seat in (1, 2):
            mine = selfplay.filter(pl.col("seat") == seat)
            first = mine.filter(pl.col("first"))
            second = mine.filter(~pl.col("first"))
            rows.append({"seat": seat, "games": f"{mine.height:,}", "moves first (die roll)": _share(first.height, mine.height),
                         "wins": _share(mine["won"].sum(), mine.height),
                         "wins moving first": _share(first["won"].sum(), first.height),
                         "wins moving second": _share(second["won"].sum(), second.height)})
        rep.table(rows, "Tactical self-play, seat by seat: how often the die roll gives it the first move, and its win rate "
                        "overall, moving first and moving second (95% Wilson intervals): a seat's edge that remains at "
                        "equal turn order comes from the seat, not from the roll")
    # every pairing but random against another bot: random never wins those, so who moves
    # first there is only who won the die roll
    rows, first_est, seat_est, labels = [], [], [], []
    skipped, random_wins, random_games = [], 0, 0
    for label, part in pairings:
        a, _, b = label.partition(" vs ")
        if "random" in (a, b) and a != b:
            skipped.append(label)
            mine = part.filter(pl.col("bot") == "random")
            random_wins, random_games = random_wins + int(mine["won"].sum()), random_games + mine.height
            continue
        fa = Seats(position=first_q.position, position_name="turn position", names=first_q.names, by=()).answers(part, False)
        sa = Seats(position="seat", by=()).answers(part, False)
        if not fa or not sa:
            continue
        labels.append(label)
        first_est.append(fa[0].estimates[0])  # the first player (turn position 1)
        seat_est.append(sa[0].estimates[1])  # seat 2
        g = _games(part)
        rows.append({"pairing": label, "games": f"{g.height:,}", "first player wins": _share(int((g["winner"] == g["first_seat"]).sum()), g.height),
                     "draws": _share(int(g["draw"].sum()), g.height)})
    first_v, seat_v = _over_pairings(first_est, first_q.margin), _over_pairings(seat_est, first_q.margin)
    for row, e, (p, v), s2, (p2, v2) in zip(rows, first_est, first_v, seat_est, seat_v):
        row.update({"first player minus fair share": e.text(), "p (first player, Holm)": p, "first player": _says(v, e, first_q.margin),
                    "seat 2 minus fair share": s2.text(), "p (seat 2, Holm)": p2, "seat 2": _says(v2, s2, first_q.margin)})
    rep.table(rows, f"Every pairing of the bots, seats rotated, default readings: the first player's and seat 2's win rates, "
                    f"each minus the fair share, with 95% intervals; p-values Holm-adjusted over the {len(rows)} pairings, "
                    "for the first player and for seat 2 separately (in a game of two, the two positions' deviations are one "
                    "test)"
                    + (f". Left out: {', '.join(skipped)}: random won {random_wins:,} of these {random_games:,} games, so there "
                       "who moves first measures the die roll, not the game" if skipped else ""))
    if labels:
        fig, axes = plt.subplots(1, 2, figsize=(9, 0.45 * len(labels) + 1.4), sharey=True)
        _forest(axes[0], labels, first_est, [v == "shown" for _, v in first_v])
        axes[0].set_xlabel("first player: win rate minus fair share (points)")
        _forest(axes[1], labels, seat_est, [v == "shown" for _, v in seat_v])
        axes[1].set_xlabel("seat 2: win rate minus fair share (points)")
        fig.suptitle("Who wins more than the fair share, by pairing (95% intervals)")
        rep.figure(fig, "first-player", "The first player's and seat 2's win rates minus the fair share, per pairing of the bots, "
                                         "with 95% intervals (filled: shown after Holm over the pairings; hollow: neither an edge nor fairness shown)")

    # -- 2. which bot is stronger ------------------------------------------------------------------
    rep.heading("Which bot is stronger, head to head")
    rep.text("Each pair of different bots, seats rotated. Only pairs whose difference is shown are ordered; the bots are "
             "listed in the order they were written, which is not a ranking.")
    h2h = _question("head_to_head")
    answers = h2h.answers(f)
    for a in answers:
        rep.evidence(a)
    rows = []
    for label, part in pairings:
        a, _, b = label.partition(" vs ")
        if a == b:
            continue
        mine = part.filter(pl.col("bot") == a)
        first, second = mine.filter(pl.col("first")), mine.filter(~pl.col("first"))
        rows.append({"bot": a, "against": b, "games": f"{mine.height:,}", "wins": _share(mine["won"].sum(), mine.height),
                     "wins moving first": _share(first["won"].sum(), first.height),
                     "wins moving second": _share(second["won"].sum(), second.height)})
    rep.table(rows, "Each pair's games split by who moved first (95% Wilson intervals)")
    if answers:
        plotted = [e for e in answers[0].estimates if not e.label.startswith("random ")]
        if plotted:
            fig, ax = plt.subplots(figsize=(7, 0.5 * len(plotted) + 1.3))
            _forest(ax, [e.label.split(":")[0].replace(" against ", " minus ") for e in plotted], plotted,
                    [e.verdict == "shown" for e in plotted])
            ax.set_xlabel("win rate of the first bot minus the second's (points)")
            ax.set_title("Head to head (95% intervals; filled: shown after Holm)")
            rep.figure(fig, "ladder", "Each pair of bots other than random: the first bot's win rate minus the second's in their "
                                      "games, with 95% intervals (the pairs with random are in the tables above)")

    # -- 3. what laser, ion cannon and repair are worth -------------------------------------------
    rep.heading("What laser, ion cannon and repair are worth")
    rep.text("A bot that gives up one option plays the full bot, seats rotated, on the same seeds as the full bot's games "
             "against itself; its game-by-game result is compared with the full bot's in the same seat (paired). The "
             "difference is what the option is worth, in points of win rate. `laser-only` keeps the ion attack on a "
             "mothership (the only way to win) and gives up the ion cannon against UFOs.")
    plot = []
    for base in ("tactical", "search"):
        for a in OptionWorth(bot=base).answers(f):
            rep.evidence(a)
            plot += [(f"{base} {e.label.split(':')[0]}", e) for e in a.estimates]
    if plot:
        fig, ax = plt.subplots(figsize=(7, 0.5 * len(plot) + 1.3))
        _forest(ax, [p[0] for p in plot], [p[1] for p in plot], [p[1].verdict == "shown" for p in plot])
        ax.set_xlabel("win rate without the option minus the full bot's (points)")
        ax.set_title("What each option is worth (95% paired intervals)")
        rep.figure(fig, "options", "Win rate of a bot without one option minus the full bot's on the same seeds, with 95% "
                                   "paired intervals (below 0: the option helps; filled: shown after Holm)")
    usage = []
    for bot in ("aggressive", "tactical", "search"):
        g = _cell(f, bot)
        if not g.height:
            continue
        games = g["game_index"].n_unique()
        per = lambda c: g[c].sum() / games  # noqa: E731
        usage.append({"bot (self-play)": bot, "lasers": f"{per('lasers'):.2f}", "laser wins as attacker": _share(g["laser_wins"].sum(), g["lasers"].sum()),
                      "ion shots at UFOs": f"{per('ions'):.2f}", "ion shots at the mothership": f"{per('ms_attacks'):.2f}",
                      "mothership hits per shot": _share(g["ms_hits"].sum(), g["ms_attacks"].sum()),
                      "backfires": f"{per('backfires'):.2f}", "repairs": f"{per('repairs'):.2f}", "repairs that succeed": _share(g["repairs_ok"].sum(), g["repairs"].sum()),
                      "pushes": f"{per('pushes'):.2f}", "volley hits": f"{per('volley_hits'):.2f}", "asteroid damage": f"{per('asteroid_damage'):.2f}",
                      "UFOs destroyed": f"{per('ufos_lost'):.2f}"})
    rep.table(usage, "What the bots do, per game (both seats together); shares of attempts with 95% Wilson intervals (attempts "
                     "pooled over games)")

    # -- 4. game length ------------------------------------------------------------------------------------
    rep.heading("Game length")
    rep.text(f"Turns played (one player's turn each) in self-play; a game still running after turn {cap} is a draw, "
             "censored at the cap. The curve is the share of games still running after each turn.")
    rows = []
    fig, ax = plt.subplots(figsize=(7.5, 4))
    for i, bot in enumerate(BOTS):
        g = _games(_cell(f, bot))
        if not g.height:
            continue
        turns = g["turns"].to_numpy()
        t, surv = _survival(turns, cap)
        ax.step(t, 100 * surv, where="post", color=PALETTE[i], label=bot)
        q = np.percentile(turns, [25, 50, 75])
        rows.append({"bots (self-play)": bot, "games": f"{len(turns):,}", "mean turns": _mean_ci(turns),
                     "quartiles": f"{q[0]:.0f} / {q[1]:.0f} / {q[2]:.0f}", "reach the cap (draw)": pct(wilson(int(g["draw"].sum()), len(turns)))})
    ax.set_xscale("symlog", linthresh=20)
    ax.set_xlim(1, cap)
    ax.set_xlabel("turn")
    ax.set_ylabel("games still running (%)")
    ax.set_title("Survival of games (self-play)")
    ax.legend(loc="center right")
    rep.figure(fig, "length", f"Share of games lasting more than t turns (draws censored at turn {cap}; x axis linear to 20, then logarithmic)")
    rep.table(rows, "Game length in turns (95% intervals)")

    # -- 5. how sure: the readings and the stand-in board -------------------------------------------------------------
    sens = sensitivity_section(rep, result)
    if sens is not None:
        rep.bullets(_sensitivity_notes(sens))

    # -- 6. A15 and A18 read together ---------------------------------------------------------------------------
    _together_section(rep, f)

    # -- 7. what depends on what ----------------------------------------------------------------------------------
    rep.heading("What these numbers depend on")
    rep.bullets([
        "**The board** (C1-C9, a stand-in): distances decide the race to the enemy mothership, so game length and the "
        "first-player advantage are properties of this layout. Nothing public describes the real sheet; the sensitivity "
        "section plays three other layouts: without the four outlying asteroids (`board=no-outliers`), with the belt's "
        "gaps at columns 1, 4, 7 (`board=belt-1-4-7`) and two rows longer, the motherships farther apart "
        "(`board=13-rows`). The hex orientation (C2) is not varied (the rules document says why).",
        "**The readings** A1-A37 that have a setting are each switched in the sensitivity section; A32 (`first_player`) "
        "is an experiment control, not a reading, and A33 (the turn cap) matters only where games reach it (random play).",
        "**The bots**: every rate is a property of these bots; the tactical weights were tuned against the aggressive bot "
        "and against themselves (experiments/tune_ufoo.py), and the searching bot deviates from tactical only when its "
        "rollouts show a clear gain. A reading can change what a bot's fixed habits are worth (A18 `moved` against the "
        "aggressive bot's parking, above) as much as the game.",
    ])
    rep.heading("Compare variants yourself", 3)
    rep.code("simkit compare ufoo --bot tactical --vs board=no-outliers -n 40000\n"
             "simkit compare ufoo --bot tactical --vs board=13-rows -n 40000\n"
             "simkit compare ufoo --bot tactical --vs-bot tactical:no-repair -n 40000\n"
             "simkit sensitivity ufoo")


def sensitivity_section(rep: Report, result):
    """How the headline figures move under the other readings of unclear rules and with the
    stand-in board's variant (when the experiment file asks for it: ``sensitivity = GAMES``)."""
    from ...sensitivity import section_for_report
    from .sensitivity import TORNADO

    return section_for_report(rep, result, list(TORNADO))


def _change(s, figure: str, label: str) -> str:
    c = s.change(figure, label)
    if c is None:
        return "-"
    # (at a quick look's sizes these notes said "moves" of changes the section's table calls not shown)
    shown = "" if c.significant else "; a change not shown on these games (Holm)"
    return f"{c.figure.fmt(c.default)} to {c.figure.fmt(c.value)} ({c.figure.fmt_change(c.diff)}{shown})"


def _sensitivity_notes(s) -> list[str]:
    """What the sensitivity section's largest moves mean for these bots."""
    from .sensitivity import _adv_name

    ladder = "tactical vs aggressive: tactical's wins minus aggressive's"
    notes = []
    start = [c for c in s.changes if c.variant.label == "mothership_fire=start"]
    if start and all(c.diff.estimate == 0 and c.diff.lo == 0 and c.diff.hi == 0 for c in start):
        notes.append("A22 `start` moves nothing at all: the bots fire their mothership's lasers at the first decision of "
                     "their turn whenever an enemy UFO stands beside it, which is what `start` does by itself (same dice, "
                     "same order). The reading matters only to a player who would rather wait (to push enemies beside its "
                     "mothership first).")
    notes.append("A18 `moved` (only a UFO that moved may attack the enemy mothership) lengthens the aggressive bot's games "
                 f"from {_change(s, 'aggressive vs aggressive: mean game length', 'mothership_attack_from=moved')}: it "
                 "parks its UFOs on the enemy's launch hexes and, needing to move to fire again, does not shuffle between "
                 "them; the tactical bot does (its games: from "
                 f"{_change(s, 'tactical vs tactical: mean game length', 'mothership_attack_from=moved')}), so tactical's "
                 "edge over aggressive head to head goes from "
                 f"{_change(s, ladder, 'mothership_attack_from=moved')}. "
                 "That row measures the bot as much as the rule.")
    notes.append("A37's literal reading (the turn ends when no enemy UFO is in a line of fire: no mothership attack, no "
                 "repair) stretches the aggressive bot's games from "
                 f"{_change(s, 'aggressive vs aggressive: mean game length', 'no_target_ends_turn=True')} "
                 "and moves the first player's wins minus losses between tactical bots (twice its win rate's distance from a fair "
                 "50%) from "
                 f"{_change(s, _adv_name('tactical'), 'no_target_ends_turn=True')}: a mothership can then be hit only "
                 "while some enemy UFO happens to stand 2 hexes from a friend.")
    notes.append("Without the four outlying asteroids the first player's wins minus losses move from "
                 f"{_change(s, _adv_name('tactical'), 'board=no-outliers')} with tactical bots and from "
                 f"{_change(s, _adv_name('aggressive'), 'board=no-outliers')} with aggressive bots; which of the outliers' effects "
                 "(longer paths, asteroid rolls beside them, blocked lines of fire) causes it was not isolated.")
    notes.append("With the belt's gaps at columns 1, 4 and 7 (side lanes one column farther out) the first player's "
                 f"wins minus losses with tactical bots move from {_change(s, _adv_name('tactical'), 'board=belt-1-4-7')}; on the "
                 "board two rows longer (launch hexes 10 steps apart instead of 8) from "
                 f"{_change(s, _adv_name('tactical'), 'board=13-rows')}, and the tactical games' length from "
                 f"{_change(s, 'tactical vs tactical: mean game length', 'board=13-rows')}.")
    return notes


def _together_section(rep: Report, f: pl.DataFrame) -> None:
    """A15 and A18 are the same phrase ("termina il movimento"), so the consistent other
    reading switches both; the sensitivity section switches them one at a time."""
    both = {"asteroid_check": "moved", "mothership_attack_from": "moved"}
    first_q = _question("first_player")
    rows, first_won, turns = [], [], []
    for bot in ("tactical", "aggressive"):
        base, part = _cell(f, bot), _cell(f, bot, **both)
        if not base.height or not part.height:
            continue
        per_game = {}
        for label, frame in (("default (A15/A18: every UFO)", base), ("A15 and A18: only UFOs that moved", part)):
            g = _games(frame).with_columns((pl.col("winner") == pl.col("first_seat")).alias("first player won"))
            per_game[label] = g.select("game_index", "first player won", pl.col("turns").cast(pl.Float64))
            fa = Seats(position=first_q.position, position_name="turn position", names=first_q.names, by=()).answers(frame, False)
            totals = frame.group_by("game_index").agg(pl.col("asteroid_damage").sum(), pl.col("volley_hits").sum())
            rows.append({"bot": bot, "reading": label, "games": f"{g.height:,}",
                         "first player wins": _share(g["first player won"].sum(), g.height),
                         "first player minus fair share": fa[0].estimates[0].text() if fa else "n/a",
                         "mean turns": _mean_ci(g["turns"].to_numpy()),
                         "asteroid damage / game": _mean_ci(totals["asteroid_damage"].to_numpy()),
                         "volley hits / game": _mean_ci(totals["volley_hits"].to_numpy())})
        old, new = per_game.values()
        first_won.append((VariantEffect(f"{bot} self-play", metric="first player won"), old, new))
        turns.append((VariantEffect(f"{bot} self-play", metric="turns"), old, new))
    if not rows:
        return
    rep.heading("A15 and A18 read together")
    rep.text("A15 (asteroid rolls) and A18 (the ion attack on the enemy mothership) read the same phrase, \"termina il "
             "movimento\"; the rules document gives both the same default so that the phrase means one thing. The section "
             "above switches them one at a time; here both read \"only a UFO that moved\" (`asteroid_check=moved`, "
             "`mothership_attack_from=moved`), against the default on the same seeds.")
    rep.table(rows, "Self-play under each reading (95% intervals)")
    for family in (first_won, turns):
        answers = paired_family(family)
        rep.table([r for a in answers for r in a.rows()],
                  f"The reading minus the default on the same seeds ({answers[0].method})")
