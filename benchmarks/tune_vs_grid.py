"""What racing buys over a brute-force grid: `simkit tune`'s search (successive halving on
common random numbers, optuna over numeric knobs) against the same candidates each given
an equal share of the same budget, on the same seeds and with the same proof on fresh games.

For each strategy it records the fix proposed (if any), its confirmed deviation with the
95% interval, the games and minutes spent, and how many games each strategy had spent on
the eventual choice when it chose (racing concentrates its budget on the leaders; the grid
would need that many games for *every* candidate to know the winner as well).

    .venv/bin/python benchmarks/tune_vs_grid.py ufoo first_player --budget 100000 --jobs 2
    .venv/bin/python benchmarks/tune_vs_grid.py ovni seat_fairness --set players=2 --budget 150000
    .venv/bin/python benchmarks/tune_vs_grid.py aau city_mission --set players=4 --bot strategic --budget 400000

Writes benchmarks/tune-<game>-<goal>.json (give --output to write elsewhere). The runs are kept
under runs/tune-bench/ and resumed, so the minutes are those of a first run only.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from simkit.games import get
from simkit.params import parse_assignments
from simkit.tune import goal, knobs, tune


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("goal")
    ap.add_argument("--knob", action="append", default=[])
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--bot", action="append", default=[])
    ap.add_argument("--budget", type=int, default=100_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--output", type=Path)
    ap.add_argument("--runs", type=Path, default=Path("runs/tune-bench"), help="where the candidates' runs are kept (resumable)")
    args = ap.parse_args()
    g = get(args.game)
    target = goal(g, args.goal)
    ks = knobs(g, args.knob)
    base = parse_assignments(args.set)
    out = {"game": g.name, "goal": args.goal, "settings": base, "budget": args.budget, "jobs": args.jobs, "strategies": {}}
    for strategy in ("halving", "grid"):
        folder = args.runs / f"{g.name}-{args.goal}-{'-'.join(f'{k}={v}' for k, v in base.items())}-{args.budget}-{strategy}"
        res = tune(g, target, ks, base=base, bots=args.bot, budget=args.budget, seed=args.seed, jobs=args.jobs, out=folder, strategy=strategy)
        chosen = res.chosen
        top = res.searched[0]
        out["strategies"][strategy] = {
            "sentence": res.sentence(), "chosen": chosen.candidate.label if chosen else None,
            "candidates": len(res.searched), "search_games": res.search_games, "confirm_games": res.confirm_games,
            "minutes": round(res.seconds / 60, 2), "rounds": res.rounds,
            "games_on_top_candidate": top.games, "top_candidate": top.candidate.label,
            "top_search_imbalance": top.imbalance, "top_search_se": top.se,
            "grid_games_for_that_precision": top.games * len(res.searched),
        }
        print(f"{strategy}: {res.sentence()} ({res.seconds / 60:.1f} min)")
    h, gr = out["strategies"]["halving"], out["strategies"]["grid"]
    out["summary"] = (f"racing spent {h['games_on_top_candidate']:,} games on its choice; the grid, on the same budget, "
                      f"{gr['games_on_top_candidate']:,} on each candidate: to know every candidate as well as racing knew "
                      f"its choice the grid would need {h['grid_games_for_that_precision']:,} search games, "
                      f"{h['grid_games_for_that_precision'] / max(1, h['search_games']):.1f}x racing's")
    print(out["summary"])
    tag = "".join(f"-{k}{v}" for k, v in base.items())
    path = args.output or Path(__file__).parent / f"tune-{g.name}-{args.goal}{tag}.json"
    path.write_text(json.dumps(out, indent=2, default=str))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
