"""Ctrl-C, many times, on a run with two workers: how often the command fails to end.

    .venv/bin/python benchmarks/ctrl_c_stress.py [TRIALS]

Each trial starts ``simkit run ufs -n 40000 --chunk-size 2000 --bot planner --jobs 2`` in a
session of its own, waits for two finished chunks, sends Ctrl-C to the whole group (as a
terminal does) and gives it 20 s to end. Prints the exit codes, the hangs (then kills
the group) and the trials whose error output was not the one resume line (a traceback, a
warning), with the first of them. Start it in the foreground: a shell's background job
(``... &``) starts with Ctrl-C ignored, and every trial would then play to its end. Load the machine meanwhile (e.g. two ``yes > /dev/null``): the races it finds
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


def trial() -> tuple[int | None, str]:
    """The exit code, or None if the command had not ended 20 s after Ctrl-C, and what the
    command wrote on stderr."""
    folder = Path(tempfile.mkdtemp())
    out = folder / "run"
    cmd = [str(SIMKIT), "run", "ufs", "-n", "40000", "--chunk-size", "2000", "--bot", "planner", "--seed", "3",
           "--out", str(out), "--no-progress", "--jobs", "2"]
    err = tempfile.TemporaryFile("w+")
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
    try:
        t0 = time.time()
        while len(list((out / "parts").glob("games-*.parquet"))) < 2 and proc.poll() is None and time.time() - t0 < 60:
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGINT)
        try:
            code = proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            code = None
        err.seek(0)
        return code, err.read()
    finally:
        err.close()
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    codes: dict[int | None, int] = {}
    noisy: list[str] = []
    for _ in range(trials):
        code, err = trial()
        codes[code] = codes.get(code, 0) + 1
        if code == 130 and len([line for line in err.splitlines() if line.strip()]) != 1:
            noisy.append(err)
    print(f"{trials} trials: {codes.get(130, 0)} ended by Ctrl-C (130), {codes.get(0, 0)} finished as if it was lost (0), "
          f"{codes.get(None, 0)} hung; all codes {codes}; {len(noisy)} of the Ctrl-C ends said more than the resume line")
    if noisy:
        print("the first of them:\n" + noisy[0])


if __name__ == "__main__":
    main()
