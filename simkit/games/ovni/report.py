"""The O.V.N.I. balance report's own sections (simkit.report.compose puts the answers to
simkit/games/ovni/questions.py first): the evidence for the seats and the ability cards,
each card switched off in the same games, the mission cards and the value of keeping one
mission or two, where the points come from, game length, how the conclusions move with
bot strength, and how sure they are: each reading of an unclear rule and the stand-in
routes switched on its own (simkit/games/ovni/sensitivity.py).

Every cell of the experiment plays the same seeded games (game i deals the same
planets, cards, humans and missions everywhere), so a variant is compared with the
reference game by game: the paired differences are much sharper than two separate
samples would give.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import polars as pl

from ...questions import EQUIVALENT, NOT_SHOWN, SHOWN, Answer, Payoff, fmt_p
from ...report import PALETTE, Report, pct, rules_link, style
from ...stats import clustered_mean, holm_adjusted, mean_interval, paired_numeric, wilson
from .questions import HEADLINE, QUESTIONS, ShareEffect

CATEGORIES = ("majorities", "ufos", "airspace", "mapping", "humans", "missions")
ACTIVE = {"swap_human": "no-swap", "extra_moves": "no-extra", "abduct_without_majority": "no-nomajority",
          "six_twice": "no-six-twice", "force_field": "no-shield"}
BLANKABLE = ("mapping_worth_4", "ufo_worth_3", "three_starting_aliens")
REFERENCE = HEADLINE["table"]
STRENGTH = ("random", "greedy", REFERENCE, "search")  # weakest to strongest
Q = {q.id: q for q in QUESTIONS}
# The columns build() reads beyond its questions' and the settings (simkit.report.compose reads only these;
# tests/test_questions.py checks that every column build() names is declared here).
READS = ("areas_unclaimed", "capped", "end_class", "humans", "mission_1", "mission_2", "mission_1_done", "mission_2_done",
         "mission_1_card", "mission_2_card", "missions_done", "missions_kept", "reshuffles", "rounds", "score",
         *(f"points_{c}" for c in CATEGORIES))
MIN_KEPT = 30  # a mission's payoff from fewer holders rests on a handful of games: its robust interval is not to be trusted


def _mean(part: pl.DataFrame, column: str, digits: int = 2) -> str:
    """Mean per seat with a 95% interval clustered by game (the seats of one game are not independent)."""
    if not part.height:
        return "n/a"
    m = clustered_mean(part[column].to_numpy().astype(np.float64), part["game_index"].to_numpy())
    return f"{m.estimate:.{digits}f} [{m.lo:.{digits}f}, {m.hi:.{digits}f}]"


def _game_mean(values, digits: int = 2) -> str:
    """Mean of one value per game with its t interval."""
    m = mean_interval(np.asarray(values, dtype=np.float64))
    return f"{m.estimate:.{digits}f} [{m.lo:.{digits}f}, {m.hi:.{digits}f}]"


def _rate(hits) -> str:
    hits = np.asarray(hits)
    return pct(wilson(int(hits.sum()), int(hits.size)))


def _ours(rep: Report, qid: str) -> list[Answer]:
    return [a for a in rep.answers if a.question == qid]


def _item(label: str) -> str:
    """'ability card six_twice (held 26,669 times, raw 47.7%)' -> 'six_twice'."""
    return label.split(" (")[0].rsplit(" ", 1)[-1]


def _default_files(f: pl.DataFrame) -> pl.DataFrame:
    return f.filter((pl.col("decks") == "") & (pl.col("board") == ""))


def build(result, rep: Report) -> None:
    import matplotlib.pyplot as plt

    style()
    f = result.frame.with_columns(pl.col("bot").cast(pl.Utf8), pl.col("table").cast(pl.Utf8))
    game = result.experiment.game
    rep.headline_figure = "abilities"
    rep.bullets([
        "Rules as implemented, every reading and every stand-in: " + rules_link(result, "ovni.md") + ".",
        "**Many components are stand-ins** (the 12th city, the route lines, the city numbers, the mission cards' "
        "parameters, the ability names, three human colours, the planet distances): numbers that depend on them are "
        "flagged below; the method carries over to the real components by editing `simkit/games/ovni/data/`.",
        "Bots: " + "; ".join(f"`{k}`: {v.help}" for k, v in game.bots.items()) + ".",
        "A shared win counts 1/k for each of the k winners (win share). Intervals are 95%; means per seat are clustered "
        "by game (the seats of one game are not independent); many tests at once are controlled with Holm's method.",
    ])
    ref = f.filter(pl.col("grid") == HEADLINE["grid"]).filter(pl.col("table") == REFERENCE)
    if not ref.height:
        return
    players_list = sorted(ref["players"].unique().to_list())

    # -- 1. seats ----------------------------------------------------------------------------
    seats = _ours(rep, "seat_fairness")
    if seats:
        rep.heading("Seat advantage")
        rep.text("The strategic bot at every seat. Seat 1 places the first UFO (Sao Paulo), keeps its missions and "
                 "chooses its starting aliens first; the turn orders of both phases then follow the aliens held (R3, R8), "
                 "so no seat keeps the lead by rule. What seat 1 does get is the first choice of starting aliens, and "
                 "no later seat may repeat its pair (R1.11): it takes the start that leads round 1's phase-1 order "
                 "(a Builder and a Military, which no other pair outranks), and the bots value that lead highly "
                 "(tuned head to head, see strategies/ovni/strategic.py). How large the edge is depends on how well "
                 "the players choose their starts: see the bot-strength section.")
        for a in seats:
            rep.evidence(a)
        fig, ax = plt.subplots(figsize=(6.4, 3.4))
        for i, a in enumerate(seats):
            xs = np.arange(1, len(a.estimates) + 1) + (i - 1) * 0.2
            ax.errorbar(xs, [100 * e.estimate for e in a.estimates], fmt="o", capsize=3, color=PALETTE[i],
                        yerr=[[100 * (e.estimate - e.lo) for e in a.estimates], [100 * (e.hi - e.estimate) for e in a.estimates]],
                        label=f"{a.group.get('players', '')} players")
        margin = 100 * Q["seat_fairness"].margin
        ax.axhspan(-margin, margin, color="0.9", zorder=0, label=f"±{margin:.0f} points")
        ax.axhline(0, color="k", lw=0.8)
        ax.set_xticks([1, 2, 3, 4])
        ax.set_xlabel("seat (1 = first to place a UFO and choose aliens)")
        ax.set_ylabel("win share minus fair share (points)")
        ax.set_title("Seat advantage, strategic bot")
        ax.legend(ncols=2, fontsize=8)
        rep.figure(fig, "seats", "Each seat's win share minus the fair share, by player count, 95% intervals (grey: the ±margin "
                                 "within which the seats count as fair)")

    _abilities(rep, f, ref, players_list)
    _missions(rep, f, ref, players_list)

    # -- 4. points -------------------------------------------------------------------------------
    rep.heading("Where the points come from")
    rows, top = [], []
    for n in players_list:
        part = ref.filter(pl.col("players") == n)
        rows.append({"players": n, "score": _mean(part, "score", 1),
                     **{c: _mean(part, f"points_{c}", 1) for c in CATEGORIES},
                     "winners' score": _mean(part.filter(pl.col("won")), "score", 1)})
        games = part.group_by("game_index").agg([(pl.col(f"points_{c}").sort_by("score").last() - pl.col(f"points_{c}").mean()).alias(c)
                                                 for c in CATEGORIES])
        top.append({"players": n, **{c: _game_mean(games[c], 1) for c in CATEGORIES}})
    rep.table(rows, "Mean points per seat by scoring category (R15), strategic bot; the categories add up to the score (95% "
                    "intervals clustered by game)")
    rep.table(top, "What the top scorer has more than the table's average, per category (what wins games; 95% intervals over games)")
    _points_figure(rep, _default_files(f), players_list)

    # -- 5. length -------------------------------------------------------------------------------
    rep.heading("Game length")
    len_rows = []
    fig, ax = plt.subplots(figsize=(7, 3.4))
    for i, n in enumerate(players_list):
        g = ref.filter((pl.col("players") == n) & (pl.col("seat") == 1))
        r = g["rounds"].to_numpy()
        ends = g["end_class"].value_counts().sort("end_class")
        len_rows.append({"players": n, "games": f"{len(r):,}", "rounds (mean)": _game_mean(r),
                         "5%-95%": f"{int(np.percentile(r, 5))}-{int(np.percentile(r, 95))}",
                         "capped at max_rounds": _rate(g["capped"].to_numpy()),
                         "deck reshuffles": _game_mean(g["reshuffles"]), "areas unclaimed per game": _game_mean(g["areas_unclaimed"]),
                         "class that ran out": ", ".join(f"{e} {pct(wilson(c, len(r)))}" for e, c in ends.iter_rows())})
        ax.hist(r, bins=np.arange(r.min(), r.max() + 2) - 0.5, histtype="step", lw=1.6, density=True, color=PALETTE[i],
                label=f"{n} players")
    ax.set_xlabel("rounds played")
    ax.set_ylabel("share of games")
    ax.set_title("Game length, strategic bot")
    ax.legend()
    rep.table(len_rows, "Rounds per game (the game ends after the round in which a class of aliens runs out, R14; 95% intervals)")
    rep.figure(fig, "length", "Distribution of the number of rounds")

    _strength(rep, f, players_list)

    # -- 7. how sure: the readings and the stand-in routes ------------------------------------------
    from ...sensitivity import section_for_report
    from .sensitivity import TORNADO

    section_for_report(rep, result, list(TORNADO))
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
        "another mix, `decks=mixed_aliens`) as well as on A5 (`reshuffle`): a 4-player game uses the 16 cards in 4 rounds.",
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


def _payoff_table(pooled: Answer, by_count: list[Answer], name: str) -> list[dict]:
    """One row per item, best payoff first: the pooled payoff and the payoff at each player count."""
    rows = []
    for rank, e in enumerate(sorted(pooled.estimates, key=lambda e: -e.estimate), 1):
        row = {"rank": rank, name: _item(e.label), "all player counts": e.text() + (" *" if e.verdict == SHOWN else "")}
        for a in by_count:
            got = [x for x in a.estimates if _item(x.label) == _item(e.label)]
            row[f"{a.group.get('players')} players"] = (got[0].text() + (" *" if got[0].verdict == SHOWN else "")) if got else ""
        rows.append(row)
    return rows


def _abilities(rep: Report, f: pl.DataFrame, ref: pl.DataFrame, players_list: list[int]) -> None:
    import matplotlib.pyplot as plt

    pooled = _ours(rep, "abilities")
    if not pooled:
        return
    rep.heading("Ability cards")
    rep.text("Each seat holds two of the ten cards (nine with 2 players: the force field is removed, A21). Two views. "
             "(a) **Payoff**: the win share of a seat holding a card minus that of a seat holding an average card, adjusted "
             "for the seat, the player count and the other card the seat holds (a seat without a given card is about twice "
             "as likely to hold the dominant three-starting-aliens card as a seat with it, so holders are not compared "
             "with non-holders). (b) **Switched off**: the same games replayed with the card's effect switched off for its "
             "holder, by a bot that never uses it (cards one chooses to use) or by a decks file where the card is blank "
             "(cards that act by themselves); (b) isolates the card's effect, but the prebuilt UFO and map-with-two cards "
             "cannot be blanked (their numbers have no neutral value), so only (a) is available for them.")
    rep.evidence(pooled[0])
    by_count = dataclasses.replace(Q["abilities"], by=("players",)).answers(ref)
    if by_count:
        rep.table(_payoff_table(pooled[0], by_count, "ability card"),
                  "Ability cards ranked by their payoff (all player counts, adjusted), and the same question asked at each "
                  "player count (points of win share against an average card, 95% intervals; * shown at 5%, Holm over the cards)")
    fig, ax = plt.subplots(figsize=(7.5, 0.45 * len(pooled[0].estimates) + 1.4))
    order = sorted(pooled[0].estimates, key=lambda e: e.estimate)  # best card on top
    cards = [_item(e.label) for e in order]
    for i, a in enumerate(by_count):
        got = {_item(e.label): e for e in a.estimates}
        es = [(k, got[c]) for k, c in enumerate(cards) if c in got]
        ax.errorbar([100 * e.estimate for _, e in es], [k + 0.14 * (i - 1) - 0.3 for k, _ in es], fmt=".", ms=4, lw=0.8,
                    capsize=1.5, color=PALETTE[i], label=f"{a.group.get('players')} players",
                    xerr=[[100 * (e.estimate - e.lo) for _, e in es], [100 * (e.hi - e.estimate) for _, e in es]])
    ax.errorbar([100 * e.estimate for e in order], range(len(order)), fmt="o", color="k", capsize=3, label="all (adjusted)",
                xerr=[[100 * (e.estimate - e.lo) for e in order], [100 * (e.hi - e.estimate) for e in order]])
    ax.axvline(0, color="k", lw=0.8, ls=":")
    ax.set_yticks(range(len(cards)), cards)
    ax.set_xlabel("win share minus an average card's (points)")
    ax.set_title("Payoff of each ability card (adjusted for seat, player count and the other card)")
    ax.legend(loc="lower right", fontsize=8)
    rep.figure(fig, "abilities", "Payoff of each ability card: the win share of a seat holding it minus a seat holding an "
                                 "average card, adjusted for seat, player count and the other card held, 95% intervals; best on top")

    # (b) switched off, game by game
    switched = []
    for n in players_list:
        base = ref.filter(pl.col("players") == n)
        for card in sorted(set(base["ability_1"].unique().to_list()) | set(base["ability_2"].unique().to_list())):
            if card in ACTIVE:
                label = f"{REFERENCE}:{ACTIVE[card]}"
                variant = _default_files(f).filter((pl.col("players") == n) & (pl.col("table") == label))
                how = f"bot `{label}`"
            elif card in BLANKABLE:
                variant = f.filter((pl.col("players") == n) & (pl.col("table") == REFERENCE)
                                   & pl.col("decks").cast(pl.String).str.contains(f"blank-{card}", literal=True))
                how = "blank card"
            else:
                continue
            holders = base.filter((pl.col("ability_1") == card) | (pl.col("ability_2") == card))
            if variant.height < 2 or holders.height < 2:
                continue
            effect = ShareEffect(label=f"the card {card}", metric="the holder's win share", id="switched_off",
                                   title="What is each card worth to its holder, game by game?")
            a = effect.answer(variant.select("game_index", "seat", pl.col("win_share").alias(effect.metric)),
                              holders.select("game_index", "seat", pl.col("win_share").alias(effect.metric)), {"players": n})
            switched.append((n, card, how, a))
    if not switched:
        return
    rep.heading("Each card switched off, game by game", 3)
    rep.text("The holder's win share with the card minus the same seat in the same games with the card switched off "
             "(Tango's paired interval; a paired t interval where a shared win occurs), Holm over every card and player count.")
    adj = holm_adjusted([a.estimates[0].p for *_, a in switched])
    rows = []
    for (n, card, how, a), p in zip(switched, adj):
        e = a.estimates[0]
        rows.append({"players": n, "card": card, "switched off by": how, "holders": f"{e.n:,}", "effect of the card": e.text(),
                     "p (Holm)": fmt_p(float(p)),
                     "verdict": ("helps" if e.estimate > 0 else "hurts") if p < 0.05 else ("within ±2 points" if a.verdict == EQUIVALENT else "not shown")})
    rep.table(rows, "The card's effect on its holder's win share (points, 95% intervals), the same games with and without it")
    fig, ax = plt.subplots(figsize=(7.5, 0.3 * len(switched) + 1.2))
    for i, (n, card, _, a) in enumerate(switched):
        e = a.estimates[0]
        ax.errorbar(100 * e.estimate, i, xerr=[[100 * (e.estimate - e.lo)], [100 * (e.hi - e.estimate)]], fmt="o", capsize=2,
                    color=PALETTE[players_list.index(n)])
    ax.axvline(0, color="k", lw=1, ls=":")
    ax.set_yticks(range(len(switched)), [f"{card} ({n}p)" for n, card, *_ in switched])
    ax.set_xlabel("the holder's win share with the card minus without (points)")
    ax.set_title("What each card is worth to its holder (same games)")
    ax.invert_yaxis()
    rep.figure(fig, "switched-off", "Effect of each card on its holder's win share, the same games with the card switched off, "
                                    "95% intervals (colours: 2, 3, 4 players)")


def _missions(rep: Report, f: pl.DataFrame, ref: pl.DataFrame, players_list: list[int]) -> None:
    import matplotlib.pyplot as plt

    rep.heading("Missions")
    rep.text("Each seat is dealt three mission cards and keeps one or two (R1.10); a kept mission scores +8 if "
             "completed at the end, -5 if not. The strategic bot keeps a second mission when its estimated chance "
             "(by kind and player count, calibrated on these games) beats 5/13. **The mission parameters are stand-ins** "
             "(four cards of each kind, reference 1.3 c): card-by-card numbers describe these stand-ins. A mission's payoff "
             "is the win share of a seat keeping it minus that of a seat keeping an average mission, adjusted for the seat "
             "and the other mission kept; the seats choose what they keep, so it describes the bot's choices as well as the card.")
    long = pl.concat([ref.select("players", "game_index", pl.col(f"mission_{k}").alias("mission"), pl.col(f"mission_{k}_done").alias("done"))
                      for k in (1, 2)]).filter(pl.col("mission") != "")
    answers, rare = {}, []
    for n in players_list:
        kept = long.filter(pl.col("players") == n).group_by("mission").len()
        few = tuple(sorted(kept.filter(pl.col("len") < MIN_KEPT)["mission"].to_list()))
        payoff = Payoff(id="missions", title="Which kept mission cards pay?", items=("mission_1", "mission_2"), item_name="mission",
                        value="win_share", skip=("", *few))
        a = payoff.answer_group(ref.filter(pl.col("players") == n), {"players": n}) if payoff.applies(ref) else None
        if a is not None:
            answers[n] = a
        rare += [f"{', '.join(few)} with {n} players"] if few else []
    rep.bullets([a.sentence for a in answers.values()]
                + ([f"No payoff (kept fewer than {MIN_KEPT} times): {'; '.join(rare)}."] if rare else []))
    rows, plot = [], {}
    for n in players_list:
        part = long.filter(pl.col("players") == n)
        est = {_item(e.label): e for e in answers[n].estimates} if n in answers else {}
        for m in sorted(part["mission"].unique().to_list()):
            done = part.filter(pl.col("mission") == m)["done"].to_numpy()
            ci = wilson(int(done.sum()), done.size)
            e = est.get(m)
            rows.append({"players": n, "mission": m, "kept by": f"{done.size:,}", "completed": pct(ci),
                         # +8 completed, -5 not: the completion rate's Wilson interval, valid for any number kept
                         # (a t interval printed [-inf, inf] for one holder and [-5.0, -5.0] for three who all failed)
                         "net points": f"{-5 + 13 * ci.estimate:.1f} [{-5 + 13 * ci.lo:.1f}, {-5 + 13 * ci.hi:.1f}]",
                         "payoff (win share, adjusted)": (e.text() + (" *" if e.verdict == SHOWN else "")) if e else ""})
            plot.setdefault(n, []).append((m, ci))
    rep.table(rows, "Each mission card when kept: completion rate, net points (+8 / -5) and its payoff (points of win share "
                    "against an average kept mission; 95% intervals; * shown, Holm over the missions of a player count)")
    fig, ax = plt.subplots(figsize=(9, 3.8))
    ids = sorted({m for n in players_list for m, _ in plot.get(n, [])})
    for i, n in enumerate(players_list):
        ms = plot.get(n, [])
        ax.bar(np.array([ids.index(m) for m, _ in ms]) + (i - 1) * 0.25, [100 * c.estimate for _, c in ms], width=0.24,
               yerr=[[max(0.0, 100 * (c.estimate - c.lo)) for _, c in ms], [max(0.0, 100 * (c.hi - c.estimate)) for _, c in ms]], capsize=1.5,
               color=PALETTE[i], label=f"{n} players")
    ax.set_xticks(np.arange(len(ids)), ids)
    ax.axhline(100 * 5 / 13, color="k", ls=":", lw=1)
    ax.set_ylim(0, 100)
    ax.set_ylabel("completed (%)")
    ax.set_title("Mission completion when kept (dotted: 5/13, where keeping breaks even)")
    ax.legend(loc="upper left")
    rep.figure(fig, "missions", "Completion rate of each kept mission card by player count, 95% intervals")

    rep.table([{"players": n, "keeps two": _rate(p["missions_kept"].to_numpy() == 2),
                "missions completed per seat": _mean(p, "missions_done"), "mission points per seat": _mean(p, "points_missions")}
               for n in players_list for p in [ref.filter(pl.col("players") == n)]],
              "How often the strategic bot keeps two missions, and what missions bring it (95% intervals)")
    forced = []
    for n in players_list:
        base = ref.filter(pl.col("players") == n)
        for opt, words in (("one-mission", "one"), ("two-missions", "two")):
            var = f.filter((pl.col("players") == n) & (pl.col("bot") == f"{REFERENCE}:{opt}"))
            if var.height < 2:
                continue
            effect = ShareEffect(label=f"always keeping {words} mission{'s' if words == 'two' else ''}", metric="the seat's win share",
                                   id="missions_kept", title="Does it pay to keep one mission or two?")
            a = effect.answer(base.select("game_index", "seat", pl.col("win_share").alias(effect.metric)),
                              var.select("game_index", "seat", pl.col("win_share").alias(effect.metric)), {"players": n})
            kept = base.join(var.select("game_index", "seat"), on=["game_index", "seat"])["missions_kept"].to_numpy()
            forced.append(({"players": n, "seat always keeps": words, "games": f"{a.games:,}",
                            "its own choice differed in": _rate(kept != (1 if words == "one" else 2)) + " of them",
                            "win share change": a.estimates[0].text()}, a))
    if forced:
        forced = [{**row, "p (Holm)": fmt_p(float(p)), "verdict": SHOWN if p < 0.05 else (EQUIVALENT if a.verdict == EQUIVALENT else NOT_SHOWN)}
                  for (row, a), p in zip(forced, holm_adjusted([a.estimates[0].p for _, a in forced]))]
        rep.table(forced, "The value of keeping one mission or two: one seat always keeps one (or two), the others are strategic; "
                          "its win share minus the same seat of the same games where it chose for itself (paired by game and "
                          "seat, 95% intervals; Holm over the rows)")


def _points_figure(rep: Report, f: pl.DataFrame, players_list: list[int]) -> None:
    import matplotlib.pyplot as plt

    bots = [b for b in STRENGTH if f.filter(pl.col("table") == b).height]
    fig, axes = plt.subplots(1, len(players_list), figsize=(4 * len(players_list), 3.5), squeeze=False, sharey=True)
    width = 0.8 / max(len(bots), 1)
    for ax, n in zip(axes[0], players_list):
        for j, b in enumerate(bots):
            part = f.filter((pl.col("players") == n) & (pl.col("table") == b))
            if not part.height:
                continue
            ms = [clustered_mean(part[f"points_{c}"].to_numpy().astype(np.float64), part["game_index"].to_numpy()) for c in CATEGORIES]
            ax.bar(np.arange(len(CATEGORIES)) + (j - (len(bots) - 1) / 2) * width, [m.estimate for m in ms], width, color=PALETTE[j],
                   yerr=[[m.estimate - m.lo for m in ms], [m.hi - m.estimate for m in ms]], capsize=1, label=b if n == players_list[0] else None)
        ax.set_xticks(range(len(CATEGORIES)), CATEGORIES, rotation=30)
        ax.axhline(0, color="k", lw=0.8)
        ax.set_title(f"{n} players")
    axes[0][0].set_ylabel("mean points per seat")
    fig.legend(loc="upper center", ncols=len(bots), bbox_to_anchor=(0.5, 1.06))
    rep.figure(fig, "points", "Mean points per seat by category and bot, 95% intervals (missions below zero: more failed than completed)")


def _strength(rep: Report, f: pl.DataFrame, players_list: list[int]) -> None:
    """The seat and payoff questions asked again with every seat played by each bot."""
    base = _default_files(f)
    cells = {}
    for b in STRENGTH:
        grids = base.filter(pl.col("table") == b)["grid"].unique().to_list()
        if grids:
            cells[b] = {"grid": min(grids), "table": b}
    if len(cells) < 2:
        return
    rep.heading("How the conclusions move with bot strength")
    rows = []
    for b, where in cells.items():
        for a in dataclasses.replace(Q["seat_fairness"], where=where).answers(f):
            n = a.group.get("players")
            p2 = f.filter((pl.col("grid") == where["grid"]) & (pl.col("table") == b) & (pl.col("players") == n))
            row = {"bots": b, "players": n, "games": f"{a.games:,}", **{f"seat {k}": "" for k in range(1, 5)}}
            for k, e in enumerate(a.estimates):
                row[f"seat {k + 1}"] = e.text().replace(" points", "")
            rows.append({**row, "seats": a.verdict, "score": _mean(p2, "score", 1),
                         "rounds": _game_mean(p2.filter(pl.col("seat") == 1)["rounds"]),
                         "missions completed per seat": _mean(p2, "missions_done")})
    rep.table(rows, "Every seat played by the same bot, weakest to strongest: each seat's win share minus the fair share "
                    "(points) and the seat question's verdict; the score, the length and the missions completed (95% intervals)")
    payoffs = {}
    for b, where in cells.items():
        got = dataclasses.replace(Q["abilities"], where=where).answers(f)
        if got:
            payoffs[b] = {_item(e.label): e for e in got[0].estimates}
    if REFERENCE in payoffs and len(payoffs) >= 2:
        rep.table([{"ability card": c, **{b: (v[c].text() + (" *" if v[c].verdict == SHOWN else "")) if c in v else "" for b, v in payoffs.items()}}
                   for c in sorted(payoffs[REFERENCE], key=lambda c: -payoffs[REFERENCE][c].estimate)],
                  "The payoff of each ability card for each bot (win share of a holder minus an average card's, adjusted for "
                  f"seat, player count and the other card; 95% intervals; * shown, Holm over the cards), ordered by `{REFERENCE}`'s")


def _routes_detail(rep: Report, f: pl.DataFrame, ref: pl.DataFrame, players_list: list[int]) -> None:
    """The stand-in routes (C4) against the complete board: every seat and where the points go."""
    complete = f.filter((pl.col("table") == REFERENCE) & pl.col("board").cast(pl.String).str.contains("board_complete"))
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
            row[f"seat {seat + 1} win share change"] = _change(100 * part["c_share"], 100 * part["win_share"], 1)
        row["score change"] = _change(m["c_score"], m["score"], 1)
        for k in ("airspace", "mapping", "humans"):
            row[f"{k} points"] = f"{m[f'points_{k}'].mean():.1f} -> {m[f'c_{k}'].mean():.1f} ({_change(m[f'c_{k}'], m[f'points_{k}'], 1)})"
        g = m.filter(pl.col("seat") == 1)
        row["rounds"] = f"{g['rounds'].mean():.2f} -> {g['c_rounds'].mean():.2f} ({_change(g['c_rounds'], g['rounds'], 2)})"
        rows.append(row)
    rep.table(rows, "Stand-in board -> complete board: each seat's win share (points), the score, the route-dependent "
                    "categories and the game length, paired by game and seat (changes with 95% intervals)")


def _change(after, before, digits: int) -> str:
    d = paired_numeric(after.to_numpy().astype(float), before.to_numpy().astype(float))
    return f"{d.estimate:+.{digits}f} [{d.lo:+.{digits}f}, {d.hi:+.{digits}f}]"
