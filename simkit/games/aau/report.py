"""The Alien Attack USA balance report's own sections (simkit.report.compose puts the
answers to simkit/games/aau/questions.py first): the evidence for the seats, the mission
cards and the semi-cooperative mode, the points each card scores, the value of each
special power, and whether the conclusions hold for stronger bots."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import polars as pl

from ...ladder import CLASSES, FLIPS_CAVEAT, Contrast, classed_line, difference, rules
from ...questions import SHOWN, Answer
from ...report import PALETTE, Report, fmt_p, pct, rules_link, style
from ...stats import clustered_mean, holm_adjusted, mean_interval, paired_numeric, wilson
from . import board as board_mod
from .questions import QUESTIONS

POWERS = ["protection", "cover", "neighbourhood", "extra"]
POWER_BITS = {"protection": 1, "cover": 2, "neighbourhood": 4, "extra": 8}
BORDER_KEYS = {"Pacific": "PAC", "Mexico": "MEX", "Gulf": "GULF", "Atlantic": "ATL"}
CARDS = {"city_mission": [2, 3, 4, 5], "border_mission": list(BORDER_KEYS)}
Q = {q.id: q for q in QUESTIONS}
# The columns build() reads beyond its questions' and the settings (simkit.report.compose reads only these;
# tests/test_questions.py checks that every column build() names is declared here).
READS = ("bases_destroyed", "bases_points", "border_mission_points", "city_mission_points", "expansion_points",
         "immediate_points", "mission_points", "parks", "parks_points", "powers_used", "protection_points", "score")

# Grids of experiments/aau-balance.toml: seats and missions (0: greedy and strategic; 4:
# search), powers (5: greedy, 2: strategic, 6: search), the search against strategic (3).
SEAT_GRIDS = (0, 4)
POWER_GRIDS = (5, 2, 6)
HEADS_UP_GRID = 3
SKILL = ("random", "greedy", "strategic", "team", "search")  # the order of the ladder, by bot name


def _game_ids(part: pl.DataFrame) -> np.ndarray:
    """One id per game: its cell (grid, players, mode, bots at the table) and its index."""
    keys = part.select(pl.concat_str([pl.col("grid").cast(pl.Utf8), pl.col("players").cast(pl.Utf8),
                                      pl.col("semi_coop").cast(pl.Utf8), pl.col("table"),
                                      pl.col("game_index").cast(pl.Utf8)], separator="/"))
    return keys.to_series().to_numpy()


def _mean(part: pl.DataFrame, column: str, digits: int = 2) -> str:
    """Mean per seat with a 95% interval clustered by game (the seats of one game are not independent)."""
    if not part.height:
        return "n/a"
    m = clustered_mean(part[column].to_numpy().astype(np.float64), _game_ids(part))
    return f"{m.estimate:.{digits}f} [{m.lo:.{digits}f}, {m.hi:.{digits}f}]"


def _rate(hits: np.ndarray) -> str:
    return pct(wilson(int(np.sum(hits)), int(np.size(hits))))


def _ours(rep: Report, qid: str) -> list[Answer]:
    return [a for a in rep.answers if a.question == qid]


def _evidence(rep: Report, answers: list[Answer]) -> None:
    """The answers of one question at each player count: one table when they share their
    method, else one each."""
    if len({a.method for a in answers}) != 1 or len(answers) < 2:
        for a in answers:
            rep.evidence(a)
        return
    rep.bullets([a.sentence for a in answers])
    a = answers[0]
    rep.table([{"players": x.group.get("players", ""), **r} for x in answers for r in x.rows()],
              f"{a.title} Estimand: {a.estimand}. Method: {a.method}.")


def _card(estimate_label: str) -> str:
    """'city mission card 5 (held 449 times, raw 42.4%)' -> '5'."""
    return estimate_label.split(" (")[0].rsplit(" card ", 1)[-1]


def build(result, rep: Report) -> None:
    import matplotlib.pyplot as plt

    style()
    exp = result.experiment
    f = result.frame.with_columns(pl.col("bot").cast(pl.Utf8))
    game = exp.game
    rep.headline_figure = "missions"
    rep.bullets([
        "Rules as implemented, with the inferred round procedure and every choice: "
        + rules_link(result, "alien-attack-usa.md") + ".",
        "**The board is a stand-in** (no public source describes the real one): absolute numbers describe this board; "
        "the method carries over to the real board by replacing `simkit/games/aau/data/board.json`. The section on "
        "readings plays built-in variants that each move one stand-in fact (the Canada icons, the corner spaces' labels, "
        "the places of the city values, the parks and herds) and marks the claims that depend on them.",
        "Bots: " + "; ".join(f"`{k}`: {v.help}" for k, v in game.bots.items()) + ".",
        "A shared win counts 1/k for each of the k winners (win share). Intervals are 95%; means per seat are clustered "
        "by game (the seats of one game are not independent).",
    ])

    # -- 1. seats --------------------------------------------------------------------------
    seats = _ours(rep, "seat_fairness")
    if seats:
        rep.heading("First-player advantage")
        rep.text(f"The `{game.default_bot}` bot at every seat, competitive mode. Seat 1 is the first start player; the "
                 "start player passes to the left each round. Each seat's win share is compared with the average seat's "
                 "(the fair share).")
        for a in seats:
            rep.evidence(a)
        fig, ax = plt.subplots(figsize=(6.4, 3.4))
        for i, a in enumerate(seats):
            xs = np.arange(1, len(a.estimates) + 1) + (i - 1) * 0.2
            ys = [100 * e.estimate for e in a.estimates]
            err = [[100 * (e.estimate - e.lo) for e in a.estimates], [100 * (e.hi - e.estimate) for e in a.estimates]]
            ax.errorbar(xs, ys, yerr=err, fmt="o", capsize=3, color=PALETTE[i], label=f"{a.group.get('players', '')} players")
        margin = 100 * Q["seat_fairness"].margin
        ax.axhspan(-margin, margin, color="0.9", zorder=0, label=f"±{margin:.0f} points")
        ax.axhline(0, color="k", lw=0.8)
        ax.set_xticks([1, 2, 3, 4])
        ax.set_xlabel("seat (1 = first start player)")
        ax.set_ylabel("win share minus fair share (points)")
        ax.set_title(f"Seat advantage, bot {game.default_bot}")
        ax.legend(ncols=2)
        rep.figure(fig, "seats", "Each seat's win share minus the fair share, by player count, 95% intervals (grey: the ±margin "
                                 "within which the seats count as fair)")

    # -- 2. missions ---------------------------------------------------------------------------
    strat = f.filter(pl.col("grid") == Q["city_mission"].where["grid"]).filter(pl.col("table") == Q["city_mission"].where["table"])
    payoffs = {qid: _ours(rep, qid) for qid in ("city_mission", "border_mission")}
    if strat.height and any(payoffs.values()):
        rep.heading("Which mission card helps its holder win?")
        rep.text("Every seat is dealt one city mission card and one border mission card. A card's payoff is the win share "
                 "of a seat holding it minus that of a seat holding an average card, adjusted for the seat and the player "
                 "count (the cards are compared within each player count, then pooled). This is the one ranking of the "
                 "cards in this report; the points a card scores come after it, and are not a ranking.")
        per_count = {}
        for qid, answers in payoffs.items():
            for a in answers:
                rep.evidence(a)
            per_count[qid] = dataclasses.replace(Q[qid], by=("players",)).answers(strat)
            if answers and per_count[qid]:
                rep.table(_payoff_by_count(answers[0], per_count[qid]),
                          f"{Q[qid].item_name.capitalize()}s ranked by their payoff (all player counts, adjusted), and the "
                          "same question asked at each player count (points of win share against an average card, 95% "
                          "intervals; * shown at 5%, Holm over the cards)")
        _missions_figure(rep, payoffs, per_count)
        _mission_points(rep, strat)

    # -- 3. semi-cooperative mode ------------------------------------------------------------------
    coop = f.filter((pl.col("grid") == Q["semi_coop"].where["grid"]) & (pl.col("seat") == 1))
    if coop.height and coop["semi_coop"].n_unique() == 2:
        _semi_coop(rep, coop, int(coop["semi_coop_threshold"][0]))

    # -- 4. powers ---------------------------------------------------------------------------------
    bot, values = _power_values(f, POWER_GRIDS[1])
    if values:
        rep.heading("What each special power is worth")
        rep.text(f"Two-player games of the `{bot}` bot against a copy of itself that never uses one power, seats rotated "
                 "so that each plays first in half the games. A win share above 50% means the power helps its user; the "
                 "test is a one-sample t-test of the win share against 50%, Holm over the powers.")
        p_adj = holm_adjusted([v[1] for v in values.values()])
        rows = []
        for (power, (ci, _, part)), p in zip(values.items(), p_adj):
            used = (part["powers_used"].to_numpy() & POWER_BITS[power]) > 0
            rows.append({"power": power, "games": f"{part.height:,}", "win share of the bot using it": pct(ci),
                         "power used in": _rate(used) + " of games", "p (Holm)": fmt_p(p),
                         "verdict": ("helps" if ci.estimate > 0.5 else "hurts") if p < 0.05 else "not shown",
                         "restricted copy": f"`{bot}:no-{power}`"})
        rep.table(rows, "Win share of the full bot against a copy without one power (95% t intervals over games)")
        fig, ax = plt.subplots(figsize=(6, 3.2))
        cis = [values[p][0] for p in values]
        ax.errorbar(range(len(cis)), [100 * c.estimate for c in cis], capsize=4, fmt="o", color=PALETTE[0],
                    yerr=[[max(0.0, 100 * (c.estimate - c.lo)) for c in cis], [max(0.0, 100 * (c.hi - c.estimate)) for c in cis]])
        ax.axhline(50, color="k", ls=":", lw=1)
        ax.set_xticks(range(len(cis)), list(values))
        ax.set_xlim(-0.5, len(cis) - 0.5)
        ax.set_ylabel("win share of the bot using it (%)")
        ax.set_title(f"{bot} against a copy without the power")
        rep.figure(fig, "powers", "Win share of the bot that may use the power against a copy that may not, 95% intervals "
                                  "(dotted: 50%, no effect)")

    _stronger_play(rep, f, game)

    rep.heading("Compare variants yourself", 3)
    rep.code("simkit compare aau --set players=3 --set semi_coop=false --vs semi_coop=true --bot team -n 20000\n"
             "simkit compare aau --set players=2 --bot strategic --vs-bot greedy -n 20000\n"
             "simkit compare aau --set players=3 --vs semi_coop=true --bot strategic --bot greedy --bot greedy --rotate-seats --by-bot -m win_share")
    from ...sensitivity import section_for_report
    from .sensitivity import TORNADO

    section_for_report(rep, result, list(TORNADO))


def _payoff_by_count(pooled: Answer, by_count: list[Answer]) -> list[dict]:
    """One row per card, best payoff first: the pooled payoff and the payoff at each player count."""
    rows = []
    for rank, e in enumerate(sorted(pooled.estimates, key=lambda e: -e.estimate), 1):
        card = _card(e.label)
        row = {"rank": rank, "card": card, "all player counts": e.text() + (" *" if e.verdict == SHOWN else "")}
        for a in by_count:
            match = [x for x in a.estimates if _card(x.label) == card]
            row[f"{a.group.get('players')} players"] = (match[0].text() + (" *" if match[0].verdict == SHOWN else "")) if match else ""
        rows.append(row)
    return rows


def _missions_figure(rep: Report, payoffs: dict, per_count: dict) -> None:
    import matplotlib.pyplot as plt

    panels = [(qid, a[0]) for qid, a in payoffs.items() if a]
    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 3.4), squeeze=False)
    for ax, (qid, pooled) in zip(axes[0], panels):
        order = sorted(pooled.estimates, key=lambda e: e.estimate)  # best card on top
        cards = [_card(e.label) for e in order]
        for i, a in enumerate(per_count.get(qid, [])):
            got = {_card(e.label): e for e in a.estimates}
            ys = [k + 0.16 * (i - 1) - 0.32 for k, c in enumerate(cards) if c in got]
            es = [got[c] for c in cards if c in got]
            ax.errorbar([100 * e.estimate for e in es], ys, xerr=[[100 * (e.estimate - e.lo) for e in es],
                        [100 * (e.hi - e.estimate) for e in es]], fmt=".", ms=4, lw=0.8, capsize=1.5, color=PALETTE[i],
                        label=f"{a.group.get('players')} players")
        ax.errorbar([100 * e.estimate for e in order], range(len(order)), fmt="o", color="k", capsize=3, label="all (adjusted)",
                    xerr=[[100 * (e.estimate - e.lo) for e in order], [100 * (e.hi - e.estimate) for e in order]])
        ax.axvline(0, color="k", lw=0.8, ls=":")
        ax.set_yticks(range(len(cards)), cards)
        ax.set_xlabel("win share minus an average card's (points)")
        ax.set_title(Q[qid].item_name.capitalize() + "s")
    axes[0][0].legend(loc="lower right", fontsize=8)
    rep.figure(fig, "missions", "Payoff of each mission card: the win share of a seat holding it minus a seat holding an "
                                "average card, adjusted for seat and player count, 95% intervals; best card on top")


def _mission_points(rep: Report, strat: pl.DataFrame) -> None:
    """The points each card scores, in the cards' own order: how easily its tiers are
    reached, and where its holders' points come from (not which card is better)."""
    rep.heading("Points scored by each mission card (not a ranking)", 3)
    rep.text("The points a card scores measure how easily its tiers are reached, not how much it helps its holder win: a "
             "card also steers its holder's play (a city card asks for discs around cities of its value, and every second "
             "and third disc around a city scores that city's value during play), and what wins is the total against the "
             "other players'. The cards are listed in their own order; the ranking is the payoff above.")
    missions = board_mod._load(str(board_mod.BUILTIN))[0]["missions"]
    for column, label in (("city_mission", "city card"), ("border_mission", "border card")):
        rows = []
        for card in CARDS[column]:
            part = strat.filter(pl.col(column) == card)
            if not part.height:
                continue
            pts = part[f"{column}_points"].to_numpy()
            tiers = missions["city"][str(card)] if column == "city_mission" else missions["border"][BORDER_KEYS[card]]
            rows.append({label: card, "seats": f"{part.height:,}", "mission points scored": _mean(part, f"{column}_points"),
                         "tier 1 reached": _rate(pts > 0), "tier 3 reached": _rate(pts >= tiers[2][1]),
                         "points in play (cities, herds)": _mean(part, "immediate_points", 1)})
            # (no final score: pooled over player counts, whose scores differ by half, it read as a measure of the
            # card; three cards showed 111.6 [111.4, 111.7] by the mix of counts alone)
        rep.table(rows, f"{label.capitalize()}s: points scored by the seats holding each (bot `{strat['table'][0]}`, all player "
                        "counts pooled; 95% intervals clustered by game)")
    rep.heading("Where the points come from", 3)
    rows = []
    for n in sorted(strat["players"].unique().to_list()):
        part = strat.filter(pl.col("players") == n)
        rows.append({"players": n, "score": _mean(part, "score", 1), "in play (cities, herds)": _mean(part, "immediate_points", 1),
                     "city mission": _mean(part, "city_mission_points", 1), "border mission": _mean(part, "border_mission_points", 1),
                     "parks": _mean(part, "parks_points", 1), "alien bases": _mean(part, "bases_points", 1),
                     "territorial expansion": _mean(part, "expansion_points", 1), "global protection": _mean(part, "protection_points", 1),
                     "protection met": _rate(part["protection_points"].to_numpy() > 0)})
    rep.table(rows, "Where the points come from: mean points per seat of each source, by player count (95% intervals clustered by game)")


def _semi_coop(rep: Report, coop: pl.DataFrame, threshold: int) -> None:
    import matplotlib.pyplot as plt

    rep.heading("Semi-cooperative mode: can Earth win?")
    rep.text(f"In the semi-cooperative mode everybody loses unless the table destroys at least {threshold} alien bases. "
             "The same seeds are played in both modes, so each game is compared with itself (Tango's paired interval "
             "and McNemar's test). Only the `team` bot plays differently in this mode (it also destroys bases for the "
             "table when the invasion threatens); the other bots' games are the same in both modes, so for them the "
             "rate is simply how often the table reaches the threshold anyway.")
    _evidence(rep, _ours(rep, "semi_coop"))
    rows = []
    for n in sorted(coop["players"].unique().to_list()):
        for bot in dict.fromkeys(coop["table"].to_list()):
            semi = coop.filter((pl.col("players") == n) & (pl.col("table") == bot) & pl.col("semi_coop")).sort("game_index")
            comp = coop.filter((pl.col("players") == n) & (pl.col("table") == bot) & ~pl.col("semi_coop")).sort("game_index")
            if not semi.height or not comp.height:
                continue
            same = semi.join(comp, on="game_index", suffix="_c")
            rows.append({"players": n, "bots": bot, "games": f"{semi.height:,}", "Earth wins (semi-cooperative)": _rate(semi["earth_won"].to_numpy()),
                         "threshold reached (competitive)": _rate(comp["earth_won"].to_numpy()),
                         "bases destroyed (semi-cooperative)": _mean(semi, "bases_destroyed"),
                         "games played differently": _rate((same["bases_destroyed"] != same["bases_destroyed_c"]).to_numpy())})
    rep.table(rows, "Earth's chance by player count and bots (every seat the same bot), and the same games in competitive mode "
                    "(95% intervals)")
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    ax = axes[0]
    team = "team" if "team" in coop["table"].to_list() else coop["table"][0]
    for i, n in enumerate(sorted(coop["players"].unique().to_list())):
        vals = coop.filter((pl.col("players") == n) & (pl.col("table") == team) & pl.col("semi_coop"))["bases_destroyed"].to_numpy()
        if vals.size:
            ax.hist(vals, bins=np.arange(vals.min(), vals.max() + 2) - 0.5, histtype="step", lw=1.5, density=True,
                    color=PALETTE[i], label=f"{n} players")
    ax.axvline(threshold - 0.5, color="k", ls="--", lw=1)
    ax.set_xlabel("bases destroyed by the table")
    ax.set_ylabel("share of games")
    ax.set_title(f"Bases destroyed, semi-cooperative, bot {team} (dashed: threshold)", fontsize=10)
    ax.legend()
    ax = axes[1]
    bots = list(dict.fromkeys(coop["table"].to_list()))
    ns = sorted(coop["players"].unique().to_list())
    width = 0.8 / len(bots)
    for j, bot in enumerate(bots):
        cis = [wilson(int(p["earth_won"].sum()), p.height) for p in
               (coop.filter((pl.col("players") == n) & (pl.col("table") == bot) & pl.col("semi_coop")) for n in ns)]
        ax.bar(np.arange(len(ns)) + j * width, [100 * c.estimate for c in cis], width, capsize=2, color=PALETTE[j], label=bot,
               yerr=[[max(0.0, 100 * (c.estimate - c.lo)) for c in cis], [max(0.0, 100 * (c.hi - c.estimate)) for c in cis]])
    ax.set_xticks(np.arange(len(ns)) + width * (len(bots) - 1) / 2, [f"{n} players" for n in ns])
    ax.set_ylim(0, 100)
    ax.set_ylabel("Earth wins (%)")
    ax.set_title("Semi-cooperative mode: Earth's chance", fontsize=10)
    ax.legend()
    rep.figure(fig, "semi-coop", "Left: distribution of bases destroyed. Right: how often Earth wins, by bots and player count, "
                                 "95% intervals")


# ---- does it hold under stronger play? ----------------------------------------------------


def _share_test(part: pl.DataFrame) -> tuple:
    """Mean win share of one bot's rows (one row per game), its t interval and the
    one-sample t-test against 50%."""
    share = part["win_share"].to_numpy().astype(np.float64)
    d = paired_numeric(share, np.full(share.size, 0.5))
    return mean_interval(share), d.p_value


def _power_values(f: pl.DataFrame, grid: int) -> tuple[str | None, dict[str, tuple]]:
    """The bot of a power grid and, for each power, its win share against a copy of itself
    without that power, the test's p-value, and that bot's rows."""
    part = f.filter(pl.col("grid") == grid)
    full = [b for b in dict.fromkeys(part["bot"].to_list()) if "no-" not in b]
    if not full:
        return None, {}
    out = {}
    for power in POWERS:
        rows = part.filter(pl.col("table").cast(pl.String).str.contains(f"no-{power}", literal=True) & (pl.col("bot") == full[0]))
        if rows.height >= 2:
            out[power] = (*_share_test(rows), rows)
    return full[0], out


def _rank(bot: str) -> int:
    base = bot.partition(":")[0]
    return SKILL.index(base) if base in SKILL else len(SKILL)


def _stronger_play(rep: Report, f: pl.DataFrame, game) -> None:
    """Seat advantage, mission payoffs and power values asked again for every bot of the
    ladder (the same questions), and each conclusion classed as surviving, flipping,
    fading or undecided (simkit.ladder)."""
    cells = {}  # bot -> its grid of equal bots at every seat
    for g in SEAT_GRIDS:
        part = f.filter(pl.col("grid") == g)
        for b in dict.fromkeys(part["table"].to_list()):
            cells[b] = g
    bots = sorted(cells, key=_rank)
    heads = f.filter(pl.col("grid") == HEADS_UP_GRID)
    if len(bots) < 2 and not heads.height:
        return
    reference = game.default_bot if game.default_bot in bots else bots[0]
    rep.heading("Does it hold under stronger play?")
    rep.text("The bots form a ladder of skill: " + " < ".join(f"`{b}`" for b in bots) + ". "
             + ("`search` plays each candidate action on copies of the state, `strategic` at every seat and the markers "
                "still in the bag in orders of its own, until two round ends, scores the position reached by the seats' "
                "projected final scores, and keeps the best by sequential halving (`search:budget=N`: simulations per "
                "decision). " if "search" in bots else "")
             + f"Each headline is a claim that the default bot `{reference}`'s games establish; it is measured again "
             "for every bot of the ladder as a *margin* that is positive when the claim holds for that bot, with its 95% "
             f"interval. " + rules(reference))
    said = {k: [] for k in CLASSES}

    if heads.height:
        rep.heading("The search against strategic", 3)
        rows, budgets = [], []
        for table in dict.fromkeys(heads["table"].to_list()):
            part = heads.filter(pl.col("table") == table)
            searcher = next((b for b in dict.fromkeys(part["bot"].to_list()) if b.startswith("search")), None)
            if searcher is None:
                continue
            m = re.search(r"budget=(\d+)", searcher)
            ci, p = _share_test(part.filter(pl.col("bot") == searcher))
            budgets.append((int(m.group(1)) if m else 0, ci))
            rows.append({"searching bot": f"`{searcher}`", "games": f"{part['game_index'].n_unique():,}",
                         "its win share against strategic": pct(ci), "p (vs 50%)": fmt_p(p)})
        rep.table(rows, "Two players, seats rotated (each bot plays first in half the games): the win share of the searching "
                        "bot against `strategic` (95% t intervals over games; a shared win counts half)")

    # -- seats: the seat question for every bot ------------------------------------------------------
    rep.heading("Seat advantage, by bot", 3)
    rows, fair = [], {}
    for b in bots:
        for a in dataclasses.replace(Q["seat_fairness"], where={"grid": cells[b], "table": b}).answers(f):
            row = {"bot": b, "players": a.group.get("players"), "games": f"{a.games:,}", **{f"seat {k}": "" for k in range(1, 5)}}
            for k, e in enumerate(a.estimates):
                row[f"seat {k + 1}"] = e.text().replace(" points", "")
            row["verdict"] = a.verdict
            rows.append(row)
            n = a.group.get("players")
            if b == reference:
                fair[n] = a.verdict == "equivalent"
            elif fair.get(n) and a.verdict == "shown" and bots.index(b) > bots.index(reference):
                # the answer says every seat is fair; a stronger bot shows one that is not
                k, e = max(enumerate(a.estimates), key=lambda ke: abs(ke[1].estimate) if ke[1].lo > 0 or ke[1].hi < 0 else -1)
                rep.caveat(FLIPS_CAVEAT, f"with {n} players every seat is within the margin for `{reference}`; "
                           f"`{b}` finds seat {k + 1} at {e.text()} from the fair share")
    rep.table(rows, "Each seat's win share minus the fair share (points, 95% intervals), equal bots at every seat; the verdict "
                    "of the seat question (shown: some seat differs, Holm; equivalent: every seat within the margin)")
    for n in sorted(f.filter(pl.col("grid") == SEAT_GRIDS[0])["players"].unique().to_list()):
        if n < 2:
            continue
        per_bot = {}
        for b in bots:
            part = f.filter((pl.col("grid") == cells[b]) & (pl.col("table") == b) & (pl.col("players") == n))
            if part.height:
                wide = part.pivot(on="seat", index="game_index", values="win_share", aggregate_function="first").drop_nulls()
                per_bot[b] = {int(c): wide[c].to_numpy() for c in wide.columns if c != "game_index"}
        if reference not in per_bot or len(per_bot) < 2:
            continue
        means = {b: {s: v.mean() for s, v in cols.items()} for b, cols in per_bot.items()}
        claim = max(means[reference], key=means[reference].get)
        contrasts, picks, other = {}, {}, {}
        for b, cols in per_bot.items():
            rest = max((s for s in cols if s != claim), key=means[b].get)
            d = clustered_mean(cols[claim] - cols[rest], np.arange(len(cols[claim])))
            contrasts[b] = Contrast(d.estimate, d.lo, d.hi)
            own = max(means[b], key=means[b].get)
            if own != claim:
                picks[b] = f"seat {own}"
                runner = max((s for s in cols if s != own), key=means[b].get)
                sep = clustered_mean(cols[own] - cols[runner], np.arange(len(cols[own])))
                if sep.lo > 0:
                    other[b] = (f"seat {own} ({100 * sep.estimate:+.1f} [{100 * sep.lo:+.1f}, {100 * sep.hi:+.1f}] points of "
                                f"win share against seat {runner})")
        cls, line = classed_line(rep, f"with {n} players seat {claim} is favoured (its win share minus the next best seat's, game by game)",
                          contrasts, reference, picks, other)
        said[cls].append(line)

    # -- missions: the payoff question for every bot ----------------------------------------------------
    rep.heading("Mission payoffs, by bot", 3)
    for qid in ("city_mission", "border_mission"):
        payoff = {}
        for b in bots:
            got = dataclasses.replace(Q[qid], where={"grid": cells[b], "table": b}).answers(f)
            if got:
                payoff[b] = {_card(e.label): e for e in got[0].estimates}
        if reference not in payoff:
            continue
        rep.table([{"card": c, **{b: (payoff[b][c].text() + (" *" if payoff[b][c].verdict == SHOWN else "")) if c in payoff[b] else ""
                                  for b in payoff}} for c in sorted(payoff[reference], key=lambda c: -payoff[reference][c].estimate)],
                  f"{Q[qid].item_name.capitalize()}s: the payoff (win share of a holder minus an average card's, adjusted for "
                  f"seat and player count; 95% intervals; * shown, Holm) for each bot, ordered by `{reference}`'s payoff")
        for c, e in payoff[reference].items():
            if e.verdict != SHOWN:
                continue
            sign = 1 if e.estimate > 0 else -1
            contrasts = {b: Contrast(sign * v[c].estimate, min(sign * v[c].lo, sign * v[c].hi), max(sign * v[c].lo, sign * v[c].hi))
                         for b, v in payoff.items() if c in v}
            cls, line = classed_line(rep, f"the {Q[qid].item_name} {c} pays {'more' if sign > 0 else 'less'} than an average one (its "
                              f"payoff{'' if sign > 0 else ', negated'})", contrasts, reference)
            said[cls].append(line)

    # -- powers ----------------------------------------------------------------------------------------
    values = {}
    for g in POWER_GRIDS:
        b, v = _power_values(f, g)
        if v:
            values[b] = v
    values = {b: values[b] for b in sorted(values, key=_rank)}
    if len(values) >= 2:
        rep.heading("Power values, by bot", 3)
        pb = list(values)
        ref_p = reference if reference in values else pb[0]
        allp = [(b, pw) for b in pb for pw in values[b]]
        adj = dict(zip(allp, holm_adjusted([values[b][pw][1] for b, pw in allp])))
        rows = [{"power": pw, **{b: pct(values[b][pw][0]) + (" *" if adj[(b, pw)] < 0.05 else "") for b in pb if pw in values[b]}}
                for pw in POWERS]
        rep.table(rows, "Win share of each bot against a copy of itself that never uses the power (two players, seats rotated; "
                        "95% t intervals; * differs from 50%, Holm over every bot and power). Games: "
                        + ", ".join(f"`{b}` {values[b][next(iter(values[b]))][2].height:,} per power" for b in pb))
        shares = {b: {p: values[b][p][0] for p in values[b]} for b in pb}
        claim = max(shares[ref_p], key=lambda k: shares[ref_p][k].estimate)
        contrasts, picks = {}, {}
        for b, s in shares.items():
            if claim not in s or len(s) < 2:
                continue
            rest = max((k for k in s if k != claim), key=lambda k: s[k].estimate)
            contrasts[b] = difference(s[claim].estimate, s[claim].lo, s[claim].hi, s[rest].estimate, s[rest].lo, s[rest].hi)
            own = max(s, key=lambda k: s[k].estimate)
            if own != claim:
                picks[b] = own
        if len(shares[ref_p]) >= 2:
            cls, line = classed_line(rep, f"{claim} is the most valuable power (its win share minus the next power's; powers played in "
                              f"separate games)", contrasts, ref_p, picks)
            said[cls].append(line)
        for pw in POWERS:
            have = {b: shares[b][pw] for b in pb if pw in shares[b]}
            if ref_p not in have:
                continue
            sign = 1 if have[ref_p].estimate >= 0.5 else -1
            contrasts = {b: Contrast(sign * (ci.estimate - 0.5), min(sign * (ci.lo - 0.5), sign * (ci.hi - 0.5)),
                                     max(sign * (ci.lo - 0.5), sign * (ci.hi - 0.5))) for b, ci in have.items()}
            cls, line = classed_line(rep, f"{pw} {'helps' if sign > 0 else 'hurts'} the bot that uses it (its win share against a copy "
                              f"without it, minus 50%{'' if sign > 0 else ', negated'})", contrasts, ref_p)
            said[cls].append(line)

    if any(said.values()):
        rep.heading("What survives, what flips", 3)
        rep.text("Each line: the claim, then each bot's margin [95% interval] (positive: the claim holds for that bot; points "
                 "of win share), then why it is classed so.")
        rep.bullets([f"**{k.capitalize()}**: {s}." for k in CLASSES for s in said[k]])
