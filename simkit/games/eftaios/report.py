"""The Escape From the Aliens balance report: maps x player counts x modes and scenarios,
Galilei's "perfect balance" per bot pairing (an equivalence test), survival curves, seat
order, the worth of each item, a ladder of bot strength, and how the headline figures move
with the readings of unclear rules (simkit/games/eftaios/sensitivity.py; experiments/eftaios.toml)."""

from __future__ import annotations

import numpy as np
import polars as pl
from scipy import stats as sps

from ...report import PALETTE, Report, fmt_p, pct, style
from ...stats import holm_adjusted, mean_interval, paired_binary, wilson

MAPS = ("galilei", "fermi", "galvani")
MAP_NAMES = {"galilei": "Galilei", "fermi": "Fermi", "galvani": "Galvani"}
MARGIN = 0.10  # equivalence margin on D = P(a human wins) - P(the aliens win)
PAIRINGS = {
    "random": "random / random",
    "heuristic:no-avoid": "heuristic, ignoring the aliens' reach / heuristic",
    "heuristic": "heuristic / heuristic",
    "heuristic:no-track": "heuristic / heuristic, ignoring the announcements",
    "search:humans": "search / heuristic",
    "search:aliens": "heuristic / search",
    "search": "search / search",
}
ITEMS = ("attack", "teleport", "adrenaline", "sedatives", "spotlight", "defence")
SHORT = {"random": "rand / rand", "heuristic:no-avoid": "heur (no avoid) / heur", "heuristic": "heur / heur",
         "heuristic:no-track": "heur / heur (no track)", "search:humans": "search / heur",
         "search:aliens": "heur / search", "search": "search / search"}
LADDER = ("random", "heuristic:no-track+no-avoid+no-bluff", "heuristic", "search", "search:budget=16")
LADDER_NAMES = {"random": "random", "heuristic:no-track+no-avoid+no-bluff": "heuristic, no skills",
                "heuristic": "heuristic", "search": "search (4 worlds)", "search:budget=16": "search (16 worlds)"}


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


def balance(games: pl.DataFrame) -> dict:
    """D = P(a human wins) - P(the aliens win) per game, its 95% and 90% intervals and the
    TOST verdict against the margin (both one-sided tests at 5%: the 90% interval inside)."""
    d = games["human_win"].cast(pl.Float64).to_numpy() - games["alien_win"].cast(pl.Float64).to_numpy()
    ci95 = mean_interval(d, 0.95)
    ci90 = mean_interval(d, 0.90)
    if ci90.lo > -MARGIN and ci90.hi < MARGIN:
        verdict = f"balanced: |D| < {MARGIN * 100:.0f} points"
    elif ci95.hi < 0:
        verdict = "favours the aliens"
    elif ci95.lo > 0:
        verdict = "favours the humans"
    else:
        verdict = "inconclusive"
    return {"D": ci95, "D90": ci90, "verdict": verdict}


def build(result, target) -> None:
    import matplotlib.pyplot as plt

    style()
    exp = result.experiment
    game = exp.game
    f = result.frame.with_columns(pl.col("bot").cast(pl.Utf8))
    if "scenario" not in f.columns:
        f = f.with_columns(pl.lit("none").alias("scenario"))
    rep = Report("Escape From the Aliens In Outer Space: balance report", game.slug)
    total = f.group_by("grid", "game_index", "map", "players", "mode", "scenario", "bot").len().height
    rep.text(
        f"Who wins *Escape From the Aliens In Outer Space* (black edition), by map, player count, mode and scenario; "
        f"whether Galilei is \"perfectly balanced between humans and aliens\" as the rulebook says; when humans escape or "
        f"die; whether seat order matters; what each item is worth; and how the balance moves as the bots get stronger. "
        f"{total:,} simulated games. Every rate has its 95% interval (Wilson for rates, t for means; paired comparisons: "
        f"Tango's interval and McNemar's test, Holm-corrected across items)."
    )
    rep.bullets([
        f"Reproduce: `simkit sweep {exp.path} --jobs 1` (about 6 minutes of one core, and about 8 more for the sensitivity "
        f"section's runs); runs are cached in `runs/sweeps/{exp.name}/` and `runs/sensitivity/eftaios/`.",
        "Rules as implemented, with every reading (A1-A29) and stand-in: [docs/rules/eftaios.md](../../docs/rules/eftaios.md). "
        "Defaults throughout: A1-A29 at their default readings, 39 rounds.",
        "Bots (each sees only its seat's observation: its own character, sector and cards, and the public announcements): "
        + "; ".join(f"`{k}`: {v.help}" for k, v in game.bots.items()) + ".",
        "A **pairing** is written humans' bot / aliens' bot. Seats are dealt sides at random (R1.3), so a pairing is a bot "
        "that plays one way as a human and another as an alien (`search:humans`, `search:aliens`, `heuristic:no-track`...).",
        "The numbers describe these bots on the modelled rules and data, not expert human play; the section \"How sure are "
        "these numbers\" measures which headline figures depend on which reading of an unclear rule.",
    ])

    base = f.filter(pl.col("grid") == 0)
    _headlines(rep, f)
    _map_section(rep, plt, base)
    _scenario_section(rep, f.filter(pl.col("grid") == 1))
    _balance_section(rep, plt, f.filter(pl.col("grid") == 2))
    _survival_section(rep, plt, f)
    _seat_section(rep, plt, f.filter(pl.col("grid") == 3))
    _item_section(rep, plt, f.filter(pl.col("grid") == 3), f.filter(pl.col("grid") == 4))
    _ladder_section(rep, plt, f.filter(pl.col("grid") == 5))
    sens = sensitivity_section(rep, result)
    _notes(rep, f, sens)
    rep.write(target)


# ---------------------------------------------------------------------------------------------
def _headlines(rep, f):
    rep.heading("Headlines")
    items = []
    bal = f.filter(pl.col("grid") == 2)
    for mode in ("basic", "advanced"):
        g = _games(_cell(bal, mode=mode, bot="heuristic", players=6))
        if g.height:
            b = balance(g)
            items.append(f"Galilei, 6 heuristic players, {mode} game: a human wins {_rate(g['human_win'])}, the aliens "
                         f"{_rate(g['alien_win'])}; D = {100 * b['D'].estimate:+.1f} points "
                         f"[{100 * b['D'].lo:+.1f}, {100 * b['D'].hi:+.1f}]: {b['verdict']}.")
    held = []
    for (mode, bot, n) in [(m, b, n) for m in ("basic", "advanced") for b in PAIRINGS for n in (4, 6, 8)]:
        g = _games(_cell(bal, mode=mode, bot=bot, players=n))
        if g.height and balance(g)["verdict"].startswith("balanced"):
            held.append(f"{PAIRINGS[bot]} ({mode}, {n})")
    items.append("The rulebook's \"perfectly balanced\" Galilei is balanced within 10 points of D only for "
                 + ("; ".join(held) + " (where both sides win most games)" if held else "no pairing")
                 + ": with capable bots on both sides the basic game "
                 "favours the humans (one escape among several humans wins) and the advanced game the aliens.")
    sf = _cell(f.filter(pl.col("grid") == 3), mode="advanced")
    if sf.height:
        h0 = sf.filter((pl.col("side") == 0) & (pl.col("order") == 1))["won"]
        h5 = sf.filter((pl.col("side") == 0) & (pl.col("order") == 6))["won"]
        items.append(f"Turn order: a human who plays first wins {_rate(h0)} of advanced games, one who plays last "
                     f"{_rate(h5)} (Galilei, 6 players): hatches are first come, first served.")
    items.append("Items: Adrenaline, Sedatives and Defence each add 1-3.5 points to a human's win rate; bluffing with "
                 "noises adds about 20; see the table for intervals.")
    lad = f.filter(pl.col("grid") == 5)
    if lad.height:
        d = {b: balance(_games(_cell(lad, mode="advanced", bot=b)))["D"].estimate for b in ("heuristic", "search")
             if _games(_cell(lad, mode="advanced", bot=b)).height}
        if len(d) == 2:
            items.append(f"Ladder: when both sides move from the heuristic to the searching bot, D moves from "
                         f"{100 * d['heuristic']:+.0f} to {100 * d['search']:+.0f} points in the advanced game: the "
                         f"search mostly strengthens the aliens.")
    rep.bullets(items)


def _map_section(rep, plt, base):
    rep.heading("Who wins, by map, player count and mode")
    rep.text("Heuristic bots at every seat. **Basic** game: the first human to reach a hatch wins alone, otherwise the "
             "aliens win (R7). **Advanced** game: every escaped human wins, and the aliens win when the last human aboard "
             "dies or time runs out, so both sides can win (R11). *Human win* = some human won; *escapes* and *humans "
             "killed* are per game.")
    rows = []
    for mode in ("basic", "advanced"):
        for m in MAPS:
            for n in sorted(base["players"].unique().to_list()):
                g = _games(_cell(base, mode=mode, map=m, players=n))
                if g.height == 0:
                    continue
                rows.append({"mode": mode, "map": MAP_NAMES[m], "players": n, "games": f"{g.height:,}",
                             "human win": _rate(g["human_win"]), "alien win": _rate(g["alien_win"]),
                             "escapes / game": _mean(g["escaped"]), "humans killed / game": _mean(g["humans_killed"]),
                             "rounds": _mean(g["rounds"], 1)})
    rep.table(rows, "Win rates and escapes with 95% intervals (heuristic bots)")
    fig, axes = plt.subplots(1, 2, figsize=(10.5, 3.8), sharey=True)
    for ax, mode in zip(axes, ("basic", "advanced")):
        for i, m in enumerate(MAPS):
            xs, ys, lo, hi = [], [], [], []
            for n in sorted(base["players"].unique().to_list()):
                g = _games(_cell(base, mode=mode, map=m, players=n))
                if g.height:
                    ci = wilson(int(g["human_win"].sum()), g.height)
                    xs.append(n + (i - 1) * 0.12)
                    ys.append(100 * ci.estimate)
                    lo.append(100 * (ci.estimate - ci.lo))
                    hi.append(100 * (ci.hi - ci.estimate))
            ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", ms=4, capsize=2, color=PALETTE[i], label=MAP_NAMES[m])
        ax.axhline(50, color="grey", ls=":", lw=1)
        ax.set_title(f"{mode} game")
        ax.set_xlabel("players")
        ax.set_ylabel("games won by a human (%)")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=3, bbox_to_anchor=(0.5, 1.04))
    rep.figure(fig, "maps", "Share of games a human wins, by map and player count (heuristic bots; bars: 95% intervals)")
    gal = _games(_cell(base, mode="advanced", map="galilei", players=6))
    if gal.height:
        rep.summary = (f"Galilei, 6 players, heuristic bots: a human wins {100 * gal['human_win'].mean():.1f}% of advanced games, "
                       f"the aliens {100 * gal['alien_win'].mean():.1f}%")


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
                             "human win": _rate(g["human_win"]), "alien win": _rate(g["alien_win"]),
                             "escapes / game": _mean(g["escaped"]),
                             "infected / game": _mean(g["infected"]) if scen == "infection" else ""})
    rep.table(rows, "Old Guard and Infection (advanced game, heuristic bots)")
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
    rep.table(rows, "Arena (threshold = the number of players; safe sectors closed, A22)")
    draws = {m: _games(_cell(sc, scenario="arena", map=m))["draw"] for m in MAPS
             if _games(_cell(sc, scenario="arena", map=m)).height}
    if draws:
        rep.text("In Arena the rulebook's threshold (\"as many as the number of players\") is "
                 + "; ".join(f"missed by every seat in {_rate(v)} of games on {MAP_NAMES[m]}" for m, v in draws.items())
                 + " (4, 6 and 8 players together)"
                 + ". Respawns make kills cheap where dangerous sectors connect the hatches; on Fermi (15 dangerous "
                 "sectors) closed safe sectors leave seats stuck on their hatches (A22, A28). The threshold is a setting "
                 "(`arena_kills`).")


def _balance_section(rep, plt, bal):
    rep.heading("Is Galilei \"perfectly balanced between humans and aliens\"?")
    rep.text(
        f"The rulebook: Galilei is \"perfeitamente equilibrada entre Humanos e Extraterrestres\", recommended for 4 to 8 "
        f"players. We measure **D = P(a human wins) - P(the aliens win)** per game (in the basic game exactly one side "
        f"wins, so D = 1 - 2 P(aliens win); in the advanced game both can win in the same game). The claim holds for a "
        f"pairing when an equivalence test (TOST, two one-sided tests at 5%) rules out |D| >= {MARGIN * 100:.0f} points, "
        f"i.e. the 90% interval of D lies inside (-{MARGIN * 100:.0f}, +{MARGIN * 100:.0f}); in the basic game this is a "
        f"side's win rate within 45-55%. A non-significant difference is not taken as balance.")
    rows = []
    verdicts = {}
    for mode in ("basic", "advanced"):
        for bot, name in PAIRINGS.items():
            for n in sorted(bal["players"].unique().to_list()):
                g = _games(_cell(bal, mode=mode, bot=bot, players=n))
                if g.height == 0:
                    continue
                b = balance(g)
                verdicts[(mode, bot, n)] = b
                rows.append({"mode": mode, "humans / aliens": name, "players": n, "games": f"{g.height:,}",
                             "human win": _rate(g["human_win"]), "alien win": _rate(g["alien_win"]),
                             "D (points)": f"{100 * b['D'].estimate:+.1f} [{100 * b['D'].lo:+.1f}, {100 * b['D'].hi:+.1f}]",
                             "90% interval": f"[{100 * b['D90'].lo:+.1f}, {100 * b['D90'].hi:+.1f}]",
                             "verdict": b["verdict"]})
    rep.table(rows, f"Galilei: D with its 95% interval, the 90% interval of the TOST and the verdict (margin {MARGIN * 100:.0f} points)")
    held = [f"{PAIRINGS[b]} ({mode}, {n} players)" for (mode, b, n), v in verdicts.items() if v["verdict"].startswith("balanced")]
    rep.text("In the advanced game D near 0 can also mean that *both* sides win most games (all but one human escape, "
             "the last one dies): read it with the two win rates beside it.")
    rep.text("**The claim holds** (|D| < 10 points shown) for: " + ("; ".join(held) if held else "no pairing") + ". "
             "Everywhere else the game is either shown to favour one side or the run cannot tell.")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, mode in zip(axes, ("basic", "advanced")):
        names = list(PAIRINGS)
        for i, n in enumerate(sorted(bal["players"].unique().to_list())):
            ys, xs, lo, hi = [], [], [], []
            for k, bot in enumerate(names):
                v = verdicts.get((mode, bot, n))
                if v is None:
                    continue
                xs.append(k + (i - 1) * 0.2)
                ys.append(100 * v["D"].estimate)
                lo.append(100 * (v["D"].estimate - v["D"].lo))
                hi.append(100 * (v["D"].hi - v["D"].estimate))
            ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", ms=4, capsize=2, color=PALETTE[i], label=f"{n} players")
        ax.axhspan(-100 * MARGIN, 100 * MARGIN, color="#2ca02c", alpha=0.12, label="equivalence margin")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels([SHORT[b] for b in names], rotation=35, ha="right", fontsize=8)
        ax.set_title(f"{mode} game")
        ax.set_ylabel("D = P(human wins) - P(aliens win), points")
    axes[1].legend(loc="lower right", fontsize=8)
    rep.figure(fig, "balance", "Galilei: D per pairing (humans / aliens) and player count, with 95% intervals; green band: the +-10-point margin")


def _survival_section(rep, plt, f):
    rep.heading("When humans escape or die")
    rep.text("Each human seat's fate and its round (advanced game, 6 players, heuristic bots unless stated). The curves are "
             "cumulative incidences of the competing fates: by round t, the share of humans who have escaped, been killed, "
             "or been stranded (every hatch closed, R10.4); those aboard after round 39 are eliminated by time (R11.4). "
             "There is no other censoring: every advanced game runs until no human is aboard or time is up.")
    base = f.filter((pl.col("grid") == 0) & (pl.col("mode") == "advanced") & (pl.col("players") == 6) & (pl.col("side") == 0))
    search = f.filter((pl.col("grid") == 2) & (pl.col("mode") == "advanced") & (pl.col("players") == 6) & (pl.col("side") == 0)
                      & (pl.col("bot") == "search"))
    rounds = np.arange(0, 40)
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.9), sharey=True)
    rows = []
    curves = [(MAP_NAMES[m], _cell(base, map=m), PALETTE[i], "-") for i, m in enumerate(MAPS)]
    curves.append(("Galilei, search bots", search, PALETTE[3], "--"))
    for label, part, colour, ls in curves:
        if part.height == 0:
            continue
        fate = part["fate"].to_numpy()
        fr = part["fate_round"].to_numpy()
        n = len(fate)
        esc = np.array([np.mean((fate == 1) & (fr <= t)) for t in rounds])
        die = np.array([np.mean((fate == 2) & (fr <= t)) for t in rounds])
        axes[0].step(rounds, 100 * esc, where="post", color=colour, ls=ls, label=label)
        axes[1].step(rounds, 100 * die, where="post", color=colour, ls=ls, label=label)
        esc_r = fr[fate == 1]
        die_r = fr[fate == 2]
        rows.append({"": label, "humans": f"{n:,}", "escaped": _rate(fate == 1), "killed": _rate(fate == 2),
                     "stranded": _rate(fate == 3), "time": _rate(fate == 4),
                     "median round of escape": f"{np.median(esc_r):.0f}" if len(esc_r) else "-",
                     "median round of death": f"{np.median(die_r):.0f}" if len(die_r) else "-"})
    axes[0].set_title("escaped by round t")
    axes[1].set_title("killed by round t")
    for ax in axes:
        ax.set_xlabel("round")
        ax.set_xlim(0, 39)
    axes[0].set_ylabel("share of human seats (%)")
    axes[0].legend(loc="upper left")
    rep.figure(fig, "survival", "Cumulative incidence of escape and of death by round (human seats, advanced game, 6 players)")
    rep.table(rows, "Fates of the human seats, with 95% intervals")


def _seat_section(rep, plt, sf):
    rep.heading("Does seat order matter?")
    rep.text("Galilei, 6 players, heuristic bots, seats rotated. The first player is drawn at random (R1.5) and sides are "
             "dealt at random, so the position in the turn order (1 = first player) is independent of the side. A human "
             "seat wins alone (it escapes); an alien seat wins with its team, so for aliens the order effect is the team's.")
    for mode in ("advanced", "basic"):
        part = _cell(sf, mode=mode)
        if part.height == 0:
            continue
        rows = []
        table = []
        for side, name in ((0, "human"), (1, "alien")):
            row = {"side": name}
            wins = []
            for o in range(6):
                cell = part.filter((pl.col("side") == side) & (pl.col("order") == o + 1))
                row[f"order {o + 1}"] = _rate(cell["won"])
                wins.append((int(cell["won"].sum()), cell.height - int(cell["won"].sum())))
            chi2, p, _, _ = sps.chi2_contingency(np.array(wins))
            row["chi-square p"] = fmt_p(p)
            first = part.filter((pl.col("side") == side) & (pl.col("order") == 1))["won"].to_numpy().astype(float)
            last = part.filter((pl.col("side") == side) & (pl.col("order") == 6))["won"].to_numpy().astype(float)
            dif = first.mean() - last.mean()
            se = np.sqrt(first.var() / len(first) + last.var() / len(last))
            row["first - last (points)"] = f"{100 * dif:+.1f} [{100 * (dif - 1.96 * se):+.1f}, {100 * (dif + 1.96 * se):+.1f}]"
            rows.append(row)
            table.append(wins)
        rep.table(rows, f"{mode} game: win rate by position in the turn order, 95% intervals; chi-square test of equal rates")
        if mode == "advanced":
            rep.text("Turn order matters a great deal to humans, because hatches are first come, first served: in the "
                     "basic game the first human to arrive wins alone, and humans walking equally long paths arrive in "
                     "the same round, in turn order; in the advanced game each hatch lets one human out (green) or none "
                     "(red), so the late humans find the hatches closed and must cross the ship again. For aliens (a team) "
                     "the order barely matters.")
        if mode == "advanced":
            fig, ax = plt.subplots(figsize=(6.5, 3.6))
            for k, (side, name) in enumerate(((0, "human seats"), (1, "alien seats"))):
                xs, ys, lo, hi = [], [], [], []
                for o in range(6):
                    cell = part.filter((pl.col("side") == side) & (pl.col("order") == o + 1))
                    ci = wilson(int(cell["won"].sum()), cell.height)
                    xs.append(o + 1 + (k - 0.5) * 0.15)
                    ys.append(100 * ci.estimate)
                    lo.append(100 * (ci.estimate - ci.lo))
                    hi.append(100 * (ci.hi - ci.estimate))
                ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", ms=4, capsize=2, color=PALETTE[k], label=name)
            ax.set_xlabel("position in the turn order (1 = first player)")
            ax.set_ylabel("win rate (%)")
            ax.legend(loc="center right")
            rep.figure(fig, "seats", "Win rate by turn order (Galilei, 6 players, advanced game), 95% intervals")


def _item_section(rep, plt, basef, items):
    if items.height == 0:
        return
    rep.heading("What each item is worth")
    rep.text("Every seat plays the heuristic, but in one run nobody ever uses a given item (or never bluffs with a noise in "
             "any sector). Both runs play the same seeds, so game i deals the same characters and the same cards until play "
             "diverges; each human seat is compared with itself (paired by seed and seat). The worth of an item is the "
             "human's win rate with it minus without it (Tango interval, McNemar test, Holm across the seven); the alien "
             "side's win rate is compared the same way per game. Aliens never use items (R8.4), so the restriction "
             "touches the humans only (bluffing: both sides).")
    b = basef.filter(pl.col("mode") == "advanced").sort("game_index", "seat")
    rows = []
    ps = []
    res = []
    for opt in ITEMS + ("bluff",):
        bot = f"heuristic:no-{opt}"
        r = items.filter(pl.col("bot") == bot).sort("game_index", "seat")
        n = min(r["game_index"].n_unique(), b["game_index"].n_unique())
        bb = b.filter(pl.col("game_index") < n)
        rr = r.filter(pl.col("game_index") < n)
        hum = (bb["side"] == 0).to_numpy()
        assert np.array_equal(hum, (rr["side"] == 0).to_numpy())
        pb = paired_binary(bb["won"].to_numpy()[hum], rr["won"].to_numpy()[hum])
        ga, gr = _games(bb), _games(rr)
        pa = paired_binary(ga["alien_win"].to_numpy(), gr["alien_win"].to_numpy())
        col = f"used_{opt}" if opt != "bluff" else "bluffs"
        uses = bb[col].to_numpy()[hum].mean()
        ps.append(pb.p_value)
        res.append((opt, pb, pa, uses, n))
    adj = holm_adjusted(ps)
    for (opt, pb, pa, uses, n), p in zip(res, adj):
        bound = max(abs(pb.lo), abs(pb.hi))
        rows.append({"item": opt, "uses per human per game": f"{uses:.2f}",
                     "human win with - without (points)": f"{100 * pb.estimate:+.2f} [{100 * pb.lo:+.2f}, {100 * pb.hi:+.2f}]",
                     "Holm p": fmt_p(p),
                     "reading": ("hardly ever used by this bot: not measured" if uses < 0.02
                                 else f"worth {100 * pb.estimate:+.1f} points" if p < 0.05
                                 else f"no effect shown; above {100 * bound:.1f} points ruled out"),
                     "alien win with - without (points)": f"{100 * pa.estimate:+.2f} [{100 * pa.lo:+.2f}, {100 * pa.hi:+.2f}]",
                     "games": f"{n:,}"})
    rep.table(rows, "Worth of each item to a human seat (Galilei, 6 players, advanced game, paired by seed and seat)")
    rep.text("These are the worths **to this bot**: an item the heuristic uses rarely (Teleport, Attack) cannot show its "
             "worth here, and a better use policy could make any item worth more. Bluffing (naming a sector away from "
             "one's own on a noise in any sector) is by far the most valuable skill: a human who always tells the truth "
             "gives its position away on every noise.")
    fig, ax = plt.subplots(figsize=(7.5, 3.6))
    ys = np.arange(len(res))
    est = [100 * r[1].estimate for r in res]
    lo = [100 * (r[1].estimate - r[1].lo) for r in res]
    hi = [100 * (r[1].hi - r[1].estimate) for r in res]
    ax.errorbar(est, ys, xerr=[lo, hi], fmt="o", capsize=3, color=PALETTE[0])
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(ys)
    ax.set_yticklabels([r[0] for r in res])
    ax.set_xlabel("human seat's win rate: with the item minus without (points)")
    rep.figure(fig, "items", "What each item (and bluffing) is worth to a human, 95% intervals")


def _ladder_section(rep, plt, lad):
    if lad.height == 0:
        return
    rep.heading("Does the balance hold as the bots get stronger?")
    rep.text("Both sides at the same level, Galilei, 6 players: random; the heuristic without its skills (aliens ignore "
             "the announcements, humans ignore the aliens' reach, nobody bluffs); the heuristic; the searching bot with 4 and "
             "16 sampled worlds per contested move. The searching bot is stronger as an alien than the heuristic (its "
             "samples put humans on their way to a hatch), and no stronger as a human (it keeps the heuristic's move unless "
             "the rollouts show it clearly safer): the ladder therefore shows what happens when the aliens' play improves "
             "faster than the humans'.")
    rows = []
    fig, ax = plt.subplots(figsize=(7.5, 3.8))
    for k, mode in enumerate(("basic", "advanced")):
        xs, ys, lo, hi = [], [], [], []
        for i, bot in enumerate(LADDER):
            g = _games(_cell(lad, mode=mode, bot=bot))
            if g.height == 0:
                continue
            b = balance(g)
            rows.append({"mode": mode, "level": LADDER_NAMES[bot], "games": f"{g.height:,}", "human win": _rate(g["human_win"]),
                         "alien win": _rate(g["alien_win"]), "escapes / game": _mean(g["escaped"]),
                         "D (points)": f"{100 * b['D'].estimate:+.1f} [{100 * b['D'].lo:+.1f}, {100 * b['D'].hi:+.1f}]",
                         "verdict": b["verdict"]})
            xs.append(i + (k - 0.5) * 0.12)
            ys.append(100 * b["D"].estimate)
            lo.append(100 * (b["D"].estimate - b["D"].lo))
            hi.append(100 * (b["D"].hi - b["D"].estimate))
        ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", ms=4, capsize=2, color=PALETTE[k], label=f"{mode} game")
    ax.axhspan(-100 * MARGIN, 100 * MARGIN, color="#2ca02c", alpha=0.12)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xticks(range(len(LADDER)))
    ax.set_xticklabels([LADDER_NAMES[b] for b in LADDER], fontsize=8)
    ax.set_ylabel("D = P(human wins) - P(aliens win), points")
    ax.legend(loc="lower right")
    rep.table(rows, "The ladder: both sides at the same level (Galilei, 6 players), 95% intervals")
    rep.figure(fig, "ladder", "Balance D along the ladder of bot strength (green band: the +-10-point margin)")


def sensitivity_section(rep, result):
    """How the headline figures move under the other readings of unclear rules (when the
    experiment file asks for it: ``sensitivity = GAMES``)."""
    from ...sensitivity import section_for_report
    from .sensitivity import TORNADO

    return section_for_report(rep, result, list(TORNADO))


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
        "moves when one side plays better.",
        "**Left out of the grid** (to keep it to a few minutes): scenarios on the basic game (A27, in the sensitivity section "
        "only), the searching bot on Fermi and Galvani and at 16 worlds beyond the ladder, 16 players (two boxes; the "
        "contract has 8 seats). A run 10 times larger would shrink every interval about 3 times; the verdicts at the margin "
        "(a few cells are inconclusive) would then be settled one way or the other.",
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
