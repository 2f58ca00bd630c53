"""Where the formula tier and the planner's query disagree on a flat table, the reading that reads
every column the other reads and more, each named by the question, answers (``qa._wider``)."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

from gridsight.qa._pick import candidates
from gridsight.qa._route_sql import plan_query


def _districts() -> list[list[Any]]:
    rng = random.Random(11)
    rows: list[list[Any]] = [["District Code", "County", "districtName", "Grade Span", "Total Enrollment"]]
    for i in range(40):
        rows.append(
            [
                70000 + rng.randint(0, 9999),
                rng.choice(["Alder", "Birch", "Cedar"]),
                f"District {i}",
                rng.choice(["K-6", "K-8", "K-12"]),
                rng.randint(150, 30000),
            ]
        )
    return rows


@pytest.fixture(scope="module")
def districts(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "districts", _districts(), title="Districts")


def test_a_total_over_the_rows_is_read_where_the_question_names_its_column(districts: Any) -> None:
    rows = _districts()[1:]
    want = sum(r[4] for r in rows if r[3] == "K-6")
    # (not the count of K-6 districts: "enrolled" names ``Total Enrollment``)
    assert answered(districts, "How many pupils are enrolled in K-6 districts in total?") == want


def test_rows_are_ordered_by_the_measure_named_not_by_the_values_listed(districts: Any) -> None:
    rows = sorted(_districts()[1:], key=lambda r: -r[4])
    got = answered(districts, "Give the district codes of the 3 largest districts by enrollment.")
    assert [x[0] if isinstance(x, list) else x for x in got] == [r[0] for r in rows[:3]]


def test_a_column_more_that_the_question_does_not_name_decides_nothing(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    from gridsight.detect import detect_tables
    from gridsight.qa._answer import QAAnswer
    from gridsight.qa._relational import relation_of
    from gridsight.qa._wider import reads_more

    rows: list[list[Any]] = [["What is your hair color?", "What is your eye color?", "Age"]]
    rows += [[h, e, 20 + i] for i, (h, e) in enumerate(zip("ABAB", "CCDD", strict=True))]
    sheet = book_of(tmp_path_factory, "survey", rows).sheets[0]
    rel = relation_of(sheet, detect_tables(sheet).tables[0])

    def reading(*ranges: str) -> QAAnswer:
        return QAAnswer("q", "answered", evidence=[{"sheet": sheet.name, "range": r} for r in ranges])

    hair, both = reading("A2:A5"), reading("A2:A5", "B2:B5")
    # "color" is the hair column's word too: the eye column is named by no word of its own
    assert not reads_more(rel, "Is the most frequent hair color black?", hair, both, None)
    assert reads_more(
        rel, "Is brown the most frequent hair color where the eye color is D?", hair, both, None
    )
    assert reads_more(rel, "Which hair color do the oldest have?", hair, reading("A2:A5", "C2:C5"), "Age")
    assert not reads_more(rel, "Which hair color is most common?", hair, hair, None)


def test_the_most_dates_are_counted_not_ranked(tmp_path_factory: pytest.TempPathFactory) -> None:
    rows: list[list[Any]] = [["Season", "Date", "Venue"]]
    races = [(1993, (1993, 2, 27)), (1994, (1993, 12, 12)), (1994, (1993, 12, 29)), (1994, (1994, 1, 15))]
    races += [(1995, (1995, 1, 7)), (1995, (1995, 3, 2))]
    rows += [[season, dt.date(*day), f"Venue {i}"] for i, (season, day) in enumerate(races)]
    book = book_of(tmp_path_factory, "races", rows)
    question = "Which season had the most dates?"
    plan, _ = plan_query(candidates(book, None, question)[0], question)
    assert plan is None or 'ORDER BY "Date"' not in plan.sql
    assert answered(book, question) == 1994


@pytest.mark.parametrize(
    "question",
    ["How many in total?", "Give the codes of the 0 largest by enrollment.", "Which K-6 K-8 K-12 in total?"],
)
def test_odd_questions_answer_or_say_why(districts: Any, question: str) -> None:
    answers_or_says_why(districts, question)


def _respondents() -> list[list[Any]]:
    rng = random.Random(5)
    rows: list[list[Any]] = [["respondent_id", "Gender", "Age (years)", "score"]]
    for i in range(80):
        rows.append([61000 + 7 * i, rng.choice(["Male", "Female"]), rng.randint(14, 80), rng.randint(1, 6)])
    return rows


@pytest.fixture(scope="module")
def respondents(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "respondents", _respondents())


def test_rows_are_not_ranked_or_compared_by_the_column_that_numbers_them(respondents: Any) -> None:
    rows = _respondents()[1:]
    ages = sorted((r[2] for r in rows), reverse=True)
    got = answered(respondents, "What are the ages of the 5 oldest respondents?")
    assert [x[0] if isinstance(x, list) else x for x in got] == ages[:5]
    assert answered(respondents, "How many respondents are younger than 18?") == sum(r[2] < 18 for r in rows)
    # an id the question names is what it asks about
    assert answered(respondents, "How many respondents have an id below 61070?") == 10


def test_a_count_for_each_group_is_a_list_of_counts(respondents: Any) -> None:
    from collections import Counter

    from gridsight.qa._pipeline import expected_type

    counts = sorted(Counter(r[1] for r in _respondents()[1:]).values(), reverse=True)
    assert (
        answered(respondents, "How many respondents of each gender are there, larger group first?") == counts
    )
    asked = "How many respondents does each gender have? Smallest group first."
    assert answered(respondents, asked) == counts[::-1]
    assert expected_type("How many respondents of each gender are there?") == "list"
    assert expected_type("How many respondents are there in each gender on average?") == "number"
    assert expected_type("How many distinct scores does each gender give?") != "list"


def _stays() -> list[list[Any]]:
    rng = random.Random(9)
    rows: list[list[Any]] = [
        [
            "stay_id",
            "Ward",
            "Length of Stay (days)",
            "Did the patient die during the stay?",
            "Is the ward urban?",
        ]
    ]
    for i in range(60):
        rows.append(
            [500 + i, rng.choice(["A", "B", "C"]), rng.randint(1, 30), rng.random() < 0.2, rng.random() < 0.5]
        )
    return rows


def test_a_header_written_as_a_question_is_named_by_its_own_word(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    rows = _stays()
    book = book_of(tmp_path_factory, "stays", rows)
    data = rows[1:]
    assert answered(book, "How many patients died?") == sum(r[3] for r in data)

    def mean(xs: list[int]) -> float:
        return sum(xs) / len(xs)

    urban = mean([r[2] for r in data if r[4]]) > mean([r[2] for r in data if not r[4]])
    assert (
        answered(book, "Is the average length of stay of urban wards higher than that of non-urban wards?")
        is urban
    )


def test_a_function_word_is_no_plural_of_a_short_code(tmp_path_factory: pytest.TempPathFactory) -> None:
    rows: list[list[Any]] = [["state_code", "State", "Year", "Population"]]
    for code, state, base in [("WA", "Washington", 4800), ("OR", "Oregon", 2800), ("HA", "Hawaii", 1100)]:
        rows += [[code, state, year, base + 10 * i] for i, year in enumerate(range(1985, 1991))]
    book = book_of(tmp_path_factory, "states", rows)
    # "was" names no ``WA`` and "has" no ``HA``: Oregon's row of 1990 is the one asked
    question = "What was the population of Oregon in 1990?"
    plan, _ = plan_query(candidates(book, None, question)[0], question)
    assert plan is not None and "'WA'" not in plan.sql
    assert answered(book, question) == 2850
    assert answered(book, "Which state has the largest population in 1987?") == "Washington"
    # one figure per year listed, or per year of a span asked year by year
    assert answered(book, "What was the population of Washington in 1986, 1988 and 1990?") == [
        4810,
        4830,
        4850,
    ]
    assert answered(book, "What was Oregon's population from 1985 to 1988, in year order?") == [
        2800,
        2810,
        2820,
        2830,
    ]
    # (a year of several figures: which one is asked is unclear)
    plan, _ = plan_query(
        candidates(book, None, "What was the population in 1986 and 1988?")[0],
        "What was the population in 1986 and 1988?",
    )
    assert plan is None or plan.kind != "years"


@pytest.mark.parametrize(
    "question",
    [
        "Are there more female than male respondents?",
        "Are there more women than men among the respondents?",
        "Are there fewer male respondents than female respondents?",
    ],
)
def test_the_rows_of_two_values_are_counted_against_each_other(respondents: Any, question: str) -> None:
    genders = [r[1] for r in _respondents()[1:]]
    assert answered(respondents, question) is (genders.count("Female") > genders.count("Male"))


def test_the_compass_superlatives_rank_by_the_coordinates(tmp_path_factory: pytest.TempPathFactory) -> None:
    rows: list[list[Any]] = [["airportName", "City", "Latitude (deg)", "longitude_deg"]]
    rows += [
        ["Harbor Field", "Portsea", 47.6, -122.3],
        ["Ridge Strip", "Elkton", 61.2, -149.9],
        ["Palm Air", "Keyport", 24.6, -81.8],
        ["Prairie Intl", "Bismo", 46.8, -100.8],
        ["Cape Point", "Adaro", 51.9, -176.6],
    ]
    book = book_of(tmp_path_factory, "airfields", rows)
    assert [
        x[0] if isinstance(x, list) else x for x in answered(book, "Name the 2 northernmost airports.")
    ] == [
        "Ridge Strip",
        "Cape Point",
    ]
    assert answered(book, "In which city is the westernmost airport?") == "Adaro"
    assert answered(book, "What is the name of the southernmost airport?") == "Palm Air"


@pytest.mark.parametrize(
    "question",
    [
        "How many respondents of each each each are there?",
        "How many respondents of each are there, smallest first?",
        "Are there more than than respondents?",
        "Are there more female than female respondents?",
        "Are there more ' OR 1=1 -- than male respondents?",
        "Which is the northernmost northernmost respondent?",
        "What was the score in " + ", ".join(str(y) for y in range(1900, 2000)) + " and 2000?",
        "What was the score from 2099 to 1900, in year order?",
        "What was the score from 1900 to 2099, year by year?",
    ],
)
def test_odd_counts_comparisons_and_year_lists_answer_or_say_why(respondents: Any, question: str) -> None:
    answers_or_says_why(respondents, question)
