"""The Under Falling Skies balance report: how hard is each threat level, city and side,
for bots of different skill."""

from __future__ import annotations

import numpy as np
import polars as pl

from ...report import PALETTE, Report, fmt_p, pct, style
from ...stats import clustered_rate, design_effect, diff_independent, holm, paired_binary, wilson

CITY_NAMES = {"roswell": "Roswell", "new_york": "New York", "washington": "Washington"}
TILE_NAMES = {1: "tile 4 (top)", 2: "tile 3", 4: "tile 2 (skull)", 8: "tile 1 (bottom)"}


def _rate(part: pl.DataFrame):
    """One cell's win rate: its games are independent (one seed each)."""
    won = part["won"]
    return wilson(int(won.sum()), part.height)


def _pooled(part: pl.DataFrame, column: str = "won"):
    """A rate pooled over cells that play the same seeds: an interval clustered by seed."""
    return clustered_rate(part[column].to_numpy().astype(float), part["seed"].to_numpy())


def _log_axis(ax) -> None:
    """A log axis of percentages labelled 0.01, 0.1, 1, 10 rather than 10^-2 ..."""
    from matplotlib.ticker import FuncFormatter

    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))


def _error_bars(ax, xs, cis, **kw) -> None:
    """Rates on a log axis: a point with its interval, or, for a rate of 0, a downward
    marker at the interval's upper end (a log axis has no 0)."""
    pos = [(x, c) for x, c in zip(xs, cis) if c.estimate > 0]
    zero = [(x, c) for x, c in zip(xs, cis) if c.estimate == 0]
    line = ax.errorbar([x for x, _ in pos], [100 * c.estimate for _, c in pos],
                       yerr=[[100 * (c.estimate - c.lo) for _, c in pos], [100 * (c.hi - c.estimate) for _, c in pos]], **kw)
    if zero:
        ax.plot([x for x, _ in zero], [100 * c.hi for _, c in zero], ls="none", marker="v", ms=5,
                color=line[0].get_color(), alpha=0.8)


def build(result, target) -> None:
    import matplotlib.pyplot as plt

    style()
    exp = result.experiment
    everything = result.frame.with_columns(pl.col("bot").cast(pl.Utf8))
    f = everything.filter(pl.col("damage_rule") == "sum")  # the main grid; variants are compared below
    variant = everything.filter(pl.col("damage_rule") != "sum")
    game = exp.game
    bots = list(dict.fromkeys(f["bot"].cast(pl.Utf8).to_list()))
    default = game.default_bot if game.default_bot in bots else bots[0]
    cities = [c for c in CITY_NAMES if c in set(f["city"].to_list())]
    sides = [s for s in ("normal", "damaged") if s in set(f["city_side"].to_list())]
    threats = sorted(set(f["threat"].to_list()))
    rep = Report("Under Falling Skies: balance report", game.slug)

    n_default = f.filter(pl.col("bot") == default).group_by("threat", "city", "city_side").len()["len"].min()
    rep.text(
        f"Win rates of the solo game by **threat level** (0-4 sky tiles on their threatening side), **city** and "
        f"**city side**, for {len(bots)} bots of different skill. {f.height:,} simulated games; at least "
        f"{n_default:,} per cell for the default bot `{default}`. Every rate comes with a 95% interval: Wilson's for one "
        f"cell; for rates pooled over cells, which share their seeds, Wilson's at the sample size the shared seeds are worth "
        f"(clustered by seed). Small rates are printed with the digits their intervals need."
    )
    rep.bullets([
        f"Reproduce: `simkit sweep {exp.path}` (or `make run`); runs are cached in `runs/sweeps/{exp.name}/`.",
        f"Root seed {exp.seed}: game *i* of every cell uses the same seed, so cells share their dice as far as their play allows.",
        "Rules as implemented, with every ambiguity and stand-in: [docs/rules/under-falling-skies.md](../../docs/rules/under-falling-skies.md).",
        "Bots: " + "; ".join(f"`{b}`: {game.bots[b.split(':')[0]].help}" for b in bots if b.split(':')[0] in game.bots) + ".",
        "The board data are a transcription of the retail components with disputed cells resolved as documented; "
        "rates are properties of these bots on this data, not of expert human play.",
    ])

    # -- headline ---------------------------------------------------------------------
    rep.heading("Win rate by threat level")
    rows = []
    for bot in bots:
        for city in cities:
            for side in sides:
                row = {"bot": bot, "city": CITY_NAMES[city], "side": side}
                for t in threats:
                    part = f.filter((pl.col("bot") == bot) & (pl.col("city") == city) & (pl.col("city_side") == side) & (pl.col("threat") == t))
                    row[f"threat {t}"] = pct(_rate(part)) if part.height else ""
                rows.append(row)
    rep.table(rows, "Win rate [95% interval], by bot, city, side and threat level")
    head = f.filter((pl.col("bot") == default) & (pl.col("city") == cities[0]) & (pl.col("city_side") == sides[0]))
    rep.summary = f"{default} on {CITY_NAMES[cities[0]]}: " + ", ".join(
        f"threat {t} {100 * _rate(head.filter(pl.col('threat') == t)).estimate:.1f}%" for t in threats)

    plotted = [b for b in bots if f.filter(pl.col("bot") == b)["won"].any()]
    never = [b for b in bots if b not in plotted]
    fig, axes = plt.subplots(1, len(plotted), figsize=(4.4 * len(plotted), 3.8), sharey=False, squeeze=False)
    for ax, bot in zip(axes[0], plotted):
        k = 0
        for city in cities:
            for side in sides:
                xs, cis = [], []
                for t in threats:
                    part = f.filter((pl.col("bot") == bot) & (pl.col("city") == city) & (pl.col("city_side") == side) & (pl.col("threat") == t))
                    if part.height:
                        xs.append(t + (k - 2.5) * 0.04)
                        cis.append(_rate(part))
                _error_bars(ax, xs, cis, marker="o", ms=3.5, capsize=2, lw=1.2, color=PALETTE[cities.index(city)],
                            ls="-" if side == "normal" else "--", label=f"{CITY_NAMES[city]} ({side})")
                k += 1
        ax.set_title(f"bot: {bot}")
        ax.set_xlabel("threat level")
        ax.set_xticks(threats)
        ax.set_ylabel("win rate (%, log scale)")
        _log_axis(ax)
    axes[0][0].legend(loc="lower left")
    zero = any(_rate(part).estimate == 0 for part in f.filter(pl.col("bot").is_in(plotted))
               .partition_by("bot", "city", "city_side", "threat"))
    fig.suptitle("Win rate against threat level (95% intervals; dashed: damaged city side"
                 + ("; v: no win, drawn at the upper bound)" if zero else ")"))
    rep.figure(fig, "win-rate-by-threat", "Win rate against threat level, per bot, city and side, with 95% error bars, on a log scale "
                                          "so that rates of 0.01% and 50% can both be read")
    for bot in never:
        part = f.filter(pl.col("bot") == bot)
        cells = part.select("threat", "city", "city_side").unique().height
        seeds = part["seed"].n_unique()
        rep.text(f"Bot `{bot}` never won in {part.height:,} games ({cells} cells played on the same {seeds:,} seeds): "
                 f"95% upper bound {100 * _pooled(part).hi:.3f}% per game, counting each seed once, since games on one "
                 f"seed need not be independent.")

    # -- significance of each step in threat --------------------------------------------
    rep.heading("Is each threat step harder?", 3)
    steps, pvals = [], []
    for city in cities:
        for side in sides:
            base = f.filter((pl.col("bot") == default) & (pl.col("city") == city) & (pl.col("city_side") == side))
            for t0, t1 in zip(threats, threats[1:]):
                a = base.filter(pl.col("threat") == t0).sort("game_index")
                b = base.filter(pl.col("threat") == t1).sort("game_index")
                if not a.height or a.height != b.height:
                    continue
                d = paired_binary(a["won"].to_numpy(), b["won"].to_numpy())
                steps.append((city, side, t0, t1, d))
                pvals.append(d.p_value)
    rejected = holm(pvals)
    rep.table([
        {"city": CITY_NAMES[c], "side": s, "step": f"{t0} -> {t1}",
         "drop in win rate (points)": f"{100 * d.estimate:+.2f} [{100 * d.lo:+.2f}, {100 * d.hi:+.2f}]",
         "p": fmt_p(d.p_value), "significant (Holm, 5%)": "yes" if r else "no"}
        for (c, s, t0, t1, d), r in zip(steps, rejected)
    ], f"Bot `{default}`: win rate at one threat level minus the next on the same seeds, with Tango's 95% interval and "
       f"the score test it inverts, Holm-corrected over all steps")

    # -- which tile hurts most ---------------------------------------------------------
    if 1 in threats:
        rep.heading("Which tile is the hardest to face flipped?", 3)
        one = f.filter((pl.col("bot") == default) & (pl.col("threat") == 1))
        rows = []
        for bit, name in TILE_NAMES.items():
            part = one.filter(pl.col("flipped") == bit)
            if part.height:
                rows.append({"flipped tile": name, "games": f"{part.height:,}", "seeds": f"{part['seed'].n_unique():,}",
                             "win rate [95%, clustered by seed]": pct(_pooled(part)),
                             "design effect": f"{design_effect(part['won'].to_numpy().astype(float), part['seed'].to_numpy()):.2f}"})
        rep.table(rows, f"Threat level 1, bot `{default}`, all cities and sides pooled: win rate by the one tile flipped (the rulebook's "
                        f"'normal game' draws it at random). The {one.select('city', 'city_side').unique().height} cells play the same "
                        f"seeds, so the interval is clustered by seed; "
                        f"the design effect says how many times wider the variance is than for independent games")

    # -- how games are lost ---------------------------------------------------------------
    rep.heading("How games are lost")
    sel = f.filter(pl.col("bot") == default)
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    ax = axes[0]
    won_share, dmg, ms = [], [], []
    rows = []
    for t in threats:
        part = sel.filter(pl.col("threat") == t)
        n = part.height
        w = int(part["won"].sum())
        d = part.filter(pl.col("loss_cause") == "damage").height
        m = part.filter(pl.col("loss_cause") == "mothership").height
        won_share.append(100 * w / n)
        dmg.append(100 * d / n)
        ms.append(100 * m / n)
        seeds = part["seed"].to_numpy()
        cause = part["loss_cause"]
        rows.append({"threat": t, "games": f"{n:,}", "seeds": f"{part['seed'].n_unique():,}", "won": pct(_pooled(part)),
                     "lost to damage": pct(clustered_rate((cause == "damage").fill_null(False).to_numpy().astype(float), seeds)),
                     "lost to the mothership": pct(clustered_rate((cause == "mothership").fill_null(False).to_numpy().astype(float), seeds)),
                     "mean rounds": f"{part['rounds'].mean():.2f}",
                     "mean ships shot": f"{part['ships_shot'].mean():.2f}",
                     "mean research reached": f"{(part['research_reached'] / part['research_len']).mean() * 100:.1f}% of the track"})
    ax.bar(threats, won_share, color="#2ca02c", label="won")
    ax.bar(threats, dmg, bottom=won_share, color="#d62728", label="lost: damage")
    ax.bar(threats, ms, bottom=np.add(won_share, dmg), color="#7f7f7f", label="lost: mothership at the skull")
    ax.set_xlabel("threat level")
    ax.set_ylabel("share of games (%)")
    ax.set_title(f"Outcomes, bot {default}, all cities")
    ax.set_ylim(0, 100)
    # Below the axes: the stacked bars fill the whole height, so any legend inside would hide one.
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=3, fontsize=8, frameon=False)
    rep.table(rows, f"Outcomes by threat level, bot `{default}`, all cities and sides pooled (95% intervals clustered by seed: "
                    f"the {sel.select('city', 'city_side').unique().height} cells of a threat level play the same seeds)")

    ax = axes[1]
    for i, t in enumerate(threats):
        part = sel.filter(pl.col("threat") == t)
        n = part.height
        lost_round = part.filter(~pl.col("won"))["rounds"].to_numpy()
        rounds = np.arange(0, 14)
        alive = [100 * (1 - np.sum(lost_round <= r) / n) for r in rounds]
        ax.step(rounds, alive, where="post", color=PALETTE[i], label=f"threat {t}")
    ax.set_xlabel("round")
    ax.set_ylabel("games not yet lost (%)")
    ax.set_title("Survival: share of games not lost by the end of each round")
    ax.legend()
    rep.figure(fig, "losses", "Left: outcomes by threat level. Right: survival curve, the share of games not yet lost after each round")

    # -- bots ------------------------------------------------------------------------------
    if len(bots) > 1:
        rep.heading("Skill matters: bots compared")
        fig, ax = plt.subplots(figsize=(6, 3.8))
        for i, bot in enumerate(bots):
            xs, cis = [], []
            for t in threats:
                xs.append(t + (i - 1) * 0.06)
                cis.append(_pooled(f.filter((pl.col("bot") == bot) & (pl.col("threat") == t))))
            _error_bars(ax, xs, cis, marker="o", capsize=2, color=PALETTE[i], label=bot)
        ax.set_xlabel("threat level")
        ax.set_ylabel("win rate (%, log scale)")
        _log_axis(ax)
        ax.set_xticks(threats)
        ax.set_title("Win rate by bot (all cities and sides pooled)")
        ax.legend()
        rep.figure(fig, "bots", "Win rate by bot and threat level, all cities and sides pooled, 95% intervals clustered by seed, "
                                "log scale (v: never won, drawn at the upper bound)")
        rep.text("The game's difficulty as measured here depends on the player: a stronger bot both wins more and "
                 "may rank cities differently. Compare the panels of the first figure.")

    # -- paired comparisons ---------------------------------------------------------------
    rep.heading("Paired comparisons need fewer games")
    rep.text("Every cell plays game *i* with the same seed, so two cells can be compared game by game "
             "(`simkit compare` does this for any two variants). Here: the damaged side of each city "
             "against its normal side, same seeds, bot " + f"`{default}`. Tango's score interval and the score test it "
             "inverts (McNemar's, without continuity correction: a difference is significant exactly when its interval "
             "excludes 0) use the pairing; the last columns analyse the same games as two independent samples.")
    rows = []
    for city in cities:
        for t in [x for x in threats if x <= 1]:
            a = f.filter((pl.col("bot") == default) & (pl.col("city") == city) & (pl.col("city_side") == "normal") & (pl.col("threat") == t)).sort("game_index")
            d = f.filter((pl.col("bot") == default) & (pl.col("city") == city) & (pl.col("city_side") == "damaged") & (pl.col("threat") == t)).sort("game_index")
            if not a.height or a.height != d.height:
                continue
            rows.append(_paired_row(CITY_NAMES[city], t, d, a))
    for t in sorted(set(variant["threat"].to_list())):
        v = variant.filter((pl.col("bot") == default) & (pl.col("threat") == t)).sort("game_index")
        a = f.filter((pl.col("bot") == default) & (pl.col("city") == "roswell") & (pl.col("city_side") == "normal") & (pl.col("threat") == t)).sort("game_index")
        if not v.height or v.height != a.height:
            continue
        rows.append(_paired_row("Roswell, damage limit one lower (damage_rule=strict)", t, v, a, " (strict - sum)"))
    rep.table([{k: v for k, v in r.items() if not k.startswith("_")} for r in rows],
              "Effect of a variant, paired by seed, and how many times more games two independent runs would need for the same precision")
    if rows:
        by_ratio = sorted(rows, key=lambda r: r["_width_ratio"])
        least, most = by_ratio[0], by_ratio[-1]

        def where(r: dict) -> str:
            return f"{r['city']} at threat {r['threat']} (same outcome on {100 * r['_agreement']:.1f}% of the seeds)"

        rep.text(f"Here the paired interval is {least['_width_ratio']:.2f}x to {most['_width_ratio']:.2f}x narrower than the "
                 f"independent one, so an unpaired design would need {least['_width_ratio'] ** 2:.1f}x to "
                 f"{most['_width_ratio'] ** 2:.1f}x the games: most for {where(most)}, least for {where(least)}.")

    rep.heading("Method", 3)
    rep.bullets([
        "Within a cell, games are independent: game *i* has its own seed, a function of the root seed and *i* only. "
        "Across cells they are not: every cell plays game *i* on the same seed, so cells share their dice as far as their play allows.",
        "Intervals: Wilson score intervals for one cell's rates; for rates pooled over cells, Wilson's at the effective sample "
        "size n / design effect, the design effect estimated from the games clustered by seed (each seed counts once "
        "when there is no success to estimate it from).",
        "Differences between cells: paired by seed, with Tango's score interval and the score test it inverts; the "
        "'independent' columns show the same games analysed as if unpaired. Multiple tests: Holm.",
        f"Data version: {game.data_version(exp.cells[0].spec.params)}.",
    ])
    sensitivity_section(rep, result)
    rep.write(target)


def _paired_row(label: str, threat: int, b: pl.DataFrame, a: pl.DataFrame, suffix: str = "") -> dict:
    """One row of the paired-comparison table: variant ``b`` minus ``a`` on the same seeds,
    analysed paired and as two independent samples."""
    pr = paired_binary(b["won"].to_numpy(), a["won"].to_numpy())
    ind = diff_independent(int(b["won"].sum()), b.height, int(a["won"].sum()), a.height)
    return {"city": label, "threat": threat, "games": f"{a.height:,}",
            "damaged - normal (points)": f"{100 * pr.estimate:+.2f}{suffix}",
            "paired 95% CI": f"[{100 * pr.lo:+.2f}, {100 * pr.hi:+.2f}]",
            "score test p": fmt_p(pr.p_value),
            "same outcome": f"{100 * pr.agreement:.1f}%",
            "independent 95% CI": f"[{100 * ind.lo:+.2f}, {100 * ind.hi:+.2f}]",
            "games an unpaired design needs": f"{((ind.hi - ind.lo) / (pr.hi - pr.lo)) ** 2:.1f}x",
            "_agreement": pr.agreement, "_width_ratio": (ind.hi - ind.lo) / (pr.hi - pr.lo)}


def sensitivity_section(rep: Report, result) -> None:
    """How the headline figures move under the other readings of unclear rules (when the
    experiment file asks for it: ``sensitivity = GAMES``)."""
    from ...sensitivity import section_for_report
    from .sensitivity import TORNADO

    section_for_report(rep, result, list(TORNADO))
