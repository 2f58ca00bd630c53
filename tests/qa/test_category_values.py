"""Category values named shortened or by meaning, one word naming one value, and a top N that counts
only when it asks how often: made-up tables, real .xlsx files, the real MiniLM."""

from __future__ import annotations

from typing import Any

import pytest

from gridsight import text
from gridsight.formula import generate_formula
from gridsight.qa import answer_question

pytestmark = pytest.mark.skipif(not text.available(), reason="the MiniLM embedding model is missing")


@pytest.mark.parametrize(
    ("said", "values", "named"),
    [
        # every word of the value written whole or as its start; the value using most words wins
        (["senior", "nurses"], ["Nurse", "SnrNurse", "AsstNurse"], "SnrNurse"),
        (["assistant", "nurses"], ["Nurse", "SnrNurse", "AsstNurse"], "AsstNurse"),
        (["nurses"], ["Nurse", "SnrNurse", "AsstNurse"], "Nurse"),
        (["ward", "nurses"], ["Nurse", "SnrNurse", "AsstNurse"], "Nurse"),
        # by meaning, with a clear margin
        (["women"], ["Female", "Male"], "Female"),
        (["men"], ["Female", "Male"], "Male"),
        # a three-letter name is the start of too many words; a loose likeness names nothing
        (["anyone", "annual"], ["Ann", "Bob", "Cid"], None),
        (["cars"], ["compact", "suv", "pickup", "minivan"], None),
        # a big column is no category
        (["women"], ["Female", "Male", *(f"code {i}" for i in range(20))], None),
        ([], ["Female", "Male"], None),
    ],
)
def test_category_named(said: list[str], values: list[str], named: str | None) -> None:
    assert text.category_named(said, values) == named


STAFF = (
    ("Name", "Grade", "Ward", "Sex", "Pay", "Years"),
    [
        ("Ada", "SnrNurse", "North", "Female", 52000, 14),
        ("Ben", "Nurse", "North", "Male", 38000, 3),
        ("Cleo", "AsstNurse", "South", "Female", 29000, 2),
        ("Dev", "SnrNurse", "South", "Male", 55000, 20),
        ("Eve", "Nurse", "East", "Female", 41000, 6),
        ("Finn", "Nurse", "East", "Male", 36500, 1),
        ("Gia", "AsstNurse", "North", "Female", 31000, 4),
    ],
)


@pytest.mark.parametrize(
    ("question", "formula", "value"),
    [
        ("What is the median pay of senior nurses?", '=MEDIAN(FILTER(E2:E8,(B2:B8="SnrNurse")))', 53500),
        ("How many assistant nurses are there?", '=COUNTIFS(B2:B8,"AsstNurse")', 2),
        ("What is the highest pay among women?", '=MAX(FILTER(E2:E8,(D2:D8="Female")))', 52000),
    ],
)
def test_a_category_named_shortened_or_by_meaning_filters(
    flat_book: Any, question: str, formula: str, value: Any
) -> None:
    book = flat_book(*STAFF)
    made = generate_formula(question, book, book.sheets[0].name)
    assert (made.formula, made.value) == (formula, value), made.reason


def test_one_word_names_one_value(flat_book: Any) -> None:
    # "Finance" is the whole value of Field; it does not also name the publisher MiniLM places near it
    book = flat_book(
        ("Title", "Publisher", "Field", "Price"),
        [
            ("Money Review", "Finance Press Ltd", "Finance", 300),
            ("Cash Letters", "Oak House", "Finance", 500),
            ("Soil Notes", "Oak House", "Farming", 90),
            ("Crop Journal", "Finance Press Ltd", "Farming", 120),
        ],
    )
    made = generate_formula("What is the average price of Finance titles?", book, book.sheets[0].name)
    assert (made.formula, made.value) == ('=AVERAGEIFS(D2:D5,C2:C5,"Finance")', 400)


@pytest.mark.parametrize(
    "question",
    [
        # a superlative adjective, or a measure no column names after the superlative: no count of
        # the rows' names ("the most <plural>" still counts rows: "the 3 schools with the most pupils")
        "Which 2 titles are the priciest?",
        "Which 2 titles have the highest average illustration rate?",
    ],
)
def test_a_top_n_counts_only_when_it_asks_how_often(flat_book: Any, question: str) -> None:
    book = flat_book(
        ("Title", "Publisher", "Cost"),
        [("Money Review", "Oak", 300), ("Cash Letters", "Oak", 500), ("Soil Notes", "Elm", 90)],
    )
    made = generate_formula(question, book, book.sheets[0].name)
    assert made.formula is None or "COUNTIF" not in made.formula
    ans = answer_question(book, question)
    assert ans.status == "abstained" or ans.value != [["Oak"], ["Elm"]]


def test_a_shortened_header_ending_in_y(flat_book: Any) -> None:
    # 'hwy' shortens "highway", 'cty' "city": a 'y' reads as a consonant
    book = flat_book(
        ("make", "cty", "hwy"),
        [("ann", 18, 29), ("bel", 21, 31), ("cor", 16, 24)],
    )
    made = generate_formula("What is the best highway mileage?", book, book.sheets[0].name)
    assert (made.formula, made.value) == ("=MAX(C2:C4)", 31)


@pytest.mark.parametrize(
    ("question", "formula", "value"),
    [
        # a superlative before a participle ranks by what the verb names, by meaning ...
        (
            "Which ward does the highest-paid person work in?",
            "=INDEX(C2:C8,MATCH(MAX(E2:E8),E2:E8,0))",
            "South",
        ),
        (
            "What grade does the lowest-paid member of staff hold?",
            "=INDEX(B2:B8,MATCH(MIN(E2:E8),E2:E8,0))",
            "AsstNurse",
        ),
        # ... or by its stem starting a header word ('serving': ``YrsService``)
        ("Who is the longest-serving member of staff?", "=INDEX(A2:A8,MATCH(MAX(G2:G8),G2:G8,0))", "Dev"),
    ],
)
def test_a_superlative_before_a_participle(flat_book: Any, question: str, formula: str, value: Any) -> None:
    header, rows = STAFF
    book = flat_book((*header, "YrsService"), [(*r, r[-1] + 1) for r in rows])
    made = generate_formula(question, book, book.sheets[0].name)
    assert (made.formula, made.value) == (formula, value), made.reason


@pytest.mark.parametrize(
    ("words", "phrase"),
    [
        (["the", "highest", "paid", "nurse"], "highest paid"),
        (["the", "longest", "serving", "member"], "longest serving"),
        (["the", "cheapest", "item"], "cheapest"),
        (["the", "highest", "price"], None),  # 'price' names a header: no adjective to place
    ],
)
def test_adjective_phrase_with_a_participle(words: list[str], phrase: str | None) -> None:
    assert text.adjective_phrase(words, lambda w: w == "price") == phrase


@pytest.mark.parametrize(
    ("word", "apart"),
    [
        ("libprice", "lib price"),
        ("popdensity", "pop density"),
        ("yearbuilt", "year built"),
        ("avginc", "avginc"),  # no part of four letters it knows: left to the shortening rules
        ("extraversion", "extraversion"),  # the tokenizer reads 'extra' '##version' already: a word
        ("agreeableness", "agreeableness"),  # a long unknown rest is no abbreviation
        ("openness", "openness"),
        ("manufacturer", "manufacturer"),  # a word the vocabulary knows whole
        ("qty", "qty"),
    ],
)
def test_run_together_header_words(word: str, apart: str) -> None:
    assert text.run_together(word) == apart


def test_a_run_together_header_is_meant(flat_book: Any) -> None:
    # "cost" is near 'unit price', not near the unread 'unitprice'
    book = flat_book(
        ("item", "unitprice", "stock"), [("bolt", 0.25, 900), ("nut", 0.1, 1500), ("gear", 7.5, 40)]
    )
    made = generate_formula("What is the average cost?", book, book.sheets[0].name)
    assert (made.formula, made.value) == ("=AVERAGE(B2:B4)", pytest.approx(2.6166666, abs=1e-6))


def test_the_most_plural_still_counts_rows(flat_book: Any) -> None:
    # each row is a pupil: "the most pupils" counts the rows of each school
    book = flat_book(
        ("Pupil", "School", "Score"),
        [
            ("a", "Elm", 50),
            ("b", "Oak", 70),
            ("c", "Elm", 40),
            ("d", "Ash", 90),
            ("e", "Elm", 60),
            ("f", "Oak", 65),
        ],
    )
    made = generate_formula("Which 2 schools have the most pupils?", book, book.sheets[0].name)
    assert made.value == [["Elm"], ["Oak"]], made.formula


GRADES = (
    ("Pupil", "Stream", "Score"),
    [("a", "A", 50), ("b", "B", 70), ("c", "A", 40), ("d", "B", 90), ("e", "A", 60), ("f", "B", 65)],
)


def test_a_one_letter_value_after_its_header_word(flat_book: Any) -> None:
    book = flat_book(*GRADES)
    made = generate_formula("What is the average score in stream B?", book, book.sheets[0].name)
    assert (made.formula, made.value) == ('=AVERAGEIFS(C2:C7,B2:B7,"B")', 75)
    # two groups compared: "stream B ... than in stream A"
    ans = answer_question(book, "Is the average score in stream B higher than in stream A?")
    assert ans.value is True, ans.reason
    # a lone letter names nothing ("a" is an article)
    made = generate_formula("What is the average score of a pupil?", book, book.sheets[0].name)
    assert made.formula == "=AVERAGE(C2:C7)"


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("Where does the best-paid worker live?", True),
        ("Who is the oldest member of staff?", True),
        ("What is the last name of the player with the most hits?", True),
        ("Give the first names of the 3 players with the most hits.", True),
        ("Name the year with the most sales.", False),  # a year is a number
        ("How many names are there?", False),
        ("Is Ann the oldest?", False),
        ("Which 3 years had the most rain?", False),
    ],
)
def test_a_question_asking_for_a_name(question: str, name: bool) -> None:
    from gridsight.qa._pipeline import asks_name

    assert asks_name(question) is name


def test_a_figure_answers_no_question_asking_where() -> None:
    from gridsight.qa._answer import QAAnswer
    from gridsight.qa._ask import _fits

    figure = QAAnswer("q", "answered", 3.39, "3.39", "number")
    assert not _fits(figure, None, "Where does the worker with the highest wage live?")
    assert _fits(figure, None, "What is the highest wage?")


def test_two_groups_compared_by_a_yes_no_share(flat_book: Any) -> None:
    # the share of members in each group, the groups named by a code the word starts ('grad')
    book = flat_book(
        ("Worker", "Level", "Member", "Pay"),
        [
            ("a", "grad", "yes", 30),
            ("b", "grad", "yes", 32),
            ("c", "grad", "no", 28),
            ("d", "school", "no", 25),
            ("e", "school", "yes", 26),
            ("f", "school", "no", 24),
        ],
    )
    ans = answer_question(book, "Is the member rate higher among graduates than among school leavers?")
    assert ans.value is True, ans.reason
    ans = answer_question(book, "Is the member rate lower among graduates than among school leavers?")
    assert ans.value is False, ans.reason


@pytest.mark.parametrize(
    ("sql", "question", "tidied"),
    [
        # a difference answering a yes/no comparison is the comparison the question makes
        (
            'SELECT (SELECT AVG("Pay") FROM data WHERE "Level" = \'grad\') - '
            '(SELECT AVG("Pay") FROM data) FROM data',
            "Do graduates earn a higher average pay than everyone?",
            'SELECT (SELECT AVG("Pay") FROM data WHERE "Level" = \'grad\') > (SELECT AVG("Pay") FROM data)',
        ),
        (
            'SELECT (SELECT AVG("a") FROM data) - (SELECT AVG("b") FROM data)',
            "Is a lower than b on average?",
            'SELECT (SELECT AVG("a") FROM data) < (SELECT AVG("b") FROM data)',
        ),
        # not a yes/no question, or no one direction: left as written
        (
            'SELECT (SELECT AVG("a") FROM data) - (SELECT AVG("b") FROM data)',
            "How much higher is a than b?",
            'SELECT (SELECT AVG("a") FROM data) - (SELECT AVG("b") FROM data)',
        ),
        (
            'SELECT (SELECT AVG("a") FROM data) - (SELECT AVG("b") FROM data)',
            "Is a higher or lower than b?",
            'SELECT (SELECT AVG("a") FROM data) - (SELECT AVG("b") FROM data)',
        ),
    ],
)
def test_a_difference_answering_a_comparison(sql: str, question: str, tidied: str) -> None:
    from gridsight.qa._pipeline import compared

    assert compared(sql, question) == tidied


@pytest.mark.parametrize(
    ("word", "is_participle"),
    [("paid", True), ("serving", True), ("rated", True), ("known", True), ("speed", False), ("women", False)],
)
def test_participle(word: str, is_participle: bool) -> None:
    assert text.participle(word) is is_participle


@pytest.mark.parametrize(
    "question",
    [
        "Is the " + "highest-paid " * 150 + "nurse a woman?",
        "What is the pay in grade " + "A " * 900 + "?",
        "Is the member rate higher among " + "senior nurses " * 120 + "than among women?",
        "Where " + "does the longest-serving " * 70 + "live?",
    ],
)
def test_hostile_questions_for_the_new_readings(flat_book: Any, question: str) -> None:
    _answers_or_says_why(flat_book(*STAFF), question)


def _answers_or_says_why(book: Any, question: str) -> None:
    """A hostile question gets an answer or a reason, and a formula or none, never an exception."""
    ans = answer_question(book, question[:2000])
    assert ans.status == "answered" or ans.reason
    made = generate_formula(question[:2000], book, book.sheets[0].name)
    assert made.formula is None or made.formula.startswith("=")


@pytest.mark.parametrize(
    ("word", "parts"),
    [
        ("sales2019", ["sales", "2019"]),
        ("goals19", ["goals", "2019"]),
        ("wage95", ["wage", "1995"]),
        ("q1", ["q1"]),  # one digit is no year
        ("mp3", ["mp3"]),
        ("x100", ["x100"]),
        ("2019", ["2019"]),
    ],
)
def test_a_word_ending_in_a_year(word: str, parts: list[str]) -> None:
    assert text.year_suffixed(word) == parts
    # headers and questions read so; running text (row labels) keeps the word whole
    assert text.words(word) == parts and text.words(word, camel=False) == [word]


SEASONS = (
    ("player", "goals", "goals19", "club19", "club20"),
    [
        ("Ayo", 120, 14, "Rovers", "Rovers"),
        ("Bex", 95, 22, "United", "City"),
        ("Cal", 140, 9, "City", "City"),
        ("Dee", 60, 17, "Rovers", "United"),
    ],
)


def test_a_header_ending_in_a_year_is_named_by_the_year(flat_book: Any) -> None:
    book = flat_book(*SEASONS)
    ans = answer_question(book, "Who got the most goals in 2019?")
    assert ans.value == "Bex", ans.reason
    ans = answer_question(book, "Who got the most goals?")  # no year: the column without one
    assert ans.value == "Cal", ans.reason
    made = generate_formula("How many players were at Rovers in 2020?", book, book.sheets[0].name)
    assert made.value == 1, made.formula
    ans = answer_question(book, "Who had the fewest goals?")  # ranked by the figures, not grouped
    assert ans.value == "Dee", ans.reason


def test_a_year_before_a_header_word_is_no_count(flat_book: Any) -> None:
    book = flat_book(
        ("District", "Pop. 1998", "Pop. 2008"),
        [("Hill", 700, 810), ("Vale", 950, 905), ("Dale", 400, 520)],
    )
    made = generate_formula("Which district has the largest 2008 population?", book, book.sheets[0].name)
    assert made.value == "Vale", made.formula
    made = generate_formula("What are the 2 largest 2008 populations?", book, book.sheets[0].name)
    assert made.value == [[905], [810]], made.formula


CAREERS = (
    ("keeper", "date1", "saves", "saves19", "sal20"),
    [
        ("Ayo", 1990, 300, 12, 800.0),
        ("Bex", 2001, 120, 31, None),
        ("Cal", 1985, 410, 7, 650.0),
        ("Dee", 1996, 95, 25, None),
    ],
)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # a number column headed 'date' runs in time: "the oldest" is the earliest
        ("In what year did the oldest keeper start?", 1985),
        ("List the start dates of the 2 oldest keepers.", [1985, 1990]),
        # a compound written as two words ("save tallies" is no column; "save" and "s" of saves19)
        ("What are the 2 highest save totals from 2019?", [31, 25]),
        ("What are the 2 highest save totals?", [410, 300]),
        # a year inside the phrase of a missing value
        ("For how many keepers is the 2020 salary missing?", 2),
    ],
)
def test_years_and_compounds_in_headers(flat_book: Any, question: str, value: Any) -> None:
    book = flat_book(*CAREERS)
    ans = answer_question(book, question)
    got = (
        [row[0] if isinstance(row, list) else row for row in ans.value]
        if isinstance(ans.value, list)
        else ans.value
    )
    assert got == value, (ans.query, ans.formula, ans.reason)


def test_how_many_different_rows_counts_the_identifier(flat_book: Any) -> None:
    # a panel: each person once a year; the question's noun names no column
    book = flat_book(
        ("nr", "yr", "pay"),
        [(7, 2020, 10.5), (7, 2021, 11.0), (9, 2020, 8.0), (9, 2021, 8.5), (12, 2021, 15.0)],
    )
    ans = answer_question(book, "How many different people are followed?")
    assert ans.value == 3, (ans.query, ans.formula, ans.reason)


def test_a_year_is_no_name() -> None:
    from gridsight.qa._pipeline import asks_year, could_be_year

    assert asks_year("In what year was the oldest firm founded?") and asks_year(
        "Which year had the most rain?"
    )
    assert not asks_year("Which firm is the oldest?")
    assert could_be_year(1985) and could_be_year("2004-05") and could_be_year([["8 March 1944"]])
    assert not could_be_year("Cal") and not could_be_year(["1990", "Ayo"])
    assert not could_be_year("2nd") and not could_be_year("C1") and not could_be_year(42511946)


def test_a_comparison_no_header_names_takes_the_column_its_number_fits(flat_book: Any) -> None:
    book = flat_book(*STAFF)
    ans = answer_question(book, "Do any assistant nurses make more than $40,000?")
    assert ans.value is False, (ans.formula, ans.reason)
    ans = answer_question(book, "Do any senior nurses make more than $54,000?")
    assert ans.value is True, (ans.formula, ans.reason)
    # a number no column's values span is no condition to drop: the rules abstain
    made = generate_formula("How many nurses have more than 400 pets?", book, book.sheets[0].name)
    assert made.formula is None and "more than 400" in (made.reason or "")


def test_which_are_the_bottom_n_things(flat_book: Any) -> None:
    book = flat_book(("City", "Rain", "Sun"), [("Ayr", 900, 1400), ("Bude", 700, 1700), ("Crail", 650, 1500)])
    made = generate_formula("Which are the bottom 2 cities in terms of rain?", book, book.sheets[0].name)
    assert made.value == [["Crail"], ["Bude"]], made.formula
    made = generate_formula("Which are the top 2 rain values?", book, book.sheets[0].name)
    assert made.value == [[900], [700]], made.formula


@pytest.mark.parametrize(
    "question",
    [
        "Who got the most saves in " + "2019 " * 300 + "?",
        "How many keepers make more than $" + "9" * 400 + "?",
        "In what year " * 150 + "did the oldest keeper start?",
        "What are the 2 lowest " + "at-bat " * 250 + "counts?",
        "For how many keepers is the " + "2020 " * 300 + "salary missing?",
        "How many different " + "saves19 " * 200 + "are there?",
    ],
)
def test_hostile_questions_for_years_and_compounds(flat_book: Any, question: str) -> None:
    _answers_or_says_why(flat_book(*CAREERS), question)
