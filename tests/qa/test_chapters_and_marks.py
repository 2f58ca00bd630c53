"""A classification at two levels (chapters whose own lines add up the groups under them), cells
written as marks (``[c]`` withheld, ``:`` not published), and two things set against each other
with no number ("were A higher than B"). The figures are made up; each answer is worked out by
hand beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, book_of

#: Injuries by cause: three chapters, each line adding up the three groups under it, and the
#: whole at the top. Two small groups are withheld as ``[c]`` (5 in 2022-23, 4 in 2023-24), which
#: the machinery chapter's line still counts (527, 540, 552).
INJURIES: list[list[Any]] = [
    ["Table 4: Workplace injuries by cause"],
    ["Cause (chapter and group)", "2021-22", "2022-23", "2023-24"],
    ["All causes", 3627, 3620, 3722],
    ["Falls from height (F10-F19)", 900, 950, 1000],
    ["Falls from ladders", 500, 520, 540],
    ["Falls from roofs", 250, 260, 300],
    ["Falls from scaffolding", 150, 170, 160],
    ["Handling injuries (H20-H29)", 2200, 2130, 2170],
    ["Lifting injuries", 1200, 1100, 1150],
    ["Carrying injuries", 700, 720, 690],
    ["Pushing and pulling injuries", 300, 310, 330],
    ["Machinery injuries (M30-M39)", 527, 540, 552],
    ["Contact with moving machinery", 400, 410, 430],
    ["Trapped by machinery", 120, 125, 118],
    ["Struck by ejected parts", 7, "[c]", "[c]"],
]

#: Offences recorded in two years and the change; one change is not published (":").
OFFENCES: list[list[Any]] = [
    ["Table 2: Offences recorded by the police"],
    ["Offence", "2022-23", "2023-24", "% change"],
    ["Burglary", 4100, 3900, -4.9],
    ["Vehicle theft", 2600, 2750, 5.8],
    ["Fraud (new series)", 800, 1200, ":"],
    ["Criminal damage", 5200, 5000, -3.8],
]

#: Homes completed by tenure in two places (columns), years down the rows.
HOMES: list[list[Any]] = [
    ["Table 7: Homes completed by tenure"],
    ["Year", "Northvale", None, "Southmere", None],
    [None, "Private enterprise", "Housing associations", "Private enterprise", "Housing associations"],
    ["2021-22", 4100, 900, 2500, 1300],
    ["2022-23", 3900, 1100, 2400, 1500],
]


@pytest.fixture(scope="module")
def injuries(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "injuries", INJURIES)


@pytest.fixture(scope="module")
def offences(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "offences", OFFENCES)


@pytest.fixture(scope="module")
def homes(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "homes", HOMES, merges=("B2:C2", "D2:E2"))


def test_a_chapter_named_by_its_own_words_is_its_line(injuries: Any) -> None:
    # "falls" names the chapter and each of its groups alike: the chapter's line, 950
    assert answered(injuries, "How many injuries were caused by falls in 2022-23?") == 950
    # a group's own word names the group
    assert answered(injuries, "How many injuries were caused by falls from roofs in 2022-23?") == 260
    # the chapter's three years: (900 + 950 + 1000) / 3
    assert (
        answered(injuries, "What was the average number of falls across 2021-22, 2022-23 and 2023-24?") == 950
    )
    # a withheld group (``[c]``) does not hide that the chapter's line adds up its groups
    assert answered(injuries, "What were machinery injuries in 2022-23?") == 540


def test_two_lines_set_against_each_other_each_named_on_its_side(injuries: Any) -> None:
    # 1,000 falls against 552 machinery injuries in 2023-24
    assert answered(injuries, "Were falls higher than machinery injuries in 2023-24?") is True
    assert answered(injuries, "Were machinery injuries higher than falls in 2023-24?") is False


def test_the_level_a_which_noun_names_by_the_label_header(injuries: Any) -> None:
    # chapters: falls 950, handling 2,130, machinery 540 in 2022-23
    assert answered(injuries, "Which cause chapter had the fewest injuries in 2022-23?") == (
        "Machinery injuries (M30-M39)"
    )
    assert answered(injuries, "Which cause chapter had the most injuries in 2023-24?") == (
        "Handling injuries (H20-H29)"
    )
    # groups within one chapter: lifting 1,200 and carrying 700 are over 400 in 2021-22
    assert answered(
        injuries, "Which cause groups had more than 400 injuries within handling injuries in 2021-22?"
    ) == [
        "Lifting injuries",
        "Carrying injuries",
    ]


def test_cells_written_as_a_mark(injuries: Any, offences: Any) -> None:
    assert answered(injuries, "How many rows in the 2022-23 column are marked [c]?") == 1
    assert answered(injuries, 'How many figures in the table are shown as "[c]"?') == 2
    assert answered(injuries, "Which group has its 2023-24 figure shown as [c]?") == "Struck by ejected parts"
    assert (
        answered(offences, 'Which offence has no percentage change published (":")?') == "Fraud (new series)"
    )
    # a mark the named column does not hold: none of its rows
    assert answered(offences, 'How many offences are marked ":" in 2023-24?') == 0


def test_two_columns_set_against_each_other_in_the_place_one_side_names(homes: Any) -> None:
    # Northvale 2022-23: housing associations 1,100 against private enterprise 3,900 ("the private
    # sector" is ``Private enterprise`` by meaning; the first side names no place: the second's)
    question = (
        "Were completions by housing associations (HAs) higher than completions by the private sector in "
        "Northvale in 2022-23?"
    )
    assert answered(homes, question) is False
    question = (
        "Were completions by private sector higher than completions by housing associations in Southmere "
        "in 2021-22?"
    )
    assert answered(homes, question) is True


#: A bank's balances at five quarter ends (four in one year), and a cash flow statement that shows
#: payments in brackets, as negative figures.
QUARTER_ENDS: list[list[Any]] = [
    ["Summary balance sheet, £m"],
    [None, "31 Mar 2024", "30 Jun 2024", "30 Sep 2024", "31 Dec 2024", "31 Mar 2025"],
    ["Customer deposits", 2000, 2100, 2150, 2240, 2300],
    ["Debt securities in issue", 500, 520, 515, 540, 560],
]

CASH_FLOW: list[list[Any]] = [
    ["Consolidated cash flow statement, £000"],
    [None, "2024", "2023"],
    ["Cash generated from operations", 5400, 4900],
    ["Interest paid", -310, -290],
    ["Purchase of property, plant and equipment", -1200, -950],
    ["Dividends paid", -600, -580],
]


@pytest.fixture(scope="module")
def quarter_ends(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "quarter_ends", QUARTER_ENDS)


@pytest.fixture(scope="module")
def cash_flow(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "cash_flow", CASH_FLOW)


def test_dates_named_by_their_place_among_those_shown(quarter_ends: Any) -> None:
    # four columns fall in 2024: the earliest date is 31 Mar 2024, the latest 31 Mar 2025
    assert answered(quarter_ends, "Customer deposits at the earliest date shown?") == 2000
    assert answered(quarter_ends, "Customer deposits at the latest quarter end?") == 2300
    # 560 - 500
    assert (
        answered(quarter_ends, "Change in debt securities in issue from the first to the last quarter end?")
        == 60
    )


def test_what_was_paid_is_the_size_of_the_payment_shown(cash_flow: Any) -> None:
    assert answered(cash_flow, "How much interest was paid in 2024?") == 310
    assert answered(cash_flow, "How much was spent buying property, plant and equipment in 2023?") == 950
    # a change keeps its sign: -600 against -580
    assert answered(cash_flow, "What was the change in dividends paid from 2023 to 2024?") == -20


#: A small balance sheet at two year ends, and monthly accounts with the year to date beside.
POSITION: list[list[Any]] = [
    ["Balance sheet, £000"],
    [None, "31 Mar 2025", "31 Mar 2024"],
    ["Non-current assets"],
    ["Property, plant and equipment", 7200, 6900],
    ["Goodwill", 1500, 1500],
    ["Intangible assets", 800, 950],
    ["Total non-current assets", 9500, 9350],
    ["Current assets"],
    ["Inventories", 1300, 1250],
    ["Trade receivables", 2100, 1900],
    ["Cash", 600, 800],
    ["Total current assets", 4000, 3950],
]

MONTHS: list[list[Any]] = [
    ["Management accounts, £"],
    [None, "Apr-24", "May-24", "Jun-24", "YTD"],
    ["Total income", 11000, 12500, 11800, 35300],
    ["Net profit", 900, -150, 1200, 1950],
]


@pytest.fixture(scope="module")
def position(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "position", POSITION)


@pytest.fixture(scope="module")
def months(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "months", MONTHS)


def test_a_superlative_and_a_kind_of_row_ask_which(position: Any, months: Any) -> None:
    assert answered(position, "Biggest non-current asset at 31 Mar 2025?") == "Property, plant and equipment"
    assert answered(position, "Smallest current asset at 31 Mar 2024?") == "Cash"
    assert answered(months, "Worst month by net profit?") == "May-24"
    assert answered(months, "Best month for total income?") == "May-24"


def test_misspelt_operation_words_and_whether_a_line_moved(position: Any) -> None:
    # "betwen": between; goodwill 1,500 at both dates, intangibles 950 then 800
    assert answered(position, "Did goodwill change betwen 31 Mar 2024 and 31 Mar 2025?") is False
    assert answered(position, "Did intangible assets change between 31 Mar 2024 and 31 Mar 2025?") is True
    # 2,100 / 4,000 as a percentage, misspelt
    assert (
        answered(position, "Trade receivables / total current assets at 31 Mar 2025, as a percentge?") == 52.5
    )


SEGMENTS: list[list[Any]] = [
    ["Segment information, year ended 2024 (£000)"],
    ["Segment", "Revenue", "Operating profit"],
    ["Bakery", 5400, 1400],
    ["Chilled", 2900, 360],
    ["Frozen", 2200, 460],
    ["Total", 10500, 2220],
]


@pytest.fixture(scope="module")
def segments(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "segments", SEGMENTS)


def test_shortened_period_words_and_a_flat_table_led_by_a_superlative(
    quarter_ends: Any, segments: Any
) -> None:
    assert answered(quarter_ends, "At which qtr end were customer deposits highest?") == "31 Mar 2025"
    assert answered(segments, "Top segment by revenue?") == "Bakery"
    assert answered(segments, "Smallest segment by operating profit?") == "Chilled"
