"""Ctrl-C, many times, on a run with two workers: how often the command fails to end.

    .venv/bin/python benchmarks/ctrl_c_stress.py [TRIALS]

Each trial starts ``simkit run ufs -n 40000 --chunk-size 2000 --bot planner --jobs 2`` in a
session of its own, waits for two finished chunks, sends Ctrl-C to the whole group (as a
terminal does) and gives it 20 s to end. Prints the exit codes and the hangs (then kills
the group). Load the machine meanwhile (e.g. two ``yes > /dev/null``): the races it finds
showed about once in 40 trials on a loaded machine, never on a quiet one.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIMKIT = Path(__file__).resolve().parent.parent / ".venv" / "bin" / "simkit"


def trial() -> int | None:
    """The exit code, or None if the command had not ended 20 s after Ctrl-C."""
    folder = Path(tempfile.mkdtemp())
    out = folder / "run"
    cmd = [str(SIMKIT), "run", "ufs", "-n", "40000", "--chunk-size", "2000", "--bot", "planner", "--seed", "3",
           "--out", str(out), "--no-progress", "--jobs", "2"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        t0 = time.time()
        while len(list((out / "parts").glob("games-*.parquet"))) < 2 and proc.poll() is None and time.time() - t0 < 60:
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGINT)
        try:
            return proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return None
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    codes: dict[int | None, int] = {}
    for _ in range(trials):
        code = trial()
        codes[code] = codes.get(code, 0) + 1
    print(f"{trials} trials: {codes.get(130, 0)} ended by Ctrl-C (130), {codes.get(0, 0)} finished as if it was lost (0), "
          f"{codes.get(None, 0)} hung; all codes {codes}")


if __name__ == "__main__":
    main()
