"""How long a new user waits: compiling ahead (the set-up step), the first `simkit run`
after it, a warm run, and optionally `make test` from a fresh clone.

    .venv/bin/python benchmarks/first_run.py            # compile + first + warm run
    .venv/bin/python benchmarks/first_run.py --make-test # also: clone, make test (several minutes)

Each measurement uses a fresh, empty compile cache (SIMKIT_CACHE_DIR in a temporary
folder), so nothing is reused from earlier runs. Times vary with the machine and its
load: quote them with the date and machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIMKIT = Path(sys.executable).parent / "simkit"


def timed(cmd: list[str], env: dict, cwd: Path) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    secs = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.strip().splitlines()[-1:]}")
    return secs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--make-test", action="store_true", help="also time `make test` in a fresh clone")
    ap.add_argument("--game", default="ufs")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        env = dict(os.environ, SIMKIT_CACHE_DIR=str(tmp / "cache"))
        run = [str(SIMKIT), "run", args.game, "-n", "1000", "--no-progress"]
        cold = timed(run + ["--out", str(tmp / "cold")], env, tmp)
        shutil.rmtree(tmp / "cache")
        compile_s = timed([str(SIMKIT), "compile"], env, tmp)
        first = timed(run + ["--out", str(tmp / "first")], env, tmp)
        warm = timed(run + ["--seed", "1", "--out", str(tmp / "warm")], env, tmp)
        print(f"simkit run {args.game} -n 1000 with an empty cache (no set-up step): {cold:.1f} s")
        print(f"simkit compile (the set-up step, every game):                 {compile_s:.1f} s")
        print(f"first simkit run {args.game} -n 1000 after it:                       {first:.1f} s")
        print(f"warm simkit run {args.game} -n 1000 (another seed):                  {warm:.1f} s")
        if args.make_test:
            clone = tmp / "clone"
            subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
            env_mt = dict(env, SIMKIT_CACHE_DIR=str(tmp / "cache-mt"))
            t0 = time.perf_counter()
            subprocess.run(["make", "install"], cwd=clone, env=env_mt, check=True, capture_output=True)
            setup = time.perf_counter() - t0
            test = timed(["make", "test"], env_mt, clone)
            print(f"make install in a fresh clone (venv, packages, compile):      {setup:.1f} s")
            print(f"make test after it:                                           {test:.1f} s")


if __name__ == "__main__":
    main()
