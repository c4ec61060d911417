"""Progress bars for long runs: games done, games per second, time left."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator

from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.text import Text


class _Rate(ProgressColumn):
    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f} games/s" if speed else "", style="cyan")


@contextmanager
def bar(label: str, total: int, completed: int = 0, enabled: bool = True) -> Iterator[Callable[[int], None]]:
    """Yields ``advance(n)``; a no-op when disabled."""
    if not enabled:
        yield lambda n: None
        return
    with Progress(TextColumn(f"[bold]{label}[/]"), BarColumn(), MofNCompleteColumn(), _Rate(),
                  TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn()) as progress:
        task = progress.add_task("games", total=total, completed=completed)
        yield lambda n: progress.advance(task, n)
