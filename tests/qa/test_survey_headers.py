"""Flat tables with a survey's headers: questions as headers (an emoji after the question mark),
camelCase headers, a row noun that names an identifier, a year column beside a date column.

Each answer is computed here from the rows themselves, and the question pipeline must give it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

TEAMS = ["Sales", "Support", "Finance", "Design"]
GRADES = ["Junior", "Senior", "Lead"]
HEADER = [
    "Respondent ID",
    "Which team are you in?",
    "Grade",
    "How happy are you with your manager? 🙂",
    "Do you travel for work? ✈️",
    "Salary (GBP)",
    "hoursPerWeek",
    "Would you join us again? 👍",
    "mentoringHoursThisYear",
    "What should we change? 💬",
]


def _people() -> list[list[Any]]:
    rng = random.Random(7)
    rows = []
    for i in range(60):
        grade = GRADES[i % 3]
        rows.append(
            [
                1000 + i,
                TEAMS[rng.randrange(4)],
                grade,
                rng.randint(1, 10),
                rng.random() < 0.4,
                30000 + 1000 * rng.randrange(60) + i,  # (no two alike: one best-paid person)
                round(30 + rng.random() * 20, 1) + i / 1000,
                # every lead but the last would join again
                grade != "Lead" or i < 57,
                round(rng.random() * 40, 1) + i / 1000,
                "" if rng.random() < 0.3 else "More flexible hours",
            ]
        )
    return rows


PEOPLE = _people()


def _col(name: str) -> int:
    return HEADER.index(name)


@pytest.fixture(scope="module")
def survey(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "survey", [HEADER, *PEOPLE])


def _top(by: str, n: int) -> list[list[Any]]:
    return sorted(PEOPLE, key=lambda r: r[_col(by)], reverse=True)[:n]


def test_a_question_header_with_an_emoji_is_a_yes_no_column_a_modal_asks_about(survey: Any) -> None:
    # "would every lead ...": a yes/no question opened by a modal; the header "Would you join us
    # again? 👍" is named by its own words, though an emoji follows its question mark
    leads = [r for r in PEOPLE if r[_col("Grade")] == "Lead"]
    expected = all(r[_col("Would you join us again? 👍")] for r in leads)
    assert expected is False
    assert answered(survey, "Would every lead join us again?") is False
    assert answered(survey, "Would every junior join us again?") is True


def test_how_adjective_reads_the_header_that_asks_it(survey: Any) -> None:
    got = answered(survey, "How happy are the 3 people who put in the most hours per week?")
    got = [v[0] if isinstance(v, list) and len(v) == 1 else v for v in got]  # (a column of one-cell rows)
    expected = [r[_col("How happy are you with your manager? 🙂")] for r in _top("hoursPerWeek", 3)]
    assert got == expected


def test_left_blank_counts_the_empty_cells_of_the_column_named(survey: Any) -> None:
    expected = sum(1 for r in PEOPLE if not r[_col("What should we change? 💬")])
    assert answered(survey, "How many people left the change suggestion blank?") == expected


def test_the_person_with_the_most_of_a_figure_is_a_row_not_a_group(survey: Any) -> None:
    # "the person with the most mentoring hours": "person" names no column, so the row with the
    # most, not the grade with the most rows
    expected = _top("mentoringHoursThisYear", 1)[0][_col("Grade")]
    assert answered(survey, "What grade is the person with the most mentoring hours in?") == expected


def test_a_row_that_names_an_identifier_is_not_negated_by_its_spelling(survey: Any) -> None:
    # "respondent" ends in "nt", as "don't" does without its apostrophe: no negation
    best = _top("Salary (GBP)", 1)[0]
    got = answered(survey, "Does the respondent with the highest salary travel for work?")
    assert got is bool(best[_col("Do you travel for work? ✈️")])


def test_the_other_side_naming_the_same_yes_no_column_is_its_other_value(survey: Any) -> None:
    salary, travel = _col("Salary (GBP)"), _col("Do you travel for work? ✈️")
    yes = [r[salary] for r in PEOPLE if r[travel]]
    no = [r[salary] for r in PEOPLE if not r[travel]]
    expected = sum(yes) / len(yes) > sum(no) / len(no)
    question = (
        "Do people who travel for work have a higher average salary than people who work in the office?"
    )
    assert answered(survey, question) is expected


BIKES_HEADER = ["bike_id", "Make", "Year", "Seller", "Listed On", "Price"]


def _bikes() -> list[list[Any]]:
    import datetime as dt

    rng = random.Random(3)
    return [
        [
            500 + i,
            ["Trek", "Giant", "Orbea"][i % 3],
            2005 + rng.randrange(18),
            "Shop" if rng.random() < 0.5 else "Private",
            dt.datetime(2023, 1, 1) + dt.timedelta(days=rng.randrange(500)),
            200 + rng.randrange(900),
        ]
        for i in range(50)
    ]


BIKES = _bikes()


def test_a_year_bound_goes_to_the_year_column_when_the_date_column_is_not_named(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    book = book_of(tmp_path_factory, "bikes", [BIKES_HEADER, *BIKES])
    expected = sum(1 for r in BIKES if r[2] < 2015 and r[3] == "Shop")
    assert expected > 0
    assert answered(book, "How many bikes made before 2015 are sold by a shop?") == expected
    # the date column named by its words keeps the bound: listed in 2024
    listed = sum(1 for r in BIKES if r[4].year == 2024)
    assert answered(book, "How many bikes were listed in 2024?") == listed


def test_a_row_noun_that_names_an_identifier_and_a_figure_compares_the_figure(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    rng = random.Random(5)
    wards = ["Cardiology", "Oncology", "Surgery", "Maternity"]
    rows = [[9000 + i, rng.randint(18, 95), wards[rng.randrange(4)]] for i in range(80)]
    book = book_of(tmp_path_factory, "ward", [["patient_id", "Patient Age", "Ward"], *rows])
    counts: dict[str, int] = {}
    for r in rows:
        if r[1] > 70:
            counts[r[2]] = counts.get(r[2], 0) + 1
    ranked = sorted(counts, key=lambda w: -counts[w])
    assert counts[ranked[0]] != counts[ranked[1]]
    assert answered(book, "What is the most common ward for patients over 70?") == ranked[0]


@pytest.mark.parametrize(
    "question",
    [
        "Would you?",
        "Could you list the teams?",  # a polite request, no yes/no question
        "Would every?",
        "How happy?",
        "How many people left the blank blank?",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(survey: Any, question: str) -> None:
    answers_or_says_why(survey, question)


def test_a_season_written_as_two_years_is_read_as_the_value_a_column_holds(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # "the 2021/22 season" is a fiscal year ending 2022 only where no cell writes years so; here the
    # Season column holds ``2021/22`` itself
    rng = random.Random(11)
    seasons = ["2020/21", "2021/22", "2022/23"]
    rows = [[i, seasons[i % 3], 9000 + rng.randrange(20000)] for i in range(45)]
    book = book_of(tmp_path_factory, "matches", [["match_id", "Season", "Attendance"], *rows])
    expected = sorted(r[2] for r in rows if r[1] == "2021/22")[:3]
    assert expected != sorted(r[2] for r in rows)[:3]
    assert answered(book, "List the 3 smallest attendances of the 2021/22 season.") == expected


def test_a_share_of_a_measure_is_the_measures_not_the_rows(tmp_path_factory: pytest.TempPathFactory) -> None:
    rng = random.Random(13)
    rows = [
        [i, ["North", "South", "East"][i % 3], 100 + rng.randrange(900), 1 + rng.randrange(9)]
        for i in range(30)
    ]
    book = book_of(tmp_path_factory, "sales", [["order_id", "Region", "Revenue (EUR)", "Units"], *rows])
    revenue = sum(r[2] for r in rows)
    north = sum(r[2] for r in rows if r[1] == "North")
    got = answered(book, "What percentage of total revenue came from the North?")
    assert got == pytest.approx(100 * north / revenue)
    units = sum(r[3] for r in rows)
    south = sum(r[3] for r in rows if r[1] == "South")
    assert answered(book, "What share of units were sold in the South?") == pytest.approx(south / units)
    # a share of the rows where no measure is named: a third of the orders
    assert answered(book, "What percentage of orders were from the East?") == pytest.approx(100 / 3)


def test_a_measure_whose_total_row_adds_up_the_rest_is_not_shared_twice(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # the total row is already among the rows: a sum over them would count every figure twice; the
    # share is of the total row's figure
    rows = [["Area", "Offences"], ["All areas", 100], ["Ashby", 60], ["Bourne", 25], ["Carlow", 15]]
    book = book_of(tmp_path_factory, "areas", rows)
    assert answered(book, "What percentage of offences were in Bourne?") == 25
    assert answered(book, "What share of all offences were in Bourne?") == 0.25
