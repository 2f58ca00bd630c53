"""The cells route: questions about cells of a table with header paths, sections and totals,
answered by a typed plan compiled to one query (each operation, and what must not be planned)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook
from openpyxl.styles import Font

from gridsight.qa import answer_question
from gridsight.qa._ask import evidence_valid
from gridsight.sources import open_workbook

# crop -> region -> (2019, 2021), under two sections; "Nation" is the regions' total and more
FARMS: dict[str, dict[str, tuple[int, int]]] = {
    "Lentils": {"Nation": (900, 950), "Upland": (300, 280), "Coast": (250, 400)},
    "Barley": {"Nation": (700, 640), "Upland": (320, 330), "Coast": (100, 90)},
    "Melons": {"Nation": (500, 520), "Upland": (40, 60), "Coast": (380, 330)},
    "Orchids": {"Nation": (200, 260), "Upland": (20, 25), "Coast": (150, 190)},
}
SECTIONS = {"Field crops": ["Lentils", "Barley"], "Greenhouse crops": ["Melons", "Orchids"]}


def _titled(sheet: str, title: str, corner: str) -> tuple[Workbook, Any]:
    """A new workbook whose one sheet has a bold title in A1 and the row labels' header in A3."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = sheet
    ws["A1"] = title
    ws["A1"].font = Font(bold=True)
    ws["A3"] = corner
    return wb, ws


def _write(path: Path) -> Path:
    wb, ws = _titled("Farms", "Farms reporting selected crops, by region", "Crop")
    for i, region in enumerate(["Nation", "Upland", "Coast"]):
        col = 2 + 2 * i
        ws.cell(3, col, region)
        ws.merge_cells(start_row=3, start_column=col, end_row=3, end_column=col + 1)
        ws.cell(4, col, 2019)
        ws.cell(4, col + 1, 2021)
        ws.cell(5, col, "number of farms")
        ws.merge_cells(start_row=5, start_column=col, end_row=5, end_column=col + 1)
    r = 6
    for section, crops in SECTIONS.items():
        ws.cell(r, 1, section).font = Font(bold=True)
        r += 1
        for crop in crops:
            ws.cell(r, 1, crop)
            for i, region in enumerate(["Nation", "Upland", "Coast"]):
                ws.cell(r, 2 + 2 * i, FARMS[crop][region][0])
                ws.cell(r, 3 + 2 * i, FARMS[crop][region][1])
            r += 1
    ws.cell(r + 1, 1, "Source: made up for this test.")
    wb.save(path)
    return path


@pytest.fixture(scope="module")
def farms(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return open_workbook(_write(tmp_path_factory.mktemp("cells") / "farms.xlsx"))


F = FARMS


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("How many farms reported lentils in Coast in 2021?", F["Lentils"]["Coast"][1]),
        ("How many farms grew barly in the Upland region in 2019?", F["Barley"]["Upland"][0]),  # a typo
        ("By how much did the number of farms with melons in Coast change from 2019 to 2021?", 330 - 380),
        ("How much did orchid farms in Upland increase between 2019 and 2021?", 25 - 20),
        ("How many more farms grew lentils in Coast than in Upland in 2021?", 400 - 280),
        ("What fraction of the nation's lentil farms in 2019 were in Upland?", 300 / 900),
        ("What percentage of farms with melons in 2021 were in Coast, out of the Nation?", 100 * 330 / 520),
        ("How many farms reported lentils and barley combined in Coast in 2019?", 250 + 100),
        ("What was the total number of farms reporting greenhouse crops in Upland in 2021?", 60 + 25),
        ("What was the average number of farms per field crop in Coast in 2019?", (250 + 100) / 2),
    ],
)
def test_numbers_from_named_cells(farms: Any, question: str, answer: float) -> None:
    ans = answer_question(farms, question)
    assert ans.status == "answered", ans.reason
    assert ans.value == pytest.approx(answer), (ans.value, ans.query)
    assert evidence_valid(ans, farms)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Were more farms reporting melons in Upland or in Coast in 2019?", "Coast"),
        ("Which region had the most farms growing barley in 2021?", "Upland"),  # Nation is their total
        ("Which field crop was reported by the fewest farms in Coast in 2021?", "Barley"),
        ("Did the number of farms with barley in the Nation rise from 2019 to 2021?", False),
        ("Was the number of orchid farms in Coast higher in 2021 than in 2019?", True),
    ],
)
def test_names_and_yes_no_from_named_cells(farms: Any, question: str, answer: object) -> None:
    ans = answer_question(farms, question)
    assert ans.status == "answered", ans.reason
    assert ans.value == answer, (ans.value, ans.query)


def test_a_lookup_cites_the_cell_itself(farms: Any) -> None:
    ans = answer_question(farms, "How many farms reported orchids in Upland in 2021?")
    assert ans.value == 25 and ans.route == "blocks" and ans.formula == "=Farms!E11"


def test_a_change_between_unnamed_columns_is_not_planned(farms: Any) -> None:
    # "in 2021" with no region: three columns fit and nothing tells them apart -- no arithmetic
    from gridsight.detect import detect_tables
    from gridsight.qa._cells import cell_plan
    from gridsight.qa._relational import relation_of

    sheet = farms.sheets[0]
    rel = relation_of(sheet, detect_tables(sheet).tables[0])
    assert cell_plan(rel, "How much did lentil farms change in 2021?", "number") is None
    assert cell_plan(rel, "What is the Lentils figure per share in Coast in 2021?", "number").kind == "lookup"


def test_the_words_of_a_flat_table_are_left_to_the_other_routes(tmp_path: Path) -> None:
    from gridsight.detect import detect_tables
    from gridsight.qa._cells import cell_plan
    from gridsight.qa._relational import relation_of

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Name", "Score", "Age"])
    for row in [["Ann", 3, 30], ["Bo", 5, 40], ["Cy", 4, 50]]:
        ws.append(row)
    wb.save(tmp_path / "flat.xlsx")
    sheet = open_workbook(tmp_path / "flat.xlsx").sheets[0]
    rel = relation_of(sheet, detect_tables(sheet).tables[0])
    assert cell_plan(rel, "What is the average score?", "number") is None
    # a yes/no question setting named cells against each other is the cells' question, flat or not
    # (the planner counts and sums; the cells route comes last for flat tables)
    book = open_workbook(tmp_path / "flat.xlsx")
    assert answer_question(book, "Does Ann have a larger score than Cy?").value is False
    assert answer_question(book, "Did Bo have a higher age than Ann?").value is True


def test_a_row_that_sums_the_others_is_not_ranked_among_them(tmp_path: Path) -> None:
    # "Whole country" carries no total mark, but its figure is the others' sum in the asked column
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Region", "Jobs", "Jobs"])
    ws.append([None, 2020, 2021])
    for row in [["Whole country", 60, 66], ["Hills", 10, 12], ["Plains", 30, 24], ["Shore", 20, 30]]:
        ws.append(row)
    ws.merge_cells("B1:C1")
    wb.save(tmp_path / "jobs.xlsx")
    book = open_workbook(tmp_path / "jobs.xlsx")
    assert answer_question(book, "Which region had the most jobs in 2021?").value == "Shore"
    assert answer_question(book, "Which region had the fewest jobs in 2020?").value == "Hills"
    assert answer_question(book, "How many regions had more than 15 jobs in 2021?").value == 2


def test_a_change_between_two_cells_has_a_verified_formula(farms: Any) -> None:
    ans = answer_question(
        farms, "By how much did the number of farms with melons in Coast change from 2019 to 2021?"
    )
    assert ans.route == "cells" and ans.value == 330 - 380
    assert ans.formula is not None and ans.formula.count("XLOOKUP(") == 2


@pytest.mark.parametrize(
    ("a", "b", "near"),
    [("canada", "canadian", True), ("italy", "italian", True), ("china", "chinese", True),
     ("economy", "economic", True), ("model", "modern", False), ("state", "station", False),
     ("2023", "2024", False), ("high", "highest", True), ("feb", "february", True),
     ("japan", "japanese", True), ("sudan", "sudanese", True)],
)  # fmt: skip
def test_a_place_names_its_adjective(a: str, b: str, near: bool) -> None:
    from gridsight.qa._sqlgen import near_word

    assert near_word(a, b) is near and near_word(b, a) is near


def test_labels_with_quotes_are_read_as_values_not_sql() -> None:
    from gridsight.grid import Sheet
    from gridsight.grid import Workbook as Book

    cells: dict[str, object] = {"A1": "Outlet", "B1": "North", "C1": "North", "D1": "South", "E1": "South"}
    cells |= {"B2": 2019, "C2": 2021, "D2": 2019, "E2": 2021}
    cells |= {"A3": "Farmers' markets", "B3": 5, "C3": 7, "D3": 9, "E3": 4}
    cells |= {"A4": 'Shops "big"', "B4": 1, "C4": 2, "D4": 3, "E4": 4}
    book = Book([Sheet.from_cells("S", cells)])
    ans = answer_question(book, "How did Farmers' markets in the North change from 2019 to 2021?")
    assert (ans.status, ans.value, ans.route) == ("answered", 2, "cells")
    top = answer_question(book, "Which outlet had the most in the South in 2019?")
    assert top.value == "Farmers' markets"


# sex -> line -> region -> (2022, 2023); "Total" is the regions' sum, the blocks repeat the row labels
REGIONS = ["Northland", "Southland", "West Coast"]
LINES = ["Labour force", "Employment", "Unemployment"]
JOBS: dict[str, dict[str, dict[str, tuple[int, int]]]] = {
    sex: {
        line: {
            region: (base + 100 * i + 10 * j, base + 100 * i + 10 * j + 7) for i, region in enumerate(REGIONS)
        }
        for j, line in enumerate(LINES)
    }
    for base, sex in zip((400, 100, 700), ("Both sexes", "Men", "Women"), strict=True)
}


def _write_jobs(path: Path) -> Path:
    """A statistics office's layout: region groups (a total first) over years, one block of the same
    row labels per sex under a section row."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Jobs"
    ws["A1"] = "Labour force characteristics by region and sex (thousands)"
    ws["A1"].font = Font(bold=True)
    ws["A3"] = "Characteristic"
    for i, group in enumerate(["Total", *REGIONS]):
        col = 2 + 2 * i
        ws.cell(3, col, group)
        ws.merge_cells(start_row=3, start_column=col, end_row=3, end_column=col + 1)
        ws.cell(4, col, 2022)
        ws.cell(4, col + 1, 2023)
    r = 5
    for sex, lines in JOBS.items():
        ws.cell(r, 1, sex).font = Font(bold=True)
        r += 1
        for line, by_region in lines.items():
            ws.cell(r, 1, line)
            for y in range(2):
                ws.cell(r, 2 + y, sum(v[y] for v in by_region.values()))
                for i, region in enumerate(REGIONS):
                    ws.cell(r, 4 + 2 * i + y, by_region[region][y])
            r += 1
    wb.save(path)
    return path


@pytest.fixture(scope="module")
def jobs(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return open_workbook(_write_jobs(tmp_path_factory.mktemp("cells") / "jobs.xlsx"))


J = JOBS


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # three members of one header level, one of them two words long
        (
            "Add up employment of women across Northland, Southland and West Coast for 2023.",
            sum(J["Women"]["Employment"][r][1] for r in REGIONS),
        ),
        # a share of the total column beside the named one
        (
            "What percentage of total 2023 employment of men was in West Coast?",
            100
            * J["Men"]["Employment"]["West Coast"][1]
            / sum(J["Men"]["Employment"][r][1] for r in REGIONS),
        ),
        # "unemployed" names the Unemployment row (one stem); the section is named
        ("How many women were unemployed in Southland in 2022?", J["Women"]["Unemployment"]["Southland"][0]),
        # no section named: the first block, the whole
        ("What was employment in Northland in 2023?", J["Both sexes"]["Employment"]["Northland"][1]),
        # "how much more (or less)": the first named less the second
        (
            "How much more (or less) employment did Northland have than Southland in 2023 among men?",
            J["Men"]["Employment"]["Northland"][1] - J["Men"]["Employment"]["Southland"][1],
        ),
    ],
)
def test_cells_named_across_repeated_blocks_and_groups(jobs: Any, question: str, answer: float) -> None:
    ans = answer_question(jobs, question)
    assert ans.status == "answered", ans.reason
    assert ans.value == pytest.approx(answer), (ans.value, ans.query)
    assert evidence_valid(ans, jobs)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Coast lentil farms: 2021 less 2019?", 400 - 250),  # "less" between the two: a subtraction
        ("By how much did barley farms in Coast fall from 2019 to 2021?", 100 - 90),  # fell by: positive
        (
            "What was the percentage change in melon farms in Coast from 2019 to 2021?",
            100 * (330 - 380) / 380,
        ),
        ("Lentil farms in 2021: Coast divided by Upland?", 400 / 280),
        ("Lentil farms in 2021: Coast divided by Upland, in percent?", 100 * 400 / 280),
        # "later minus earlier": ordered by the years, whichever the question names first
        ("Coast lentil farms between 2019 and 2021 (later minus earlier)?", 400 - 250),
        ("Coast lentil farms, 2021 and 2019: earlier minus later?", 250 - 400),
        # rounded as asked, to the places the question names
        ("Lentil farms in 2021: Coast divided by Upland, to two decimal places?", 1.43),
        ("Lentil farms in 2021: Coast divided by Upland, to the nearest whole number?", 1),
        ("Were orchid farms in Upland below 30 in 2021?", True),  # one cell against a number
        ("Did orchid farms in Coast exceed 190 in 2021?", False),
    ],
)
def test_operations_read_from_the_words_between_members(farms: Any, question: str, answer: object) -> None:
    ans = answer_question(farms, question)
    assert ans.status == "answered", ans.reason
    assert ans.value == pytest.approx(answer) and type(ans.value) is type(answer), (ans.value, ans.query)


def test_a_period_of_two_header_levels_is_an_answer(tmp_path: Path) -> None:
    # the periods are year › half; "in which period" names no level: the answer is both parts
    from .conftest import write_balance

    book = open_workbook(write_balance(tmp_path / "balance.xlsx"))
    ans = answer_question(book, "In which period was Cash highest (actual figures)?")
    assert (ans.status, ans.value) == ("answered", "2024 H1"), (ans.reason, ans.query)


def test_a_total_row_named_by_a_shared_word_is_no_member(tmp_path: Path) -> None:
    # "assets" names Total assets too, but "total" names nothing: Current assets is the one meant
    from .conftest import write_balance

    book = open_workbook(write_balance(tmp_path / "balance.xlsx"))
    ans = answer_question(book, "Which was larger in 2023 H2 (actual): current assets or buildings?")
    assert (ans.status, ans.value) == ("answered", "Buildings"), (ans.reason, ans.query)


def test_a_near_spelling_names_no_header_when_a_word_names_one_as_written() -> None:
    # "plant" (a row's word) is one letter from "Plan": the Actual column is the one named
    from gridsight.grid import Sheet, Workbook

    cells: dict[str, object] = {"A1": "Item", "B1": "2024", "C1": "2024", "B2": "Actual", "C2": "Plan"}
    rows = {"Plant and machinery": (500, 900), "Cash": (700, 300), "Inventory": (90, 80)}
    for r, (label, (actual, plan)) in enumerate(rows.items(), start=3):
        cells |= {f"A{r}": label, f"B{r}": actual, f"C{r}": plan}
    book = Workbook([Sheet.from_cells("Balance", cells, merges=["B1:C1"])])
    ans = answer_question(book, "Which was larger in 2024, actual: plant and machinery or cash?")
    assert (ans.status, ans.value) == ("answered", "Cash"), (ans.reason, ans.query)


def test_which_period_chooses_among_the_period_columns() -> None:
    # "period" names no header: every column headed by periods (year › half) is a candidate
    from gridsight.grid import Sheet, Workbook

    cells: dict[str, object] = {"A1": "Item", "B1": "2022", "D1": "2023", "B2": "H1", "C2": "H2"}
    cells |= {"D2": "H1", "E2": "H2"}
    rows = {"Cash": (40, 35, 50, 45), "Debt": (90, 70, 80, 95)}
    for r, (label, figures) in enumerate(rows.items(), start=3):
        cells[f"A{r}"] = label
        cells |= {f"{c}{r}": v for c, v in zip("BCDE", figures, strict=True)}
    book = Workbook([Sheet.from_cells("Balance", cells, merges=["B1:C1", "D1:E1"])])
    assert answer_question(book, "In which period was Cash highest?").value == "2023 H1"
    assert answer_question(book, "In which period was debt lowest?").value == "2022 H2"


def test_members_sharing_words_are_ordered_by_the_words_that_differ() -> None:
    # both columns are "31 Dec ...": where the question names 2024 and 2023 sets the order, so
    # "higher or lower in 2024 than in FY2023" is 2024 less 2023
    from gridsight.grid import Sheet, Workbook

    cells: dict[str, object] = {"A1": "Item", "B1": "31 Dec 2023", "C1": "31 Dec 2024", "B2": "Actual"}
    cells |= {"C2": "Actual", "A3": "Total liabilities", "B3": 1500, "C3": 1711, "A4": "Cash", "B4": 40}
    cells |= {"C4": 55}
    book = Workbook([Sheet.from_cells("Balance", cells)])
    q = "How much higher or lower was total liabilities at 31 December 2024 than in FY2023? (+ if higher)"
    ans = answer_question(book, q)
    assert (ans.status, ans.value) == ("answered", 211), (ans.reason, ans.query)


def _statement() -> Any:
    from gridsight.grid import Sheet, Workbook

    cells: dict[str, object] = {"A1": "Item", "B1": "2024", "C1": "2024", "B2": "Actual", "C2": "Plan"}
    rows = {
        "Cash at bank and in hand": (120, 100),
        "Trade and other receivables": (300, 280),
        "Property, plant and equipment": (900, 950),
        "Long-term debt": (700, 650),
        "Fuel and oil": (80, 90),
        "Total assets": (1320, 1330),
    }
    for r, (label, (actual, plan)) in enumerate(rows.items(), start=3):
        cells |= {f"A{r}": label, f"B{r}": actual, f"C{r}": plan}
    return Workbook([Sheet.from_cells("Balance", cells, merges=["B1:C1"])])


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # each member named on its own, by part of its words
        ("What is the sum of cash and receivables in 2024 (actual)?", 420),
        ("Which was larger in 2024, actual: property, plant and equipment or long-term debt?",
         "Property, plant and equipment"),
        ("Between long-term debt and cash, which was higher in 2024 (plan)?", "Long-term debt"),
        # one label holds both words: no list
        ("What was fuel and oil in 2024, actual?", 80),
        # the columns' words name no row: "actual minus plan" is no list of rows
        ("Long-term debt in 2024: actual minus plan?", 50),
        # arithmetic written out between three rows, parentheses kept
        ("What is (fuel and oil plus long-term debt) divided by total assets in 2024, actual?", 780 / 1320),
        ("What is total assets minus (property, plant and equipment plus fuel and oil) in 2024 (plan)?", 290),
        # a ratio defined in words: each member where its words stand together ("total assets", not
        # the "assets" of "debt-to-assets" before it), in percent and rounded as asked
        ("Compute the debt-to-assets ratio, defined as long-term debt divided by total assets, in 2024 "
         "(actual). Two decimals.", 0.53),
        ("What is the debt ratio (debt divided by total assets) in 2024, plan, in percent to one decimal?",
         48.9),
        ("What is the cash cover (cash divided by receivables) in 2024 (actual)? Two decimals.", 0.4),
    ],
)  # fmt: skip
def test_two_listed_rows_are_named_each_on_its_own(question: str, answer: object) -> None:
    ans = answer_question(_statement(), question)
    assert (ans.status, ans.value) == ("answered", answer), (ans.reason, ans.query)


def test_the_head_word_of_a_named_row_names_no_total() -> None:
    # "intangible assets" names ``Intangibles``; its "assets" is no second row (``Total assets``)
    from gridsight.grid import Sheet, Workbook

    cells: dict[str, object] = {"A1": "Item", "B1": "2024", "C1": "2024", "B2": "Actual", "C2": "Plan"}
    rows = {"Intangibles": (40, 45), "Goodwill": (25, 20), "Inventories": (35, 30), "Total assets": (100, 95)}
    for r, (label, (actual, plan)) in enumerate(rows.items(), start=3):
        cells |= {f"A{r}": label, f"B{r}": actual, f"C{r}": plan}
    book = Workbook([Sheet.from_cells("Balance", cells, merges=["B1:C1"])])
    ans = answer_question(book, "How much were intangible asets in 2024 (actual)?")
    assert (ans.status, ans.value) == ("answered", 40), (ans.reason, ans.query)
    # a total named by a phrase of its own stays named
    ans = answer_question(book, "What share of assets were inventories in 2024, actual?")
    assert (ans.status, ans.value) == ("answered", 0.35), (ans.reason, ans.query)


def _nights(path: Path) -> Any:
    # a statistics office's table: footnote marks on row labels, a provisional year ("2023 p")
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws["A1"] = "Overnight stays by region"
    ws["A2"] = "in thousands"
    ws["A4"], ws["B4"], ws["D4"] = "Region", "2022", "2023 p"
    ws.merge_cells("B4:C4")
    ws.merge_cells("D4:E4")
    for c, v in zip("BCDE", ["Residents", "Non-residents"] * 2, strict=True):
        ws[f"{c}5"] = v
    rows = [("Eastern Plains 1)", (120, 80, 130, 95)), ("Coast 2)", (300, 250, 320, 270))]
    rows += [("Hills*", (90, 20, 85, 22)), ("Total", (510, 350, 535, 387))]
    for r, (label, figures) in enumerate(rows, start=6):
        ws.cell(r, 1, label)
        for i, x in enumerate(figures):
            ws.cell(r, 2 + i, x)
    ws["A11"] = "1) Including the former Marsh county."
    ws["A12"] = "p provisional"
    wb.save(path)
    return open_workbook(path)


@pytest.mark.parametrize(
    ("question", "answer", "unit"),
    [
        ("How many more resident nights did Coast have than Hills in 2023?", 235, "in thousands"),
        ("What share of all non-resident nights in 2023 were in Coast?", 270 / 387, None),
    ],
)
def test_footnote_marks_do_not_hide_a_label(
    tmp_path: Path, question: str, answer: float, unit: object
) -> None:
    ans = answer_question(_nights(tmp_path / "nights.xlsx"), question)
    assert ans.status == "answered" and ans.value == pytest.approx(answer), (ans.reason, ans.query)
    assert ans.unit == unit  # a share is no amount in thousands


# age band -> sex -> (2015, 2020); "Everyone" sums the bands and carries no total mark
BANDS: dict[str, dict[str, tuple[int, int]]] = {
    "0–14": {"Male": (60, 52), "Female": (58, 50)},
    "15–29": {"Male": (80, 90), "Female": (82, 85)},
    "30–49": {"Male": (110, 104), "Female": (100, 112)},
    "50–64": {"Male": (70, 86), "Female": (75, 80)},
    "65+": {"Male": (40, 48), "Female": (55, 63)},
}
GROUPS = {"Young": ["0–14", "15–29"], "Adult": ["30–49", "50–64"], "Senior": ["65+"]}


def _census(path: Path) -> Any:
    """Year › sex › (Number, Per cent) over age bands under three sections, an unmarked sum row."""
    wb, ws = _titled("Census", "Residents by age band and sex", "Age band")
    ws.merge_cells("A3:A5")
    totals = {s: [sum(BANDS[b][s][y] for b in BANDS) for y in range(2)] for s in ("Male", "Female")}
    for y, year in enumerate((2015, 2020)):
        col = 2 + 4 * y
        ws.cell(3, col, year)
        ws.merge_cells(start_row=3, start_column=col, end_row=3, end_column=col + 3)
        for s, sex in enumerate(("Male", "Female")):
            ws.cell(4, col + 2 * s, sex)
            ws.merge_cells(start_row=4, start_column=col + 2 * s, end_row=4, end_column=col + 2 * s + 1)
            ws.cell(5, col + 2 * s, "Number")
            ws.cell(5, col + 2 * s + 1, "Per cent")
    r = 6

    def figures(row: int, number: dict[str, tuple[int, int]]) -> None:
        for y in range(2):
            for s, sex in enumerate(("Male", "Female")):
                ws.cell(row, 2 + 4 * y + 2 * s, number[sex][y])
                ws.cell(row, 3 + 4 * y + 2 * s, round(100 * number[sex][y] / totals[sex][y], 1))

    for group, bands in GROUPS.items():
        ws.cell(r, 1, group).font = Font(bold=True)
        r += 1
        for band in bands:
            ws.cell(r, 1, band)
            figures(r, BANDS[band])
            r += 1
    ws.cell(r, 1, "Everyone")
    figures(r, {s: (totals[s][0], totals[s][1]) for s in ("Male", "Female")})
    wb.save(path)
    return open_workbook(path)


@pytest.fixture(scope="module")
def census(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _census(tmp_path_factory.mktemp("cells") / "census.xlsx")


B = BANDS


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # "women" names no header by its letters: Female is closest in meaning
        ("How many women aged 30–49 were there in 2020?", B["30–49"]["Female"][1]),
        # "which age band": a row label, and the unmarked sum row is none of the bands
        ("Which age band was the largest among men in 2015?", "30–49"),
        ("Which age band of women was the smallest in 2020?", "0–14"),
        # "what share": the table's own per cent column, not a number computed from the counts
        ("What share of all women in 2020 were aged 50–64?", round(100 * 80 / 390, 1)),
        # the row whose change between the two named years is largest
        ("Which age band of men grew the most between 2015 and 2020?", "50–64"),
        # every row past a number, a list
        ("Which age bands held more than 20 per cent of the male population in 2015?", ["15–29", "30–49"]),
        # a leading phrase of time, then a yes/no question
        ("In 2020, were there more men than women aged 65+?", False),
        ("Did the number of girls aged 0–14 fall from 2015 to 2020?", True),
        # "in total" with no row named: the total row's cells
        ("Were there more men than women in total in 2020?", False),
        ("What was the total number of residents, male and female, in 2015?", 360 + 370),
    ],
)
def test_census_questions_by_meaning_and_structure(census: Any, question: str, answer: object) -> None:
    ans = answer_question(census, question)
    assert ans.status == "answered", ans.reason
    assert ans.value == (pytest.approx(answer) if isinstance(answer, float) else answer), (
        ans.value,
        ans.query,
    )


def test_an_unmarked_row_that_sums_the_rows_above_is_a_total(census: Any) -> None:
    from gridsight.detect import detect_tables

    table = detect_tables(census.sheets[0]).tables[0]
    assert [r + 1 for r in table.total_rows] == [14]  # "Everyone", the last row


def test_a_word_and_its_negation_name_different_columns(tmp_path: Path) -> None:
    # "active" must not read the Inactive column (a negating prefix), nor a count of one row
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Town", "2019", None, "2020", None])
    ws.append([None, "Active", "Inactive", "Active", "Inactive"])
    for row in [["Ashby", 40, 12, 44, 10], ["Brill", 25, 30, 27, 31], ["Corfe", 33, 9, 30, 8]]:
        ws.append(row)
    ws.merge_cells("B1:C1")
    ws.merge_cells("D1:E1")
    wb.save(tmp_path / "towns.xlsx")
    book = open_workbook(tmp_path / "towns.xlsx")
    assert answer_question(book, "How many people were active in Brill in 2020?").value == 27
    assert answer_question(book, "Which town had the most inactive people in 2019?").value == "Brill"


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # the cells of one column over the rows of a named section, in the table's order
        ("List the numbers of men in the adult age bands in 2020.", [104, 86]),
        # "from 2015 to 2020" as a span; one row across the named columns
        ("List the numbers of women aged 65+ from 2015 to 2020.", [55, 63]),
        # no year named, "in total": every year summed
        ("How many male residents aged 15–29 were counted in total over both years?", 80 + 90),
    ],
)
def test_lists_and_sums_of_cells(census: Any, question: str, answer: object) -> None:
    ans = answer_question(census, question)
    assert ans.status == "answered", ans.reason
    assert ans.value == answer, (ans.value, ans.query)


def test_a_header_word_that_is_also_an_operation_names_its_column(tmp_path: Path) -> None:
    # "the highest band" names ``B3 (highest)``; "housing" (a first word no other label holds) names
    # ``Housing and energy``; the unit says the figures are percentages already
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Budget shares by income band"])
    ws.append(["Percentage of spending (%)"])
    ws.append([])
    ws.append(["Purpose", "2018", None, None, "2022", None, None])
    ws.append([None, "B1 (lowest)", "B2", "B3 (highest)", "B1 (lowest)", "B2", "B3 (highest)"])
    rows = [["Groceries", 30, 24, 15, 32, 25, 14], ["Housing and energy", 35, 30, 26, 38, 31, 25]]
    rows += [["Travel", 9, 12, 16, 8, 13, 18], ["Other", 26, 34, 43, 22, 31, 43]]
    rows += [["All purposes", 100, 100, 100, 100, 100, 100]]
    for row in rows:
        ws.append(row)
    ws.merge_cells("B4:D4")
    ws.merge_cells("E4:G4")
    wb.save(tmp_path / "bands.xlsx")
    book = open_workbook(tmp_path / "bands.xlsx")
    ans = answer_question(book, "Is the travel share of the highest band above 17% in 2022?")
    assert (ans.status, ans.value) == ("answered", True), (ans.reason, ans.query)
    ans = answer_question(
        book,
        "By how many percentage points did the housing share of the lowest band change from 2018 to 2022?",
    )
    assert (ans.status, ans.value) == ("answered", 3), (ans.reason, ans.query)


def _lines(ws: Any, rows: list[tuple[str, tuple[int, ...] | None]], top: int = 4) -> None:
    """Statement lines from row ``top``: the label in A, its figures from B (None: a section line)."""
    for r, (label, figures) in enumerate(rows, start=top):
        ws.cell(r, 1, label)
        for c, v in enumerate(figures or (), start=2):
            ws.cell(r, c, v)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What were net sales in the third quarter of 2024?", 640),
        ("Operating profit in Q1 2023?", 41),
        ("What were net sales in the second quarter of 2023?", 575),
    ],
)
def test_a_quarter_is_named_by_the_day_it_ends(tmp_path: Path, question: str, answer: object) -> None:
    # "Quarter ended › September 30": the third quarter; a section row per year below the first
    wb, ws = _titled("Quarters", "Results by quarter", "")
    ws["B2"] = "Quarter ended"
    ws.merge_cells("B2:E2")
    for col, day in zip("BCDE", ("March 31", "June 30", "September 30", "December 31"), strict=True):
        ws[f"{col}3"] = day
    rows = [
        ("Fiscal 2024", None),
        ("Net sales", (600, 610, 640, 700)),
        ("Operating profit", (52, 55, 60, 71)),
        ("Fiscal 2023", None),
        ("Net sales", (560, 575, 590, 650)),
        ("Operating profit", (41, 44, 47, 58)),
    ]
    _lines(ws, rows)
    wb.save(tmp_path / "quarters.xlsx")
    ans = answer_question(open_workbook(tmp_path / "quarters.xlsx"), question)
    assert (ans.status, ans.value) == ("answered", answer), (ans.reason, ans.query)


def test_a_phrase_head_names_no_total_named_in_full(tmp_path: Path) -> None:
    # "lease liabilities": its "liabilities" heads a phrase whose first word names other rows, so it
    # does not name TOTAL LIABILITIES ("total" names nothing); the lease row meant is then read
    wb, ws = _titled("BS", "Balance sheet", "")
    ws["B2"], ws["D2"] = "2023", "2024"
    ws.merge_cells("B2:C2")
    ws.merge_cells("D2:E2")
    for col, half in zip("BCDE", ("H1", "H2", "H1", "H2"), strict=True):
        ws[f"{col}3"] = half
    rows = [
        ("Liabilities:", None),
        ("Trade payables", (50, 52, 55, 57)),
        ("Operating lease liabilities", (20, 21, 19, 18)),
        ("Bank loans", (300, 290, 280, 270)),
        ("TOTAL LIABILITIES", (370, 363, 354, 345)),
    ]
    _lines(ws, rows)
    ws["A8"].font = Font(bold=True)
    wb.save(tmp_path / "bs.xlsx")
    ans = answer_question(open_workbook(tmp_path / "bs.xlsx"), "What were the lease liabilities in 2024 H1?")
    assert (ans.status, ans.value) == ("answered", 19), (ans.reason, ans.query)


@pytest.mark.parametrize("value", ["12.345", True, None, float("inf"), float("nan"), [1.234, 5.678]])
def test_rounding_as_asked_leaves_what_is_no_finite_number_alone(value: object) -> None:
    # text, a yes/no, an abstention, an overflow and a list keep their value, display and formula
    from gridsight.qa._answer import QAAnswer, rounded_as_asked

    ans = QAAnswer("q", "answered", value=value, display="shown", formula="=A1")
    out = rounded_as_asked(ans, "What is it, to two decimal places?" + " decimal" * 5000)
    assert (out.value is value or out.value == value, out.display, out.formula) == (True, "shown", "=A1")
