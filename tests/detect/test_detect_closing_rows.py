"""Where a table ends: a closing row set in bold with no word marking it as a total (each with a
counter-case). Each case is a real .xlsx written by openpyxl (``detect_xlsx``); figures made up."""

from __future__ import annotations

from collections.abc import Callable

from gridsight.detect import Detection

DetectXlsx = Callable[..., Detection]  # the ``detect_xlsx`` fixture (tests/detect/conftest.py)


def _sites(closing_bold: bool) -> tuple[dict[str, object], tuple[str, ...]]:
    """Six sites with two measures, a blank row, a closing line in bold when asked, a blank row, and a
    small calculation block under the right-hand columns."""
    cells: dict[str, object] = {"A1": "Site", "B1": "Panels", "C1": "Output kWh", "D1": "Output MWh"}
    for r in range(2, 8):
        cells.update({f"A{r}": f"Building {r}", f"B{r}": r * 3, f"C{r}": r * 1000.5, f"D{r}": r * 1.0005})
    cells.update({"A9": "All sites listed", "B9": 81, "C9": 27013.5, "D9": 27.0135})
    cells.update({"A11": "hours a year", "B11": 8766, "C11": "peak kW", "D11": "peak MW"})
    cells.update({"C12": 3.08, "D12": 0.00308})
    bold = ("A1", "B1", "C1", "D1", *(("A9", "B9", "C9", "D9") if closing_bold else ()))
    return cells, bold


def test_a_bold_closing_row_ends_the_table_before_what_follows(detect_xlsx: DetectXlsx) -> None:
    cells, bold = _sites(closing_bold=True)
    ranges = [t.range.ref() for t in detect_xlsx(cells, bold=bold).tables]
    assert ranges[0] == "A1:D9"
    assert all(not r.startswith("A1:") or r == "A1:D9" for r in ranges)


def test_without_the_bold_the_block_after_the_blank_row_is_read_as_before(
    detect_xlsx: DetectXlsx,
) -> None:
    # the counter-case: nothing marks row 9 as the last, so the rows under the blank row stay with it
    cells, bold = _sites(closing_bold=False)
    (first, *_) = detect_xlsx(cells, bold=bold).tables
    assert first.range.ref() == "A1:D12"


def test_a_bold_section_line_without_figures_does_not_close_the_table(detect_xlsx: DetectXlsx) -> None:
    cells: dict[str, object] = {"A1": "Item", "B1": "2024", "C1": "2023"}
    for r in range(2, 6):
        cells.update({f"A{r}": f"asset {r}", f"B{r}": r * 10.5, f"C{r}": r * 9.5})
    cells.update({"A7": "Liabilities"})
    for r in range(8, 11):
        cells.update({f"A{r}": f"debt {r}", f"B{r}": r * 4.5, f"C{r}": r * 3.5})
    (t,) = detect_xlsx(cells, bold=("A1", "B1", "C1", "A7")).tables
    assert t.range.ref() == "A1:C10"
