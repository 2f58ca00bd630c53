"""gridsight.text: the package's one tokenizer, stemmer and stop-word list, and closeness in meaning
(MiniLM) -- synonyms and superlatives placed by the embedder, never by hand lists. Headers here are
made up for the tests (none comes from a benchmark corpus)."""

from __future__ import annotations

import pytest

from gridsight import text
from gridsight.text import (
    FILLER,
    STOP_WORDS,
    adjective_phrase,
    comparisons_spelt,
    content_words,
    date_part_asked,
    header_words,
    meaning_map,
    names_month,
    parts_spelt,
    place_meant,
    proper_words,
    ranked_by,
    same,
    singular,
    stem,
    superlative,
    time_direction,
    weekdays_asked,
    words,
    year_asked,
)

needs_embedder = pytest.mark.skipif(not text.available(), reason="the MiniLM embedding model is missing")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("finalScore", ["final", "score"]),
        ("net_amount", ["net", "amount"]),
        ("What's the TOTAL?", ["what", "s", "the", "total"]),
        ("Q1 2024 sales", ["q1", "2024", "sales"]),
        ("  ", []),
        (12.5, ["12", "5"]),
    ],
)
def test_words(raw: object, expected: list[str]) -> None:
    assert words(raw) == expected


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("survivors", "survivor"),
        ("survived", "surviv"),
        ("cities", "city"),
        ("classes", "class"),
        ("class", "class"),
        ("status", "status"),
        ("boxes", "box"),
        ("fares", "fare"),
        ("ranked", "rank"),
        ("rating", "rating"),  # a three-letter stem stays whole
        ("speed", "speed"),
        ("age", "age"),
        ("employment", "employ"),  # -ment: a verb's noun
        ("planned", "plan"),  # a doubled consonant before -ed
        ("passed", "pass"),  # ... but not -ss
        ("payment", "payment"),  # a three-letter stem stays whole
    ],
)
def test_stem(word: str, expected: str) -> None:
    assert stem(word) == expected


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("survivors", "survived", True),
        ("favorited", "favorites", True),
        ("class", "pclass", True),  # a long word inside a short compound header
        ("prices", "price", True),
        ("height", "weight", False),
        ("age", "agent", False),  # short words must match whole
        ("price", "priceless", False),  # a near prefix is at most two letters short
        ("employed", "unemployed", False),  # a negating prefix makes the opposite
        ("resident", "nonresident", False),
    ],
)
def test_same(a: str, b: str, expected: bool) -> None:
    assert same(a, b) is expected


@pytest.mark.parametrize(
    ("head_word", "question", "expected"),
    [
        ("temp", "the highest daily temperatures", 1),  # the start of a word
        ("avginc", "the average income", 2),  # run together: avg + inc
        ("enrltot", "how many are enrolled", 1),  # enrl + tot (a filler: total)
        ("mealpct", "share on a free meal", 1),
        ("distcod", "the district codes", 2),
        ("distx", "the district codes", 0),  # a letter left over
        ("age", "the average", 0),  # a vowel inside: no shortening of a word it does not start
        ("income", "the income", 0),  # a whole word is :func:`same`'s, not a shortening
        ("pct", "the share", 0),  # a filler alone names nothing
        ("temp" * 500, "the temperatures", 0),  # a 2,000-letter run is no shortened header
    ],
)
def test_shortened(head_word: str, question: str, expected: int) -> None:
    assert text.shortened(head_word, text.words(question)) == expected


@pytest.mark.parametrize(
    ("word", "expected"),
    [("genders", "gender"), ("cities", "city"), ("boxes", "box"), ("class", "class"), ("status", "status")],
)
def test_singular(word: str, expected: str) -> None:
    assert singular(word) == expected


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("highest", True),
        ("most", True),
        ("cheapest", True),
        ("newest", True),
        ("interest", False),
        ("honest", False),
        ("forest", False),
        ("southwest", False),  # a compass word in a name ('Southwest Airlines'), not 'the most south'
        ("latest", True),
        ("test", False),
        ("price", False),
    ],
)
def test_superlative(word: str, expected: bool) -> None:
    assert superlative(word) is expected


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("Total", ["total"]),  # made only of filler: keeps it
        ("Total Sales", ["sales"]),
        ("Number of open tickets", ["open", "tickets"]),
        ("client_name", ["client"]),
        ("Name", ["name"]),
        ("What is your favourite fruit?", ["favourite", "fruit"]),
    ],
)
def test_header_words(header: str, expected: list[str]) -> None:
    assert header_words(header) == expected


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("Mean Weight (Kg)", "weight kg"),
        ("finalScore", "final score"),
        ("What is your eye colour?", "eye colour"),
    ],
)
def test_header_text(header: str, expected: str) -> None:
    assert text.header_text(header) == expected


def test_words_can_keep_capitals_inside_a_word() -> None:
    assert words("Flights of SouthWest", camel=False) == ["flights", "of", "southwest"]
    assert words("Flights of SouthWest") == ["flights", "of", "south", "west"]


def test_stop_words_and_filler() -> None:
    assert content_words("How many orders were shipped late?") == ["orders", "shipped", "late"]
    # cell values that look like function words stay readable: the country code US, the month May;
    # row labels keep the words that tell them apart ('Other revenue', 'Cost per unit')
    assert {"us", "may", "name", "other", "per", "only"}.isdisjoint(text.NOT_NAMES)
    assert {"the", "of", "which"} <= STOP_WORDS and {"list", "rows"}.isdisjoint(STOP_WORDS)
    assert {"name", "highest", "average", "not", "the"} <= FILLER


@pytest.mark.parametrize(
    ("header", "expected"),
    [("Rank", True), ("Final position", True), ("rankings", True), ("Ranked by", False)],
)
def test_is_ranking(header: str, expected: bool) -> None:
    assert text.is_ranking(header) is expected


@pytest.mark.parametrize(
    ("word", "expected"),
    [("earliest", "asc"), ("oldest", "asc"), ("newest", "desc"), ("youngest", "desc"), ("cheapest", None)],
)
def test_time_direction(word: str, expected: str | None) -> None:
    assert time_direction(word) == expected


@pytest.mark.parametrize(
    ("question", "named", "expected"),
    [
        ("Which item is the cheapest?", set(), "cheapest"),
        ("List the most expensive item", set(), "most expensive"),
        ("What is the highest price?", set(), None),  # generic direction word
        ("What is the most common colour?", set(), None),  # 'common' is an operation word
        ("Who has the most orders?", set(), None),  # a plural: a count of things
        ("Which desk has the most drawers?", set(), None),
        ("Which item has the most stock?", {"stock"}, None),  # names a column: not an adjective
    ],
)
def test_adjective_phrase(question: str, named: set[str], expected: str | None) -> None:
    assert adjective_phrase(words(question), lambda w: w in named) == expected


SHOP = ["Item", "Supplier", "Unit Price", "Weight Kg", "Height Cm", "Rating"]


@needs_embedder
@pytest.mark.parametrize(
    ("question", "headers", "expected"),
    [
        ("What is the average cost?", SHOP, {"cost": "Unit Price"}),
        ("How many vendors are there?", SHOP, {"vendors": "Supplier"}),
        ("Who earns the highest wage?", ["Employee", "Salary", "Office"], {"wage": "Salary"}),
        # a word that names a header by its letters is not mapped again
        ("What is the highest unit price?", SHOP, {}),
        # nothing close enough: no guess
        ("How many zebras are there?", SHOP, {}),
    ],
)
def test_meaning_map(question: str, headers: list[str], expected: dict[str, str]) -> None:
    found = meaning_map(words(question), headers)
    assert {w: headers[i] for w, i in found.items()} == expected


@needs_embedder
def test_meaning_map_as_written() -> None:
    # a plural compared as written where its singular is further from a plural header
    parts = ["Private builders", "Housing associations", "Local authorities", "Total"]
    assert meaning_map(["councils"], parts, as_written=True) == {"councils": 2}


NUMERIC = ["Unit Price", "Weight Kg", "Height Cm"]


@needs_embedder
@pytest.mark.parametrize(
    ("adjective", "headers", "expected"),
    [
        ("cheapest", NUMERIC, ("Unit Price", "asc")),
        ("most expensive", NUMERIC, ("Unit Price", "desc")),
        ("least expensive", NUMERIC, ("Unit Price", "asc")),
        ("tallest", NUMERIC, ("Height Cm", "desc")),
        ("heaviest", NUMERIC, ("Weight Kg", "desc")),
        ("fastest", ["Model Year", "Top Speed Kmh", "Price Usd"], ("Top Speed Kmh", "desc")),
        ("slowest", ["Model Year", "Top Speed Kmh", "Price Usd"], ("Top Speed Kmh", "asc")),
        # no column means it: no guess
        ("fastest", NUMERIC, None),
    ],
)
def test_ranked_by(adjective: str, headers: list[str], expected: tuple[str, str] | None) -> None:
    found = ranked_by(adjective, headers)
    assert (None if found is None else (headers[found[0]], found[1])) == expected


def test_without_the_embedder_nothing_is_placed_by_meaning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(text, "_EMBEDDER", [None])
    assert not text.available()
    assert meaning_map(["cost"], SHOP) == {}
    assert ranked_by("cheapest", NUMERIC) is None
    assert text.closest("cost", SHOP) is None
    assert text.similarities("cost", SHOP) == [0.0] * len(SHOP)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Cash in the second half of 2023", ["cash", "in", "the", "h2", "of", "2023"]),
        ("the 3rd quarter and the First Quarter", ["the", "q3", "and", "the", "q1"]),
        ("the fifth quarter", ["the", "fifth", "quarter"]),  # no such quarter
        ("the third half", ["the", "third", "half"]),
        ("first place", ["first", "place"]),
    ],
)
def test_halves_and_quarters_in_words_are_their_codes(text: str, expected: list[str]) -> None:
    assert words(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Cash in H1 FY23 (actual)?", ["cash", "in", "h1", "fy", "2023", "actual"]),
        ("1H24 plan", ["h1", "2024", "plan"]),
        ("4Q23 and Q3'24", ["q4", "2023", "and", "q3", "2024"]),
        ("FY2024", ["fy", "2024"]),
        ("model X1H24", ["model", "x1h24"]),  # inside a code: no period
    ],
)
def test_abbreviated_periods_are_spelt_out(text: str, expected: list[str]) -> None:
    assert words(text) == expected


@pytest.mark.parametrize(
    ("value", "question", "named"),
    [
        ("Feb 2024", "What was revenue in APAC in February?", True),
        ("February", "sales in feb", True),
        ("Mar 2024", "Average units for March 2024?", True),
        ("Mar 2023", "Average units for March 2024?", False),  # another year
        ("2024-05", "What were sales in May 2024?", True),
        ("May 2024", "May I see the sales?", False),  # the verb
        ("Sep-23", "in September", True),
        ("Marketing", "in March", False),  # no month
    ],
)
def test_a_month_is_named_in_any_spelling(value: str, question: str, named: bool) -> None:
    assert names_month(value, question) is named


@pytest.mark.parametrize(
    ("question", "part", "days", "year"),
    [
        ("On which day of the week were the most orders placed?", "weekday", None, None),
        ("Which weekday has the fewest visits?", "weekday", None, None),
        ("At what hour of the day do most calls arrive?", "hour", None, None),
        ("In which month of 2023 were the most tickets sold?", "month", None, ("in", 2023)),
        ("How many orders were placed on a Monday?", None, (1,), None),
        ("How many visits happened at weekends?", None, (0, 6), None),
        ("How many visits happened on weekdays during 2022?", None, (1, 2, 3, 4, 5), ("in", 2022)),
        ("Were any tickets sold before 2020?", None, None, ("before", 2020)),
        ("How many members joined since 2019?", None, None, ("since", 2019)),
        ("What was revenue of 2,024 units?", None, None, None),  # an amount, not a year
        ("Sales on 2024-03-01?", None, None, None),  # a date, not a year
    ],
)
def test_calendar_parts_a_question_names(
    question: str, part: str | None, days: tuple[int, ...] | None, year: tuple[str, int] | None
) -> None:
    assert (date_part_asked(question), weekdays_asked(question), year_asked(question)) == (part, days, year)


@pytest.mark.parametrize(
    ("text", "spelt"),
    [
        ("renewed four or more times", "renewed at least 4 times"),
        ("with 3 or fewer owners", "with at most 3 owners"),
        ("More than two previous owners", "More than 2 previous owners"),
        ("the most one", "the most one"),  # no comparison
        ("one or two", "one or two"),
    ],
)
def test_comparisons_are_spelt_as_comparison_phrases(text: str, spelt: str) -> None:
    assert comparisons_spelt(text) == spelt


@pytest.mark.parametrize(
    ("text", "spelt"),
    [
        ("Did equity make up more than half of total assets in 2023?",
         "Did equity make up divided by total assets in 2023 more than 0.5?"),
        ("Was cash under a third of the current assets?",
         "Was cash divided by current assets under 0.333333?"),
        ("Were receivables at least two-thirds of current assets",
         "Were receivables divided by current assets at least 0.666667"),
        ("Was tax over 40% of profit in H2?", "Was tax divided by profit in H2 over 0.4?"),
        ("Was it more than 12.5 percent of sales?", "Was it divided by sales more than 0.125?"),
        ("in the second half of 2023", "in the second half of 2023"),  # a half-year, no comparison
        ("more than 40 of the staff", "more than 40 of the staff"),  # a count, no part
    ],
)  # fmt: skip
def test_a_part_of_another_figure_is_spelt_as_a_ratio(text: str, spelt: str) -> None:
    assert parts_spelt(text) == spelt


@pytest.mark.parametrize(
    ("part", "code"),
    [
        ("March 31", "q1"),
        ("June 30", "q2"),
        ("Sep. 30, 2019", "q3"),
        ("31 Dec 2023", "q4"),
        ("June 31", None),  # no such quarter end
        ("April 30", None),
        ("Total", None),
    ],
)
def test_quarter_ended(part: str, code: str | None) -> None:
    assert text.quarter_ended(part) == code


@pytest.mark.parametrize(
    ("token", "phrase", "written"),
    [
        ("airco", ["air", "conditioning"], True),
        ("avginc", ["average", "income"], True),
        ("mathscr", ["math", "score"], True),
        ("temp", ["temperature"], True),  # the first four letters
        ("bathrms", ["bathrooms"], True),  # five letters in order
        ("lotsize", ["lot"], True),  # a compound's head
        ("rate", ["rather"], False),  # four letters in order are not enough
        ("airco", ["conditioning", "air"], False),  # the words' order
        ("income", ["income"], False),  # the word itself is no abbreviation
    ],
)
def test_abbreviates(token: str, phrase: list[str], written: bool) -> None:
    assert text.abbreviates(token, phrase) is written


def test_abbreviations_map_names_a_header_by_a_run_of_words_and_not_two() -> None:
    heads = [["price"], ["airco"], ["garagepl"], ["gashw"]]
    assert text.abbreviations_map("how many houses have air conditioning".split(), heads) == {
        "air": 1,
        "conditioning": 1,
    }
    # "temp" would write both headers: it names neither
    assert text.abbreviations_map(["temperature"], [["temp", "max"], ["temp", "min"]]) == {}


def test_proper_adjectives_name_places_by_meaning() -> None:
    assert proper_words("List the 3 Swiss firms. Which Dutch ones? How many French banks") == [
        "swiss",
        "dutch",
        "french",
    ]  # ("List", "Which", "How" open sentences)
    places = ["Switzerland", "Netherlands", "France", "Japan", "United States"]
    assert [place_meant([w], places) for w in ("swiss", "dutch", "french", "japanese")] == places[:4]
    assert place_meant(["banking"], places) is None  # near no place
