"""Relative periods ("the prior year", "versus last year", "year over year") read as the years of
the table's own period columns; the statement below is made up."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import Workbook

from gridsight.qa import answer_question
from gridsight.qa._periods import header_years, with_periods
from gridsight.sources import open_workbook

YEARS = [2025, 2024, 2023]


@pytest.mark.parametrize(
    ("question", "written"),
    [
        ("By how much did stock rise versus last year?", "By how much did stock rise from 2024 to 2025?"),
        ("How did cash move year over year?", "How did cash move from 2024 to 2025?"),
        ("Did debt fall over the latest year?", "Did debt fall from 2024 to 2025?"),
        ("What was the YoY change in debt for 2024?", "What was the change in debt from 2023 to 2024?"),
        ("What was cash in the prior year?", "What was cash in 2024?"),
        ("What was cash at the latest balance sheet date?", "What was cash in 2025?"),
        ("What was equity in the comparative period?", "What was equity in 2024?"),
        # named from the latest: the period before it
        ("What was cash a year before the latest balance sheet date?", "What was cash in 2024?"),
        ("Debt in the year before the most recent year end?", "Debt in 2024?"),
        ("Net profit in the current year?", "Net profit in 2025?"),
        # dates said by their order
        ("What was cash at the earlier date?", "What was cash in 2023?"),
        ("What was cash at the later date?", "What was cash in 2025?"),
        ("What was cash at the closing balance date?", "What was cash in 2025?"),
        ("What was cash at the prior closing date?", "What was cash in 2024?"),
        ("Was cash negative in the 2024 financial year?", "Was cash negative in 2024?"),
        ("What was cash at the opening balance sheet date?", "What was cash in 2023?"),
        ("What was cash at the last date shown?", "What was cash in 2025?"),
        # a cash-flow line's own words: no period to write
        ("What was cash at the end of the year?", "What was cash at the end of the year?"),
        ("What was cash at beginning of year in 2024?", "What was cash at beginning of year in 2024?"),
        # years written out, or no relative period: unchanged
        ("What was cash in 2023 and in 2025?", "What was cash in 2023 and in 2025?"),
        ("What was cash in the last year of the plan?", "What was cash in the last year of the plan?"),
        ("Which product sold most?", "Which product sold most?"),
    ],
)
def test_relative_periods_are_written_as_years(question: str, written: str) -> None:
    assert with_periods(question, YEARS) == written


def test_a_table_of_fewer_than_two_years_changes_nothing() -> None:
    assert with_periods("What was cash in the prior year?", [2025]) == "What was cash in the prior year?"
    assert with_periods("What was cash in the prior year?", []) == "What was cash in the prior year?"


def test_header_years() -> None:
    names = ["Row", "31 March 2025 › €m", "FY2024", "2023-03-31 00:00:00 › Restated", "Note 12"]
    assert header_years(names) == [2025, 2024, 2023]
    assert header_years(["Region", "Q1", "Q2"]) == []


def _statement(path: Path) -> Path:
    wb = Workbook()
    ws = wb.active
    ws.append(["", 2025, 2024])
    for row in [("Stock", 130, 118), ("Cash", 90, 104), ("Trade payables", 140, 151)]:
        ws.append(row)
    wb.save(path)
    return path


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("By how much did stock increase versus last year?", 12),
        ("What was cash in the prior year?", 104),
        ("Did trade payables fall over the latest year?", True),
    ],
)
def test_a_statement_answers_relative_periods(tmp_path: Path, question: str, value: object) -> None:
    ans = answer_question(open_workbook(_statement(tmp_path / "statement.xlsx")), question)
    assert ans.status == "answered", ans.reason
    assert ans.value == value


@pytest.mark.parametrize(
    "question",
    [
        "versus last year " * 120,
        "What was cash in the prior year of the prior year of the prior year?",
        "From Jan to Jun to Dec to 2025 to 2024, how much did stock move year over year?",
        "What was stock in FY 1899 compared with the prior year?",
    ],
)
def test_hostile_questions_about_periods(tmp_path: Path, question: str) -> None:
    # an answer or a reason, never an exception
    ans = answer_question(open_workbook(_statement(tmp_path / "statement.xlsx")), question)
    assert ans.status in ("answered", "abstained")
    assert ans.status == "answered" or ans.reason


@pytest.fixture(scope="module")
def interim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A half-year report: two half-years and the full year, headed by the day each ends."""
    path = tmp_path_factory.mktemp("interim") / "interim.xlsx"
    wb = Workbook()
    ws = wb.active
    ws.append(["Condensed income statement"])
    ws.append(["EUR million", "Six months ended", None, "Year ended"])
    ws.append([None, "30 June 2024", "30 June 2023", "31 December 2023"])
    ws.merge_cells("B2:C2")
    for line, a, b, c in [
        ("Revenue", 1067, 1053, 2131),
        ("Profit before tax", 219, 225, 459),
        ("Net cash flow", 143, 74, 342),
    ]:
        ws.append([line, a, b, c])
    wb.save(path)
    return path


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # six months ended 30 June: the first half ("H1 2024", "1H23", "the first half of 2024")
        ("What was revenue in H1 2024?", 1067),
        ("Was profit before tax higher in the first half of 2024 than in 1H23?", False),
        ("True or false: revenue was higher in H1 2024 than in H1 2023.", True),
        ("Averaging 1H23 and 1H24, what was the net cash flow?", 108.5),
        ("Could you look up profit before tax in the six months ended 30 June 2023 for me?", 225),
    ],
)
def test_half_years_by_the_day_they_end(interim: Path, question: str, value: object) -> None:
    assert _answer(interim, question) == value


@pytest.mark.parametrize(
    ("header", "codes"),
    [
        ("Three months ended › 30 September 2024", {"q3"}),
        ("Quarter Ended › September 30", {"q3"}),
        ("Six months ended › 30 June 2024 › Unaudited", {"h1"}),
        ("Six months ended › 31 December 2024", {"h2"}),
        ("Year ended › 31 December 2023", set()),
        ("Nine months ended › 30 September 2024", set()),
    ],
)
def test_quarters_and_halves_by_the_day_they_end(header: str, codes: set[str]) -> None:
    from gridsight.qa._cells import _quarters_ended

    assert _quarters_ended(header) == codes


@pytest.fixture(scope="module")
def five_years(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A five-year summary headed by fiscal years; ROCE stored as fractions shown as percentages."""
    path = tmp_path_factory.mktemp("five") / "five.xlsx"
    wb = Workbook()
    ws = wb.active
    ws.append(["Five-year summary", None, None, None, None, None])
    ws.append(["£m", "FY2021", "FY2022", "FY2023", "FY2024", "FY2025"])
    ws.append(["Revenue", 1210, 1185, 1302, 1390, 1455])
    ws.append(["Operating profit", 162, 149, 171, 158, 180])
    ws.append(["Return on capital employed", 0.161, 0.152, 0.139, 0.157, 0.148])
    for cell in ws[5][1:]:
        cell.number_format = "0.0%"
    wb.save(path)
    return path


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # the periods of one line counted or listed against a threshold (currency and "m" around it)
        ("Operating profit: how many years over FY2021–FY2025 came in above £150m?", 4),
        ("Number of years over FY2023–FY2025 with revenue over £1,350m?", 2),
        ("Which years between 2021 and 2025 had ROCE above 15%?", ["FY2021", "FY2022", "FY2024"]),
        # "over 2022–2024" opens a span of years, the threshold is the comparison after it
        ("Count the years over 2022–2024 in which revenue exceeded £1,250m.", 2),
        # a fiscal year's own name is the answer, not the bare year
        ("In which year was operating profit lowest?", "FY2022"),
        # a change runs from the earlier period to the later, whatever order they are named in;
        # "move" is a change
        ("Revenue: YoY growth, FY25 vs FY24?", pytest.approx((1455 - 1390) / 1390)),
        ("How did operating profit move between FY2021 and FY2022?", -13),
    ],
)
def test_periods_of_a_line_counted_listed_and_named(five_years: Path, question: str, value: object) -> None:
    assert _answer(five_years, question) == value


@pytest.mark.parametrize(
    ("text", "number"),
    [("above £150m", "150"), ("under €3.5m", "3.5"), ("over $2,500", "2,500"), ("below 15%", "15")],
)
def test_a_threshold_with_its_currency_and_scale(text: str, number: str) -> None:
    from gridsight.text import COMPARISON

    m = COMPARISON.search(text)
    assert m is not None and m.group(3) == number
    assert COMPARISON.search("above 2020s") is None  # (a decade is no threshold)
    from gridsight.text import comparison

    m = comparison("the years over 2023–2025 in which debt exceeded $100m")
    assert m is not None and m.group(3) == "100"
    assert comparison("over 2021 to 2025") is None
    # a year after words is a period ("over the whole of 2024", "above the 2020 level"), no threshold
    assert comparison("the smallest dwelling starts over the whole of 2024") is None
    # ("under" a section, then the comparison by the number: the one by the number)
    m = comparison("how many of the lines under current assets exceed 80,000 at 31 december 2024")
    assert m is not None and (m.group(1), m.group(3)) == ("exceed", "80,000")
    assert comparison("regions above the 2020 level with more than 1,500 starts").group(3) == "1,500"


def test_quarters_stand_in_time_within_their_year(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.append(["Dwellings started"])
    ws.append(["Region", "Q1 2024", "Q2 2024", "Q1 2025", "Q2 2025"])
    ws.append(["Juniper Coast", 830, 910, 664, 916])
    ws.append(["Dunhallow", 410, 395, 388, 402])
    wb.save(tmp_path / "starts.xlsx")
    ans = answer_question(
        open_workbook(tmp_path / "starts.xlsx"), "Juniper Coast: growth, Q2 2025 vs Q1 2025?"
    )
    assert ans.value == pytest.approx((916 - 664) / 664)


@pytest.mark.parametrize(
    "question",
    [
        "By what factor was revenue larger than operating profit in FY2023?",
        "What was revenue relative to operating profit in FY2023, as a multiple?",
        "Express revenue as a multiple of operating profit for FY2023.",
    ],
)
def test_a_factor_or_a_multiple_divides(five_years: Path, question: str) -> None:
    ans = answer_question(open_workbook(five_years), question)
    assert ans.value == pytest.approx(1302 / 171)


@pytest.fixture(scope="module")
def quarterly(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Quarters with each year's own column between them."""
    path = tmp_path_factory.mktemp("quarterly") / "quarterly.xlsx"
    wb = Workbook()
    ws = wb.active
    ws.append(["Dwellings started"])
    ws.append(["Region", "Q1 2023", "Q2 2023", "Q3 2023", "Q4 2023", "2023", "Q1 2024", "Q2 2024"])
    ws.append(["Juniper Coast", 800, 820, 790, 760, 3170, 700, 910])
    ws.append(["Dunhallow", 400, 410, 395, 380, 1585, 350, 402])
    wb.save(path)
    return path


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # "in that order": one figure per period named; a span of quarters skips the year's column
        (
            "Give dwellings started in Dunhallow for Q1 2023, Q2 2023 and Q3 2023, in that order.",
            [400, 410, 395],
        ),
        (
            "List dwellings started in Juniper Coast for each quarter from Q3 2023 to Q2 2024, in order.",
            [790, 760, 700, 910],
        ),
        # a run of months that is a quarter ("October–December 2023" is Q4 2023)
        ("Add up dwellings started for Juniper Coast and Dunhallow in October–December 2023.", 1140),
    ],
)
def test_quarters_listed_spanned_and_written_as_months(quarterly: Path, question: str, value: object) -> None:
    assert _answer(quarterly, question) == value


def test_a_division_sign_divides(five_years: Path) -> None:
    question = "Work out the operating margin for FY2023, defined as operating profit ÷ revenue."
    assert answer_question(open_workbook(five_years), question).value == pytest.approx(171 / 1302)


@pytest.fixture(scope="module")
def segments(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("segments") / "segments.xlsx"
    wb = Workbook()
    ws = wb.active
    ws.append(["Segment information", None, None])
    ws.append(["€m", "FY2023", "FY2024"])
    ws.append(["Segment result", None, None])
    for line, a, b in [("Marine", 117, 130), ("Offshore", -18, 12), ("Ports", 124, -5)]:
        ws.append([line, a, b])
    ws.append(["Total segment operating profit", 223, 137])
    wb.save(path)
    return path


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # a sign asked of a figure is a bound; the lines of the section the total adds up are named
        ("Name the segments whose segment operating profit was negative in FY2023.", ["Offshore"]),
        ("Which segments had a positive result in FY2024?", ["Marine", "Offshore"]),
        # "as a positive amount": the size of a figure shown negative
        ("What was the Offshore result in FY2023, as a positive amount?", 18),
    ],
)
def test_signs_asked_of_figures(segments: Path, question: str, value: object) -> None:
    assert _answer(segments, question) == value


def test_spans_of_periods_either_way_round(tmp_path: Path) -> None:
    # columns latest first ("FY23 to FY25" over FY2025 | FY2024 | FY2023), and years down the rows
    wb = Workbook()
    ws = wb.active
    ws.append(["Cash flow", None, None, None])
    ws.append(["€m", "FY2025", "FY2024", "FY2023"])
    ws.append(["Net cash from operating activities", 600, 520, 443])
    ws.append(["Capital expenditure", -120, -110, -95])
    wb.save(tmp_path / "cash.xlsx")
    ans = answer_question(
        open_workbook(tmp_path / "cash.xlsx"), "What was the average operating cash flow over FY23 to FY25?"
    )
    assert ans.value == pytest.approx((600 + 520 + 443) / 3)
    wb = Workbook()
    ws = wb.active
    ws.append(["Dividend history"])
    ws.append(["Year", "Interim (cents)", "Final (cents)"])
    for year, interim, final in [
        (2021, 9.0, 19.3),
        (2022, 11.8, 18.4),
        (2023, 12.5, 19.3),
        (2024, 11.4, 20.5),
    ]:
        ws.append([year, interim, final])
    wb.save(tmp_path / "dividends.xlsx")
    ans = answer_question(
        open_workbook(tmp_path / "dividends.xlsx"), "What was the total final dividend over 2022–2024?"
    )
    assert ans.value == pytest.approx(18.4 + 19.3 + 20.5)


def _answer(path: Path, question: str) -> object:
    """The value answered to ``question`` over the workbook at ``path`` (an abstention fails)."""
    ans = answer_question(open_workbook(path), question)
    assert ans.status == "answered", ans.reason
    return ans.value


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ten-year record on its side: fiscal years down the rows, measures across."""
    path = tmp_path_factory.mktemp("history") / "history.xlsx"
    wb = Workbook()
    ws = wb.active
    ws.append(["Ten-year record"])
    ws.append(
        ["Year", "Revenue (£m)", "EBITDA (£m)", "Net debt (£m)", "Basic EPS (p)", "Dividend per share (p)"]
    )
    for row in [
        ("FY2021", 705, 154, 116, 30.5, 10.0),
        ("FY2022", 749, 156, 37, 31.0, 11.5),
        ("FY2023", 807, 121, 169, 28.0, 12.0),
    ]:
        ws.append(row)
    wb.save(path)
    return path


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # a division between two columns of one row, in the order written (a "what <noun>" question
        # that writes its arithmetic out asks the number)
        ("What leverage did the group have in FY2023 (net debt ÷ EBITDA)?", pytest.approx(169 / 121)),
        ("In FY2022, what was dividend per share divided by basic EPS?", pytest.approx(11.5 / 31.0)),
        # a fiscal year written by the years it spans is the year it ends
        ("What was revenue in fiscal 2021/22?", 749),
        # "last year" among a run of years down the rows: the latest shown (beside one comparative
        # year, a statement's current and prior, it is the prior)
        ("What was EBITDA last year?", 121),
    ],
)
def test_columns_divided_and_years_down(history: Path, question: str, value: object) -> None:
    assert _answer(history, question) == value


@pytest.mark.parametrize(
    ("question", "written"),
    [
        ("What was revenue in fiscal 2021/22?", "What was revenue in FY2022?"),
        ("Receivables over 2023/24–2024/25?", "Receivables over FY2024–FY2025?"),
        ("In FY 2021-22?", "In FY2022?"),
        ("From 2021-22?", "From 2021-22?"),  # (a dash alone may join two years of a span)
        ("In 2021/23?", "In 2021/23?"),  # (no fiscal year spans two years)
        ("In 1999/00?", "In FY2000?"),
    ],
)
def test_split_years_end_where_they_end(question: str, written: str) -> None:
    from gridsight.qa._periods import split_years

    assert split_years(question, ["FY2021", "FY2022"]) == written
    assert split_years(question, ["Revenue", "2021/22"]) == question  # (the table writes spans)


def test_a_movement_line_totalled_over_its_periods(tmp_path: Path) -> None:
    # the line is named by its head word; "total" over two periods adds them up (a movement line's
    # own change words are no change to take)
    wb = Workbook()
    ws = wb.active
    ws.append(["Cash flow statement", None, None])
    ws.append(["£m", "FY2025", "FY2024"])
    ws.append(["Profit before tax", 384, 260])
    ws.append(["(Increase)/decrease in inventories", -2, -13])
    ws.append(["(Increase)/decrease in trade and other receivables", 68, -72])
    ws.append(["Cash generated from operations", 450, 175])
    wb.save(tmp_path / "cash.xlsx")
    question = "What did the receivables movement total over FY2024–FY2025?"
    assert _answer(tmp_path / "cash.xlsx", question) == -4


@pytest.mark.parametrize(
    "question",
    [
        "fiscal 2021/22 " * 400,
        "2021/2021/2021/22/23 FY 2099-00 1999/00/01",
        "a year before the latest year before the latest year before the latest balance sheet date",
        "EBIT/ETR/op./op. profit/GP&E/capex" * 50,
        "÷÷÷ / / / minus plus divided by",
    ],
)
def test_hostile_period_and_abbreviation_wordings(history: Path, question: str) -> None:
    from gridsight.qa._glossary import spelt_out
    from gridsight.qa._periods import split_years

    assert isinstance(split_years(question, ["FY2021", "FY2022"]), str)
    assert isinstance(spelt_out(question, lambda n: False), str)
    assert isinstance(with_periods(question, YEARS), str)
    ans = answer_question(open_workbook(history), question)  # answers or abstains, never raises
    assert ans.status in ("answered", "abstained")
