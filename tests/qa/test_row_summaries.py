"""Summaries of a flat table's rows the planner reads (``qa._plan``): the spread of a measure, two
aggregates of one measure compared, values never recorded, a bound on a share of rows, lists
written with a delimiter, a value no cell holds, and a header written as initials."""

from __future__ import annotations

import datetime as dt
import random
import statistics
from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

from gridsight.qa._absent import absent_phrase, value_column
from gridsight.qa._bounds import share_cut
from gridsight.qa._columns import mentions
from gridsight.qa._listcells import list_form
from gridsight.text import meaning_by_values

_COLOURS = ("Silver", "Black", "White", "Red", "Blue", "Grey")
_EXTRAS = ("Sunroof", "Heated seats", "Tow hitch", "Roof rack", "Parking sensors")
_STATES = ("Ohio", "Texas", "Utah", "Maine")


def _cars() -> list[list[Any]]:
    """A lot of used cars: a code per row, a colour, a list of extras joined by commas, a yes/no
    accident flag, a price skewed high, mileage, a mostly filled fuel economy, and two sales-like
    measures of which one is written as initials (``NW_Miles``: "north western miles")."""
    rng = random.Random(27)
    rows: list[list[Any]] = [
        ["lot_code", "colour", "extras", "accident", "price", "mileage", "mpg", "NW_Miles", "Total_Miles"]
    ]
    for i in range(120):
        extras = ", ".join(rng.sample(_EXTRAS, rng.randint(0, 3)))
        rows.append(
            [
                f"C{i:03d}",
                rng.choice(_COLOURS),
                extras or None,
                "Yes" if i % 9 == 0 else "No",
                round(rng.lognormvariate(9.5, 0.6), 2),
                rng.randint(5_000, 190_000),
                None if i % 23 == 5 else rng.randint(18, 45),
                rng.randint(100, 900),
                rng.randint(1000, 9000),
            ]
        )
    return rows


@pytest.fixture(scope="module")
def cars(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "cars", _cars(), title="Cars")


def _col(name: str) -> list[Any]:
    rows = _cars()
    i = rows[0].index(name)
    return [r[i] for r in rows[1:]]


def test_the_spread_of_a_measure_is_its_highest_less_its_lowest(cars: Any) -> None:
    mileage = _col("mileage")
    spread = max(mileage) - min(mileage)
    assert answered(cars, "What is the range of mileage (maximum minus minimum)?") == spread
    assert answered(cars, "What is the difference between the highest and lowest mileage?") == spread
    assert answered(cars, "What's the gap between the lowest and the highest mileage?") == spread


def test_two_aggregates_of_one_measure_are_compared(cars: Any) -> None:
    price = _col("price")
    above = statistics.mean(price) > statistics.median(price)
    assert above  # (a skewed price: the test reads a true answer and its negation)
    assert answered(cars, "Is the mean price greater than its median?") is above
    assert answered(cars, "Is the average price lower than the median price?") is not above


def test_a_value_never_recorded_is_asked_about(cars: Any) -> None:
    mpg = _col("mpg")
    assert answered(cars, "Is the mpg missing for any car?") is any(v is None for v in mpg)
    assert answered(cars, "Do all cars have a colour recorded?") is True
    assert answered(cars, "Do all cars have an mpg recorded?") is False


def test_a_bound_on_a_share_of_rows_is_a_yes_or_no(cars: Any) -> None:
    flags = _col("accident")
    share = flags.count("Yes") / len(flags)  # 14 of 120
    assert 0.10 < share < 0.15
    assert answered(cars, "Were more than 10% of the cars reported as having had an accident?") is True
    assert answered(cars, "Is the share of cars that had an accident above 15%?") is False
    assert answered(cars, "Is the proportion of cars with an accident at least 12%?") is (share >= 0.12)


def test_what_bounds_a_share_of_rows() -> None:
    assert share_cut("is the share of trips that were round trips above 75%?")[:3] == (">", 0.75, "share")
    assert share_cut("were more than 5% of the cars damaged?")[:3] == (">", 0.05, "")
    assert share_cut("is the proportion of late orders at most 10 percent?")[:3] == ("<=", 0.1, "proportion")
    assert share_cut("is the price above 75?") is None and share_cut("is the discount above 20%?") is None


def test_a_list_written_with_a_delimiter_counts_items_not_cells(cars: Any) -> None:
    extras = [set((e or "").split(", ")) for e in _col("extras")]
    assert answered(cars, "How many cars come with Heated seats?") == sum("Heated seats" in e for e in extras)
    counts = {x: sum(x in e for e in extras) for x in _EXTRAS}
    top = max(counts.values())
    assert list(counts.values()).count(top) == 1
    assert answered(cars, "Which extra appears most often?") == max(counts, key=lambda x: counts[x])


def test_an_item_of_a_delimited_list_as_an_excel_formula(cars: Any) -> None:
    from gridsight.qa import formula_from_question

    extras = [set((e or "").split(", ")) for e in _col("extras")]
    got = formula_from_question("How many cars come with Heated seats?", cars)
    assert got.value == sum("Heated seats" in e for e in extras)
    assert got.formula is not None and "SUBSTITUTE(C2:C121" in got.formula  # (checked by the engine)


def test_what_makes_a_column_a_list() -> None:
    assert list_form(["a, b", "b, c", "a", "c, a", "b"]) is not None
    got = list_form(["Sunroof; Tow hitch", "Sunroof", "Tow hitch; Roof rack", "Roof rack; Sunroof"])
    assert (
        got is not None and got.delimiter == ";" and set(got.items) == {"Sunroof", "Tow hitch", "Roof rack"}
    )
    # names and places written with a comma are no lists: their parts do not recur in combinations
    assert list_form(["Smith, John", "Doe, Jane", "Brown, Ann", "Lee, Bo", "Khan, Ali"]) is None
    assert list_form(["Portland, OR", "Salem, OR", "Austin, TX", "Dallas, TX", "Reno, NV"]) is None
    assert list_form(["1, 2", "2, 3", "1, 3", "3"]) is None  # numbers, not items
    assert list_form([]) is None and list_form([None, 3]) is None
    assert list_form(["['wifi', 'pool']", "['pool']", "[]"]) is not None  # as pandas writes them


def test_a_value_no_cell_holds_is_answered_no(cars: Any) -> None:
    assert answered(cars, "Are there any cars painted Purple?") is False
    assert answered(cars, "Are there any cars painted Silver?") is True  # held: read, not absent
    assert answered(cars, "Is there at least one car with lot code Z999?") is False


def test_what_makes_a_name_absent() -> None:
    heads = {"lot", "code", "colour", "extras"}
    assert absent_phrase("Are there any cars painted Purple?", [], heads) == "Purple"
    # the rows themselves, a header's words, a value a filter read: no absent value
    assert absent_phrase("Are there any Pokémon faster than 150?", [], heads) is None
    assert absent_phrase("Is there any car with Extras listed?", [], heads) is None
    assert absent_phrase("Are there any cars painted Purple?", ["purple"], heads) is None
    assert absent_phrase("Are there any cars from Ohio painted Purple?", [], heads) is None  # two names
    # codes go to a column of codes of their shape; words to the column of values close in meaning
    codes = {"origin": ["JFK", "LAX", "ORD"], "carrier": ["Delta Air Lines", "United Airlines"]}
    assert value_column("HNL", codes) == "origin" and value_column("HNLX", codes) is None
    colours = {"colour": list(_COLOURS), "state": list(_STATES), "lot": ["C001", "C002"]}
    assert value_column("Purple", colours) == "colour"
    assert value_column("Purple", colours, ["state"]) == "colour"  # (a state is no colour)


def test_a_header_written_as_initials_is_named_by_the_words(cars: Any) -> None:
    assert mentions(["north", "american", "sales"], "NA_Sales") == 1.0
    assert mentions(["next", "opponent"], "No.") == 0.0  # (initials only where the header writes capitals)
    assert mentions(["north", "american"], "na_sales") == 0.0
    # three lower-case letters no English word is are initials too; a word is not ("age")
    assert mentions(["average", "daily", "rate"], "adr") == 1.0
    assert mentions(["annual", "growth", "estimate"], "age") == 0.0
    nw = _col("NW_Miles")
    assert answered(cars, "What is the difference between the highest and lowest north western miles?") == (
        max(nw) - min(nw)
    )


def _students() -> list[list[Any]]:
    """Students: an identifier, a letter grade, a grade level, a math score, absences (a column that
    counts) and a total of points (a header "total" names)."""
    rng = random.Random(11)
    rows: list[list[Any]] = [
        ["student_ref", "final_grade", "Grade Level", "math_score", "absences", "total_pts"]
    ]
    for i in range(80):
        grade = "ABCDF"[i % 5]
        score = {"A": 90, "B": 80, "C": 70, "D": 60, "F": 50}[grade] + rng.randint(0, 9)
        rows.append([f"S{i:03d}", grade, f"{9 + i % 4}th", score, rng.randint(0, 12), rng.randint(100, 400)])
    return rows


@pytest.fixture(scope="module")
def students(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "students", _students(), title="Students")


def test_a_capital_letter_after_the_words_of_its_column_is_a_value(students: Any) -> None:
    rows = _students()[1:]
    c_scores = sorted((r[3] for r in rows if r[1] == "C"), reverse=True)
    got = answered(students, "What are the 2 highest math scores among students with a final grade of C?")
    assert [g[0] if isinstance(g, list) else g for g in got] == c_scores[
        :2
    ]  # (a column of values, or a list)
    # ("final" is a word of ``final_grade``'s header, not its code F)
    assert answered(students, "List the 2 final grades with the highest mean math score.") == ["A", "B"]


def test_an_aggregate_said_before_number_of_a_counting_column(students: Any) -> None:
    rows = _students()[1:]
    b_absences = [r[4] for r in rows if r[1] == "B"]
    a_absences = [r[4] for r in rows if r[1] == "A"]
    got = answered(students, "What is the highest number of absences among students with a final grade of B?")
    assert got == max(b_absences)
    got = answered(
        students, "On average, what is the number of absences of students with a final grade of A?"
    )
    assert got == pytest.approx(sum(a_absences) / len(a_absences))
    # the rows' identifier names what is counted: "total" is no sum of ``total_pts``
    assert answered(students, "What is the total number of students with a final grade of B?") == len(
        b_absences
    )


def test_a_word_names_the_column_whose_values_it_describes(tmp_path_factory: pytest.TempPathFactory) -> None:
    carriers = ["Alaska Airlines", "Delta Air Lines", "JetBlue Airways", "Delta Air Lines", "Delta Air Lines"]
    rows: list[list[Any]] = [["flight_no", "Carrier", "cause", "air_time"]]
    for i, (carrier, minutes) in enumerate(zip(carriers, (200, 150, 320, 140, 160), strict=True)):
        rows.append([f"FL{i}", carrier, ("Weather", "Late Aircraft")[i % 2], minutes])
    flights = book_of(tmp_path_factory, "flights", rows, title="Flights")
    # no header says "airline": the column of airlines does
    assert answered(flights, "Which airline has the highest average air time?") == "JetBlue Airways"
    assert answered(flights, "Which airline has the most flights?") == "Delta Air Lines"
    held = {"Carrier": ["Alaska Airlines", "Delta Air Lines"], "cause": ["Weather", "Late Aircraft"]}
    assert {w: c for w, (c, _cos) in meaning_by_values(["airline", "banana", "the"], held).items()} == {
        "airline": "Carrier"
    }
    assert meaning_by_values(["airline"], {}) == {}


def test_the_group_with_the_most_rows_that_pass_a_bound(students: Any) -> None:
    rows = _students()[1:]
    counts = {g: sum(r[1] == g and r[4] > 6 for r in rows) for g in "ABCDF"}
    top = max(counts.values())
    assert list(counts.values()).count(top) == 1
    # ("with more than 6 absences" keeps rows; it is no bound on each grade's row count)
    got = answered(students, "Which final grade has the most students with more than 6 absences?")
    assert got == max(counts, key=lambda g: counts[g])


def _charts() -> list[list[Any]]:
    """Chart entries: the week charted and the day released (two dates), a label, and weeks on the
    chart (a number column "chart" names)."""
    rng = random.Random(3)
    rows: list[list[Any]] = [["chart_week", "track", "label", "weeks_on_chart", "releaseDate"]]
    for i in range(60):
        week = dt.date(2024, 1, 5) + dt.timedelta(weeks=i % 40)
        released = dt.date(2023 if i % 3 else 2024, 1 + i % 12, 1 + i % 27)
        rows.append([week, f"Song {i}", ("North Star", "Blue Door")[i % 2], rng.randint(1, 30), released])
    return rows


def test_the_date_a_verb_before_the_year_names_and_the_rows_a_total_number_counts(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    rows = _charts()[1:]
    charts = book_of(tmp_path_factory, "charts", _charts(), title="Charts")
    released = sum(r[4].year == 2024 for r in rows)
    assert released != sum(r[0].year == 2024 for r in rows)
    assert answered(charts, "What is the number of chart entries that were released in 2024?") == released
    # "chart entries" are the rows: no number column is named whole ("weeks on chart" is not)
    on_label = sum(r[2] == "Blue Door" for r in rows)
    assert answered(charts, "What is the total number of chart entries on the Blue Door label?") == on_label


@pytest.mark.parametrize(
    "question",
    [
        "What is the range of colour?",
        "Is the mean colour greater than its median?",
        "Is the share of cars above 200%?",
        "Were more than 5% of the of the cars?",
        "Are there any cars painted '; DROP TABLE data; --?",
        "Are there any cars painted Ｐｕｒｐｌｅ?",
        "Do all cars have a recorded?",
        "Which range of mileage is most common?",
        "What is the total number of Q?",
        "A B C D E F G?",
        "Is I the grade of A?",
    ],
)
def test_odd_summaries_get_an_answer_or_a_reason(cars: Any, question: str) -> None:
    answers_or_says_why(cars, question)
