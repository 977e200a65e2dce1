"""Progress on a terminal for the long commands (issue 33: ``pbem book``, ``adjudicate --mail``,
``map --png`` printed nothing for seconds): rich's progress bar on standard error when it is a
terminal, nothing at all otherwise, so tests, pipes and mail see no new output. Never used by a
game's rules (no rich inside the engine)."""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


def _quiet(n: int = 1, what: str | None = None) -> None:
    return None


@contextmanager
def progress(total: int | None, what: str) -> Iterator[Callable[..., None]]:
    """A context giving ``advance(n=1, what=None)`` (``what``: the description from now on).
    ``total`` None: a spinner without a count. The bar vanishes when done (``transient``)."""
    if not sys.stderr.isatty():
        yield _quiet
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )
    cols = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
    with Progress(*cols, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(what, total=total)

        def advance(n: int = 1, what: str | None = None) -> None:
            if what is not None:
                bar.update(task, description=what)
            bar.advance(task, n)
        yield advance
