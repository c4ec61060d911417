"""The Alien Attack USA balance report: seat advantage, mission payoffs, the
semi-cooperative mode and the value of each special power."""

from __future__ import annotations

import itertools
import re

import numpy as np
import polars as pl

from ...ladder import CLASSES, Contrast, Means, boot_taus, classify, difference, rules
from ...report import PALETTE, Report, fmt_p, pct, style
from ...stats import chi2_uniform, clustered_mean, equivalence_bound, holm, paired_binary, wilson
from . import board as board_mod

POWERS = ["protection", "cover", "neighbourhood", "extra"]
BORDER_KEYS = {"Pacific": "PAC", "Mexico": "MEX", "Gulf": "GULF", "Atlantic": "ATL"}


def _mean(part: pl.DataFrame, column: str) -> str:
    """Mean per seat with a 95% interval clustered by game (the seats of one game are not independent)."""
    m = clustered_mean(part[column].to_numpy().astype(np.float64), _game_ids(part))
    return f"{m.estimate:.2f} [{m.lo:.2f}, {m.hi:.2f}]"


def _game_ids(part: pl.DataFrame) -> np.ndarray:
    """One id per game: its cell (grid, players, mode, bots at the table) and its index."""
    keys = part.select(pl.concat_str([pl.col("grid").cast(pl.Utf8), pl.col("players").cast(pl.Utf8),
                                      pl.col("semi_coop").cast(pl.Utf8), pl.col("table"),
                                      pl.col("game_index").cast(pl.Utf8)], separator="/"))
    return keys.to_series().to_numpy()


def _games_per_cell(f: pl.DataFrame, grid: int) -> str:
    counts = f.filter(pl.col("grid") == grid).group_by("players", "semi_coop", "table").agg(pl.col("game_index").n_unique())["game_index"]
    lo, hi = int(counts.min()), int(counts.max())
    return f"{lo:,}" if lo == hi else f"{lo:,}-{hi:,}"


def build(result, target) -> None:
    import matplotlib.pyplot as plt

    style()
    exp = result.experiment
    f = result.frame.with_columns(pl.col("bot").cast(pl.Utf8))
    game = exp.game
    rep = Report("Alien Attack USA: balance report", game.slug)
    grids = sorted(f["grid"].unique().to_list())
    per_cell = {g: _games_per_cell(f, g) for g in grids}
    parts = [f"{per_cell[g]} games per cell for {what}" for g, what in
             ((0, "seats and missions"), (1, "the semi-cooperative comparison"), (2, "the powers")) if g in per_cell]
    rep.text(
        f"Seat advantage, mission payoffs, the semi-cooperative mode and the special powers of Alien Attack USA, "
        f"from seeded games: {', '.join(parts)} ({f.height:,} seat rows in all)."
    )
    rep.bullets([
        f"Reproduce: `simkit sweep {exp.path}` (or `simkit report aau`); runs are cached in `runs/sweeps/{exp.name}/`.",
        "Rules as implemented, with the inferred round procedure and every choice: [docs/rules/alien-attack-usa.md](../../docs/rules/alien-attack-usa.md).",
        "**The board is a stand-in** (no public source describes the real one): absolute numbers describe this board; "
        "the method carries over to the real board by replacing `simkit/games/aau/data/board.json`. The section on "
        "readings plays built-in variants that each move one stand-in fact (the Canada icons, the corner spaces' labels, "
        "the places of the city values, the parks and herds) and marks the claims that depend on them.",
        "Bots: " + "; ".join(f"`{k}`: {v.help}" for k, v in game.bots.items()) + ".",
        "Intervals are 95%. Means and shares per seat are clustered by game (the seats of one game are not independent); "
        "Earth's rates are Wilson intervals over games; paired differences use Tango's score interval and the score test it inverts.",
        "Seat tests: chi-square against equal shares, Holm over the tables; fairness: two one-sided tests (TOST) give the "
        "largest seat advantage that the data still allow, with a Bonferroni correction over every seat of every table.",
    ])

    # -- 1. seats --------------------------------------------------------------------------
    seats_part = f.filter(pl.col("grid") == 0)
    rep.heading("First-player advantage")
    rep.text("Equal bots at every seat. Seat 1 is the first start player; the start player passes to the left "
             "each round. A shared win counts 1/k for each of the k winners.")
    bots0 = list(dict.fromkeys(seats_part["bot"].to_list()))
    counts = sorted(seats_part["players"].unique().to_list())
    tables = [(bot, n) for bot in bots0 for n in counts]
    all_seats = sum(n for _, n in tables)
    tost_alpha = 0.05 / all_seats  # Bonferroni: the "ruled out" statements hold together at 5%
    rows, pvals = [], []
    fig, axes = plt.subplots(1, len(bots0), figsize=(5.2 * len(bots0), 3.8), squeeze=False)
    summary_bits = []
    for ax, bot in zip(axes[0], bots0):
        for i, n in enumerate(counts):
            part = seats_part.filter((pl.col("bot") == bot) & (pl.col("players") == n))
            games = part["game_index"].n_unique()
            shares = part.group_by("seat").agg(pl.col("win_share").sum()).sort("seat")["win_share"].to_numpy()
            stat, p = chi2_uniform(shares)
            pvals.append(p)
            row = {"bot": bot, "players": n, "games": f"{games:,}", **{f"seat {k + 1}": "" for k in range(4)}}
            xs, ys, err = [], [], [[], []]
            bound = 0.0
            for seat in range(n):
                values = part.filter(pl.col("seat") == seat + 1)["win_share"].to_numpy()
                ci = clustered_mean(values, np.arange(values.size))  # one row per game: plain normal interval
                bound = max(bound, equivalence_bound(values, 1.0 / n, tost_alpha))
                row[f"seat {seat + 1}"] = pct(ci)
                xs.append(seat + 1 + (i - 1) * 0.22)
                ys.append(100 * ci.estimate)
                err[0].append(max(0.0, 100 * (ci.estimate - ci.lo)))
                err[1].append(max(0.0, 100 * (ci.hi - ci.estimate)))
            row["fair share"] = f"{100 / n:.1f}%"
            row["chi-square p"] = fmt_p(p)
            row["_bound"] = bound
            rows.append(row)
            ax.bar(xs, ys, width=0.2, yerr=err, capsize=2, color=PALETTE[i], label=f"{n} players")
            ax.axhline(100 / n, color=PALETTE[i], ls=":", lw=1)
            if bot == game.default_bot:
                summary_bits.append(f"{n}p seat 1 {100 * shares[0] / games:.1f}% (fair {100 / n:.0f}%)")
        ax.set_xlabel("seat (1 = first start player)")
        ax.set_ylabel("win share (%)")
        ax.set_title(f"bot: {bot}")
        ax.set_xticks([1, 2, 3, 4])
        ax.legend()
    for row, rejected in zip(rows, holm(pvals)):
        row["seats differ (Holm, 5%)"] = "yes" if rejected else "no"
        row["no seat's share is off by more than"] = f"{100 * row.pop('_bound'):.2f} pts"
    rep.table(rows, f"Win share by seat with 95% intervals; a chi-square test against equal shares, Holm-corrected over the "
                    f"{len(tables)} tables; and the largest gap from the fair share that TOST does not rule out (every seat of "
                    f"every table together at 5%: each one-sided test at {tost_alpha:.2g})")
    differ = [r for r in rows if r["seats differ (Holm, 5%)"] == "yes"]
    same = [r for r in rows if r["seats differ (Holm, 5%)"] == "no"]
    if same:
        key = "no seat's share is off by more than"
        worst = max(same, key=lambda r: float(r[key].split()[0]))
        differing = ", ".join(f"{r['bot']} with {r['players']} players" for r in differ)
        rep.text(f"No significant seat difference is not by itself evidence of fairness; the equivalence test is: in each of "
                 f"the {len(same)} table(s) without a significant difference, a seat advantage (or handicap) above "
                 f"{worst[key]} is ruled out (the last column gives each table's bound)"
                 + (f"; seats differ significantly in {differing}." if differ else "."))
    rep.figure(fig, "seats", "Win share by seat and player count, 95% intervals (dotted lines: a fair share)")
    rep.summary = "; ".join(summary_bits)

    # -- 2. missions ---------------------------------------------------------------------------
    rep.heading("Mission payoffs")
    strat = seats_part.filter(pl.col("bot") == game.default_bot)
    # mission tables [count, points] per tier, from the built-in board the experiment plays
    missions = board_mod._load(str(board_mod.BUILTIN))[0]["missions"]
    rows = []
    for card in (2, 3, 4, 5):
        part = strat.filter(pl.col("city_mission") == card)
        pts = part["city_mission_points"].to_numpy()
        tiers = missions["city"][str(card)]
        rows.append({"city card": card, "seats": f"{len(pts):,}", "mean points": _mean(part, "city_mission_points"),
                     "tier 1 reached": f"{100 * np.mean(pts > 0):.1f}%",
                     "tier 2": f"{100 * np.mean(pts >= tiers[1][1]):.1f}%",
                     "tier 3": f"{100 * np.mean(pts >= tiers[2][1]):.1f}%",
                     "tiers": "/".join(str(count) for count, _ in tiers)})
    spread_city = max(float(r["mean points"].split()[0]) for r in rows) - min(float(r["mean points"].split()[0]) for r in rows)
    rep.table(rows, f"City mission cards (bot `{game.default_bot}`, all player counts): points and how often each tier is reached (95% intervals clustered by game; win shares by player count below)")
    rows_b = []
    for card in ("Pacific", "Mexico", "Gulf", "Atlantic"):
        part = strat.filter(pl.col("border_mission") == card)
        pts = part["border_mission_points"].to_numpy()
        tiers = missions["border"][BORDER_KEYS[card]]
        rows_b.append({"border card": card, "seats": f"{len(pts):,}", "mean points": _mean(part, "border_mission_points"),
                       "tier 1 reached": f"{100 * np.mean(pts > 0):.1f}%",
                       "tier 2": f"{100 * np.mean(pts >= tiers[1][1]):.1f}%",
                       "tier 3": f"{100 * np.mean(pts >= tiers[2][1]):.1f}%"})
    spread_border = max(float(r["mean points"].split()[0]) for r in rows_b) - min(float(r["mean points"].split()[0]) for r in rows_b)
    rep.table(rows_b, "Border mission cards, same games")
    rep.text(f"Spread between the best and the worst card: **{spread_city:.1f} points** for city cards, "
             f"**{spread_border:.1f} points** for border cards (mean points, all player counts pooled).")
    rows_g = []
    for n in sorted(strat["players"].unique().to_list()):
        part = strat.filter(pl.col("players") == n)
        rows_g.append({"players": n, "mean score": _mean(part, "score"), "in play (cities, herds)": _mean(part, "immediate_points"),
                       "city mission": _mean(part, "city_mission_points"), "border mission": _mean(part, "border_mission_points"),
                       "parks": _mean(part, "parks_points"), "alien bases": _mean(part, "bases_points"),
                       "territorial expansion": _mean(part, "expansion_points"), "global protection": _mean(part, "protection_points"),
                       "protection met": f"{100 * (part['protection_points'] > 0).mean():.1f}%"})
    rep.table(rows_g, "Where the points come from: mean points per seat of each source, by player count")
    card_wins_section(rep, strat, game.default_bot)
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    for ax, data, key, title, xlabel in ((axes[0], rows, "city card", "City mission cards", "city mission card (its city value)"),
                                         (axes[1], rows_b, "border card", "Border mission cards", "border mission card (the border it names)")):
        labels = [str(r[key]) for r in data]
        means = [float(r["mean points"].split()[0]) for r in data]
        los = [float(r["mean points"].split("[")[1].split(",")[0]) for r in data]
        his = [float(r["mean points"].split(",")[1].rstrip("]")) for r in data]
        ax.bar(labels, means, yerr=[np.subtract(means, los), np.subtract(his, means)], capsize=3, color=PALETTE[:len(labels)])
        ax.set_ylabel("mean points")
        ax.set_xlabel(xlabel)
        ax.set_title(title)
    rep.figure(fig, "missions", "Mean mission points by card, 95% intervals clustered by game")

    # -- 3. semi-cooperative mode ------------------------------------------------------------------
    coop = f.filter((pl.col("grid") == 1) & (pl.col("seat") == 1))
    if coop.height:
        rep.heading("Semi-cooperative mode: can Earth win?")
        rep.text(f"Earth wins when the table destroys at least {exp.cells[0].spec.params.semi_coop_threshold} alien bases. "
                 "The same seeds are played in both modes, so the difference is a paired comparison "
                 "(Tango's score interval and the score test it inverts, on whether the table reached the threshold).")
        rows = []
        for n in sorted(coop["players"].unique().to_list()):
            for bot in list(dict.fromkeys(coop["bot"].to_list())):
                semi = coop.filter((pl.col("players") == n) & (pl.col("bot") == bot) & (pl.col("semi_coop")))
                comp = coop.filter((pl.col("players") == n) & (pl.col("bot") == bot) & (~pl.col("semi_coop")))
                if not semi.height or not comp.height:
                    continue
                semi, comp = semi.sort("game_index"), comp.sort("game_index")
                pr = paired_binary(semi["earth_won"].to_numpy(), comp["earth_won"].to_numpy())
                rows.append({"players": n, "bots": bot, "games": f"{semi.height:,}",
                             "Earth wins (semi-coop)": pct(wilson(int(semi["earth_won"].sum()), semi.height)),
                             "mean bases destroyed": _mean(semi, "bases_destroyed"),
                             "threshold reached in competitive mode": pct(wilson(int(comp["earth_won"].sum()), comp.height)),
                             "difference [95% CI]": f"{100 * pr.estimate:+.1f} [{100 * pr.lo:+.1f}, {100 * pr.hi:+.1f}] points",
                             "score test p": fmt_p(pr.p_value)})
        rep.table(rows, "Probability that Earth wins, by player count and bots (all seats the same bot), and the same seeds in competitive mode")
        fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
        ax = axes[0]
        team_bot = "team" if "team" in coop["bot"].to_list() else coop["bot"][0]
        for i, n in enumerate(sorted(coop["players"].unique().to_list())):
            part = coop.filter((pl.col("players") == n) & (pl.col("bot") == team_bot) & pl.col("semi_coop"))
            vals = part["bases_destroyed"].to_numpy()
            bins = np.arange(vals.min(), vals.max() + 2) - 0.5
            ax.hist(vals, bins=bins, histtype="step", lw=1.5, density=True, color=PALETTE[i], label=f"{n} players")
        ax.axvline(exp.cells[0].spec.params.semi_coop_threshold - 0.5, color="k", ls="--", lw=1)
        ax.set_xlabel("bases destroyed by the table")
        ax.set_ylabel("share of games")
        ax.set_title(f"Bases destroyed, semi-cooperative, bot {team_bot} (dashed: threshold)")
        ax.legend()
        ax = axes[1]
        bots_c = list(dict.fromkeys(coop["bot"].to_list()))
        ns = sorted(coop["players"].unique().to_list())
        width = 0.8 / len(bots_c)
        for j, bot in enumerate(bots_c):
            ys, err = [], [[], []]
            for n in ns:
                part = coop.filter((pl.col("players") == n) & (pl.col("bot") == bot) & pl.col("semi_coop"))
                ci = wilson(int(part["earth_won"].sum()), part.height)
                ys.append(100 * ci.estimate)
                err[0].append(max(0.0, 100 * (ci.estimate - ci.lo)))
                err[1].append(max(0.0, 100 * (ci.hi - ci.estimate)))
            ax.bar(np.arange(len(ns)) + j * width, ys, width, yerr=err, capsize=2, color=PALETTE[j], label=bot)
        ax.set_xticks(np.arange(len(ns)) + width * (len(bots_c) - 1) / 2, [f"{n} players" for n in ns])
        ax.set_ylabel("Earth wins (%)")
        ax.set_title("Semi-cooperative mode: Earth's chance")
        ax.legend()
        rep.figure(fig, "semi-coop", "Left: distribution of bases destroyed. Right: probability that Earth wins, by bots and player count")

    # -- 4. powers ---------------------------------------------------------------------------------
    powers = f.filter(pl.col("grid") == 2)
    if powers.height:
        rep.heading("What each special power is worth")
        rep.text("Two-player games of the strategic bot against a copy of itself that never uses one power, seats "
                 "rotated so that each bot plays first in half the games. A win share above 50% means the power helps.")
        rows, pvals = [], []
        for power in POWERS:
            restricted = f"{game.default_bot}:no-{power}"
            games_ = powers.filter(pl.col("table").str.contains(f"no-{power}"))
            full = games_.filter(pl.col("bot") == game.default_bot)
            if not full.height:
                continue
            share = float(full["win_share"].sum())
            n = full.height
            ci = wilson(int(round(share)), n)
            from scipy.stats import binomtest

            p = binomtest(int(round(share)), n, 0.5).pvalue
            pvals.append(p)
            used = (full["powers_used"].to_numpy() & {"protection": 1, "cover": 2, "neighbourhood": 4, "extra": 8}[power]) > 0
            rows.append({"power": power, "games": f"{n:,}", "win share of the bot using it": pct(ci),
                         "used in": f"{100 * used.mean():.0f}% of games", "p (vs 50%)": fmt_p(p),
                         "restricted copy": f"`{restricted}`"})
        for r, rej in zip(rows, holm(pvals)):
            r["significant (Holm)"] = "yes" if rej else "no"
        rep.table(rows, "Win share of the full bot against a copy without one power (95% intervals; Holm over the four powers)")
        fig, ax = plt.subplots(figsize=(6, 3.4))
        ys = [float(r["win share of the bot using it"].split("%")[0]) for r in rows]
        lo = [float(r["win share of the bot using it"].split("[")[1].split(",")[0]) for r in rows]
        hi = [float(r["win share of the bot using it"].split(",")[1].rstrip("]")) for r in rows]
        ax.bar([r["power"] for r in rows], ys, yerr=[np.subtract(ys, lo), np.subtract(hi, ys)], capsize=3, color=PALETTE[:len(rows)])
        ax.axhline(50, color="k", ls=":", lw=1)
        ax.set_ylabel("win share (%)")
        ax.set_ylim(40, max(hi) + 2)
        ax.set_title("Full bot against a copy without the power")
        rep.figure(fig, "powers", "Win share of the bot that may use the power, 95% intervals (dotted: no effect)")

    _stronger_play(rep, f, game)

    rep.heading("Compare variants yourself", 3)
    rep.code("simkit compare aau --set players=3 --set semi_coop=false --vs semi_coop=true --bot team -n 20000\n"
             "simkit compare aau --set players=2 --bot strategic --vs-bot greedy -n 20000\n"
             "simkit compare aau --set players=3 --vs semi_coop=true --bot strategic --bot greedy --bot greedy --rotate-seats --by-bot -m win_share")
    sensitivity_section(rep, result)
    rep.write(target)


# ---- does it hold under stronger play? ----------------------------------------------------
# Grids of experiments/aau-balance.toml: seats and missions (0: greedy and strategic; 4:
# search), powers (5: greedy, 2: strategic, 6: search), the search against strategic (3).
SEAT_GRIDS = (0, 4)
POWER_GRIDS = (5, 2, 6)
HEADS_UP_GRID = 3
SKILL = ("random", "greedy", "strategic", "team", "search")  # the order of the ladder, by bot name


def _own(values: dict, highest: bool, unit: str = "pts") -> tuple[str, str | None]:
    """A bot's own answer (the key with the highest or lowest estimate) and, when it is
    separated from the runner-up (intervals read as normal), the separation in words."""
    order = sorted(values, key=lambda k: values[k].estimate, reverse=highest)
    a, b = values[order[0]], values[order[1]]
    d = difference(a.estimate, a.lo, a.hi, b.estimate, b.lo, b.hi, unit)
    sep = d.lo > 0 if highest else d.hi < 0
    return str(order[0]), (f"{order[0]} ({d.text()} against {order[1]})" if sep else None)


def _claim(claim, values_by_bot: dict[str, dict], reference: str, highest: bool, unit: str) -> tuple[dict, dict, dict]:
    """For a claim 'key ``claim`` has the highest (lowest) value': each bot's margin of
    ``claim`` over its nearest other key (independent estimates), its own answers, and the
    other answers it separates."""
    contrasts, picks, other = {}, {}, {}
    for b, values in values_by_bot.items():
        if claim not in values:
            continue
        sign = 1 if highest else -1
        rest = max((k for k in values if k != claim), key=lambda k: sign * values[k].estimate)
        x, r = values[claim], values[rest]
        d = difference(x.estimate, x.lo, x.hi, r.estimate, r.lo, r.hi, unit)
        contrasts[b] = d if highest else Contrast(-d.estimate, -d.hi, -d.lo, unit)
        own, sep = _own(values, highest, unit)
        if own != str(claim):
            picks[b] = own
            if sep:
                other[b] = sep
    return contrasts, picks, other


def _line(claim: str, contrasts: dict[str, Contrast], reference: str, picks: dict | None = None,
          other: dict | None = None) -> tuple[str, str]:
    cls, why = classify(contrasts, reference, other)
    each = ", ".join(f"`{b}` {c.text()}" + (f" (its own answer: {picks[b]})" if picks and b in picks else "")
                     for b, c in contrasts.items())
    return cls, f"{claim}: {each}; {why}"


def _share_test(part: pl.DataFrame) -> tuple:
    """Win share of one bot's rows (one row per game), its Wilson interval and the
    binomial test against 50%."""
    from scipy.stats import binomtest

    share = float(part["win_share"].sum())
    n = part.height
    return wilson(int(round(share)), n), binomtest(int(round(share)), n, 0.5).pvalue


def _power_values(f: pl.DataFrame, grid: int) -> tuple[str | None, dict[str, tuple]]:
    """The bot of a power grid and, for each power, its win share against a copy of itself
    without that power (and that bot's rows)."""
    part = f.filter(pl.col("grid") == grid)
    full = [b for b in dict.fromkeys(part["bot"].to_list()) if "no-" not in b]
    if not full:
        return None, {}
    out = {}
    for power in POWERS:
        rows = part.filter(pl.col("table").str.contains(f"no-{power}", literal=True) & (pl.col("bot") == full[0]))
        if rows.height:
            out[power] = (*_share_test(rows), rows)
    return full[0], out


def _rank(bot: str) -> int:
    base = bot.partition(":")[0]
    return SKILL.index(base) if base in SKILL else len(SKILL)


def _means(part: pl.DataFrame, column: str, group: str, keys: list) -> Means:
    index = {k: i for i, k in enumerate(keys)}
    part = part.filter(pl.col(group).is_in(keys))
    return Means(_game_ids(part), np.array([index[k] for k in part[group].to_list()]),
                 part[column].to_numpy().astype(np.float64), len(keys))


def _stronger_play(rep: Report, f: pl.DataFrame, game) -> None:
    """Seat advantage, mission payoffs and power values recomputed for every bot of the
    ladder, with rank correlations, and each conclusion classed as surviving, flipping,
    fading or undecided (simkit.ladder)."""
    seat_frames = {}
    for g in SEAT_GRIDS:
        part = f.filter(pl.col("grid") == g)
        for b in dict.fromkeys(part["bot"].to_list()):
            seat_frames[b] = part.filter((pl.col("bot") == b) & (pl.col("table") == b))  # equal bots at every seat
    bots = sorted((b for b in seat_frames if seat_frames[b].height), key=_rank)
    heads = f.filter(pl.col("grid") == HEADS_UP_GRID)
    if len(bots) < 2 and not heads.height:
        return
    reference = game.default_bot if game.default_bot in bots else bots[0]
    rep.heading("Does it hold under stronger play?")
    rep.text("The bots form a ladder of skill: " + " < ".join(f"`{b}`" for b in bots) + ". `search` plays every legal action "
             "out to the end of the game on copies of the state, with the markers still in the bag in an order of its own "
             "and `strategic` at every seat, and keeps the action that wins most (`search:budget=N`: simulations per "
             f"decision). Each headline is a claim that the default bot `{reference}`'s games establish; it is measured again "
             "for every bot of the ladder as a *margin* that is positive when the claim holds for that bot, with its 95% "
             f"interval. " + rules(reference) + " "
             "The searching bot's cells play fewer games (it is slow), so their intervals are wider. Rank correlations are "
             "Kendall's tau-b (+1 the same order, -1 the reverse), as point estimates: a bootstrap interval for them did not "
             "keep its level.")
    said = {k: [] for k in CLASSES}

    if heads.height:
        rep.heading("The search against strategic", 3)
        rows = []
        budgets = []
        for table in dict.fromkeys(heads["table"].to_list()):
            part = heads.filter(pl.col("table") == table)
            searcher = next(b for b in dict.fromkeys(part["bot"].to_list()) if b.startswith("search"))
            m = re.search(r"budget=(\d+)", searcher)
            ci, p = _share_test(part.filter(pl.col("bot") == searcher))
            budgets.append((int(m.group(1)) if m else 0, ci))
            rows.append({"searching bot": f"`{searcher}`", "games": f"{part['game_index'].n_unique():,}",
                         "its win share against strategic": pct(ci), "p (vs 50%)": fmt_p(p)})
        rep.table(rows, "Two players, seats rotated (each bot plays first in half the games): the win share of the searching "
                        "bot against `strategic` (95% Wilson intervals; a shared win counts half)")
        budgets.sort(key=lambda x: x[0])
        top = budgets[-1]
        rep.text(f"At budget {top[0]} the search takes {pct(top[1])} of the wins from `strategic`"
                 + (f"; {', '.join(f'{pct(ci)} at budget {bb}' for bb, ci in budgets[:-1])}." if len(budgets) > 1 else "."))

    # -- seats ----------------------------------------------------------------------------------------
    rep.heading("Seat advantage, by bot", 3)
    counts = sorted(f.filter(pl.col("grid") == 0)["players"].unique().to_list())
    seats0 = int(f["seat"].min())  # the first seat's number in the data
    rows, pvals, seat_share = [], [], {}
    for b in bots:
        for n in counts:
            part = seat_frames[b].filter(pl.col("players") == n)
            if not part.height:
                continue
            games = part["game_index"].n_unique()
            shares = part.group_by("seat").agg(pl.col("win_share").sum()).sort("seat")["win_share"].to_numpy()
            _, p = chi2_uniform(shares)
            pvals.append(p)
            row = {"bot": b, "players": n, "games": f"{games:,}", **{f"seat {k + 1}": "" for k in range(max(counts))}}
            for seat in range(n):
                values = part.filter(pl.col("seat") == seat + seats0)["win_share"].to_numpy()
                ci = clustered_mean(values, np.arange(values.size))
                seat_share[(b, n, seat + 1)] = ci
                row[f"seat {seat + 1}"] = pct(ci)
            row["chi-square p"] = fmt_p(p)
            rows.append(row)
    for row, rejected in zip(rows, holm(pvals)):
        row["seats differ (Holm, 5%)"] = "yes" if rejected else "no"
    rep.table(rows, "Win share by seat, equal bots at every seat, with 95% intervals; chi-square against equal shares, "
                    "Holm over the tables")
    for n in counts:
        have = [b for b in bots if (b, n, 1) in seat_share]
        if reference not in have or len(have) < 2:
            continue
        # the seat the reference favours: its win share minus the bot's best other seat, game by game
        ref_vals = {s: seat_share[(reference, n, s)] for s in range(1, n + 1)}
        claim = max(ref_vals, key=lambda s: ref_vals[s].estimate)
        contrasts, picks, other = {}, {}, {}
        for b in have:
            part = seat_frames[b].filter(pl.col("players") == n)
            wide = part.pivot(on="seat", index="game_index", values="win_share", aggregate_function="first").sort("game_index")
            col = {s: wide[str(s - 1 + seats0)].to_numpy() for s in range(1, n + 1)}
            vals = {s: seat_share[(b, n, s)] for s in range(1, n + 1)}
            rest = max((s for s in vals if s != claim), key=lambda s: vals[s].estimate)
            d = clustered_mean(col[claim] - col[rest], np.arange(wide.height))
            contrasts[b] = Contrast(d.estimate, d.lo, d.hi)
            own = max(vals, key=lambda s: vals[s].estimate)
            if own != claim:
                picks[b] = f"seat {own}"
                runner = max((s for s in vals if s != own), key=lambda s: vals[s].estimate)
                sep = clustered_mean(col[own] - col[runner], np.arange(wide.height))
                if sep.lo > 0:
                    other[b] = f"seat {own} ({100 * sep.estimate:+.1f} [{100 * sep.lo:+.1f}, {100 * sep.hi:+.1f}] points of win share against seat {runner})"
        cls, line = _line(f"with {n} players seat {claim} is favoured (its win share minus the next best seat's, game by game)",
                          contrasts, reference, picks, other)
        said[cls].append(line)
    for n in counts:
        have = [b for b in bots if (b, n, 1) in seat_share]
        means = {}
        for b in have:
            part = seat_frames[b].filter(pl.col("players") == n)
            means[b] = _means(part.with_columns((pl.col("seat") - seats0).alias("seat")), "win_share", "seat", list(range(n)))
        taus = boot_taus(means, list(itertools.combinations(have, 2)))
        rep.text(f"{n} players, Kendall's tau between the bots' orders of the seats: "
                 + "; ".join(f"{a} vs {b} {t}" for (a, b), t in taus.items()) + ".")

    # -- missions -------------------------------------------------------------------------------------
    rep.heading("Mission payoffs, by bot", 3)
    for column, points, label, cards in (("city_mission", "city_mission_points", "city card", [2, 3, 4, 5]),
                                         ("border_mission", "border_mission_points", "border card", list(BORDER_KEYS))):
        rows, pts, share = [], {}, {}
        for card in cards:
            row = {label: card}
            for b in bots:
                part = seat_frames[b].filter(pl.col(column) == card)
                m = clustered_mean(part[points].to_numpy().astype(np.float64), _game_ids(part))
                s = clustered_mean(part["win_share"].to_numpy(), _game_ids(part))
                pts.setdefault(b, {})[card] = m
                share.setdefault(b, {})[card] = s
                row[f"{b}: mean points"] = f"{m.estimate:.2f} [{m.lo:.2f}, {m.hi:.2f}]"
                row[f"{b}: win share"] = pct(s)
            rows.append(row)
        rep.table(rows, f"{label.capitalize()}s: mean mission points and the win share of the seats holding each card, by bot "
                        f"(all player counts; 95% intervals clustered by game)")
        tau_p = boot_taus({b: _means(seat_frames[b], points, column, cards) for b in bots}, list(itertools.combinations(bots, 2)))
        tau_s = boot_taus({b: _means(seat_frames[b], "win_share", column, cards) for b in bots}, list(itertools.combinations(bots, 2)))
        rep.text(f"Kendall's tau between the bots' orders of the {label}s: "
                 + "; ".join(f"{a} vs {b}: points {tau_p[(a, b)]}, win share {tau_s[(a, b)]}" for a, b in itertools.combinations(bots, 2)) + ".")
        for what, values, unit, scale in (("mean mission points", pts, "x", 1.0), ("win share", share, "pts", 1.0)):
            for highest in (True, False):
                claim = max(values[reference], key=lambda k: (1 if highest else -1) * values[reference][k].estimate)
                contrasts, picks, other = _claim(claim, values, reference, highest, unit)
                cls, line = _line(f"the {label} {claim} has the {'largest' if highest else 'smallest'} {what} (its margin over "
                                  f"the {'next' if highest else 'next smallest'} card; cards read as independent)",
                                  contrasts, reference, picks, other)
                said[cls].append(line)
        spread = {b: difference(max(m.estimate for m in pts[b].values()), *(lambda m: (m.lo, m.hi))(max(pts[b].values(), key=lambda m: m.estimate)),
                                min(m.estimate for m in pts[b].values()), *(lambda m: (m.lo, m.hi))(min(pts[b].values(), key=lambda m: m.estimate)), "x")
                  for b in bots}
        rep.text(f"Spread between the best and the worst {label} (mean points) [95% interval]: "
                 + ", ".join(f"`{b}` {v.estimate:.2f} [{v.lo:.2f}, {v.hi:.2f}]" for b, v in spread.items()) + ".")

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
        rows = []
        allp = [(b, pw) for b in pb for pw in values[b]]
        rejected = dict(zip(allp, holm([values[b][pw][1] for b, pw in allp])))
        for pw in POWERS:
            row = {"power": pw}
            for b in pb:
                if pw in values[b]:
                    ci, p, _ = values[b][pw]
                    row[b] = pct(ci) + (" *" if rejected[(b, pw)] else "")
            rows.append(row)
        rep.table(rows, "Win share of each bot against a copy of itself that never uses the power (two players, seats rotated; "
                        "95% Wilson intervals; * significant against 50%, Holm over every bot and power)")
        taus = boot_taus({b: _means(pl.concat([values[b][p][2].with_columns(pl.lit(p).alias("power")) for p in values[b]]),
                                    "win_share", "power", [p for p in POWERS if p in values[b]]) for b in pb},
                         list(itertools.combinations(pb, 2)))
        rep.text("Games: " + ", ".join(f"`{b}` {values[b][next(iter(values[b]))][0].n:,} per power" for b in pb)
                 + ". Kendall's tau between the bots' orders of the powers: "
                 + "; ".join(f"{a} vs {b}: {t}" for (a, b), t in taus.items()) + ".")
        shares = {b: {p: values[b][p][0] for p in values[b]} for b in pb}
        claim = max(shares[ref_p], key=lambda k: shares[ref_p][k].estimate)
        contrasts, picks, other = _claim(claim, shares, ref_p, True, "pts")
        cls, line = _line(f"{claim} is the most valuable power (its win share minus the next power's; powers played in "
                          f"separate games)", contrasts, ref_p, picks, other)
        said[cls].append(line)
        for pw in POWERS:
            have = {b: shares[b][pw] for b in pb if pw in shares[b]}
            if ref_p not in have:
                continue
            sign = 1 if have[ref_p].estimate >= 0.5 else -1
            contrasts = {b: Contrast(sign * (ci.estimate - 0.5), min(sign * (ci.lo - 0.5), sign * (ci.hi - 0.5)),
                                     max(sign * (ci.lo - 0.5), sign * (ci.hi - 0.5))) for b, ci in have.items()}
            cls, line = _line(f"{pw} {'helps' if sign > 0 else 'hurts'} the bot that uses it (its win share against a copy "
                              f"without it, minus 50%{'' if sign > 0 else ', negated'})", contrasts, ref_p)
            said[cls].append(line)

    rep.heading("What survives, what flips", 3)
    rep.text("Each line: the claim, then each bot's margin [95% interval] (positive: the claim holds for that bot; points "
             "of win share, or plain mission points), then why it is classed so.")
    rep.bullets([f"**{k.capitalize()}**: {s}." for k in CLASSES for s in said[k]])


def card_wins_section(rep: Report, strat: pl.DataFrame, bot: str) -> None:
    """Mission cards ranked by the win share of the seats holding them against the fair
    share, at each player count (a pool over player counts has no fair share), and why
    mean mission points and win share can rank the cards differently."""
    from ...stats import holm_adjusted, paired_numeric

    rep.heading("Which mission card wins?", 3)
    rep.text("A card is good for its holder when it wins more than the fair share (1/2, 1/3 or 1/4 of the games). Each "
             "game deals each card to at most one seat, so the seats holding a card are one per game: its win share is "
             "their mean share of the win (a shared win counts 1/k), tested against the fair share with a one-sample t-test, "
             "Holm over every card and player count of the table.")
    for kind, column, cards in (("city card", "city_mission", (2, 3, 4, 5)),
                                ("border card", "border_mission", ("Pacific", "Mexico", "Gulf", "Atlantic"))):
        rows = []
        for n in sorted(strat["players"].unique().to_list()):
            for card in cards:
                part = strat.filter((pl.col("players") == n) & (pl.col(column) == card))
                if not part.height:
                    continue
                share = part["win_share"].to_numpy()
                d = paired_numeric(share, np.full(share.size, 1.0 / n))  # share minus the fair share
                rows.append({"players": n, kind: card, "seats": f"{part.height:,}",
                             "win share": f"{100 * share.mean():.1f}%", "fair share": f"{100 / n:.1f}%",
                             "minus fair [95% CI]": f"{100 * d.estimate:+.1f} [{100 * d.lo:+.1f}, {100 * d.hi:+.1f}] pts",
                             "mean score": f"{part['score'].mean():.1f}",
                             "in play (cities, herds)": f"{part['immediate_points'].mean():.1f}",
                             "mission points": f"{part[column + '_points'].mean():.1f}",
                             "_d": d.estimate, "_p": d.p_value, "_pts": float(part[column + "_points"].mean()),
                             "_play": float(part["immediate_points"].mean()), "_score": float(part["score"].mean())})
        for r, p in zip(rows, holm_adjusted([r["_p"] for r in rows])):
            r["p (Holm)"] = fmt_p(p)
            r["verdict"] = ("more than fair" if r["_d"] > 0 else "less than fair") if p < 0.05 else "not shown to differ"
        rows.sort(key=lambda r: (r["players"], -r["_d"]))
        table = []
        for r in rows:
            rank = 1 + sum(1 for o in rows if o["players"] == r["players"] and o["_d"] > r["_d"])
            table.append({"players": r["players"], "rank": rank, **{k: v for k, v in r.items() if k != "players" and not k.startswith("_")}})
        rep.table(table, f"{kind.capitalize()}s ranked by the win share of their holders at each player count (bot `{bot}`), "
                         f"with the holders' mean score and where it comes from")
        if kind == "city card":
            rep.text(_points_against_wins(rows, kind, strat, column))


def _points_against_wins(rows: list[dict], kind: str, strat: pl.DataFrame, column: str) -> str:
    """Where the ranking by mission points and the ranking by win share disagree, say so,
    with the numbers that explain it: the two cards' win shares, their difference with a
    95% interval (a ratio of totals over games, linearised by game, since both cards can
    be dealt in the same game), and where their holders' points come from."""
    from ...sensitivity import per_game
    from ...stats import ratio_estimate

    parts = []
    for n in sorted({r["players"] for r in rows}):
        at = [r for r in rows if r["players"] == n]
        best_win = max(at, key=lambda r: r["_d"])
        best_pts = max(at, key=lambda r: r["_pts"])
        if best_win is best_pts:
            parts.append(f"with {n} players card {best_win[kind]} leads both in mission points and in win share")
            continue
        part = strat.filter(pl.col("players") == n)
        games = int(part["game_index"].max()) + 1
        d = ratio_estimate([(1.0, *per_game(part, games, pl.col("win_share"), pl.col(column) == best_win[kind])),
                            (-1.0, *per_game(part, games, pl.col("win_share"), pl.col(column) == best_pts[kind]))])
        settled = d.lo > 0
        parts.append(
            f"with {n} players card {best_pts[kind]} earns the most mission points ({best_pts['_pts']:.1f}, against "
            f"{best_win['_pts']:.1f} for card {best_win[kind]}), yet card {best_win[kind]} ranks first by win share "
            f"({best_win['win share']} against {best_pts['win share']}: {100 * d.estimate:+.1f} [{100 * d.lo:+.1f}, {100 * d.hi:+.1f}] "
            f"points, {'a difference the games show' if settled else 'a difference these games cannot tell from chance'}); "
            f"its holders score {best_win['_play'] - best_pts['_play']:+.1f} points in play (cities and herds) and "
            f"{best_win['_score'] - best_pts['_score']:+.1f} in all")
    return ("**Points against wins.** Mission points are only part of a score, and a card also steers its holder's play: "
            "a city card asks for discs around cities of its value, and every second and third disc around a city scores "
            "that city's value during play, so a card can pay through points in play that the mission-points column does "
            "not show; and what wins is the total against the other players', not its mean. Here: " + "; ".join(parts) + ". "
            "A card's mean mission points measure how easily its tiers are reached, not how much it helps its holder win. "
            "Both rankings rest on where the stand-in board puts the city values: the section on readings below plays the "
            "same games with the values in other places (`board=cities-reversed`) and says which of these claims survive.")


def sensitivity_section(rep: Report, result) -> None:
    """How the headline figures move under the other readings of unclear rules (when the
    experiment file asks for it: ``sensitivity = GAMES``)."""
    from ...sensitivity import section_for_report
    from .sensitivity import TORNADO

    section_for_report(rep, result, list(TORNADO))
