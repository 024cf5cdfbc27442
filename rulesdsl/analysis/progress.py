"""A progress bar for long simulations: games done, games/s and time left, on standard
error, and only when standard error is a terminal (pipes and files stay clean)."""

from __future__ import annotations

import contextlib
import sys
from typing import Callable, Iterator


@contextlib.contextmanager
def progress_bar(total: int, label: str, enabled: bool = True) -> Iterator[Callable[[int], None]]:
    """Yields `advance(n)` (0 to just show the bar); draws nothing unless `enabled` and
    standard error is a terminal."""
    if not enabled or not sys.stderr.isatty():
        yield lambda n: None
        return
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeRemainingColumn)

    class Rate(TextColumn):
        def render(self, task):
            speed = task.finished_speed or task.speed
            self.text_format = f"{speed:,.1f} games/s" if speed else "- games/s"
            return super().render(task)

    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               Rate(""), TextColumn("left"), TimeRemainingColumn()]
    # The bar starts at the first call, once the worker processes exist: its refresh
    # thread must not be running when they are forked.
    with contextlib.ExitStack() as stack:
        shown = {}

        def advance(n: int) -> None:
            if not shown:
                bar = stack.enter_context(Progress(*columns, console=Console(stderr=True),
                                                   transient=True))
                shown["bar"], shown["task"] = bar, bar.add_task(label, total=total)
            shown["bar"].advance(shown["task"], n)

        yield advance
