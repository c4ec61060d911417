"""The figures of the "first answer in minutes" issue, measured on this machine.

    .venv/bin/python benchmarks/first_answer.py [--only NAME ...] [--eftaios-games N]

Each measure runs simkit as a new user would, in a child process with an empty compile
cache of its own (``SIMKIT_CACHE_DIR`` in a temporary folder), and prints one line; all
of them are written to ``benchmarks/first-answer.json``. Run it on a quiet machine: every
figure is wall time. Measures:

- ``install``: a fresh venv from requirements.lock plus ``pip install -e .`` (``make install``;
  the packages come from pip's cache when this machine installed them before).
- ``first-run``: ``simkit run ufs -n 1000`` on an empty compile cache: when its answer is
  printed, and when the command ends.
- ``first-<game>``: the first ``simkit run GAME -n 200`` of each game's default bot, and of
  its searching bot, on an empty compile cache.
- ``make-run``: ``make run`` (the default experiment and its report) on an empty compile cache.
- ``ctrl-c``: seconds from Ctrl-C (SIGINT to the process group) to the end of a long run of
  the slowest bot, in one process and on two, and whether its resume line was printed.
- ``memory``: peak memory over all processes of ``simkit run eftaios -n N --jobs 2`` and of
  ``simkit sensitivity eftaios``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv" / "bin"
OUT = ROOT / "benchmarks" / "first-answer.json"


def _cold_env(tmp: Path) -> dict:
    return dict(os.environ, SIMKIT_CACHE_DIR=str(tmp / "cache"), COLUMNS="120")


def install(tmp: Path) -> dict:
    venv = tmp / "venv"
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    subprocess.run(pip + ["--upgrade", "pip==26.3"], check=True, cwd=ROOT)
    subprocess.run(pip + ["-r", "requirements.lock"], check=True, cwd=ROOT)
    subprocess.run(pip + ["--no-deps", "-e", ".[dev,dask,ray]"], check=True, cwd=ROOT)
    return {"seconds": round(time.perf_counter() - t0, 1), "target": 60}


def _run_to_answer(cmd: list[str], env: dict, timeout: float = 3600) -> tuple[float | None, float, int, str]:
    """Runs ``cmd``: the seconds until its answer line appeared on stdout (None if none
    did), the seconds it took, its exit code and the end of its output."""
    t0 = time.perf_counter()
    with tempfile.TemporaryFile("w+") as err:
        p = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=err, text=True)
        answered, out = None, []
        for line in p.stdout:
            out.append(line)
            if answered is None and line.startswith("answer:"):
                answered = time.perf_counter() - t0
        rc = p.wait(timeout=timeout)
        err.seek(0)
        return answered, time.perf_counter() - t0, rc, ("".join(out) + err.read())[-3000:]


def first_run(tmp: Path, game: str = "ufs", bot: str | None = None, n: int = 1000, target: float = 20) -> dict:
    """``answer_seconds``: when the answer is printed; ``seconds``: when the command ends (a
    run that played its games as plain Python while compiling then waits for the compiler,
    so that the next run starts compiled)."""
    cmd = [str(VENV / "simkit"), "run", game, "-n", str(n), "--jobs", "1", "--out", str(tmp / f"run-{game}-{bot}")]
    if bot:
        cmd += ["--bot", bot]
    answered, secs, rc, text = _run_to_answer(cmd, _cold_env(tmp))
    shown = cmd[1:cmd.index("--out")] + cmd[cmd.index("--out") + 2:]
    return {"command": "simkit " + " ".join(shown), "answer_seconds": answered and round(answered, 1), "seconds": round(secs, 1),
            "exit": rc, "target": target, **({"output": text} if rc else {})}


def make_run(tmp: Path) -> dict:
    env = _cold_env(tmp)
    _, secs, rc, text = _run_to_answer(["make", "run"], env, timeout=7200)
    return {"seconds": round(secs, 1), "exit": rc, "target": 180, **({"output": text} if rc else {})}


def ctrl_c(tmp: Path, jobs: int, bot: str = "search:budget=1024", wait: float = 8.0) -> dict:
    """Ctrl-C during a long run: seconds from SIGINT to the process's end."""
    env = dict(os.environ, COLUMNS="120")  # the warm cache: this measures stopping, not compiling
    subprocess.run([str(VENV / "simkit"), "compile", "ufs", "--bot", bot], env=env, cwd=ROOT, capture_output=True)
    out = tmp / f"ctrl-c-{jobs}"
    cmd = [str(VENV / "simkit"), "run", "ufs", "--bot", bot, "-n", "1000000", "--jobs", str(jobs), "--out", str(out)]
    p = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    time.sleep(wait)
    t0 = time.perf_counter()
    os.killpg(p.pid, signal.SIGINT)  # what a terminal sends to the whole group
    try:
        _, err = p.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        return {"jobs": jobs, "seconds": None, "note": "still running 120 s after Ctrl-C"}
    secs = time.perf_counter() - t0
    left = subprocess.run(["pgrep", "-f", str(out)], capture_output=True, text=True).stdout.split()
    return {"jobs": jobs, "bot": bot, "seconds": round(secs, 2), "exit": p.returncode, "target": 3,
            "resume_line": "run the same command again to resume" in err, "processes_left": len(left),
            "last_line": err.strip().splitlines()[-1] if err.strip() else ""}


def peak_memory(cmd: list[str], env: dict, timeout: float = 7200) -> dict:
    """Peak of the summed resident memory of a command and all its children (sampled)."""
    import psutil

    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    root = psutil.Process(p.pid)
    peak = 0
    while p.poll() is None and time.perf_counter() - t0 < timeout:
        total = 0
        try:
            for q in [root, *root.children(recursive=True)]:
                try:
                    total += q.memory_info().rss
                except psutil.Error:
                    pass
        except psutil.Error:
            pass
        peak = max(peak, total)
        time.sleep(0.2)
    err = p.stderr.read()
    return {"command": " ".join(cmd[1:]), "peak_mb": round(peak / 2**20), "seconds": round(time.perf_counter() - t0, 1),
            "exit": p.wait(), "target_mb": 1536, **({"output": err[-2000:]} if p.returncode else {})}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", nargs="*", default=None, help="measures to take (default: all)")
    ap.add_argument("--eftaios-games", type=int, default=2_000_000)
    args = ap.parse_args()
    from simkit.games import REGISTRY, get

    results = json.loads(OUT.read_text()) if OUT.exists() else {}
    wanted = lambda name: args.only is None or any(name.startswith(w) for w in args.only)  # noqa: E731
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if wanted("install"):
            results["install"] = install(tmp)
        if wanted("first-run"):
            results["first-run"] = first_run(tmp / "a")
        for name in REGISTRY:
            g = get(name)
            if g.checks.template or not wanted(f"first-{name}"):
                continue
            results[f"first-{name}"] = first_run(tmp / name, name, g.default_bot, 200, 45)
            search = next((b for b in g.bots if b == "search"), None)
            if search:
                results[f"first-{name}-search"] = first_run(tmp / f"{name}-s", name, "search", 20, 45)
        if wanted("make-run"):
            results["make-run"] = make_run(tmp / "m")
        if wanted("ctrl-c"):
            results["ctrl-c-1"] = ctrl_c(tmp, 1)
            results["ctrl-c-2"] = ctrl_c(tmp, 2)
        env = dict(os.environ)
        if wanted("memory-run"):
            results["memory-run"] = peak_memory([str(VENV / "simkit"), "run", "eftaios", "-n", str(args.eftaios_games),
                                                 "--jobs", "2", "--out", str(tmp / "eftaios-run")], env)
            results["memory-run"]["games"] = args.eftaios_games
        if wanted("memory-sensitivity"):
            results["memory-sensitivity"] = peak_memory([str(VENV / "simkit"), "sensitivity", "eftaios", "--jobs", "2",
                                                         "--out", str(tmp / "eftaios-sens")], env)
    OUT.write_text(json.dumps(results, indent=1) + "\n")
    for key, r in results.items():
        shown = {k: v for k, v in r.items() if k != "output"}
        print(f"{key:24s} {json.dumps(shown)}")


if __name__ == "__main__":
    main()
