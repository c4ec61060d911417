import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture
def simkit_cmd():
    """The installed command (tests run it as a user would)."""
    exe = Path(sys.executable).parent / "simkit"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "simkit.cli"]


os.environ.setdefault("COLUMNS", "120")
