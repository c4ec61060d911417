"""The Escape From the Aliens balance report's own sections (the answers of questions.py open
it): the headline cell's evidence, who wins by map, player count and mode, the scenarios,
the rulebook's "perfectly balanced" Galilei per bot pairing, when humans escape or die,
turn order by side, what each item is worth, the ladder of bot strength, and the readings
of unclear rules (simkit/games/eftaios/sensitivity.py; experiments/eftaios.toml).

"Is it balanced?" is asked two ways everywhere, each named for its question: *fair to a
player* (a human seat's win rate minus an alien seat's) and *which team takes the game*
(the share of games some human wins minus the aliens' share); see questions.py."""

from __future__ import annotations

import dataclasses

import numpy as np
import polars as pl

from ...ladder import FLIPS_CAVEAT
from ...questions import ALPHA, EQUIVALENT, SHOWN, VariantEffect, fmt_p
from ...report import PALETTE, Report, pct, rules_link, style
from ...stats import mean_interval, wilson
from .questions import HEADLINE, MAP_NAMES, MARGIN, Sides, TurnOrder, within_margin

MAPS = ("galilei", "fermi", "galvani")
MODES = ("basic", "advanced")
SIDES = Sides()
PAIRINGS = {
    "random": "random / random",
    "heuristic:no-avoid": "heuristic, ignoring the aliens' reach / heuristic",
    "heuristic": "heuristic / heuristic",
    "heuristic:no-track": "heuristic / heuristic, ignoring the announcements",
    "search:humans": "search / heuristic",
    "search:aliens": "heuristic / search",
    "search": "search / search",
}
SHORT = {"random": "rand / rand", "heuristic:no-avoid": "heur (no avoid) / heur", "heuristic": "heur / heur",
         "heuristic:no-track": "heur / heur (no track)", "search:humans": "search / heur",
         "search:aliens": "heur / search", "search": "search / search"}
ITEMS = ("attack", "teleport", "adrenaline", "sedatives", "spotlight", "defence")
# The columns build() reads beyond its questions' and the settings (simkit.report.compose reads only these;
# tests/test_questions.py checks that every column build() names is declared here).
READS = ("alien_win", "attacks", "bluffs", "draw", "escaped", "fate", "fate_round", "human_win", "humans", "infected",
         "kills", "stranded", *(f"used_{item}" for item in ITEMS))
LADDER = ("random", "heuristic:no-track+no-avoid+no-bluff", "heuristic", "search", "search:budget=16")
LADDER_NAMES = {"random": "random", "heuristic:no-track+no-avoid+no-bluff": "heuristic, no skills",
                "heuristic": "heuristic", "search": "search (budget 4)", "search:budget=16": "search (budget 16)"}
GAP_LABEL = "fair to a player: human seat − alien seat (points)"


def _games(f: pl.DataFrame) -> pl.DataFrame:
    return f.filter(pl.col("seat") == 1)


def _rate(values) -> str:
    v = np.asarray(values, dtype=np.int64)
    return pct(wilson(int(v.sum()), len(v)))


def _mean(values, digits=2) -> str:
    m = mean_interval(np.asarray(values, dtype=np.float64))
    return f"{m.estimate:.{digits}f} [{m.lo:.{digits}f}, {m.hi:.{digits}f}]"


def _cell(f: pl.DataFrame, **eq) -> pl.DataFrame:
    for k, v in eq.items():
        f = f.filter(pl.col(k) == v)
    return f


def _verdict_words(e, more: str, less: str, balanced: str) -> str:
    """A gap's verdict in a table cell: whom a shown gap favours (and "within ±5" when it
    is inside the margin too, as the lists below say), balance by equivalence, or not shown."""
    m = f"±{100 * MARGIN:.0f}"
    if e.verdict == SHOWN:
        return (more if e.estimate > 0 else less) + (f", within {m}" if within_margin(e) else "")
    return f"{balanced} within {m}" if e.verdict == EQUIVALENT else "not shown"


def _player_words(e) -> str:
    """The verdict on 'fair to a player' in a table cell."""
    return _verdict_words(e, "favours a human seat", "favours an alien seat", "balanced")


def _team_words(e) -> str:
    """The verdict on 'which team takes the game' in a table cell."""
    return _verdict_words(e, "the humans", "the aliens", "even")


def _side_cells(rep, claim: str, est) -> dict:
    """A table row's figures and verdicts on both readings of balance (``est`` from
    :func:`_sides`); each verdict is also a conclusion of the report, so that the next
    version says when it changes."""
    player, team = _player_words(est[0]), _team_words(est[1])
    rep.conclude(f"{claim}: fair to a player", player)
    rep.conclude(f"{claim}: which team takes more games", team)
    return {"a human seat wins": est[2].text(), "an alien seat wins": est[3].text(), GAP_LABEL: est[0].text(), "verdict": player,
            "which team takes the game: humans − aliens (points)": est[1].text(), "takes more games": team}


def _sides(part: pl.DataFrame):
    """Both answers on one cell: (fair-to-a-player gap, team gap, a human seat's rate, an
    alien seat's, share of games some human wins, the aliens' share), or None with too few games."""
    a = SIDES.answer_group(part, {})
    return a.estimates if a is not None and a.estimates else None


def _errorbar(ax, xs, ests, **kw):
    ys = [100 * e.estimate for e in ests]
    lo = [100 * (e.estimate - e.lo) for e in ests]
    hi = [100 * (e.hi - e.estimate) for e in ests]
    ax.errorbar(xs, ys, yerr=[lo, hi], **kw)


def _gap_axes(ax):
    ax.axhspan(-100 * MARGIN, 100 * MARGIN, color="#2ca02c", alpha=0.12, lw=0)
    ax.axhline(0, color="grey", lw=0.8)


def build(result, rep: Report) -> None:
    import matplotlib.pyplot as plt

    from ...sensitivity import section_for_report
    from .sensitivity import TORNADO

    style()
    game = result.experiment.game
    f = result.frame.with_columns(pl.col("bot").cast(pl.Utf8))
    if "scenario" not in f.columns:
        f = f.with_columns(pl.lit("none").alias("scenario"))
    rep.text("Who wins *Escape From the Aliens In Outer Space* (black edition) by map, player count, mode and scenario; "
             "whether Galilei is \"perfectly balanced between humans and aliens\" as the rulebook says; when humans escape "
             "or die; whether turn order matters; what each item is worth; and how the balance moves as the bots get "
             "stronger. Rates: Wilson intervals for a share of games, t intervals over games for a seat's win rate and for "
             "means; paired comparisons: Tango's interval and McNemar's test.")
    rep.bullets([
        "Rules as implemented, with every reading (A1-A29) and stand-in: " + rules_link(result, "eftaios.md") + ". "
        "Defaults throughout: A1-A29 at their default readings, 39 rounds.",
        "Bots (each sees only its seat's observation: its own character, sector and cards, and the public announcements): "
        + "; ".join(f"`{k}`: {v.help}" for k, v in game.bots.items()) + ".",
        "A **pairing** is written humans' bot / aliens' bot. Seats are dealt sides at random (R1.3), so a pairing is a bot "
        "that plays one way as a human and another as an alien (`search:humans`, `search:aliens`, `heuristic:no-track`...).",
        "The numbers describe these bots on the modelled rules and data, not expert human play; the section \"How sure are "
        "these numbers\" measures which headline figures depend on which reading of an unclear rule.",
    ])
    grid = {k: f.filter(pl.col("grid") == k) for k in range(6)}
    headline = _cell(f, **HEADLINE)
    _headline_section(rep, plt)
    _map_section(rep, plt, grid[0])
    _scenario_section(rep, grid[1])
    _balance_section(rep, plt, grid[2])
    _survival_section(rep, plt, f)
    _turn_order_section(rep, plt, headline)
    _item_section(rep, plt, _cell(headline, mode="advanced"), grid[4])
    _ladder_section(rep, plt, grid[5])
    sens = section_for_report(rep, result, list(TORNADO))
    _notes(rep, f, sens)


# ---------------------------------------------------------------------------------------------
def _headline_section(rep, plt):
    answers = [a for a in rep.answers if a.question == SIDES.id]
    if not answers:
        return
    rep.heading("Fair to a player, and which team takes the game")
    rep.text("In the **basic** game the first human to reach a hatch wins alone, otherwise the aliens win together (R7); in "
             "the **advanced** game every escaped human wins, and the aliens win when the last human aboard dies or time runs "
             "out, so both sides can win the same game (R11). \"Is it balanced?\" therefore asks two things. **Fair to a "
             "player**: does a seat dealt a human win as often as a seat dealt an alien? That is the question for someone "
             "sitting down to play. **Which team takes the game**: does some human win as many games as the aliens do? With "
             "three humans each playing for himself, the humans as a team can take most basic games while each human seat "
             f"wins no more often than an alien seat. A gap within ±{100 * MARGIN:.0f} points counts as balanced when an "
             "equivalence test shows it (the 90% interval inside the margin); a gap that is not significant is not taken as "
             "balance.")
    for a in answers:
        rep.evidence(a)
    shown = [(a, a.estimates) for a in answers if a.estimates]
    if not shown:
        return
    labels = ["a human seat wins", "an alien seat wins", "some human wins the game", "the aliens win the game"]
    fig, axes = plt.subplots(1, len(shown), figsize=(4.6 * len(shown), 2.9), sharey=True, squeeze=False)
    for ax, (a, est) in zip(axes[0], shown):
        rates = est[2:]
        for k, e in enumerate(rates):
            ax.errorbar([100 * e.estimate], [k], xerr=[[100 * (e.estimate - e.lo)], [100 * (e.hi - e.estimate)]], fmt="o",
                        capsize=3, color=PALETTE[k % 2])
        ax.axhline(1.5, color="grey", lw=0.6)
        ax.set_xlim(0, 100)
        ax.set_yticks(range(4))
        ax.set_yticklabels(labels)
        ax.invert_yaxis()
        ax.set_xlabel("% of games")
        ax.set_title(f"{a.group.get('mode', '')} game ({a.games:,} games)")
    rep.figure(fig, "sides", "Galilei, 6 heuristic players. Above the line, fair to a player: how often a seat dealt each side "
                             "wins. Below, which team takes the game: the share of games each side wins (in the advanced game "
                             "both can win the same game). 95% intervals")
    rep.headline_figure = "sides"


def _map_section(rep, plt, base):
    if base.height == 0:
        return
    rep.heading("Who wins, by map, player count and mode")
    rep.text(f"Heuristic bots at every seat. **{GAP_LABEL}**: a human seat's win rate minus an alien seat's, with its "
             f"verdict (shown at 5%, or balanced within ±{100 * MARGIN:.0f} points by equivalence). The shares of games a "
             "human and the aliens win answer which team takes the game; in the advanced game they can add up to more than "
             "100%.")
    rows = []
    gaps = {}
    players = sorted(base["players"].unique().to_list())
    for mode in MODES:
        for m in MAPS:
            for n in players:
                part = _cell(base, mode=mode, map=m, players=n)
                if part.height == 0:
                    continue
                g = _games(part)
                row = {"mode": mode, "map": MAP_NAMES[m], "players": n, "games": f"{g.height:,}"}
                est = _sides(part)
                if est is None:
                    row[GAP_LABEL] = "too few games"
                else:
                    gaps[(mode, m, n)] = est[0]
                    row.update({"a human seat wins": est[2].text(), "an alien seat wins": est[3].text(), GAP_LABEL: est[0].text(),
                                "verdict": _player_words(est[0])})
                row.update({"games a human wins": _rate(g["human_win"]), "games the aliens win": _rate(g["alien_win"]),
                            "escapes / game": _mean(g["escaped"])})
                rows.append(row)
    rep.table(rows, "Win rates with 95% intervals (heuristic bots)")
    if not gaps:
        return
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    for ax, mode in zip(axes, MODES):
        _gap_axes(ax)
        for i, m in enumerate(MAPS):
            cells = [(n, gaps[(mode, m, n)]) for n in players if (mode, m, n) in gaps]
            if cells:
                _errorbar(ax, [n + (i - 1) * 0.12 for n, _ in cells], [e for _, e in cells], marker="o", ms=4, capsize=2,
                          color=PALETTE[i], label=MAP_NAMES[m])
        ax.set_title(f"{mode} game")
        ax.set_xlabel("players")
    axes[0].set_ylabel("human seat's win rate\nminus alien seat's (points)")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=3, bbox_to_anchor=(0.5, 1.04))
    rep.figure(fig, "maps", f"Fair to a player, by map and player count: a human seat's win rate minus an alien seat's "
                            f"(heuristic bots; bars: 95% intervals; 0: fair; green band: within ±{100 * MARGIN:.0f} points)")


def _scenario_section(rep, sc):
    if sc.height == 0:
        return
    rep.heading("The scenarios")
    rep.text("The rulebook's three ready-made scenarios on the advanced game (A27), heuristic bots. Old Guard gives the "
             "four human characters abilities (H.1-H.4) and hides item uses (G.4); Infection turns killed humans into "
             "aliens (B.3) and opens the hatches without cards (D.2); Arena has no humans: aliens start on hatches, "
             "come back when killed, and whoever kills as many players as there are players wins (E.3, A25).")
    rows = []
    for scen in ("old_guard", "infection"):
        for m in MAPS:
            for n in sorted(sc["players"].unique().to_list()):
                g = _games(_cell(sc, scenario=scen, map=m, players=n))
                if g.height == 0:
                    continue
                rows.append({"scenario": scen.replace("_", " "), "map": MAP_NAMES[m], "players": n,
                             "games a human wins": _rate(g["human_win"]), "games the aliens win": _rate(g["alien_win"]),
                             "escapes / game": _mean(g["escaped"]),
                             "infected / game": _mean(g["infected"]) if scen == "infection" else ""})
    rep.table(rows, "Old Guard and Infection (advanced game, heuristic bots), 95% intervals")
    rows = []
    for m in MAPS:
        for n in sorted(sc["players"].unique().to_list()):
            part = _cell(sc, scenario="arena", map=m, players=n)
            g = _games(part)
            if g.height == 0:
                continue
            winners = part.group_by("game_index").agg(pl.col("won").sum())["won"]
            rows.append({"map": MAP_NAMES[m], "players": n, "nobody reaches the threshold (draw)": _rate(g["draw"]),
                         "winners / game": _mean(winners), "kills / seat": _mean(part["kills"]),
                         "attacks / seat": _mean(part["attacks"])})
    rep.table(rows, "Arena (threshold = the number of players; safe sectors closed, A22), 95% intervals")
    draws = {m: _games(_cell(sc, scenario="arena", map=m))["draw"] for m in MAPS
             if _games(_cell(sc, scenario="arena", map=m)).height}
    if draws:
        rep.text("In Arena the rulebook's threshold (\"as many as the number of players\") is "
                 + "; ".join(f"missed by every seat in {_rate(v)} of games on {MAP_NAMES[m]}" for m, v in draws.items())
                 + " (4, 6 and 8 players together). Respawns make kills cheap where dangerous sectors connect the hatches; "
                 "on Fermi (15 dangerous sectors) closed safe sectors leave seats stuck on their hatches (A22, A28). The "
                 "threshold is a setting (`arena_kills`).")


def _balance_section(rep, plt, bal):
    if bal.height == 0:
        return
    rep.heading("Is Galilei \"perfectly balanced between humans and aliens\"?")
    rep.text(f"The rulebook: Galilei is \"perfeitamente equilibrada entre Humanos e Extraterrestres\", recommended for 4 to 8 "
             f"players. Read for a player, the claim holds for a pairing when a human seat's and an alien seat's win rates are "
             f"shown to lie within ±{100 * MARGIN:.0f} points of each other (equivalence: the 90% interval of the gap inside the "
             f"margin); read for the teams, when the shares of games each side takes are. A gap that is not significant is "
             f"not taken as balance.")
    rows = []
    gaps = {}
    players = sorted(bal["players"].unique().to_list())
    for mode in MODES:
        for bot, name in PAIRINGS.items():
            for n in players:
                part = _cell(bal, mode=mode, bot=bot, players=n)
                if part.height == 0:
                    continue
                est = _sides(part)
                row = {"mode": mode, "humans / aliens": name, "players": n, "games": f"{_games(part).height:,}"}
                if est is None:
                    row[GAP_LABEL] = "too few games"
                else:
                    gaps[(mode, bot, n)] = est
                    row.update(_side_cells(rep, f"Galilei, {name} (humans / aliens), {mode} game, {n} players", est))
                rows.append(row)
    rep.table(rows, "Galilei per pairing and player count, 95% intervals")

    def held(k):
        return [f"{PAIRINGS[b]} ({mode}, {n} players)" for (mode, b, n), est in gaps.items()
                if est[k].verdict == EQUIVALENT or (est[k].verdict == SHOWN and within_margin(est[k]))]

    for k, reading in ((0, "for a player"), (1, "for the teams")):
        got = held(k)
        rep.text(f"**Balanced {reading}** (within ±{100 * MARGIN:.0f} points, shown): " + ("; ".join(got) if got else "no pairing")
                 + ".")
    if not gaps:
        return
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2), sharey=True)
    names = list(PAIRINGS)
    for ax, mode in zip(axes, MODES):
        _gap_axes(ax)
        for i, n in enumerate(players):
            cells = [(k, gaps[(mode, b, n)][0]) for k, b in enumerate(names) if (mode, b, n) in gaps]
            if cells:
                _errorbar(ax, [k + (i - 1) * 0.2 for k, _ in cells], [e for _, e in cells], fmt="o", ms=4, capsize=2,
                          color=PALETTE[i], label=f"{n} players")
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels([SHORT[b] for b in names], rotation=35, ha="right", fontsize=8)
        ax.set_title(f"{mode} game")
    axes[0].set_ylabel("human seat's win rate\nminus alien seat's (points)")
    axes[1].legend(loc="lower right", fontsize=8)
    rep.figure(fig, "balance", "Galilei, fair to a player: a human seat's win rate minus an alien seat's, per pairing (humans / "
                               f"aliens) and player count, 95% intervals; 0: fair; green band: within ±{100 * MARGIN:.0f} points")


def _survival_section(rep, plt, f):
    base = f.filter((pl.col("grid") == 0) & (pl.col("mode") == "advanced") & (pl.col("players") == 6) & (pl.col("side") == 0))
    if base.height == 0:
        return
    rep.heading("When humans escape or die")
    rep.text("Each human seat's fate and its round (advanced game, 6 players, heuristic bots unless stated). The curves are "
             "cumulative incidences of the competing fates: by round t, the share of humans who have escaped or been killed "
             "(the others are stranded when every hatch is closed, R10.4, or eliminated by time after round 39, R11.4). "
             "Every advanced game runs until no human is aboard or time is up, so nothing is censored. Shaded: pointwise "
             "95% intervals (Wilson over human seats).")
    search = f.filter((pl.col("grid") == 2) & (pl.col("mode") == "advanced") & (pl.col("players") == 6) & (pl.col("side") == 0)
                      & (pl.col("bot") == "search"))
    rounds = np.arange(0, 40)
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    rows = []
    curves = [(MAP_NAMES[m], _cell(base, map=m), PALETTE[i], "-") for i, m in enumerate(MAPS)]
    curves.append(("Galilei, search bots", search, PALETTE[3], "--"))
    for label, part, colour, ls in curves:
        if part.height == 0:
            continue
        fate = part["fate"].to_numpy()
        fr = part["fate_round"].to_numpy()
        n = len(fate)
        for ax, k in zip(axes, (1, 2)):
            ci = [wilson(int(np.sum((fate == k) & (fr <= t))), n) for t in rounds]
            ax.step(rounds, [100 * c.estimate for c in ci], where="post", color=colour, ls=ls, label=label)
            ax.fill_between(rounds, [100 * c.lo for c in ci], [100 * c.hi for c in ci], step="post", color=colour, alpha=0.15, lw=0)
        esc_r = fr[fate == 1]
        die_r = fr[fate == 2]
        rows.append({"": label, "humans": f"{n:,}", "escaped": _rate(fate == 1), "killed": _rate(fate == 2),
                     "stranded": _rate(fate == 3), "time": _rate(fate == 4),
                     "mean round of escape": _mean(esc_r, 1) if len(esc_r) > 1 else "-",
                     "mean round of death": _mean(die_r, 1) if len(die_r) > 1 else "-"})
    axes[0].set_title("escaped by round t")
    axes[1].set_title("killed by round t")
    for ax in axes:
        ax.set_xlabel("round")
        ax.set_xlim(0, 39)
    axes[0].set_ylabel("share of human seats (%)")
    axes[0].legend(loc="upper left")
    rep.figure(fig, "survival", "Cumulative incidence of escape and of death by round (human seats, advanced game, 6 players), "
                                "95% pointwise intervals")
    rep.table(rows, "Fates of the human seats, with 95% intervals")


def _turn_order_section(rep, plt, headline):
    answers = [a for a in rep.answers if a.question == TurnOrder.id]
    if not answers:
        return
    rep.heading("Does turn order matter?")
    rep.text("Galilei, 6 players, heuristic bots, seats rotated. The first player is drawn at random (R1.5) and sides are "
             "dealt at random, so a place in the turn order (1 = first player) is what a player sitting down gets, whichever "
             "side follows. A human seat wins alone (it escapes); an alien seat wins with its team.")
    for a in answers:
        rep.evidence(a)
    for mode in ("advanced", "basic"):
        part = _cell(headline, mode=mode)
        if part.height == 0:
            continue
        positions = sorted(part["order"].unique().to_list())
        rows = []
        for side, name in ((0, "human seat"), (1, "alien seat")):
            row = {"side": name}
            for o in positions:
                row[f"place {o}"] = _rate(part.filter((pl.col("side") == side) & (pl.col("order") == o))["won"])
            rows.append(row)
        rep.table(rows, f"{mode} game: win rate by place in the turn order and side, 95% intervals")
        if mode != "advanced":
            continue
        first, last = (part.filter((pl.col("side") == 0) & (pl.col("order") == o))["won"] for o in (positions[0], positions[-1]))
        a, b = (wilson(int(w.sum()), w.len()) for w in (first, last))
        if a.lo > b.hi:  # the intervals do not overlap: the first human's edge is shown
            rep.text(f"A human seat first in the turn order wins {pct(a)} of advanced games, one last {pct(b)}: hatches are "
                     "first come, first served. In the basic game the first human to arrive wins alone, and humans walking "
                     "equally long paths arrive in the same round, in turn order; in the advanced game each hatch lets one "
                     "human out (green) or none (red), so the late humans find the hatches closed and must cross the ship again.")
        fig, ax = plt.subplots(figsize=(6.5, 3.6))
        for k, (side, name) in enumerate(((0, "human seats"), (1, "alien seats"))):
            xs, ests = [], []
            for o in positions:
                w = part.filter((pl.col("side") == side) & (pl.col("order") == o))["won"]
                if w.len():
                    xs.append(o + (k - 0.5) * 0.15)
                    ests.append(wilson(int(w.sum()), w.len()))
            _errorbar(ax, xs, ests, fmt="o", ms=4, capsize=2, color=PALETTE[k], label=name)
        ax.set_ylim(0, 100)
        ax.set_xlabel("place in the turn order (1 = first player)")
        ax.set_ylabel("win rate (%)")
        ax.legend(loc="center right")
        rep.figure(fig, "seats", "Win rate by place in the turn order and side (Galilei, 6 players, advanced game), 95% intervals")


def _item_section(rep, plt, base, items):
    if items.height == 0 or base.height == 0:
        return
    rep.heading("What each item is worth")
    options = ITEMS + ("bluff",)
    rep.text("Every seat plays the heuristic, but in one run nobody ever uses a given item (or never bluffs with a noise in "
             "any sector). Both runs play the same seeds, so game i deals the same characters and the same cards until play "
             "diverges; each human seat is compared with itself (paired by seed and seat): its win rate with the item minus "
             "without (Tango's interval, McNemar's test), and the aliens' share of games the same way per game. Each "
             f"verdict is at {100 * ALPHA / len(options):.2g}% (Bonferroni over the {len(options)}, 5% in all); \"no change "
             "beyond ±2 points\" is an equivalence test at the same level. Aliens never use items (R8.4), so the restriction "
             "touches the humans only (bluffing: both sides).")
    human = "a human seat's win rate"
    aliens = "the aliens' share of games"
    rows, shown = [], []
    for opt in options:
        without = items.filter(pl.col("bot") == f"heuristic:no-{opt}")
        if without.height == 0:
            continue
        n = min(without["game_index"].n_unique(), base["game_index"].n_unique())
        with_, without = (fr.filter(pl.col("game_index") < n) for fr in (base, without))
        name = "bluffing" if opt == "bluff" else opt.capitalize()
        effect = VariantEffect(label=f"{name}, against never using it", alpha=ALPHA / len(options), margin=0.02)
        h = dataclasses.replace(effect, metric=human).answer(_human_seats(without, human), _human_seats(with_, human))
        a = dataclasses.replace(effect, metric=aliens).answer(_alien_games(without, aliens), _alien_games(with_, aliens))
        col = f"used_{opt}" if opt != "bluff" else "bluffs"
        uses = with_.filter(pl.col("side") == 0)[col].mean()
        eh, ea = h.estimates[0], a.estimates[0]
        rarely = uses < 0.02  # (then no column's 'no change' says anything of the item: the aliens' said 'shown')
        unmeasured = "hardly ever used by this bot: not measured"
        rows.append({"item": name, "uses per human per game": f"{uses:.2f}", "a human seat's win rate: with − without": eh.text(),
                     "p": fmt_p(eh.p), "verdict (human seat)": unmeasured if rarely else _effect_words(eh),
                     "the aliens' share of games: with − without": ea.text(),
                     "verdict (aliens)": unmeasured if rarely else _effect_words(ea), "games": f"{n:,}"})
        shown.append((name, eh))
    rep.table(rows, "Worth of each item to a human seat (Galilei, 6 players, advanced game, paired by seed and seat)")
    rep.text("These are the worths **to this bot**: an item the heuristic uses rarely cannot show its worth here, and a "
             "better use policy could make any item worth more. Bluffing is naming a sector away from one's own on a noise "
             "in any sector; a human who always tells the truth gives its position away on every noise.")
    if not shown:
        return
    fig, ax = plt.subplots(figsize=(7, 3.4))
    ys = np.arange(len(shown))
    est = [e for _, e in shown]
    ax.errorbar([100 * e.estimate for e in est], ys, xerr=[[100 * (e.estimate - e.lo) for e in est], [100 * (e.hi - e.estimate) for e in est]],
                fmt="o", capsize=3, color=PALETTE[0])
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(ys)
    ax.set_yticklabels([name for name, _ in shown])
    ax.set_xlabel("human seat's win rate: with the item minus without (points)")
    rep.figure(fig, "items", "What each item (and bluffing) is worth to a human seat, 95% intervals")


def _human_seats(fr: pl.DataFrame, metric: str) -> pl.DataFrame:
    """Each human seat's win, keyed by game and seat, under the metric's name (its words)."""
    return fr.filter(pl.col("side") == 0).select("game_index", "seat", pl.col("won").alias(metric))


def _alien_games(fr: pl.DataFrame, metric: str) -> pl.DataFrame:
    """Whether the aliens won, one row per game."""
    return _games(fr).select("game_index", "seat", pl.col("alien_win").alias(metric))


def _effect_words(e) -> str:
    if e.verdict == SHOWN:
        return f"{'raises' if e.estimate > 0 else 'lowers'} it (shown)"
    if e.verdict == EQUIVALENT:
        return "no change beyond ±2 points (shown)"
    return f"neither a change nor its absence is shown; up to {100 * max(abs(e.lo), abs(e.hi)):.1f} points possible"


def _ladder_section(rep, plt, lad):
    if lad.height == 0:
        return
    rep.heading("Does the balance hold as the bots get stronger?")
    rep.text("Both sides at the same level, Galilei, 6 players: random; the heuristic without its skills (aliens ignore "
             "the announcements, humans ignore the aliens' reach, nobody bluffs); the heuristic; the searching bot at budget 4 and "
             "16 (a seat samples four times as many worlds: a human weighs the aliens' attacks in them; an alien hunts: it "
             "attacks where a sampled human stands in a fifth of them or more, else closes on the nearest).")
    rows = []
    gaps = {}
    for mode in MODES:
        for bot in LADDER:
            part = _cell(lad, mode=mode, bot=bot)
            if part.height == 0:
                continue
            est = _sides(part)
            row = {"mode": mode, "level": LADDER_NAMES[bot], "games": f"{_games(part).height:,}"}
            if est is None:
                row[GAP_LABEL] = "too few games"
            else:
                gaps[(mode, bot)] = est[0]
                row.update(_side_cells(rep, f"Galilei, 6 players, both sides {LADDER_NAMES[bot]}, {mode} game", est))
            rows.append(row)
    rep.table(rows, "The ladder: both sides at the same level (Galilei, 6 players), 95% intervals")
    if not gaps:
        return
    for mode in MODES:  # a game fair to a player within the margin for the default bot, and not for a stronger one
        ref = gaps.get((mode, "heuristic"))
        if ref is None or not (ref.verdict == EQUIVALENT or within_margin(ref)):
            continue
        for bot in reversed(LADDER[LADDER.index("heuristic") + 1:]):  # (the strongest that breaks it)
            e = gaps.get((mode, bot))
            if e is not None and e.verdict == SHOWN and not within_margin(e):
                rep.caveat(FLIPS_CAVEAT, f"Galilei's {mode} game, 6 players, is fair to a player within "
                           f"±{100 * MARGIN:.0f} points for the heuristic bots; with both sides {LADDER_NAMES[bot]}, a human seat's "
                           f"win rate minus an alien seat's is {e.text()}")
                break
    fig, ax = plt.subplots(figsize=(7.5, 3.8))
    _gap_axes(ax)
    for k, mode in enumerate(MODES):
        cells = [(i, gaps[(mode, b)]) for i, b in enumerate(LADDER) if (mode, b) in gaps]
        if cells:
            _errorbar(ax, [i + (k - 0.5) * 0.12 for i, _ in cells], [e for _, e in cells], marker="o", ms=4, capsize=2,
                      color=PALETTE[k], label=f"{mode} game")
    ax.set_xticks(range(len(LADDER)))
    ax.set_xticklabels([LADDER_NAMES[b] for b in LADDER], fontsize=8)
    ax.set_ylabel("human seat's win rate\nminus alien seat's (points)")
    ax.legend(loc="lower right")
    rep.figure(fig, "ladder", "Fair to a player along the ladder of bot strength: a human seat's win rate minus an alien seat's, "
                              f"95% intervals; 0: fair; green band: within ±{100 * MARGIN:.0f} points")


def _notes(rep, f, sens):
    rep.heading("What depends on what")
    items = [
        "**Maps and decks** are verified transcriptions (C1-C10 of the rules doc: 14 of 17 Galilei transcriptions agree cell "
        "for cell; the deck breakdowns match the box manifest), so there is no stand-in to vary. The card ids' order (C13) "
        "only affects which seed gives which game.",
    ]
    if sens is not None:
        items.append("**The readings** (A1-A29 and the round count) are each switched in the section above, with the claims "
                     "they can overturn." + _stranding(f, sens))
    items += [
        "**Old Guard** lacks the roles the base cast does not have (R12.2.9); in **Arena** the bots choose their secret "
        "start hatches at random.",
        "**The bots** are the main caveat: the balance is the balance between these bots. The ladder shows how much it "
        "moves when both sides play better.",
        "**Left out of the grid** (to keep it to a few minutes): scenarios on the basic game (A27, in the sensitivity section "
        "only), the searching bot on Fermi and Galvani and at budget 16 beyond the ladder, 16 players (two boxes; the "
        "contract has 8 seats). A run 10 times larger would shrink every interval about 3 times: a verdict not shown "
        "either way now would be settled by it only where the true figure lies that far from 0 and from the margin.",
    ]
    rep.bullets(items)


def _stranding(f, sens) -> str:
    """Why A17 moves Fermi's alien win most: how often humans are stranded on each map."""
    from .sensitivity import aliens

    humans = f.filter((pl.col("grid") == 0) & (pl.col("mode") == "advanced") & (pl.col("players") == 6) & (pl.col("side") == 0))
    parts = []
    for m in MAPS:
        fate = _cell(humans, map=m)["fate"].to_numpy()
        c = sens.change(aliens(m, "advanced"), "stranded_alien_win=False")
        if len(fate) and c is not None:
            parts.append(f"{MAP_NAMES[m]}: {_rate(fate == 3)} of human seats stranded, the aliens' win "
                         f"{c.figure.fmt_ci(sens.defaults[c.figure.name])} -> {c.figure.fmt_ci(c.switched)} "
                         f"({c.figure.fmt_change(c.diff)} points)")
    if not parts:
        return ""
    return (" A17 (a stranded last human gives the aliens the win) moves the advanced game's alien win roughly in proportion to "
            "how often humans are stranded (every hatch closed): " + "; ".join(parts) + ".")
