"""Result tables for the ``fcm`` commands: rich at a terminal, plain text for pipes, files and tests.

Why: agent names such as ``onnx:runs/some_long_run_name/best_model.onnx`` vary in length and
hand-aligned columns break on them; a rich table sizes its columns to the cells. Off a terminal
the same table is rendered without styles, in ASCII, at its natural width, so no cell is cut
and the text stays stable for tests and scripts.
"""

from __future__ import annotations

import copy
import io
import sys
from collections.abc import Sequence
from typing import IO

from rich import box
from rich.console import Console
from rich.table import Table

# rich's SIMPLE_HEAD (no outer frame, a rule under the header) drawn with ASCII '-'
PLAIN_BOX = box.Box("    \n    \n -- \n    \n    \n    \n    \n    \n", ascii=True)
_NATURAL_WIDTH = 100_000  # wider than any table: columns take their natural width, nothing wraps
NAME_FOLD_WIDTH = 16  # at a narrow terminal the name column folds down to this many characters, no less


def new_table(headers: Sequence[str]) -> Table:
    """A table whose first column (names) is left-aligned and folds rather than cuts; the rest (figures)
    right-aligned and never wrapped."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, collapse_padding=True,
                  header_style="bold")
    for i, header in enumerate(headers):
        if i == 0:
            table.add_column(header, justify="left", overflow="fold")
        else:
            table.add_column(header, justify="right", no_wrap=True)
    return table


def render_plain(table: Table) -> str:
    """The table as un-styled ASCII text at its natural width, trailing spaces removed."""
    plain = copy.copy(table)
    plain.box = PLAIN_BOX
    plain.header_style = ""
    console = Console(file=io.StringIO(), width=_NATURAL_WIDTH, color_system=None, force_terminal=False,
                      no_color=True, legacy_windows=False)
    console.print(plain)
    return "\n".join(line.rstrip() for line in console.file.getvalue().splitlines())


def print_table(table: Table, file: IO[str] | None = None) -> None:
    """Print styled at the terminal's width on a TTY, else as :func:`render_plain` text."""
    out = file if file is not None else sys.stdout
    try:
        tty = out.isatty()
    except (AttributeError, ValueError):
        tty = False
    if tty:
        console = Console(file=out)
        console.width = max(console.width, _narrowest(console, table))
        console.print(table)
    else:
        print(render_plain(table), file=out)


def _narrowest(console: Console, table: Table) -> int:
    """The width the table needs with its name column folded to ``NAME_FOLD_WIDTH``: below it a
    terminal wraps the lines rather than rich cutting figures or headers."""
    natural = console.measure(table, options=console.options.update_width(_NATURAL_WIDTH)).maximum
    names = table.columns[0]
    longest = max(len(str(cell)) for cell in [names.header, *names.cells])
    return natural - longest + min(longest, NAME_FOLD_WIDTH)


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 game``, ``2 games``: the lines under the tables say counts that are often 1 (``--games 1``)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"
