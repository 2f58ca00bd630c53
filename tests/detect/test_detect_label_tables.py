"""Tables of labels only (lookup lists such as Name / Department / Office): where the header ends.

Leading label rows head a table when values follow them; in a table with no values at all they run
to its end, so the header is the first row plus rows styled like it or hanging under a merged group;
with no formatting at all, the first row is the header when none of its labels recurs in its column.
"""

from __future__ import annotations

import pytest

from gridsight.detect import detect_tables
from gridsight.grid import Range, Sheet, Style

B = Style.BOLD
STAFF = {
    "A1": "Name", "B1": "Department", "C1": "Office",
    "A2": "Ann", "B2": "Marketing", "C2": "Oslo",
    "A3": "Bo", "B3": "Finance", "C3": "Rome",
    "A4": "Cy", "B4": "Marketing", "C4": "Rome",
    "A5": "Di", "B5": "Legal", "C5": "Oslo",
}  # fmt: skip


def _below(cells: dict[str, object]) -> dict[str, object]:
    """The same cells one row lower."""
    return {f"{k[0]}{int(k[1:]) + 1}": v for k, v in cells.items()}


@pytest.mark.parametrize(
    ("name", "cells", "styles", "merges", "header_rows", "paths"),
    [
        ("bold header", STAFF, {"A1": B, "B1": B, "C1": B}, (), (0,), ("Name", "Department", "Office")),
        ("no styles at all (a CSV)", STAFF, {}, (), (0,), ("Name", "Department", "Office")),
        (
            "two bold header lines",
            {"A1": "Staff", "B1": "Staff", "C1": "Staff", **_below(STAFF)},
            {f"{c}{r}": B for c in "ABC" for r in (1, 2)},
            (),
            (0, 1),
            ("Staff › Name", "Staff › Department", "Staff › Office"),
        ),
    ],
)  # fmt: skip
def test_the_header_of_a_label_table(
    name: str,
    cells: dict[str, object],
    styles: dict[str, Style],
    merges: tuple[str, ...],
    header_rows: tuple[int, ...],
    paths: tuple[str, ...],
) -> None:
    sheet = Sheet.from_cells("S", cells, styles=styles, merges=merges)
    (table,) = detect_tables(sheet).tables
    assert (table.header_rows, table.header_paths) == (header_rows, paths), name
    assert table.range == Range(0, 0, max(int(k[1:]) for k in cells) - 1, 2, "S")
