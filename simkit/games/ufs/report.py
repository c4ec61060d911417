"""The Under Falling Skies balance report, after its answers (questions.py): how hard is each
threat level, city and side, for bots of different skill."""

from __future__ import annotations

import itertools
import re

import numpy as np
import polars as pl

from ...ladder import CLASSES, Contrast, Means, boot_taus, classed_line, classify, difference, from_difference, rules
from ...report import PALETTE, Report, pct, rules_link, style
from ...stats import clustered_mean, clustered_rate, design_effect, diff_independent, holm, holm_adjusted, paired_binary, wilson
from .questions import CITY_NAMES, MAIN, QUESTIONS, DamagedSide, RuleVariant, ThreatLevels, select_games

BUDGET = re.compile(r"(?:^|[:+])budget=(\d+)")

TILE_NAMES = {1: "tile 4 (top)", 2: "tile 3", 4: "tile 2 (skull)", 8: "tile 1 (bottom)"}

# The columns build() reads beyond its questions' and the settings (simkit.report.compose reads only these;
# tests/test_questions.py checks that every column build() names is declared here).
READS = ("flipped", "loss_cause", "research_len", "research_reached", "rounds", "seed", "ships_shot")


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

    def minor(v, _):
        # an axis within one decade (a strong bot's 20-100%) is labelled at its minor ticks,
        # plainly too (they read "6x10^1" and ran into the axis label); a wider one is not
        lo, hi = ax.get_ylim()
        return f"{v:g}" if 0 < lo and hi / lo < 10 else ""

    ax.yaxis.set_minor_formatter(FuncFormatter(minor))


def _error_bars(ax, xs, cis, **kw) -> None:
    """Rates on a log axis: a point with its interval, or, for a rate of 0, a downward
    marker at the interval's upper end (a log axis has no 0)."""
    pos = [(x, c) for x, c in zip(xs, cis) if c.estimate > 0]
    zero = [(x, c) for x, c in zip(xs, cis) if c.estimate == 0]
    line = ax.errorbar([x for x, _ in pos], [100 * c.estimate for _, c in pos],
                       yerr=[[max(0.0, 100 * (c.estimate - c.lo)) for _, c in pos], [max(0.0, 100 * (c.hi - c.estimate)) for _, c in pos]], **kw)
    if zero:
        ax.plot([x for x, _ in zero], [100 * c.hi for _, c in zero], ls="none", marker="v", ms=5,
                color=line[0].get_color(), alpha=0.8)


def build(result, rep: Report) -> None:
    import matplotlib.pyplot as plt

    style()
    exp = result.experiment
    # A cell two grids share (the search's default budget is on its ladder too) comes once per grid: keep it once.
    everything = select_games(result.frame, None).with_columns(pl.col("bot").cast(pl.Utf8))
    main = select_games(everything, MAIN)  # the main grids; the rule variant is compared below
    game = exp.game
    # Bots that played every cell make the tables; bots that played one city only (the
    # searching bot's budget ladder) are read in "Does it hold under stronger play?".
    n_cells = main.select("threat", "city", "city_side").unique().height
    covered = dict(main.group_by("bot").agg(pl.struct("threat", "city", "city_side").n_unique().alias("n")).iter_rows())
    bots = [b for b in main["bot"].unique(maintain_order=True).to_list() if covered[b] == n_cells]
    f = main.filter(pl.col("bot").is_in(bots))
    default = game.default_bot if game.default_bot in bots else bots[0]
    cities = [c for c in CITY_NAMES if c in set(f["city"].unique().to_list())]
    sides = [s for s in ("normal", "damaged") if s in set(f["city_side"].unique().to_list())]
    threats = sorted(set(f["threat"].unique().to_list()))
    rep.headline_figure = "win-rate-by-threat"

    n_default = f.filter(pl.col("bot") == default).group_by("threat", "city", "city_side").len()["len"].min()
    rep.text(
        f"Win rates of the solo game by **threat level** (0-4 sky tiles on their threatening side), **city** and "
        f"**city side**, for {len(bots)} bots of different skill; at least {n_default:,} games per cell for the default bot "
        f"`{default}`. Every rate comes with a 95% interval: Wilson's for one "
        f"cell; for rates pooled over cells, which share their seeds, Wilson's at the sample size the shared seeds are worth "
        f"(clustered by seed). Small rates are printed with the digits their intervals need."
    )
    rep.bullets([
        f"Runs are cached in `runs/sweeps/{exp.name}/` (`simkit sweep experiments/{exp.path.name}` runs this experiment"
        + ("; `make run` does too)." if exp.path.name == "ufs-threat.toml" else ")."),
        f"Root seed {exp.seed}: game *i* of every cell uses the same seed, so cells share their dice as far as their play allows.",
        "Rules as implemented, with every ambiguity and stand-in: " + rules_link(result, "under-falling-skies.md") + ".",
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
    zero = (f.lazy().filter(pl.col("bot").is_in(plotted)).group_by("bot", "city", "city_side", "threat")
            .agg(pl.col("won").any()).filter(~pl.col("won")).collect().height > 0)  # a cell without a win
    fig.suptitle("Win rate against threat level (95% intervals; dashed: damaged city side"
                 + ("; v: no win, drawn at the upper bound)" if zero else ")"))
    rep.figure(fig, "win-rate-by-threat", "Win rate against threat level, per bot, city and side, with 95% error bars, on a log scale "
                                          "so that rates of 0.01% and 50% can both be read")
    for bot in never:
        part = f.filter(pl.col("bot") == bot)
        played = part.select("threat", "city", "city_side").unique().height
        seeds = part["seed"].n_unique()
        rep.text(f"Bot `{bot}` never won in {part.height:,} games ({played} cells played on the same {seeds:,} seeds): "
                 f"95% upper bound {100 * _pooled(part).hi:.3f}% per game, counting each seed once, since games on one "
                 f"seed need not be independent.")

    # -- is each threat level harder? -----------------------------------------------------
    rep.heading("Is each threat level harder than the one before?", 3)
    headline = next(q for q in QUESTIONS if q.id == "threat")
    for a in headline.answers(f):
        rep.evidence(a)
    rows, iut = [], []
    for city in cities:
        for side in sides:
            q = ThreatLevels("threat", where={"bot": default, "city": city, "city_side": side})
            for a in q.answers(f):
                steps = [e for e in a.estimates if "->" in e.label]
                iut.append(max(e.p for e in steps))  # every step must be shown: the largest one-sided p decides
                rows.append({"city": CITY_NAMES[city], "side": side,
                             **{e.label.replace("threat ", ""): e.text() for e in steps}})
    for row, p in zip(rows, holm_adjusted(iut)):
        row["every level harder (Holm)"] = "shown" if p < 0.05 else "not shown"
    rep.table(rows, f"Bot `{default}`: each step's change in win rate on the same seeds (Tango's 95% interval); a city and "
                    f"side is shown to get harder at every level when every step is significant one-sided (the largest "
                    f"step p-value), Holm over the {len(rows)} cities and sides")

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

    # -- the damaged side ------------------------------------------------------------------
    if {"normal", "damaged"} <= set(sides):
        rep.heading("Is the damaged side harder?")
        rep.text("Each city's tile has a normal and a damaged side. Every cell plays game *i* with the same seed, so the two "
                 "sides are compared game by game: per seed, the damaged side's result minus the normal side's, averaged over "
                 "the threat levels. A city's damaged side is *shown harder* or *shown easier* when that difference is "
                 "significant after Holm over the cities, *within ±1 point* of the normal side when its 90% interval lies "
                 "inside ±1 point (equivalence), and otherwise not shown.")
        side_q = DamagedSide(where={"bot": default}, who=f"the {default} bot")
        for a in side_q.answers(f):
            rep.evidence(a)
        rep.table(side_q.by_threat(f), f"Bot `{default}`, city by city and level by level: the damaged side's win rate minus "
                                       "the normal side's on the same seeds (Tango's 95% interval, McNemar's test), Holm over "
                                       "every city and threat level")

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
                 "may rank cities differently. The next section asks which conclusions survive.")

    _stronger_play(rep, f, main, bots, default, cities, sides, threats)

    # -- a rule variant, and why pairing pays ---------------------------------------------------
    variant = everything.filter((pl.col("damage_rule") == "strict") & (pl.col("bot") == default))
    strict = sorted(set(variant["threat"].unique().to_list()))
    if strict:
        rep.heading("A rule variant: the city falls one damage sooner (G9)")
        rep.text("The rules can be read to end the game when damage reaches the sum of the damage segments (as implemented) "
                 "or one less (`damage_rule=strict`); the variant plays the same seeds in Roswell (normal side).")
        for t in strict:
            q = RuleVariant("damage_rule", "sum", "strict", f"At threat {t} in Roswell (normal side), a damage limit one lower",
                            {"bot": default, "city": "roswell", "city_side": "normal", "threat": t})
            for a in q.answers(everything):
                rep.evidence(a)
    rep.heading("Paired comparisons need fewer games", 3)
    rep.text("Two cells compared game by game on the same seeds give a narrower interval than the same games analysed as two "
             f"independent samples. Here, for bot `{default}`: the damaged against the normal side of each city, and the rule "
             "variant against the rules as implemented.")
    rows = []
    for city in cities:
        for t in [x for x in threats if x <= 1]:
            a = _cell(f, default, city, "normal", t)
            d = _cell(f, default, city, "damaged", t)
            if a.height and a.height == d.height:
                rows.append(_paired_row(f"{CITY_NAMES[city]}: damaged minus normal side", t, d, a))
    for t in strict:
        v = variant.filter(pl.col("threat") == t).filter((pl.col("city") == "roswell") & (pl.col("city_side") == "normal")).sort("game_index")
        a = _cell(f, default, "roswell", "normal", t)
        if v.height and v.height == a.height:
            rows.append(_paired_row("Roswell: damage limit one lower minus as implemented", t, v, a))
    rep.table([{k: v for k, v in r.items() if not k.startswith("_")} for r in rows],
              "A difference, paired by seed and as two independent samples, and how many times more games two independent "
              "runs would need for the same precision")
    if rows:
        by_ratio = sorted(rows, key=lambda r: r["_width_ratio"])
        least, most = by_ratio[0], by_ratio[-1]

        def where(r: dict) -> str:
            return f"{r['comparison']} at threat {r['threat']} (same outcome on {100 * r['_agreement']:.1f}% of the seeds)"

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


def _paired_row(label: str, threat: int, b: pl.DataFrame, a: pl.DataFrame) -> dict:
    """One row of the paired-comparison table: ``b`` minus ``a`` on the same seeds, analysed
    paired and as two independent samples."""
    pr = paired_binary(b["won"].to_numpy(), a["won"].to_numpy())
    ind = diff_independent(int(b["won"].sum()), b.height, int(a["won"].sum()), a.height)
    return {"comparison": label, "threat": threat, "games": f"{a.height:,}",
            "difference (points)": f"{100 * pr.estimate:+.2f}",
            "paired 95% CI": f"[{100 * pr.lo:+.2f}, {100 * pr.hi:+.2f}]",
            "same outcome": f"{100 * pr.agreement:.1f}%",
            "independent 95% CI": f"[{100 * ind.lo:+.2f}, {100 * ind.hi:+.2f}]",
            "games an unpaired design needs": f"{((ind.hi - ind.lo) / (pr.hi - pr.lo)) ** 2:.1f}x",
            "_agreement": pr.agreement, "_width_ratio": (ind.hi - ind.lo) / (pr.hi - pr.lo)}


# ---- does it hold under stronger play? ----------------------------------------------------
def _cell(frame: pl.DataFrame, bot: str, city: str, side: str, threat: int) -> pl.DataFrame:
    return frame.filter((pl.col("bot") == bot) & (pl.col("city") == city) & (pl.col("city_side") == side)
                        & (pl.col("threat") == threat)).sort("game_index")


def _paired(a: pl.DataFrame, b: pl.DataFrame):
    """``a`` minus ``b`` on the games both played: game i of every cell has the same seed."""
    n = min(a.height, b.height)
    return paired_binary(a["won"][:n].to_numpy(), b["won"][:n].to_numpy())


def _taus(cells: dict, bots: list[str], labels: list, threats: list[int]) -> dict:
    """Kendall's tau between every two bots' rankings of the cells, at each threat level
    (point estimates: simkit.ladder.boot_taus)."""
    out = {}
    for t in threats:
        means = {}
        for b in bots:
            parts = [cells[(b, *x, t)] for x in labels]
            means[b] = Means(np.concatenate([p["game_index"].to_numpy() for p in parts]),
                             np.concatenate([np.full(p.height, i) for i, p in enumerate(parts)]),
                             np.concatenate([p["won"].to_numpy() for p in parts]), len(labels))
        for pair, tau in boot_taus(means, list(itertools.combinations(bots, 2))).items():
            out[(*pair, t)] = tau
    return out


def _pts(d) -> str:
    return f"{100 * d.estimate:+.1f} [{100 * d.lo:+.1f}, {100 * d.hi:+.1f}]"


def _budget_ladder(rep: Report, main: pl.DataFrame) -> list[str]:
    """The searching bot's win rate against its budget in the city where the ladder was
    played; returns the lines for the summary of the section."""
    import matplotlib.pyplot as plt

    found = {b: int(m.group(1)) for b in main["bot"].unique().to_list() if (m := BUDGET.search(b))}
    if len(found) < 2:
        return []
    lad = main.filter(pl.col("bot").is_in(list(found)))
    where = lad.group_by("city", "city_side").agg(pl.col("bot").n_unique().alias("n")).sort("n", descending=True).row(0)
    city, side = where[0], where[1]
    lad = lad.filter((pl.col("city") == city) & (pl.col("city_side") == side))
    budgets = sorted({found[b] for b in lad["bot"].unique().to_list()})
    name = {found[b]: b for b in lad["bot"].unique().to_list()}
    threats = sorted(lad["threat"].unique().to_list())
    counts = lad.group_by("bot", "threat").len()["len"]
    games = f"{counts.min():,}" if counts.min() == counts.max() else f"{counts.min():,} to {counts.max():,}"
    covers = {bb: sorted(lad.filter(pl.col("bot") == name[bb])["threat"].unique().to_list()) for bb in budgets}
    some: dict[tuple, list[int]] = {}
    for bb in budgets:
        if covers[bb] != threats:
            some.setdefault(tuple(covers[bb]), []).append(bb)
    partial = "".join(f" ({'budgets' if len(bs) > 1 else 'budget'} {' and '.join(map(str, bs))} at threat {', '.join(map(str, ts))} only)"
                      for ts, bs in some.items())
    rep.heading("The search's budget ladder", 3)
    rep.text(f"`search` plays each candidate placement out to the start of the next round on copies of the state (dice of "
             f"its own) and keeps the one whose position a learned model rates best; its budget is the number of such "
             f"simulations per die placed, and `search:budget=1` is `planner`. Here it plays {CITY_NAMES[city]} ({side} side) "
             f"at every threat level with budgets {budgets[0]} to {budgets[-1]}{partial}, "
             f"{games} games per cell on the same seeds, "
             f"so each step up is a paired comparison (Tango's 95% interval, on the games both budgets played).")
    rates = {}
    for bb in budgets:
        for t in threats:
            part = _cell(lad, name[bb], city, side, t)
            if part.height:  # the top of the ladder may be played at some threat levels only
                rates[(bb, t)] = _rate(part)
    rep.table([{"budget": bb, **{f"threat {t}": pct(rates[(bb, t)]) if (bb, t) in rates else "" for t in threats}} for bb in budgets],
              f"Win rate [95% interval] of search by budget and threat level, {CITY_NAMES[city]} ({side} side)")
    steps = {}
    for t in threats:
        mine = [bb for bb in budgets if (bb, t) in rates]
        for lo_b, hi_b in zip(mine, mine[1:]):
            steps[(lo_b, t)] = _paired(_cell(lad, name[hi_b], city, side, t), _cell(lad, name[lo_b], city, side, t))
    rep.table([{"budget": f"{lo_b} -> {hi_b}", **{f"threat {t}": _pts(steps[(lo_b, t)]) if (lo_b, t) in steps else "" for t in threats}}
               for lo_b, hi_b in zip(budgets, budgets[1:])],
              "What each step up the ladder gains, in points of win rate, paired by seed [Tango's 95% interval]")
    lines, short = [], []
    for t in threats:
        mine = [bb for bb in budgets if (bb, t) in rates]
        pairs = list(zip(mine, mine[1:]))
        flat = None
        for i in range(len(pairs)):  # from here on every step up (budget x4 in the shipped ladder) changes the rate by under a point
            if all(abs(steps[(a, t)].estimate) < 0.01 for a, _ in pairs[i:]):
                flat = i
                break
        if flat is None and steps[pairs[-1][0], t].lo > 0:
            a, b_ = pairs[-1]
            lines.append(f"threat {t}: still paying at the top of the ladder ({a} -> {b_}: {_pts(steps[(a, t)])} points); "
                         f"reached {pct(rates[(b_, t)])}")
            short.append(f"threat {t} {pct(rates[(b_, t)])} at budget {b_}, still rising")  # ('at least 99.7% [98.1, ...]' read oddly)
        elif flat is None:
            a, b_ = pairs[-1]
            last = pairs[-2:]
            best = max(mine, key=lambda bb: rates[(bb, t)].estimate)
            lines.append(f"threat {t}: no longer shown to pay at the top of the ladder ("
                         + ", ".join(f"{p[0]} -> {p[1]} {_pts(steps[(p[0], t)])}" for p in last)
                         + f" points), but the estimates still move by more than a point, so where the curve flattens is not "
                         f"settled by these games; {pct(rates[(b_, t)])} at budget {b_}"
                         + (f", the best {pct(rates[(best, t)])} at {best}" if best != b_ else ""))
            short.append(f"threat {t} {pct(rates[(b_, t)])} at budget {b_} (no longer significantly rising; a flat curve, "
                         f"under a point per step, not shown)")
        else:
            a, b_ = pairs[flat]
            later = pairs[flat:]
            worst = max(later, key=lambda p: abs(steps[(p[0], t)].estimate))
            top_gain = max(steps[(p[0], t)].hi for p in later)
            shown = ("every later step's interval lies under +1 point: a gain of a point or more per step is ruled out"
                     if top_gain < 0.01 else
                     f"but the intervals do not rule out a gain of a point per step (the widest reaches {100 * top_gain:+.1f})")
            rising = [p for p in later if steps[(p[0], t)].lo > 0]  # small, but shown: the curve has not stopped
            if rising:
                shown += "; " + ", ".join(f"{p[0]} -> {p[1]}" for p in rising) + " still gains, significantly"
            largest = "" if worst == (a, b_) else f", the largest {worst[0]} -> {worst[1]} {_pts(steps[(worst[0], t)])}"
            lines.append(f"threat {t}: from budget {a} on, each step up changes the rate by under a "
                         f"point ({a} -> {b_} {_pts(steps[(a, t)])}{largest}; {shown}); {pct(rates[(a, t)])} at budget {a}, "
                         f"{pct(rates[(mine[-1], t)])} at {mine[-1]}, planner (budget 1) {pct(rates[(budgets[0], t)])}")
            short.append(f"threat {t} {pct(rates[(mine[-1], t)])} (under a point per step from budget {a}"
                         + (", some steps still significant" if rising else "")
                         + ("" if top_gain < 0.01 else ", a point per step not ruled out") + ")")
    rep.bullets(lines)
    rep.text("Up to the number of candidate placements (distinct dice x free columns: at most 25 per die), a larger budget only "
             "tries more candidates, "
             "once each; beyond it, the budget also simulates the best candidates again on fresh dice (sequential halving), "
             "which is where the curve rises a second time at the higher threat levels.")
    rep.text("Where the curve flattens is this search's limit, a lower bound on the game under strong play: it looks one "
             "round ahead and relies on a learned estimate beyond that, so a deeper search could still find more.")
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for i, t in enumerate(threats):
        mine = [bb for bb in budgets if (bb, t) in rates]
        cis = [rates[(bb, t)] for bb in mine]
        ax.errorbar(mine, [100 * c.estimate for c in cis], yerr=[[max(0.0, 100 * (c.estimate - c.lo)) for c in cis], [max(0.0, 100 * (c.hi - c.estimate)) for c in cis]],
                    marker="o", ms=3.5, capsize=2, color=PALETTE[i], label=f"threat {t}")
    ax.set_xscale("log", base=2)
    ax.set_xticks(budgets, [str(bb) for bb in budgets])
    ax.set_xlabel("budget (simulations per die placed; 1 = planner)")
    ax.set_ylabel("win rate (%)")
    ax.set_title(f"search: win rate against budget, {CITY_NAMES[city]} ({side})")
    ax.legend(loc="lower right")
    rep.figure(fig, "search-budget", "Win rate of search against its budget, by threat level, with 95% intervals (same seeds in every cell)")
    return [f"{CITY_NAMES[city]} ({side})"] + short


def _stronger_play(rep: Report, f: pl.DataFrame, main: pl.DataFrame, bots: list[str], default: str, cities: list[str],
                   sides: list[str], threats: list[int]) -> None:
    """The headline rankings recomputed for every bot on the ladder of skill, rank
    correlations between bots, and each conclusion classed as surviving, flipping, fading
    or undecided (simkit.ladder)."""
    rep.heading("Does it hold under stronger play?")
    winners = [b for b in bots if f.filter(pl.col("bot") == b)["won"].any()]
    skill = sorted(winners, key=lambda b: float(f.filter(pl.col("bot") == b)["won"].mean()))
    others = [b for b in skill if b != default]
    top = skill[-1]
    rep.text("The bots form a ladder of skill: " + " < ".join(f"`{b}`" for b in skill)
             + " (pooled win rate; `random` never wins, so it ranks nothing). Each headline of this report is a claim that "
             f"the default bot `{default}`'s games establish; it is measured again for every bot that wins games, as a "
             "*margin* that is positive when the claim holds for that bot, with its 95% interval (cells play the same seeds, "
             "so comparisons between cells are paired). " + rules(default, top) + f" `{top}` plays fewer games per cell, so "
             "its intervals are wider. Rank correlations are Kendall's tau-b (+1 the same order, -1 the reverse), as point "
             "estimates: a bootstrap interval for them did not keep its level.")
    said = {k: [] for k in CLASSES}
    ladder_lines = _budget_ladder(rep, main)
    if len(skill) < 2:
        rep.text("Only one bot wins games in this experiment: there is no stronger play to compare it with.")
        return

    # -- cities and sides ------------------------------------------------------------------------
    labels = [(c, s) for c in cities for s in sides]
    name = {(c, s): f"{CITY_NAMES[c]} ({s})" for c, s in labels}
    cells = {(b, c, s, t): _cell(f, b, c, s, t) for b in skill for c, s in labels for t in threats}
    rate = {k: float(v["won"].mean()) for k, v in cells.items()}
    rep.heading("Each step up the ladder, by city and side", 3)
    t_gain = 1 if 1 in threats else threats[0]
    rows = []
    for c, s in labels:
        row = {"city (side)": name[(c, s)]}
        for lo_bot, hi_bot in zip(skill, skill[1:]):
            row[f"{hi_bot} - {lo_bot}"] = _pts(_paired(cells[(hi_bot, c, s, t_gain)], cells[(lo_bot, c, s, t_gain)]))
        rows.append(row)
    rep.table(rows, f"Threat {t_gain}: each bot's win rate minus that of the bot below it on the ladder, in points, on the "
                    f"same seeds (the games both played) [Tango's 95% interval]")
    rep.heading("Cities and sides by difficulty", 3)
    rows = []
    for c, s in labels:
        row = {"city (side)": name[(c, s)]}
        for b in skill:
            ranks = []
            for t in threats:
                order = sorted(labels, key=lambda x: -rate[(b, *x, t)])
                ranks.append(str(order.index((c, s)) + 1))
            row[f"{b}: rank at threat {threats[0]}-{threats[-1]}"] = " ".join(ranks)
        rows.append(row)
    rep.table(rows, "Rank of each city and side by win rate (1 = easiest), at each threat level, for each bot (the rates "
                    "and their intervals are in the first table of this report)")
    taus = _taus(cells, skill, labels, threats)
    rep.table([{"bots": f"{a} vs {b}", **{f"threat {t}": str(taus[(a, b, t)]) for t in threats}}
               for a, b in itertools.combinations(skill, 2)],
              f"Kendall's tau between the bots' rankings of the {len(labels)} cities and sides, at each threat level "
              f"(point estimates: a bootstrap interval did not keep its level, so none is given) [n/a: a bot wins every cell alike]")

    # pairs of cells: does the order the default bot finds hold?
    kinds = ("survives", "flips", "fades", "undecided")
    counts = {b: dict.fromkeys(kinds, 0) for b in others}
    reversed_rows = []
    ordered = []  # pairs of cells the default bot orders significantly: the claims classed together
    for t in threats:
        for x, y in itertools.combinations(labels, 2):
            ref = _paired(cells[(default, *x, t)], cells[(default, *y, t)])
            if ref.significant:
                ordered.append((t, x, y, ref))
    for t, x, y, ref in ordered:
        sign = 1 if ref.estimate > 0 else -1
        for b in others:
            d = _paired(cells[(b, *x, t)], cells[(b, *y, t)])
            cls, _ = classify({default: from_difference(ref, sign=sign), b: from_difference(d, sign=sign)}, default,
                              claims=len(ordered))
            counts[b][cls] += 1
            if cls == "flips":
                reversed_rows.append({"threat": t, "cells (first minus second)": f"{name[x]} - {name[y]}",
                                      f"{default} (points)": _pts(ref), f"{b} (points)": _pts(d)})
    rep.table([{"bot": b, f"pairs {default} orders significantly": sum(v.values()), "same order (survives)": v["survives"],
                "reversed (flips)": v["flips"], f"{default}'s gap smaller (fades)": v["fades"], "cannot tell (undecided)": v["undecided"]}
               for b, v in counts.items()],
              f"Pairs of cells (same threat level) whose win rates differ significantly for `{default}` (paired 95% interval "
              f"excluding 0): how each other bot orders them, by the classes above (Bonferroni over the {len(ordered)} pairs "
              f"and the 2 tests of each)")
    if reversed_rows:
        rep.table(reversed_rows, "Reversed orders: both differences significant after the correction, in opposite directions")
    for b in others:
        # one line per bot under its most common class, with every count: a line per class put
        # "Survives: keeps the order of 4 of 51 pairs" at the top of the list
        c = counts[b]
        if not sum(c.values()):
            continue
        parts = [f"{what} {c[cls]}" for cls, what in (
            ("survives", "keeps the order of"), ("flips", "reverses"),
            ("fades", f"finds `{default}`'s gap significantly smaller (without confirming it) for"),
            ("undecided", "can neither confirm nor show smaller")) if c[cls]]
        said[max(c, key=c.get)].append(f"the order of two cells (same threat level) that `{default}` finds: `{b}` "
                                       f"{'; '.join(parts)} of its {sum(c.values())} pairs")

    for t in ([x for x in threats if x == 1] or threats[:1]) if len(labels) > 1 else []:
        for what, sign in (("easiest", 1), ("hardest", -1)):
            # the reference's answer X; for each bot: X's margin over the bot's nearest other cell
            order = sorted(labels, key=lambda x: -sign * rate[(default, *x, t)])
            claim = order[0]
            contrasts, picks, other = {}, {}, {}
            for b in skill:
                rest = sorted((x for x in labels if x != claim), key=lambda x: -sign * rate[(b, *x, t)])
                d = _paired(cells[(b, *claim, t)], cells[(b, *rest[0], t)])
                contrasts[b] = from_difference(d, sign=sign)
                own = sorted(labels, key=lambda x: -sign * rate[(b, *x, t)])
                if own[0] != claim:
                    sep = _paired(cells[(b, *own[0], t)], cells[(b, *own[1], t)])
                    picks[b] = name[own[0]]
                    if sep.significant:
                        other[b] = f"{name[own[0]]} as the {what} ({_pts(sep)} points against {name[own[1]]})"
            cls, line = classed_line(rep, f"{name[claim]} is the {what} city and side at threat {t} (its win rate "
                              f"{'above' if sign > 0 else 'below'} the next {what})", contrasts, default, picks, other)
            said[cls].append(line)

    # -- the damaged side: asked again of each stronger bot (the same question, its own Holm) -----
    if "damaged" in sides and "normal" in sides and others:
        rep.heading("Is the damaged side harder, by bot", 3)
        for b in others:
            for a in DamagedSide(where={"bot": b}, who=f"the {b} bot").answers(f):
                rep.evidence(a)

    # -- the hardest tile -------------------------------------------------------------------------
    if 1 in threats:
        rep.heading("The hardest tile, by bot", 3)
        rows, by_bot = [], {}
        bits = {v: k for k, v in TILE_NAMES.items()}
        for bit, tile in TILE_NAMES.items():
            row = {"flipped tile (threat 1)": tile}
            for b in skill:
                part = f.filter((pl.col("bot") == b) & (pl.col("threat") == 1) & (pl.col("flipped") == bit))
                ci = _pooled(part)
                by_bot.setdefault(b, {})[tile] = ci
                row[b] = pct(ci)
            rows.append(row)
        for row in rows:
            for b in skill:
                order = sorted(by_bot[b], key=lambda k: by_bot[b][k].estimate)
                row[b] += f" (#{order.index(row['flipped tile (threat 1)']) + 1})"
        rep.table(rows, "Win rate by the one tile flipped at threat 1 (all cities and sides, 95% intervals clustered by seed; "
                        "#1 = hardest)")
        tiles = list(TILE_NAMES.values())
        means = {}
        for b in skill:
            one = f.filter((pl.col("bot") == b) & (pl.col("threat") == 1) & pl.col("flipped").is_in(list(bits.values())))
            group = one["flipped"].replace_strict({bits[k]: i for i, k in enumerate(tiles)}, return_dtype=pl.Int64)
            means[b] = Means(one["game_index"].to_numpy(), group.to_numpy(), one["won"].to_numpy(), len(tiles))
        tile_taus = boot_taus(means, list(itertools.combinations(skill, 2)))
        rep.text("Kendall's tau between the bots' orders of the tiles: " + "; ".join(
            f"{a} vs {b} {tile_taus[(a, b)]}" for a, b in itertools.combinations(skill, 2)) + " (point estimates, no interval).")
        claim = min(by_bot[default], key=lambda k: by_bot[default][k].estimate)
        contrasts, picks, other = {}, {}, {}
        for b in skill:
            # the tiles are flipped in different games: a difference of independent clustered rates
            rest = min((k for k in tiles if k != claim), key=lambda k: by_bot[b][k].estimate)
            r, x = by_bot[b][rest], by_bot[b][claim]
            contrasts[b] = difference(r.estimate, r.lo, r.hi, x.estimate, x.lo, x.hi)
            own = sorted(tiles, key=lambda k: by_bot[b][k].estimate)
            if own[0] != claim:
                picks[b] = own[0]
                a_, z_ = by_bot[b][own[0]], by_bot[b][own[1]]
                sep = difference(z_.estimate, z_.lo, z_.hi, a_.estimate, a_.lo, a_.hi)
                if sep.lo > 0:
                    other[b] = f"{own[0]} as the hardest ({sep.text()} below {own[1]})"
        cls, line = classed_line(rep, f"{claim} is the hardest tile to face flipped at threat 1 (the next hardest tile's win rate minus its own)",
                          contrasts, default, picks, other)
        said[cls].append(line)

    # -- threat steps -------------------------------------------------------------------------------
    rep.heading("The threat steps, by bot", 3)
    rows, largest_drops, step = [], {}, {}
    for b in skill:
        row = {"bot": b}
        drops = {}
        tests = []
        for t0, t1 in zip(threats, threats[1:]):
            ds = [_paired(cells[(b, c, s, t0)], cells[(b, c, s, t1)]) for c, s in labels]
            for (c, s), d in zip(labels, ds):
                step[(b, c, s, t0, t1)] = d
            drops[(t0, t1)] = float(np.mean([d.estimate for d in ds]))
            tests.append(ds)
        flat = [d for ds in tests for d in ds]
        rejected = holm([d.p_value for d in flat])
        k = 0
        for (t0, t1), ds in zip(zip(threats, threats[1:]), tests):
            sig = sum(rejected[k:k + len(ds)])
            k += len(ds)
            row[f"{t0} -> {t1}"] = f"{100 * drops[(t0, t1)]:+.1f} ({sig}/{len(ds)})"
        largest_drops[b] = drops
        row["significant steps"] = f"{sum(rejected)} of {len(rejected)}"
        if flat:
            row["least certain step (points)"] = _pts(min(flat, key=lambda d: d.lo))
        rows.append(row)
    rep.table(rows, "Drop in win rate from one threat level to the next, in points, averaged over the cities and sides "
                    "(in brackets: in how many of them the step is significant, paired by seed, Holm over each bot's steps); "
                    "the step whose paired 95% interval reaches lowest. The classes below ask another question of "
                    "the same steps (does the strongest bot confirm the default bot's step? Bonferroni over the bots), so "
                    "their counts can differ from this column's")
    # every step, every city and side: classed one by one, then together
    tally = dict.fromkeys(CLASSES, 0)
    named = {k: [] for k in CLASSES}
    for t0, t1 in zip(threats, threats[1:]):
        for c, s in labels:
            cls, _ = classify({b: from_difference(step[(b, c, s, t0, t1)]) for b in skill}, default)
            tally[cls] += 1
            named[cls].append(f"{name[(c, s)]} {t0} -> {t1} (`{top}` {_pts(step[(top, c, s, t0, t1)])})")
    n_steps = sum(tally.values())
    for cls in CLASSES:
        if tally[cls]:
            if cls == "survives":
                d, where = min(((step[(top, c, s, t0, t1)], f"{name[(c, s)]} {t0} -> {t1}") for t0, t1 in zip(threats, threats[1:])
                                for c, s in labels
                                if classify({b: from_difference(step[(b, c, s, t0, t1)]) for b in skill}, default)[0] == "survives"),
                               key=lambda p: p[0].lo)
                listed = f"the least certain for `{top}`: {where}, {_pts(d)} points"
            else:
                listed = "; ".join(named[cls])
            said[cls].append(f"each threat step makes the game harder (a city and side's win rate drops from one threat level "
                             f"to the next, paired by seed): {tally[cls]} of {n_steps} steps ({listed})")
    # the largest step (when there are two steps to compare)
    claim = max(largest_drops[default], key=largest_drops[default].get) if len(threats) > 2 else None
    contrasts, picks, other = {}, {}, {}
    for b in skill if claim else []:
        rest = max((k for k in largest_drops[b] if k != claim), key=largest_drops[b].get)
        (a0, a1), (b0, b1) = claim, rest
        # per seed and city x side: (drop of the claimed step) - (drop of the bot's largest other), clustered by seed
        values, seeds = [], []
        for c, s in labels:
            w = {t: cells[(b, c, s, t)]["won"].to_numpy().astype(float) for t in {a0, a1, b0, b1}}
            n = min(len(v) for v in w.values())
            values.append((w[a0][:n] - w[a1][:n]) - (w[b0][:n] - w[b1][:n]))
            seeds.append(cells[(b, c, s, a0)]["seed"].to_numpy()[:n])
        ci = clustered_mean(np.concatenate(values), np.concatenate(seeds))
        contrasts[b] = Contrast(ci.estimate, ci.lo, ci.hi)
        own = max(largest_drops[b], key=largest_drops[b].get)
        if own != claim:
            picks[b] = f"{own[0]} -> {own[1]}"
    if claim:
        # (pooled over games, so a city and side with more games weighs more: not the table's average over them)
        cls, line = classed_line(rep, f"the largest threat step is {claim[0]} -> {claim[1]} (its drop minus the next largest step's, "
                          f"pooled over the games of every city and side)", contrasts, default, picks, other)
        said[cls].append(line)

    # -- summary ----------------------------------------------------------------------------------------
    rep.heading("What survives, what flips", 3)
    rep.text("Each line: the claim, then each bot's margin [95% interval] (positive: the claim holds for that bot), then "
             "why it is classed so.")
    rep.bullets([f"**{k.capitalize()}**: {s}." for k in CLASSES for s in said[k]])
    if ladder_lines:
        rep.text(f"The game's difficulty under the strongest play measured here (the search's budget ladder, {ladder_lines[0]}): "
                 + ", ".join(ladder_lines[1:]) + ".")


def sensitivity_section(rep: Report, result) -> None:
    """How the headline figures move under the other readings of unclear rules (when the
    experiment file asks for it: ``sensitivity = GAMES``)."""
    from ...sensitivity import section_for_report
    from .sensitivity import TORNADO

    section_for_report(rep, result, list(TORNADO))
