"""The O.V.N.I. balance report (experiments/ovni.toml -> reports/ovni/): seat advantage
for 2, 3 and 4 players, each ability card's effect on winning, the mission cards'
payoffs and the value of keeping one mission or two, where the points come from, game
length, how the conclusions move with bot strength, and how sure they are: each reading of
an unclear rule and the stand-in routes switched on its own (simkit/games/ovni/sensitivity.py).

Every cell of the experiment plays the same seeded games (game i deals the same
planets, cards, humans and missions everywhere), so a variant is compared with the
reference game by game: the paired differences are much sharper than two separate
samples would give.
"""

from __future__ import annotations

import json

import numpy as np
import polars as pl

from ...report import PALETTE, Report, fmt_p, pct, style
from ...stats import chi2_uniform, diff_independent, holm, holm_adjusted, mean_interval, paired_numeric, wilson

CATEGORIES = ("majorities", "ufos", "airspace", "mapping", "humans", "missions")
ACTIVE = {"swap_human": "no-swap", "extra_moves": "no-extra", "abduct_without_majority": "no-nomajority",
          "six_twice": "no-six-twice", "force_field": "no-shield"}
BLANKABLE = ("mapping_worth_4", "ufo_worth_3", "three_starting_aliens")
REFERENCE = "strategic"


def _mean(values, digits=2) -> str:
    m = mean_interval(np.asarray(values, dtype=np.float64))
    return f"{m.estimate:.{digits}f} [{m.lo:.{digits}f}, {m.hi:.{digits}f}]"


def _share(values) -> str:
    """A mean win share (a shared win counts 1/k) with its t interval."""
    m = mean_interval(np.asarray(values, dtype=np.float64))
    return pct(m)


def _pp(d, digits=1) -> str:
    """A difference of proportions in percentage points with its interval."""
    return f"{100 * d.estimate:+.{digits}f} [{100 * d.lo:+.{digits}f}, {100 * d.hi:+.{digits}f}]"


def _tost_margin(shares: np.ndarray, games: int, fair: float) -> float:
    """The smallest margin m (percentage points) for which a TOST at 5% declares every
    seat's win share within fair +- m: the largest distance from the fair share of the
    seats' 90% Wilson bounds."""
    worst = 0.0
    for s in shares:
        ci = wilson(int(round(s)), games, level=0.90)
        worst = max(worst, abs(ci.lo - fair), abs(ci.hi - fair))
    return 100 * worst


def _seat_rows(frame: pl.DataFrame, label: str) -> tuple[list[dict], dict]:
    """Win share by seat per player count for one bot's games (every seat that bot)."""
    rows = []
    figures = {}
    for n in sorted(frame["players"].unique().to_list()):
        part = frame.filter(pl.col("players") == n)
        games = part["game_index"].n_unique()
        shares = part.group_by("seat").agg(pl.col("win_share").sum()).sort("seat")["win_share"].to_numpy()
        stat, p = chi2_uniform(shares)
        fair = 1.0 / n
        row = {"bots": label, "players": n, "games": f"{games:,}", **{f"seat {k + 1}": "" for k in range(4)}}
        cis = []
        for seat in range(n):
            ci = wilson(int(round(shares[seat])), games)
            cis.append(ci)
            row[f"seat {seat + 1}"] = pct(ci)
        margin = _tost_margin(shares, games, fair)
        row["fair"] = f"{100 * fair:.1f}%"
        row["chi-square p"] = fmt_p(p)
        if p < 0.05:
            best = int(np.argmax(shares))
            row["verdict"] = f"seats differ (best: seat {best + 1}, {100 * (shares[best] / games - fair):+.1f} points)"
        else:
            row["verdict"] = f"no advantage found; any seat's edge beyond +-{margin:.1f} points is ruled out (TOST 5%)"
        rows.append(row)
        figures[n] = (cis, fair)
    return rows, figures


def _paired_holder(base: pl.DataFrame, variant: pl.DataFrame, card: str) -> tuple[np.ndarray, np.ndarray, int]:
    """Win shares of the seat holding ``card`` in the same games of the reference and of
    the variant (matched by game and seat)."""
    b = base.filter((pl.col("ability_1") == card) | (pl.col("ability_2") == card)).select("game_index", "seat", "win_share", "score")
    v = variant.select("game_index", "seat", pl.col("win_share").alias("v_share"), pl.col("score").alias("v_score"))
    m = b.join(v, on=["game_index", "seat"], how="inner")
    return m["win_share"].to_numpy(), m["v_share"].to_numpy(), m.height


def build(result, target) -> None:
    import matplotlib.pyplot as plt

    style()
    exp = result.experiment
    f = result.frame.with_columns(pl.col("bot").cast(pl.Utf8), pl.col("table").cast(pl.Utf8))
    game = exp.game
    rep = Report("O.V.N.I.: balance report", game.slug)
    total_games = sum(c.spec.n_games for c in exp.cells)
    rep.text(
        f"Seat advantage, ability cards, missions, points and game length of O.V.N.I. (Marcos Macri) for 2, 3 and 4 "
        f"players, from {total_games:,} seeded games in {len(exp.cells)} cells ({f.height:,} seat rows)."
    )
    rep.bullets([
        f"Reproduce: `simkit sweep {exp.path} --jobs 1` (about 5 minutes on one core, and about 6 more for the sensitivity "
        f"section's runs); runs are cached in `runs/sweeps/{exp.name}/` and `runs/sensitivity/ovni/`.",
        "Rules as implemented, every reading and every stand-in: [docs/rules/ovni.md](../../docs/rules/ovni.md).",
        "**Many components are stand-ins** (the 12th city, the route lines, the city numbers, the mission cards' "
        "parameters, the ability names, three human colours, the planet distances): numbers that depend on them are "
        "flagged below; the method carries over to the real components by editing `simkit/games/ovni/data/`.",
        "Bots: " + "; ".join(f"`{k}`: {v.help}" for k, v in game.bots.items()) + ".",
        "Intervals are 95% (Wilson for rates, t for means and paired differences). Seat tests are chi-square "
        "against equal shares; where none is found, a TOST at 5% gives the largest seat edge the data rule out. "
        "Many tests at once are controlled with Holm's method (family-wise 5%). A shared win counts 1/k for each "
        "of the k winners (win share).",
    ])
    default_files = (pl.col("decks") == "") & (pl.col("board") == "")  # the built-in data files
    ref = f.filter((pl.col("grid") == 0) & (pl.col("table") == REFERENCE) & default_files)
    players_list = sorted(ref["players"].unique().to_list())

    # -- 1. seats ----------------------------------------------------------------------------
    rep.heading("Seat advantage")
    rep.text("The strategic bot at every seat. Seat 1 places the first UFO (Sao Paulo), keeps its missions and "
             "chooses its starting aliens first; the turn orders of both phases then follow the aliens held (R3, R8), "
             "so no seat keeps the lead by rule. What seat 1 does get is the first choice of starting aliens, and "
             "no later seat may repeat its pair (R1.11): it takes the start that leads round 1's phase-1 order "
             "(a Builder and a Military, which no other pair outranks), and the bots value that lead highly "
             "(tuned head to head, see strategies/ovni/strategic.py). How large the edge is depends on how well "
             "the players choose their starts: see the bot-strength section, where random starts are fair.")
    rows, figs = _seat_rows(ref, REFERENCE)
    rep.table(rows, "Win share by seat (95% intervals), chi-square test against equal shares, and the equivalence margin")
    fig, ax = plt.subplots(figsize=(7.5, 3.8))
    for i, n in enumerate(players_list):
        cis, fair = figs[n]
        xs = np.arange(1, n + 1) + (i - 1) * 0.25
        ys = [100 * c.estimate for c in cis]
        err = [[max(0.0, 100 * (c.estimate - c.lo)) for c in cis], [max(0.0, 100 * (c.hi - c.estimate)) for c in cis]]
        ax.bar(xs, ys, width=0.24, yerr=err, capsize=2, color=PALETTE[i], label=f"{n} players")
        ax.hlines(100 * fair, xs[0] - 0.15, xs[-1] + 0.15, colors=PALETTE[i], linestyles=":", lw=1.2)
    ax.set_xlabel("seat (1 = first to place a UFO and choose aliens)")
    ax.set_ylabel("win share (%)")
    ax.set_xticks([1, 2, 3, 4])
    ax.set_title("Win share by seat, strategic bot (dotted: fair share)")
    ax.legend(loc="upper right", ncols=3)
    ax.set_ylim(0, 100 * max(max(c.hi for c in figs[n][0]) for n in players_list) * 1.25)
    rep.figure(fig, "seats", "Win share by seat and player count, 95% intervals")
    first1 = []
    for n in players_list:
        part = ref.filter(pl.col("players") == n)
        r = float(np.corrcoef(part["first_phase1"].to_numpy(), part["win_share"].to_numpy())[0, 1])
        r2 = float(np.corrcoef(part["first_phase2"].to_numpy(), part["win_share"].to_numpy())[0, 1])
        first1.append({"players": n, "rounds first in phase 1 (mean)": _mean(part["first_phase1"]),
                       "correlation with win share": f"{r:+.3f}",
                       "rounds first in phase 2 (mean)": _mean(part["first_phase2"]),
                       "correlation with win share ": f"{r2:+.3f}"})
    rep.table(first1, "Turn order is earned, not dealt: how often a seat moved first, and how that goes with winning (descriptive: aliens bring both)")

    # -- 2. abilities --------------------------------------------------------------------------
    rep.heading("Ability cards")
    rep.text("Each seat holds two of the ten cards (nine with 2 players: the force field is removed, A21). Two views: "
             "(a) the seats holding a card against those not holding it, in the reference games (unpaired; a holder "
             "also holds a second card, which averages out over the deal); (b) **paired**: the same games replayed with "
             "the card's effect switched off for its holder, by a bot that never uses it (cards one chooses to use) or "
             "by a decks file where the card is blank (cards that act by themselves). (b) isolates the card; the "
             "prebuilt UFO and map-with-two cards cannot be blanked in the data (their numbers have no neutral value), "
             "so only (a) is available for them.")
    cards = sorted(set(ref["ability_1"].unique().to_list()) | set(ref["ability_2"].unique().to_list()))
    held_rows, held_p = [], []
    for n in players_list:
        part = ref.filter(pl.col("players") == n)
        for card in cards:
            has = (part["ability_1"] == card) | (part["ability_2"] == card)
            a = part.filter(has)
            o = part.filter(~has)
            if not a.height:
                continue
            x1, n1 = int(round(a["win_share"].sum())), a.height
            x2, n2 = int(round(o["win_share"].sum())), o.height
            d = diff_independent(x1, n1, x2, n2)
            held_p.append(d.p_value)
            held_rows.append({"players": n, "card": card, "holders": f"{n1:,}", "win share held": pct(wilson(x1, n1)),
                              "not held": pct(wilson(x2, n2)), "difference (points)": _pp(d),
                              "mean score held - not": f"{a['score'].mean() - o['score'].mean():+.1f}", "p": fmt_p(d.p_value)})
    for r, rej in zip(held_rows, holm(held_p)):
        r["significant (Holm)"] = "yes" if rej else "no"
    rep.table(held_rows, f"(a) Win share of the seats holding each card against the others, reference games; Holm over all {len(held_p)} tests")

    paired_rows, paired_p, forest = [], [], []
    for n in players_list:
        base = ref.filter(pl.col("players") == n)
        for card in cards:
            variant = None
            how = ""
            if card in ACTIVE:
                label = f"{REFERENCE}:{ACTIVE[card]}"
                variant = f.filter((pl.col("players") == n) & (pl.col("table") == label) & default_files)
                how = f"bot `{label}`"
            elif card in BLANKABLE:
                variant = f.filter((pl.col("players") == n) & (pl.col("table") == REFERENCE)
                                   & pl.col("decks").str.contains(f"blank-{card}"))
                how = "blank card"
            if variant is None or not variant.height:
                continue
            a, b_, k = _paired_holder(base, variant, card)
            if k < 2:
                continue
            d = paired_numeric(a, b_)
            paired_p.append(d.p_value)
            paired_rows.append({"players": n, "card": card, "switched off by": how, "games": f"{k:,}",
                                "holder's win share with": _share(a), "without": _share(b_),
                                "effect of the card (points)": _pp(d), "games whose result moved": pct(wilson(int(np.sum(a != b_)), k)),
                                "p": fmt_p(d.p_value)})
            forest.append((n, card, d))
    adj = holm_adjusted(paired_p) if paired_p else []
    for r, rej, pa in zip(paired_rows, holm(paired_p), adj):
        r["Holm-adjusted p"] = fmt_p(pa)
        r["significant (Holm)"] = "yes" if rej else "no"
    rep.table(paired_rows, f"(b) Paired effect of each card on its holder's win share: the same games with the card and with it switched off; Holm over {len(paired_p)} tests")
    if forest:
        fig, ax = plt.subplots(figsize=(8, 0.32 * len(forest) + 1.2))
        for i, (n, card, d) in enumerate(forest):
            ax.errorbar(100 * d.estimate, i, xerr=[[max(0.0, 100 * (d.estimate - d.lo))], [max(0.0, 100 * (d.hi - d.estimate))]], fmt="o",
                        color=PALETTE[players_list.index(n)], capsize=2)
        ax.axvline(0, color="k", lw=1, ls=":")
        ax.set_yticks(range(len(forest)), [f"{card} ({n}p)" for n, card, _ in forest])
        ax.set_xlabel("change of the holder's win share (percentage points), 95% interval")
        ax.set_title("What each card is worth to its holder (paired)")
        ax.invert_yaxis()
        rep.figure(fig, "abilities", "Paired effect of each card on its holder's win share, by player count (colours: 2, 3, 4 players)")

    # -- 3. missions ----------------------------------------------------------------------------
    rep.heading("Missions")
    rep.text("Each seat is dealt three mission cards and keeps one or two (R1.10); a kept mission scores +8 if "
             "completed at the end, -5 if not. The strategic bot keeps a second mission when its estimated chance "
             "(by kind and player count, calibrated on these games) beats 5/13. **The mission parameters are stand-ins** "
             "(four cards of each kind, reference 1.3 c): card-by-card numbers describe these stand-ins.")
    long = pl.concat([
        ref.select("players", "game_index", "seat", "win_share", "missions_kept", pl.col("mission_1").alias("mission"),
                   pl.col("mission_1_done").alias("done")),
        ref.select("players", "game_index", "seat", "win_share", "missions_kept", pl.col("mission_2").alias("mission"),
                   pl.col("mission_2_done").alias("done")),
    ]).filter(pl.col("mission") != "")
    mission_rows = []
    comp_plot = {}
    for n in players_list:
        part = long.filter(pl.col("players") == n)
        fair = 1.0 / n
        for m in sorted(part["mission"].unique().to_list()):
            mp_ = part.filter(pl.col("mission") == m)
            done = mp_["done"].to_numpy()
            k = len(done)
            ci = wilson(int(done.sum()), k)
            net = np.where(done == 1, 8, -5)
            share = wilson(int(round(mp_["win_share"].sum())), k)
            mission_rows.append({"players": n, "mission": m, "kept by": f"{k:,}", "completed": pct(ci),
                                 "net points": _mean(net, 1), "holders' win share": pct(share),
                                 "vs fair share": f"{100 * (share.estimate - fair):+.1f}"})
            comp_plot.setdefault(n, []).append((m, ci))
    rep.table(mission_rows, "Each mission card when kept: completion rate, net points (+8 / -5) and the win share of the seats keeping it (fair share: 1/n)")
    fig, ax = plt.subplots(figsize=(9, 3.8))
    all_ids = sorted({m for n in players_list for m, _ in comp_plot.get(n, [])})
    for i, n in enumerate(players_list):
        ms = comp_plot.get(n, [])
        xs = np.array([all_ids.index(m) for m, _ in ms]) + (i - 1) * 0.25
        ys = [100 * c.estimate for _, c in ms]
        err = [[max(0.0, 100 * (c.estimate - c.lo)) for _, c in ms], [max(0.0, 100 * (c.hi - c.estimate)) for _, c in ms]]
        ax.bar(xs, ys, width=0.24, yerr=err, capsize=1.5, color=PALETTE[i], label=f"{n} players")
    ax.set_xticks(np.arange(len(all_ids)), all_ids)
    ax.axhline(100 * 5 / 13, color="k", ls=":", lw=1)
    ax.set_ylabel("completed (%)")
    ax.set_title("Mission completion when kept (dotted: 5/13, where keeping breaks even)")
    ax.legend(loc="upper left")
    rep.figure(fig, "missions", "Completion rate of each kept mission card by player count, 95% intervals")
    keep_rows = []
    for n in players_list:
        part = ref.filter(pl.col("players") == n)
        two = part["missions_kept"].to_numpy() == 2
        keep_rows.append({"players": n, "keeps two": pct(wilson(int(two.sum()), len(two))),
                          "missions completed per seat": _mean(part["missions_done"]),
                          "mission points per seat": _mean(part["points_missions"])})
    rep.table(keep_rows, "How often the strategic bot keeps two missions, and what missions bring it")
    one_two = []
    for n in players_list:
        base = ref.filter(pl.col("players") == n)
        for opt in ("one-mission", "two-missions"):
            label = f"{REFERENCE}:{opt}"
            var = f.filter((pl.col("players") == n) & (pl.col("bot") == label))
            if not var.height:
                continue
            m = base.select("game_index", "seat", "win_share", "score", "missions_kept").join(
                var.select("game_index", "seat", pl.col("win_share").alias("v"), pl.col("score").alias("vs")),
                on=["game_index", "seat"], how="inner")
            d = paired_numeric(m["v"].to_numpy(), m["win_share"].to_numpy())
            ds = paired_numeric(m["vs"].to_numpy().astype(float), m["score"].to_numpy().astype(float))
            moved = m.filter(pl.col("missions_kept") != (1 if opt == "one-mission" else 2))
            one_two.append({"players": n, "seat always keeps": "one" if opt == "one-mission" else "two",
                            "games": f"{m.height:,}", "choice changed in": pct(wilson(moved.height, m.height)) + " of them",
                            "win share change (points)": _pp(d), "score change": f"{ds.estimate:+.2f} [{ds.lo:+.2f}, {ds.hi:+.2f}]",
                            "p": fmt_p(d.p_value)})
    rep.table(one_two, "The value of keeping one mission or two: one seat forced to keep one (or two), the others strategic; paired with the same seat of the same games where it chose for itself")

    # -- 4. points -------------------------------------------------------------------------------
    rep.heading("Where the points come from")
    pts_rows = []
    for n in players_list:
        part = ref.filter(pl.col("players") == n)
        win = part.filter(pl.col("won"))
        row = {"players": n, "mean score": _mean(part["score"], 1)}
        for c in CATEGORIES:
            row[c] = f"{part[f'points_{c}'].mean():.1f}"
        row["winners' score"] = f"{win['score'].mean():.1f}"
        pts_rows.append(row)
    rep.table(pts_rows, "Mean points per seat by scoring category (R15), strategic bot; the categories add up to the score")
    win_rows = []
    for n in players_list:
        part = ref.filter(pl.col("players") == n)
        games = part.group_by("game_index").agg([pl.col(f"points_{c}").sort_by("score").last().alias(c) for c in CATEGORIES]
                                                + [pl.col(f"points_{c}").mean().alias(f"{c}_mean") for c in CATEGORIES])
        row = {"players": n}
        for c in CATEGORIES:
            row[c] = f"{(games[c] - games[f'{c}_mean']).mean():+.1f}"
        win_rows.append(row)
    rep.table(win_rows, "What the top scorer has more than the table's average, per category (what wins games)")
    bots_cat = [REFERENCE, "greedy", "random", "search"]
    fig, axes = plt.subplots(1, len(players_list), figsize=(4.2 * len(players_list), 3.6), squeeze=False, sharey=True)
    for ax, n in zip(axes[0], players_list):
        bottom = np.zeros(len(bots_cat))
        present = []
        for b in bots_cat:
            present.append(f.filter((pl.col("players") == n) & (pl.col("table") == b)).height > 0)
        for ci, c in enumerate(CATEGORIES):
            vals = []
            for b in bots_cat:
                part = f.filter((pl.col("players") == n) & (pl.col("table") == b))
                vals.append(float(part[f"points_{c}"].mean()) if part.height else 0.0)
            vals = np.array(vals)
            pos = np.clip(vals, 0, None)
            ax.bar(range(len(bots_cat)), pos, bottom=bottom, color=PALETTE[ci], label=c if n == players_list[0] else None)
            bottom += pos
            neg = np.clip(vals, None, 0)
            if neg.any():
                ax.bar(range(len(bots_cat)), neg, color=PALETTE[ci], hatch="//", alpha=0.6)
        ax.set_xticks(range(len(bots_cat)), bots_cat, rotation=20)
        ax.set_title(f"{n} players")
        ax.axhline(0, color="k", lw=0.8)
    axes[0][0].set_ylabel("mean points per seat")
    fig.legend(loc="upper center", ncols=6, bbox_to_anchor=(0.5, 1.04))
    rep.figure(fig, "points", "Mean points per seat by category and bot (missions below zero: more failed than completed)")

    # -- 5. length -------------------------------------------------------------------------------
    rep.heading("Game length")
    len_rows = []
    fig, ax = plt.subplots(figsize=(7, 3.4))
    for i, n in enumerate(players_list):
        g = ref.filter((pl.col("players") == n) & (pl.col("seat") == 1))
        r = g["rounds"].to_numpy()
        ends = g["end_class"].value_counts().sort("end_class")
        len_rows.append({"players": n, "games": f"{len(r):,}", "rounds (mean)": _mean(r),
                         "median": int(np.median(r)), "5%-95%": f"{int(np.percentile(r, 5))}-{int(np.percentile(r, 95))}",
                         "capped at max_rounds": pct(wilson(int(g["capped"].sum()), len(r))),
                         "deck reshuffles": f"{g['reshuffles'].mean():.2f}",
                         "areas unclaimed per game": f"{g['areas_unclaimed'].mean():.2f}",
                         "class that ran out": ", ".join(f"{e} {pct(wilson(c, len(r)))}" for e, c in ends.iter_rows())})
        bins = np.arange(r.min(), r.max() + 2) - 0.5
        ax.hist(r, bins=bins, histtype="step", lw=1.6, density=True, color=PALETTE[i], label=f"{n} players")
    ax.set_xlabel("rounds played")
    ax.set_ylabel("share of games")
    ax.set_title("Game length, strategic bot")
    ax.legend()
    rep.table(len_rows, "Rounds per game (the game ends after the round in which a class of aliens runs out, R14)")
    rep.figure(fig, "length", "Distribution of the number of rounds")

    # -- 6. bot strength -------------------------------------------------------------------------
    rep.heading("How the conclusions move with bot strength")
    strength = f.filter(pl.col("table").is_in(["random", "greedy", REFERENCE, "search"]) & default_files)
    order = ["random", "greedy", REFERENCE, "search"]
    rows_s = []
    for b in order:
        part = strength.filter(pl.col("table") == b)
        if not part.height:
            continue
        seat_rows, _ = _seat_rows(part, b)
        for r in seat_rows:
            n = r["players"]
            p2 = part.filter(pl.col("players") == n)
            r["mean score"] = f"{p2['score'].mean():.1f}"
            r["rounds"] = f"{p2.filter(pl.col('seat') == 1)['rounds'].mean():.2f}"
            r["missions completed"] = pct(wilson(int(p2["missions_done"].sum()), int(p2["missions_kept"].sum())))
            rows_s.append(r)
    rep.table(rows_s, "Seat advantage, score, length and mission success with every seat played by the same bot, weakest to strongest")
    versus = []
    # head-to-head strength: the mission grids and the reference share seeds; strength is shown by the seat shares above
    for b in order:
        part = strength.filter(pl.col("table") == b)
        for n in players_list:
            p2 = part.filter(pl.col("players") == n)
            if not p2.height:
                continue
            row = {"bots": b, "players": n}
            for c in CATEGORIES:
                row[c] = f"{p2[f'points_{c}'].mean():.1f}"
            versus.append(row)
    rep.table(versus, "Mean points per seat by category and bot")
    rep.text("Ability effects by bot: the held-versus-not comparison (a) repeated with the other bots' games.")
    ab_rows, ab_p = [], []
    for b in ("greedy", "search"):
        part_b = strength.filter(pl.col("table") == b)
        for n in players_list:
            part = part_b.filter(pl.col("players") == n)
            if not part.height:
                continue
            for card in cards:
                has = (part["ability_1"] == card) | (part["ability_2"] == card)
                a = part.filter(has)
                o = part.filter(~has)
                if not a.height or not o.height:
                    continue
                d = diff_independent(int(round(a["win_share"].sum())), a.height, int(round(o["win_share"].sum())), o.height)
                ab_p.append(d.p_value)
                ab_rows.append({"bots": b, "players": n, "card": card, "holders": f"{a.height:,}", "difference (points)": _pp(d)})
    for r, rej in zip(ab_rows, holm(ab_p)):
        r["significant (Holm)"] = "yes" if rej else "no"
    rep.table(ab_rows, "Win share of holders minus non-holders, greedy and search bots")

    # -- 7. how sure: the readings and the stand-in routes ------------------------------------------
    sensitivity_section(rep, result)
    _routes_detail(rep, f, ref, players_list)

    # -- 8. what depends on what ----------------------------------------------------------------
    rep.heading("What the numbers depend on besides the readings")
    rep.bullets([
        "**Mission payoffs** rest on the stand-in mission parameters (C11, reference 1.3 c): the airspace "
        "missions need a strict majority in 4 cities of one parity, nearly impossible against 2 or 3 rivals on this "
        "board. The +8 / -5 values are the rulebook's. The section above plays every figure also with other card "
        "parameters (`decks=reassigned`), and shows how A15-A17 and A20 (what a mission counts) move them.",
        "**Airspace, Pilots and the swap-human card** depend on the stand-in routes (C4); the section above plays every "
        "reading also on a board where every city neighbours every other (`board=complete`), and the table above shows "
        "where the points move.",
        "**Seat advantage** depends on the set-up order (rulebook) and on the planet distances (C5, stand-in) only as the "
        "last turn-order tie-break. With planets dealt at random only their order could matter, and by symmetry it "
        "cannot: the section above plays them in the opposite order (`board=planets_reversed`) to show it. A18 "
        "(`planets=fixed`) ties each seat to one distance.",
        "**Game length** depends on the alien-card composition (C9, inferred, reference 1.2; the section above plays "
        "another mix, `decks=mixed_aliens`) as well as on A5 "
        "(`reshuffle`): a 4-player game uses the 16 cards in 4 rounds.",
        "**The city numbers** (C3, stand-in) set the set-up pattern, the refill order and which cities are even or odd; "
        "the section above plays every headline figure also with cities 4-12 numbered the other way round "
        "(`board=renumbered`).",
        "Every figure is for these bots: a stronger bot may use a card better (see the bot-strength section).",
    ])
    rep.heading("Compare variants yourself", 3)
    rep.code("simkit compare ovni --set players=4 --set map_check=each_move --vs map_check=end_of_group -n 20000\n"
             "simkit compare ovni --set players=3 --bot strategic --vs-bot search -n 5000\n"
             "simkit sensitivity ovni\n"
             "simkit trace ovni --set players=2 --bot search --seed 3")

    # summary line for the index
    bits = []
    for r in rows:
        bits.append(f"{r['players']}p seat 1 {r['seat 1'].split(' ')[0]} (fair {r['fair']})")
    rep.summary = "; ".join(bits)
    rep.write(target)
    (target / "figures.json").write_text(json.dumps({"seats": rows, "paired_abilities": paired_rows,
                                                     "one_vs_two": one_two, "length": len_rows}, indent=1, default=str))


def sensitivity_section(rep: Report, result):
    """How the headline figures move under the other readings of unclear rules and on the
    complete-graph board (when the experiment file asks for it: ``sensitivity = GAMES``)."""
    from ...sensitivity import section_for_report
    from .sensitivity import TORNADO

    return section_for_report(rep, result, list(TORNADO))


def _routes_detail(rep: Report, f: pl.DataFrame, ref: pl.DataFrame, players_list: list[int]) -> None:
    """The stand-in routes (C4) against the complete board: every seat and where the points go."""
    complete = f.filter((pl.col("table") == REFERENCE) & pl.col("board").str.contains("board_complete"))
    if not complete.height:
        return
    rep.heading("The stand-in routes in detail", 3)
    rep.text("The routes between the twelve cities are a stand-in (C4, reference 1.3 b; the rulebook fixes only "
             "Berlin-Paris and Moscow-Tokyo and that Berlin is two moves from Tokyo). The section above measures what the "
             "complete board (every city neighbours every other) does to the headline figures; here, on the first "
             f"{complete.group_by('players').agg(pl.col('game_index').n_unique())['game_index'].min():,} games of each player count, "
             "every seat's win share and where the points move (paired by game and seat; changes with 95% intervals).")
    rows = []
    for n in players_list:
        c = complete.filter(pl.col("players") == n)
        if not c.height:
            continue
        r_ = ref.filter((pl.col("players") == n) & (pl.col("game_index") < c["game_index"].max() + 1))
        m = r_.select("game_index", "seat", "win_share", "score", "rounds", *[f"points_{k}" for k in CATEGORIES]).join(
            c.select("game_index", "seat", pl.col("win_share").alias("c_share"), pl.col("score").alias("c_score"),
                     pl.col("rounds").alias("c_rounds"), *[pl.col(f"points_{k}").alias(f"c_{k}") for k in CATEGORIES]),
            on=["game_index", "seat"])
        row = {"players": n, "games": f"{c['game_index'].n_unique():,}", **{f"seat {k + 1} win share change": "" for k in range(4)}}
        for seat in range(n):
            part = m.filter(pl.col("seat") == seat + 1)
            row[f"seat {seat + 1} win share change"] = _pp(paired_numeric(part["c_share"].to_numpy(), part["win_share"].to_numpy()))
        row["score change"] = _change(m["c_score"], m["score"], 1)
        for k in ("airspace", "mapping", "humans"):
            row[f"{k} points"] = f"{m[f'points_{k}'].mean():.1f} -> {m[f'c_{k}'].mean():.1f} ({_change(m[f'c_{k}'], m[f'points_{k}'], 1)})"
        g = m.filter(pl.col("seat") == 1)
        row["rounds"] = f"{g['rounds'].mean():.2f} -> {g['c_rounds'].mean():.2f} ({_change(g['c_rounds'], g['rounds'], 2)})"
        rows.append(row)
    rep.table(rows, "Stand-in board -> complete board: each seat's win share (percentage points), the score, the "
                    "route-dependent categories and the game length, paired by game and seat")


def _change(after, before, digits: int) -> str:
    d = paired_numeric(after.to_numpy().astype(float), before.to_numpy().astype(float))
    return f"{d.estimate:+.{digits}f} [{d.lo:+.{digits}f}, {d.hi:+.{digits}f}]"
