"""The terminal console every command and benchmark prints through."""

from __future__ import annotations

from rich.console import Console


def stdout_console() -> Console:
    """Console over whatever stdout is now (so click's test runner captures it); 160 columns
    when stdout is not a terminal, so piped and tested output is wide and stable."""
    console = Console(highlight=False, soft_wrap=False)
    if not console.is_terminal:
        console = Console(highlight=False, soft_wrap=False, width=160)
    return console
