"""The Ufo.O balance report (experiments/ufo-o.toml): first-player advantage for every pairing
of the bots, the strength ladder, what laser, ion cannon and repair are worth, game length,
and how sure the numbers are: each reading of an unclear rule and the stand-in board's variant
switched on its own (simkit/games/ufoo/sensitivity.py), and A15 with A18 together."""

from __future__ import annotations

import json
import math

import numpy as np
import polars as pl
from scipy import stats as sps

from ...report import PALETTE, Report, fmt_p, pct, style
from ...stats import holm_adjusted, paired_binary, paired_numeric, wilson

DEFAULTS = {"board": "", "asteroid_check": "all", "mothership_attack_from": "all", "mothership_fire": "any_time"}
BOT_ORDER = ["random", "aggressive", "tactical", "search"]
EQUIV_MARGIN = 0.02  # TOST margin for "no first-player advantage": 2 points


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


def _first_player(part: pl.DataFrame) -> dict:
    """The first player's wins, losses and draws, and its advantage (wins minus losses, in
    points) with a 95% interval, a two-sided p-value and the TOST margin it rules out."""
    g = _games(part)
    first = g["first_seat"].to_numpy()
    winner = g["winner"].to_numpy()
    n = len(g)
    w = int(np.sum(winner == first))
    loss = int(np.sum((winner > 0) & (winner != first)))
    d = n - w - loss
    x = np.where(winner == first, 1.0, np.where(winner > 0, -1.0, 0.0))
    adv = float(x.mean())
    se = float(np.sqrt(max(x.var(ddof=1), 1e-12) / n))
    p = float(2 * sps.norm.sf(abs(adv) / se)) if se > 0 else 1.0
    z90 = sps.norm.ppf(0.95)
    ruled = max(abs(adv - z90 * se), abs(adv + z90 * se))  # 90% interval inside (-m, m): TOST at 5%
    return {"n": n, "win": wilson(w, n), "loss": wilson(loss, n), "draw": wilson(d, n), "adv": adv,
            "adv_lo": adv - 1.96 * se, "adv_hi": adv + 1.96 * se, "p": p, "ruled_out": ruled}


def _pts(x: float) -> str:
    return f"{100 * x:+.1f}"


def _mean_ci(values) -> str:
    v = np.asarray(values, dtype=float)
    se = v.std(ddof=1) / math.sqrt(len(v)) if len(v) > 1 else 0.0
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


def build(result, target) -> None:
    import matplotlib.pyplot as plt

    style()
    exp = result.experiment
    game = exp.game
    f = result.frame.with_columns(pl.col("bot").cast(pl.Utf8))
    cap = int(f["turn_cap"][0])
    rep = Report("Ufo.O: balance report", game.slug)
    n_games = f.group_by("table", *DEFAULTS).agg(pl.col("game_index").n_unique())["game_index"].sum()
    rep.text(
        f"First-player advantage, the bots' strength ladder, what each weapon and repair is worth, how long games "
        f"last, and how these move with the asteroid layout and with the readings the rulebook leaves open. "
        f"{n_games:,} simulated games in {len(exp.cells)} cells; every rate with its 95% interval.")
    rep.bullets([
        f"Reproduce: `simkit sweep {exp.path} --jobs 1` (a few minutes on one core, and about 5 more for the sensitivity "
        f"section's runs); runs are cached in `runs/sweeps/{exp.name}/` and `runs/sensitivity/ufoo/`.",
        f"Root seed {exp.seed}: game *i* of every cell has the same seed and, seats rotated, the same bot in the same seat, "
        "so cells are compared game by game (paired) where they differ only in a bot option, the board or a reading.",
        "Rules as implemented, with every reading (A1-A37) and stand-in: [docs/rules/ufo-o.md](../../docs/rules/ufo-o.md).",
        "**The board is a stand-in** (nothing public describes the real sheet: 9 x 11 hexes, motherships at the middle of the "
        "top and bottom rows, an asteroid belt with three gaps and four outliers); absolute numbers describe this board.",
        "Bots: " + "; ".join(f"`{k}`: {v.help}" for k, v in game.bots.items()) + ".",
        "Intervals: Wilson for rates; normal for the first player's advantage (wins minus losses, a draw counting 0) and for "
        "means; Tango's score interval with McNemar's test for paired rates; Holm's correction within each family of tests. "
        f"No advantage found is stated as an equivalence (TOST at 5%: the 90% interval of the advantage inside ±m; m reported).",
        f"Turn cap (A33): {cap} turns (one player's turn each); a game reaching it is a draw, an outcome of its own.",
    ])

    # -- 1. first-player advantage ---------------------------------------------------------------
    rep.heading("First-player advantage")
    rep.text("Every pairing of the bots, seats rotated; the first player is chosen by the rulebook's die roll, so each bot "
             "moves first in about half of its games. The first player's wins, draws and losses are shares of all games; the "
             "advantage is wins minus losses in points.")
    pairings = []
    for i, a in enumerate(BOT_ORDER):
        for b in BOT_ORDER[i:]:
            key = a if a == b else None
            for cand in ([a] if a == b else [[a, b], [b, a]]):
                part = _cell(f, cand if key is None else key)
                if part.height:
                    pairings.append((f"{a} vs {b}" if a != b else f"{a} vs {a}", part))
                    break
    rows, pvals, fps = [], [], []
    for label, part in pairings:
        fp = _first_player(part)
        fps.append((label, fp))
        pvals.append(fp["p"])
    adj = holm_adjusted(pvals)
    for (label, fp), p_adj in zip(fps, adj):
        if p_adj < 0.05:
            verdict = "first player favoured" if fp["adv"] > 0 else "second player favoured"
        elif fp["ruled_out"] <= EQUIV_MARGIN:
            verdict = f"no advantage: above {100 * fp['ruled_out']:.1f} points ruled out"
        else:
            verdict = f"inconclusive: above {100 * fp['ruled_out']:.1f} points ruled out"
        rows.append({"pairing": label, "games": f"{fp['n']:,}", "first player wins": pct(fp["win"]), "draws": pct(fp["draw"]),
                     "first player loses": pct(fp["loss"]), "advantage (points)": f"{_pts(fp['adv'])} [{_pts(fp['adv_lo'])}, {_pts(fp['adv_hi'])}]",
                     "p (Holm)": fmt_p(p_adj), "verdict": verdict})
    rep.table(rows, "The first player's results, by pairing (95% intervals; the verdict tests wins = losses, Holm over the pairings)")
    fig, ax = plt.subplots(figsize=(8.5, 0.45 * len(fps) + 1.2))
    for y, (label, fp) in enumerate(fps):
        w, d, lo = 100 * fp["win"].estimate, 100 * fp["draw"].estimate, 100 * fp["loss"].estimate
        ax.barh(y, w, color=PALETTE[0], label="first player wins" if y == 0 else None)
        ax.barh(y, d, left=w, color=PALETTE[7], label="draw" if y == 0 else None)
        ax.barh(y, lo, left=w + d, color=PALETTE[1], label="second player wins" if y == 0 else None)
        ax.errorbar(w, y, xerr=[[w - 100 * fp["win"].lo], [100 * fp["win"].hi - w]], color="k", capsize=3, lw=1)
    ax.axvline(50, color="k", ls=":", lw=1)
    ax.set_yticks(range(len(fps)), [lab for lab, _ in fps])
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of games (%)")
    ax.set_title("Who wins: the first player, nobody (turn cap), the second player")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=3)
    rep.figure(fig, "first-player", "Outcome shares by pairing; whiskers: 95% interval of the first player's win rate; dotted: 50%")
    heads = [fp for label, fp in fps if label in ("tactical vs tactical", "aggressive vs aggressive")]
    if heads:
        rep.summary = "; ".join(f"{label}: first player wins {pct(fp['win'])}" for label, fp in fps
                                if label in ("tactical vs tactical", "aggressive vs aggressive"))

    # -- 2. strength ladder ---------------------------------------------------------------------------
    rep.heading("Strength ladder")
    rep.text("Each pair of different bots, seats rotated, split by who moved first. A win rate above 50% means the row's bot "
             "is stronger; draws count as neither.")
    present = [b for b in BOT_ORDER if _cell(f, b).height or any(b in lab for lab, _ in pairings)]
    rows = []
    share = np.full((len(present), len(present)), np.nan)
    lad_p, lad_rows = [], []
    for i, a in enumerate(present):
        for j, b in enumerate(present):
            if i >= j:
                continue
            part = _cell(f, [a, b])
            if not part.height:
                part = _cell(f, [b, a])
            if not part.height:
                continue
            mine = part.filter(pl.col("bot") == a)
            n = mine.height
            wins = int(mine["won"].sum())
            losses = int(part.filter(pl.col("bot") == b)["won"].sum())
            first = mine.filter(pl.col("first"))
            second = mine.filter(~pl.col("first"))
            ci = wilson(wins, n)
            share[i, j] = 100 * ci.estimate
            share[j, i] = 100 * losses / n
            test = sps.binomtest(wins, wins + losses, 0.5) if wins + losses else None
            lad_p.append(test.pvalue if test else 1.0)
            lad_rows.append({"bot": a, "against": b, "games": f"{n:,}", "wins": pct(ci), "draws": pct(wilson(n - wins - losses, n)),
                             f"wins moving first": pct(wilson(int(first["won"].sum()), first.height)),
                             f"wins moving second": pct(wilson(int(second["won"].sum()), second.height))})
    for r, p_adj in zip(lad_rows, holm_adjusted(lad_p)):
        r["p (wins = losses, Holm)"] = fmt_p(p_adj)
        rows.append(r)
    rep.table(rows, "Win rate of each bot against each other bot, overall and by seat order (95% intervals)")
    if len(present) > 1:
        fig, ax = plt.subplots(figsize=(5.2, 4.2))
        im = ax.imshow(share, cmap="RdBu", vmin=0, vmax=100)
        for i in range(len(present)):
            for j in range(len(present)):
                if not np.isnan(share[i, j]):
                    ax.text(j, i, f"{share[i, j]:.0f}", ha="center", va="center", fontsize=10)
        ax.set_xticks(range(len(present)), present)
        ax.set_yticks(range(len(present)), present)
        ax.set_xlabel("opponent")
        ax.set_ylabel("bot")
        ax.grid(False)
        fig.colorbar(im, ax=ax, label="wins of the row's bot (%)")
        ax.set_title("Strength ladder")
        rep.figure(fig, "ladder", "Win rate (%) of the row's bot against the column's bot, seats rotated")

    # -- 3. what laser, ion cannon and repair are worth ------------------------------------------------------------
    rep.heading("What laser, ion cannon and repair are worth")
    rep.text("A bot that gives up one option plays the full bot, seats rotated, on the same seeds as the full bot's games "
             "against itself; its game-by-game result is compared with the full bot's in the same seat (paired). The "
             "difference is what the option is worth, in points of win rate. `laser-only` keeps the ion attack on a "
             "mothership (the only way to win) and gives up the ion cannon against UFOs.")
    rows, pv, plot = [], [], []
    for base in ("tactical", "search"):
        full = _cell(f, base)
        if not full.height:
            continue
        for opt, worth in (("laser-only", "ion cannon at UFOs"), ("ion-only", "lasers"), ("no-repair", "repair")):
            name = f"{base}:{opt}"
            part = _cell(f, [name, base])
            if not part.height:
                continue
            r = part.filter(pl.col("bot") == name).sort("game_index")
            n = r.height
            fb = full.filter((pl.col("seat") == pl.col("game_index") % 2 + 1) & (pl.col("game_index") < n)).sort("game_index")
            assert np.array_equal(r["game_index"].to_numpy(), fb["game_index"].to_numpy())
            pr = paired_binary(r["won"].to_numpy(), fb["won"].to_numpy())
            pv.append(pr.p_value)
            used = {"laser-only": "ions", "ion-only": "lasers", "no-repair": "repairs"}[opt]
            uses = fb[used].to_numpy()
            rows.append({"bot": base, "gives up": worth, "games": f"{n:,}", "restricted bot wins": pct(wilson(int(r["won"].sum()), n)),
                         "full bot wins (same seeds, same seat)": pct(wilson(int(fb["won"].sum()), n)),
                         "worth (points)": f"{_pts(-pr.estimate)} [{_pts(-pr.hi)}, {_pts(-pr.lo)}]",
                         f"full bot's uses per game": f"{uses.mean():.2f}", "p (McNemar)": pr.p_value})
            plot.append((f"{base}: {worth}", -100 * pr.estimate, -100 * pr.hi, -100 * pr.lo))
    for row, p_adj in zip(rows, holm_adjusted(pv)):
        row["p (Holm)"] = fmt_p(p_adj)
        row["p (McNemar)"] = fmt_p(row["p (McNemar)"])
    rep.table(rows, "Win rate lost by giving up one option (positive: the option helps); paired by seed, 95% intervals")
    if plot:
        fig, ax = plt.subplots(figsize=(7, 0.5 * len(plot) + 1.2))
        for y, (label, est, lo, hi) in enumerate(plot):
            ax.errorbar(est, y, xerr=[[est - lo], [hi - est]], fmt="o", color=PALETTE[y % 3], capsize=4)
        ax.axvline(0, color="k", ls=":", lw=1)
        ax.set_yticks(range(len(plot)), [p[0] for p in plot])
        ax.invert_yaxis()
        ax.set_xlabel("worth of the option (points of win rate)")
        ax.set_title("What each option is worth")
        rep.figure(fig, "options", "Points of win rate a bot loses without the option against the full bot (95% paired intervals)")
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
    for i, bot in enumerate(BOT_ORDER):
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
        "A larger run (10x the games per cell) would shrink every interval about 3x; the verdicts above that rest on "
        "intervals far from 0 would not change.",
    ])
    rep.heading("Compare variants yourself", 3)
    rep.code("simkit compare ufoo --bot tactical --set board=no-outliers --vs board= -n 40000\n"
             "simkit compare ufoo --bot tactical --set board=13-rows --vs board= -n 40000\n"
             "simkit compare ufoo --bot tactical --vs-bot tactical:no-repair -n 40000\n"
             "simkit sensitivity ufoo")
    rep.write(target)


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
    return f"{c.figure.fmt(c.default)} to {c.figure.fmt(c.value)} ({c.figure.fmt_change(c.diff)})"


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
                 "and moves the first player's edge between tactical bots from "
                 f"{_change(s, _adv_name('tactical'), 'no_target_ends_turn=True')}: a mothership can then be hit only "
                 "while some enemy UFO happens to stand 2 hexes from a friend.")
    notes.append("Without the four outlying asteroids the first player's advantage moves from "
                 f"{_change(s, _adv_name('tactical'), 'board=no-outliers')} with tactical bots and from "
                 f"{_change(s, _adv_name('aggressive'), 'board=no-outliers')} with aggressive bots; which of the outliers' effects "
                 "(longer paths, asteroid rolls beside them, blocked lines of fire) causes it was not isolated.")
    notes.append("With the belt's gaps at columns 1, 4 and 7 (side lanes one column farther out) the first player's "
                 f"advantage with tactical bots moves from {_change(s, _adv_name('tactical'), 'board=belt-1-4-7')}; on the "
                 "board two rows longer (launch hexes 10 steps apart instead of 8) from "
                 f"{_change(s, _adv_name('tactical'), 'board=13-rows')}, and the tactical games' length from "
                 f"{_change(s, 'tactical vs tactical: mean game length', 'board=13-rows')}.")
    return notes


def _together_section(rep: Report, f: pl.DataFrame) -> None:
    """A15 and A18 are the same phrase ("termina il movimento"), so the consistent other
    reading switches both; the sensitivity section switches them one at a time."""
    both = {"asteroid_check": "moved", "mothership_attack_from": "moved"}
    rows, pv = [], []
    for bot in ("tactical", "aggressive"):
        base = _games(_cell(f, bot))
        part = _cell(f, bot, **both)
        if not base.height or not part.height:
            continue
        for label, frame in (("default (A15/A18: every UFO)", _cell(f, bot)), ("A15 and A18: only UFOs that moved", part)):
            g = _games(frame)
            fp = _first_player(frame)
            per_game = frame.group_by("game_index").agg(pl.col("asteroid_damage").sum(), pl.col("volley_hits").sum())
            row = {"bot": bot, "reading": label, "games": f"{fp['n']:,}", "first player wins": pct(fp["win"]),
                   "advantage (points)": f"{_pts(fp['adv'])} [{_pts(fp['adv_lo'])}, {_pts(fp['adv_hi'])}]",
                   "mean turns": _mean_ci(g["turns"].to_numpy()),
                   "asteroid damage / game": _mean_ci(per_game["asteroid_damage"].to_numpy()),
                   "volley hits / game": _mean_ci(per_game["volley_hits"].to_numpy())}
            if frame is part:
                n = len(g)
                b0 = base.filter(pl.col("game_index") < n)
                pr = paired_binary((g["winner"] == g["first_seat"]).to_numpy(), (b0["winner"] == b0["first_seat"]).to_numpy())
                dt = paired_numeric(g["turns"].to_numpy().astype(float), b0["turns"].to_numpy().astype(float))
                pv.append(pr.p_value)
                row["first player wins vs default (points)"] = f"{_pts(pr.estimate)} [{_pts(pr.lo)}, {_pts(pr.hi)}]"
                row["turns vs default"] = f"{dt.estimate:+.2f} [{dt.lo:+.2f}, {dt.hi:+.2f}]"
                row["_p"] = pr.p_value
            rows.append(row)
    if not rows:
        return
    rep.heading("A15 and A18 read together")
    rep.text("A15 (asteroid rolls) and A18 (the ion attack on the enemy mothership) read the same phrase, \"termina il "
             "movimento\"; the rules document gives both the same default so that the phrase means one thing. The section "
             "above switches them one at a time; here both read \"only a UFO that moved\" (`asteroid_check=moved`, "
             "`mothership_attack_from=moved`), against the default on the same seeds (paired; Holm over the two bots).")
    adj = iter(holm_adjusted(pv))
    for row in rows:
        if "_p" in row:
            row["p (first player, Holm)"] = fmt_p(next(adj))
            del row["_p"]
    rep.table(rows, "Both readings switched together against the default, self-play, 95% intervals")
