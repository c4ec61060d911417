"""Progress bars for long runs: games done, games per second, time left."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator

from rich.progress import BarColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.text import Text


class _Rate(ProgressColumn):
    """Games played this session per second since the bar started (not rich's
    short-window estimate, which spikes when several chunks land at once)."""

    def render(self, task) -> Text:
        played = task.completed - task.fields.get("resumed", 0)
        elapsed = task.elapsed or 0.0
        if played <= 0 or elapsed < 0.5:
            return Text("", style="cyan")
        return Text(f"{played / elapsed:,.0f} games/s", style="cyan")


def _short(n: float) -> str:
    """A count in at most 6 characters: 18,000, 520k, 6.2M."""
    n = int(n)
    return f"{n:,}" if n < 100_000 else f"{n / 1e3:.0f}k" if n < 1_000_000 else f"{n / 1e6:.3g}M"


class _Count(ProgressColumn):
    """Games done of the total, short (at 80 columns the full '6200000/6200000' was cut
    to '6200000/62000…', which read as 62,000)."""

    def render(self, task) -> Text:
        total = "?" if task.total is None else _short(task.total)
        return Text(f"{_short(task.completed)}/{total}", style="green")


@contextmanager
def bar(label: str, total: int | None, completed: int = 0, enabled: bool = True, eta: bool = True) -> Iterator[Callable[[int], None]]:
    """Yields ``advance(n)``; a no-op when disabled. ``eta=False``: no time left is shown
    (while the speed is not the one the rest will be played at). ``total=None``: not known
    yet; ``advance.total(n)`` sets it once it is (a tune's budget in minutes, after its pilot)."""
    if not enabled:
        def advance(n: int) -> None:
            pass

        advance.total = lambda n: None
        yield advance
        return
    from rich.console import Console

    remaining = [TextColumn("eta"), TimeRemainingColumn()] if eta else []
    # the bar takes what the text leaves: nothing wraps at 80 columns
    with Progress(TextColumn("{task.description}", markup=False, style="bold"), BarColumn(bar_width=None), _Count(), _Rate(),
                  TimeElapsedColumn(), *remaining, console=Console(stderr=True, emoji=False)) as progress:
        task = progress.add_task(label, total=total, completed=completed, resumed=completed)

        def advance(n: int) -> None:
            progress.advance(task, n)

        advance.total = lambda n: progress.update(task, total=n)
        yield advance


@contextmanager
def status(enabled: bool = True) -> Iterator[Callable[[str], None]]:
    """Yields ``say(text)``: a spinner line on stderr showing what is being done (e.g.
    compiling) until the block ends; nothing is shown unless ``say`` is called."""
    if not enabled:
        yield lambda text: None
        return
    from rich.console import Console

    shown = []

    def say(text: str) -> None:
        if not shown:
            shown.append(Console(stderr=True, emoji=False, markup=False).status(text))
            shown[0].start()
        else:
            shown[0].update(text)

    try:
        yield say
    finally:
        if shown:
            shown[0].stop()


def warn(text: str) -> None:
    """One line on stderr about something simkit handled (user text is never read as markup)."""
    from rich.console import Console
    from rich.text import Text

    from .errors import printable

    Console(stderr=True, soft_wrap=True, highlight=False, emoji=False).print(Text("note: ", style="yellow") + Text(printable(text)))
