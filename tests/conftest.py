import os
import signal
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture
def simkit_cli(capfd, monkeypatch):
    """The ``simkit`` command run in this process: ``simkit_cli(args, cwd)`` gives what a
    subprocess would (exit code, stdout, stderr) from the same ``main`` the console script
    calls, without starting Python and loading the compiled loops again (about 1 s a
    command). What only a process of its own shows (signals, workers left behind, the
    environment a command starts with, imports) stays with ``simkit_cmd``."""
    import subprocess

    from simkit.cli import main

    def invoke(args, cwd):
        capfd.readouterr()
        monkeypatch.chdir(cwd)
        monkeypatch.setattr(sys, "argv", ["simkit", *map(str, args)])
        # a command that answers a Ctrl-C leaves its process a handler that ends it at once
        # (cli._fail), and main() answers a SIGTERM as a Ctrl-C: the process ends there, this
        # one runs other tests (and its runner may stop it)
        handler, on_term = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
        try:
            main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        finally:
            signal.signal(signal.SIGINT, handler)
            signal.signal(signal.SIGTERM, on_term)
        captured = capfd.readouterr()
        return subprocess.CompletedProcess(["simkit", *args], code, captured.out, captured.err)

    return invoke


@pytest.fixture
def simkit_cmd():
    """The installed command (tests run it as a user would)."""
    exe = Path(sys.executable).parent / "simkit"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "simkit.cli"]


os.environ.setdefault("COLUMNS", "120")


def _own_cache_dir() -> None:
    """Each test process starts as a fresh machine does, with no remembered speed and no
    record of written files, and leaves the user's alone: SIMKIT_CACHE_DIR becomes a folder
    of its own (removed at exit), whose numba/ is the user's compile cache (filled by
    `make test`'s compile step). Five tests had passed only where earlier runs had left
    a speeds.json, and every test's runs and reports went into the user's records."""
    import atexit
    import shutil
    import tempfile

    from simkit._cache import cache_root

    compiled = cache_root()
    compiled.mkdir(parents=True, exist_ok=True)
    own = Path(tempfile.mkdtemp(prefix="simkit-tests-"))
    (own / "numba").symlink_to(compiled, target_is_directory=True)
    os.environ["SIMKIT_CACHE_DIR"] = str(own)

    def remove() -> None:
        (own / "numba").unlink()  # the link, never the compiled code it points at
        shutil.rmtree(own, ignore_errors=True)

    atexit.register(remove)


_own_cache_dir()
# A shell's background job (`make test &`, some CI runners) starts with Ctrl-C ignored, and a
# process inherits that: the Ctrl-C tests' simkit would never see theirs. Ctrl-C as at a
# terminal, for this process and the commands it starts (a handler becomes the default in
# a child; an ignored signal would stay ignored).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
# One compiled loop per game holding every bot (simkit.play.bots_used): the suite plays
# hundreds of bot mixes, which would otherwise each compile a loop of their own. Child
# processes (the CLI tests) inherit it. `make test` compiles these loops ahead.
os.environ["SIMKIT_EVERY_BOT_LOOP"] = "1"
