"""Flat-table readings: the high and low ends of a measure, rows listed in the order asked, proper
names and state codes as values, comparisons with a percentage, and shares of rows (``qa._plan``)."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

from gridsight.qa._pick import candidates
from gridsight.qa._route_sql import by_query, plan_query
from gridsight.text import comparisons_spelt, end_asked, end_of, percent_header, proper_phrases


def _sessions() -> list[list[Any]]:
    rng = random.Random(5)
    rows: list[list[Any]] = [["Session Date", "weekday", "priceMax", "priceMin", "Volume (shares)"]]
    day = dt.date(2022, 1, 3)
    for _ in range(90):
        low = round(rng.uniform(80, 140), 2)
        rows.append(
            [day, day.strftime("%A"), round(low + rng.uniform(1, 12), 2), low, rng.randint(900, 9000)]
        )
        day += dt.timedelta(days=1)
    return rows


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "sessions", _sessions(), title="Sessions")


def test_the_end_of_a_measure_the_question_asks_for() -> None:
    assert end_of("priceMax") == "desc" and end_of("temp_min_c") == "asc" and end_of("Price") is None
    assert end_asked("the overnight low") == "asc" and end_asked("the hottest day") == "desc"
    assert end_asked("a daily high of at least 30") == "desc"  # ('at least' is a bound, no end)
    assert end_asked("the gap between the high and the low") is None


def test_a_high_or_a_low_names_that_end_of_a_pair_of_measures(sessions: Any) -> None:
    rows = _sessions()[1:]
    # (both price columns are named by "price"; "high" says which)
    got = answered(sessions, "Was there any session when the high price exceeded 150?")
    assert got is any(r[2] > 150 for r in rows)
    feb = [r[3] for r in rows if r[0].month == 2]
    assert answered(sessions, "What was the average daily low in February 2022?") == pytest.approx(
        sum(feb) / len(feb)
    )


def test_dates_listed_in_date_order_where_a_bound_carries_its_unit(sessions: Any) -> None:
    assert comparisons_spelt("a high of 30°c or more") == "a high of at least 30°c"
    assert comparisons_spelt("5 days or fewer") == "at most 5 days"
    rows = _sessions()[1:]
    got = answered(sessions, "On which dates did the high price reach 140 or more? List them in date order.")
    want = [r[0] for r in rows if r[2] >= 140]
    assert len(want) > 1 and [str(x)[:10] for x in got] == [d.isoformat() for d in want]


def _regions() -> list[list[Any]]:
    rng = random.Random(8)
    rows: list[list[Any]] = [["Region", "Total Population", "Female (%)", "popDensity"]]
    for name in ["Aster", "Birchwood", "Copperfield", "Dunmore", "Elmstead", "Fairhaven", "Glenrock"]:
        rows.append([name, rng.randint(5000, 90000), round(rng.uniform(35, 60), 1), rng.randint(10, 900)])
    return rows


def test_a_threshold_written_as_a_percentage_compares_a_percentage_column(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    assert percent_header("Female (%)") and percent_header("asian_pct") and not percent_header("Total")
    book = book_of(tmp_path_factory, "regions", _regions())
    rows = _regions()[1:]
    got = answered(book, "Which regions have a female population share above 45%? List them alphabetically.")
    # (not the regions whose Total Population is above 45)
    assert got == sorted(r[0] for r in rows if r[2] > 45)
    got = answered(book, "List the regions with more than 40,000 residents, from largest to smallest.")
    assert got == [r[0] for r in sorted(rows, key=lambda r: -r[1]) if r[1] > 40000]


def _stores() -> list[list[Any]]:
    rng = random.Random(3)
    towns = [f"Town{i:03d}" for i in range(320)] + ["Springfield"] * 3
    states = ["NV", "OR", "ID", "UT", "AZ"]
    rows: list[list[Any]] = [["Store ID", "storeName", "Town", "state", "Longitude (deg)"]]
    for i, town in enumerate(towns):
        rows.append([f"S{i:04d}", f"Store {i}", town, rng.choice(states), round(rng.uniform(-124, -109), 4)])
    return rows


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "stores", _stores(), title="Stores")


def test_a_proper_name_is_a_value_of_a_column_too_varied_to_list(stores: Any) -> None:
    assert proper_phrases("What are the stores in Carson City? List them.") == ["Carson City"]
    assert proper_phrases("Which stores are open?") == []
    rows = _stores()[1:]
    got = answered(stores, "What are the ids of the stores in Springfield? List them alphabetically.")
    assert got == sorted(r[0] for r in rows if r[2] == "Springfield")
    got = answered(stores, "What are the longitudes of the stores in Springfield, from west to east?")
    assert got == sorted(r[4] for r in rows if r[2] == "Springfield")


def test_a_state_is_named_by_its_name_over_a_column_of_codes(stores: Any) -> None:
    rows = _stores()[1:]
    got = answered(stores, "What are the 2 lowest longitudes among stores in Nevada?")
    assert got == sorted(r[4] for r in rows if r[3] == "NV")[:2]


def _claims() -> list[list[Any]]:
    rng = random.Random(21)
    rows: list[list[Any]] = [["Claim No", "Office", "Approved", "Channel", "Amount ($)"]]
    for i in range(120):
        office = rng.choice(["North", "South", "East", "West"])
        odds = {"North": 0.8, "South": 0.3, "East": 0.55, "West": 0.65}[office]
        rows.append(
            [1000 + i, office, rng.random() < odds, rng.choice(["web", "phone"]), rng.randint(50, 900)]
        )
    return rows


@pytest.fixture(scope="module")
def claims(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "claims", _claims(), title="Claims")


def _rate(rows: list[list[Any]], office: str) -> float:
    mine = [r for r in rows if r[1] == office]
    return sum(1 for r in mine if r[2]) / len(mine)


def test_the_share_of_rows_a_condition_holds_for(claims: Any) -> None:
    rows = _claims()[1:]
    got = answered(claims, "What percentage of all claims were approved?")
    assert got == pytest.approx(100 * sum(1 for r in rows if r[2]) / len(rows))


def test_groups_ranked_by_the_share_of_their_rows(claims: Any) -> None:
    rows = _claims()[1:]
    offices = sorted({r[1] for r in rows}, key=lambda o: (_rate(rows, o), o))
    assert answered(claims, "Which office has the lowest rate of approved claims?") == offices[0]
    got = answered(claims, "Sort the offices by the share of claims approved, highest first.")
    assert got == sorted(offices, key=lambda o: -_rate(rows, o))


def test_a_rate_a_column_holds_is_that_column(tmp_path_factory: pytest.TempPathFactory) -> None:
    rows: list[list[Any]] = [["Office", "Approval Rate (%)", "Open"]]
    rows += [["North", 81.0, True], ["South", 34.5, False], ["East", 52.0, True]]
    book = book_of(tmp_path_factory, "rates", rows)
    assert answered(book, "Which office has the highest approval rate?") == "North"


def _visits() -> list[list[Any]]:
    rng = random.Random(14)
    rows: list[list[Any]] = [["Visit Date", "Weekday", "Sky", "Rainfall (mm)", "Visitors"]]
    day = dt.date(2020, 1, 1)
    for _ in range(3 * 365):
        sky = rng.choice(["Sun", "Sun", "Rain", "Fog"] + (["Snow"] if day.year == 2020 else []))
        rain = round(rng.uniform(0.5, 30), 1) if sky == "Rain" else 0.0
        rows.append([day, day.strftime("%A"), sky, rain, rng.randint(20, 400) + (80 if sky == "Sun" else 0)])
        day += dt.timedelta(days=1)
    return rows


@pytest.fixture(scope="module")
def visits(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "visits", _visits(), title="Visits")


def test_the_adjective_of_a_category_names_it(visits: Any) -> None:
    rows = _visits()[1:]
    counts: dict[str, int] = {}
    for r in rows:
        counts[r[1]] = counts.get(r[1], 0) + (r[2] == "Fog")
    assert answered(visits, "Which day of the week has the most foggy days?") == max(
        counts, key=counts.__getitem__
    )
    sun = [r[4] for r in rows if r[2] == "Sun"]
    fog = [r[4] for r in rows if r[2] == "Fog"]
    got = answered(visits, "Is the average number of visitors higher on sunny days than on foggy days?")
    assert got is (sum(sun) / len(sun) > sum(fog) / len(fog))


def test_rows_counted_in_each_year_asked_and_years_ranked_by_a_total(visits: Any) -> None:
    rows = _visits()[1:]
    got = answered(visits, "How many snowy days did we have in each year from 2020 to 2022?")
    assert got == [sum(1 for r in rows if r[0].year == y and r[2] == "Snow") for y in (2020, 2021, 2022)]
    assert got[1:] == [0, 0]
    totals = {y: sum(r[3] for r in rows if r[0].year == y) for y in (2020, 2021, 2022)}
    assert answered(visits, "Which year had the most total rainfall?") == max(totals, key=totals.__getitem__)


def test_groups_ranked_by_an_average_are_no_rows_ranked(tmp_path_factory: pytest.TempPathFactory) -> None:
    rng = random.Random(4)
    rows: list[list[Any]] = [["Shop ID", "Region", "Sale ($)"]]
    for _ in range(200):
        rows.append([rng.randint(1, 25), rng.choice(["N", "S"]), rng.randint(5, 500)])
    book = book_of(tmp_path_factory, "shops", rows)
    sales: dict[int, list[int]] = {}
    for r in rows[1:]:
        sales.setdefault(r[0], []).append(r[2])
    want = sorted(sales, key=lambda k: -sum(sales[k]) / len(sales[k]))[:3]
    got = answered(book, "Which 3 shops have the highest average sale? Give their IDs.")
    assert [x[0] if isinstance(x, list) else x for x in got] == want


@pytest.mark.parametrize(
    "question",
    [
        "What percentage of nothing were purple?",
        "List them alphabetically.",
        "Which office has the highest share of, from north to nowhere?",
        "What are the ids of the stores in Atlantis? List them alphabetically.",
        "Which claims have an amount above 200%? List them in date order.",
        "On which dates did the high reach 9e99°F or more?",
        "Is Atlantis Office the largest office?",
        "How many offices levied an average amount above lots of dollars in 2001, lowest first?",
        "Which office codes had an amount including tax above 85 cents in 1995?",
        "How many claims do Atlantis, Narnia and Oz have, in that order?",
        "What are the 0 largest claim counts by nothing?",
        "How many claims did each of the 99 busiest offices file?",
        "Which offices other than other than appear in the data?",
        "Rank the offices by their median nothing, highest first.",
        "Does every office have at least -5 claims?",
        "Does Atlantis have more claims than Narnia?",
    ],
)
def test_odd_questions_on_these_shapes_get_an_answer_or_a_reason(claims: Any, question: str) -> None:
    answers_or_says_why(claims, question)


def _panel() -> list[list[Any]]:
    rng = random.Random(31)
    names = [
        "Northland",
        "Southmoor",
        "Eastvale",
        "Westfield",
        "Midshire",
        "Lakeside",
        "Hillcrest",
        "Bayside",
    ]
    rows: list[list[Any]] = [
        [
            "region_code",
            "Region",
            "Year",
            "Litres per Capita",
            "avg_duty_cents",
            "duty_incl_vat_cents",
            "Population",
        ]
    ]
    for year in (1999, 2000, 2001):
        for i, name in enumerate(names):
            duty = round(rng.uniform(20, 60), 1)
            rows.append(
                [
                    f"R{i}",
                    name,
                    year,
                    round(rng.uniform(40, 140), 1),
                    duty,
                    round(duty * 1.2, 1),
                    rng.randint(1000, 90000),
                ]
            )
    return rows


@pytest.fixture(scope="module")
def panel(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "panel", _panel(), title="Panel")


def test_a_panel_of_regions_by_year(panel: Any) -> None:
    rows = [r for r in _panel()[1:] if r[2] == 2001]
    got = answered(panel, "What is the average number of litres per capita across regions in 2001?")
    assert got == pytest.approx(sum(r[3] for r in rows) / len(rows))  # (an average, not a total)
    # ("average duty" is the header's own word: the rows are counted; "per litre" names no litres column)
    got = answered(panel, "How many regions levied an average duty above 40 cents per litre in 2001?")
    assert got == sum(1 for r in rows if r[4] > 40)
    got = answered(
        panel, "Which region codes had a duty including VAT above 60 cents in 2001? List them alphabetically."
    )
    assert got == sorted(r[0] for r in rows if r[5] > 60)
    # ("in 2001, lowest first": the year is no count, and the order is the answer's)
    got = answered(panel, "List the 3 regions with the lowest litres per capita in 2001, lowest first.")
    assert got == [r[1] for r in sorted(rows, key=lambda r: r[3])[:3]]


def _schools() -> list[list[Any]]:
    rng = random.Random(9)
    rows: list[list[Any]] = [
        [
            "School Code",
            "schoolName",
            "Setting",
            "Coastal",
            "Avg School Budget ($000s)",
            "Avg Exam Score",
            "Pupils",
        ]
    ]
    for i in range(30):
        # (the first rural school scores below the first urban one; on average rural ones score higher)
        setting = ["Rural", "Urban"][i] if i < 2 else rng.choice(["Rural", "Urban"])
        score = (
            [600.0, 699.0][i]
            if i < 2
            else round(rng.uniform(650, 700) - (50 if setting == "Urban" else 0), 1)
        )
        rows.append(
            [
                5000 + i,
                f"School {chr(65 + i % 26)}{i}",
                setting,
                rng.random() < 0.4,
                round(rng.uniform(20, 90), 2),
                score,
                rng.randint(100, 3000),
            ]
        )
    return rows


@pytest.fixture(scope="module")
def schools(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "schools", _schools(), title="Schools")


def test_the_noun_asked_heads_the_header_answered(schools: Any) -> None:
    rows = _schools()[1:]
    # ("which school": ``schoolName``, not ``Avg School Budget`` nor ``School Code``)
    want = max(rows, key=lambda r: r[5])[1]
    assert answered(schools, "Which school has the highest average exam score?") == want


def test_two_groups_compared_where_the_comparative_comes_early(schools: Any) -> None:
    rows = _schools()[1:]
    rural = [r[5] for r in rows if r[2] == "Rural"]
    urban = [r[5] for r in rows if r[2] == "Urban"]
    assert sum(rural) / len(rural) > sum(urban) / len(urban)
    q = "Do rural schools score higher on the final exam, on average, than urban schools?"
    assert answered(schools, q) is True


def test_the_row_named_before_a_superlative_is_its_test(tmp_path_factory: pytest.TempPathFactory) -> None:
    rng = random.Random(12)
    rows: list[list[Any]] = [["Lake", "Max Depth (m)", "Is the lake frozen in winter?"]]
    rows += [[f"Tarn{i:03d}", round(rng.uniform(5, 300), 1), rng.random() < 0.5] for i in range(320)]
    rows.insert(40, ["Crater", 594.0, False])  # the deepest, among names too many to list
    book = book_of(tmp_path_factory, "lakes", rows)
    # (the name ends in its column's word; the frozen flag, named by "lake", is not what is asked)
    assert answered(book, "Is Crater Lake the deepest lake?") is True
    assert answered(book, "Is Tarn007 Lake the deepest lake?") is False


def test_the_greatest_number_of_rows_per_group(tmp_path_factory: pytest.TempPathFactory) -> None:
    rng = random.Random(2)
    rows: list[list[Any]] = [["Town", "Region", "Is the town on the coast?"]]
    for i in range(60):
        rows.append([f"Town {i}", rng.choice(["North", "South", "East"]), rng.random() < 0.5])
    book = book_of(tmp_path_factory, "towns", rows)
    counts: dict[str, int] = {}
    for r in rows[1:]:
        counts[r[1]] = counts.get(r[1], 0) + bool(r[2])
    q = "Which region has the greatest number of coastal towns?"
    assert answered(book, q) == max(counts, key=counts.__getitem__)
    # (the planner's own query groups the towns: a candidate the routes vote with)
    plan, _view = plan_query(candidates(book, None, q)[0], q)
    assert plan is not None and 'GROUP BY "Region"' in plan.sql


def _tickets() -> list[list[Any]]:
    rng = random.Random(17)
    words = ["Refund request", "Login issue", "refund delay", "Billing question", "Password reset"]
    rows: list[list[Any]] = [
        ["ticket_id", "agentNumber", "Channel", "Priority", "Resolution Time (hours)", "Subject"]
    ]
    for i in range(150):
        channel = rng.choice(["Email", "Phone", "Chat"])
        hours = round(rng.uniform(1, 9) + (8 if channel == "Email" else 0), 1)
        rows.append(
            [
                70000 + rng.randint(0, 29999),
                rng.choice([501, 502, 503, 504, 505, 506, 507]) if i else 508,  # agent 508 has one ticket
                channel,
                rng.choice(["Low", "Low", "Medium", "High"]),
                hours,
                rng.choice(words) + f" #{i}",
            ]
        )
    return rows


@pytest.fixture(scope="module")
def tickets(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "tickets", _tickets(), title="Tickets")


def test_rows_named_by_their_id_column_are_counted(tickets: Any) -> None:
    rows = _tickets()[1:]
    per: dict[int, int] = {}
    for r in rows:
        per[r[1]] = per.get(r[1], 0) + 1
    # ("tickets" names ``ticket_id``: the rows counted, not ids compared or ranked)
    assert answered(tickets, "Does every agent have at least 5 tickets?") is False
    assert answered(tickets, "Does every agent have at least 1 tickets?") is True
    got = answered(tickets, "Which agent number has the most tickets?")
    assert got == max(per, key=lambda a: (per[a], -a))


def test_a_comparison_of_lengths_and_the_values_after_most_frequent(tickets: Any) -> None:
    rows = _tickets()[1:]
    hours: dict[str, list[float]] = {}
    for r in rows:
        hours.setdefault(r[2], []).append(r[4])
    got = answered(
        tickets,
        "Which channels have an average resolution time longer than 10 hours? List them alphabetically.",
    )
    assert got == sorted(c for c, h in hours.items() if sum(h) / len(h) > 10)
    phone = [r[3] for r in rows if r[2] == "Phone"]
    ranked = sorted(set(phone), key=lambda p: (-phone.count(p), p))
    got = answered(tickets, "For phone tickets, what are the two most frequent priorities?")
    assert got == ranked[:2]


def test_the_ranked_columns_own_values_listed(tickets: Any) -> None:
    rows = _tickets()[1:]
    got = answered(tickets, "Give the ticket IDs of all tickets from Chat, lowest first.")
    assert got == sorted(r[0] for r in rows if r[2] == "Chat")


def test_a_quoted_text_that_is_part_of_cells(tickets: Any) -> None:
    rows = _tickets()[1:]
    got = answered(tickets, "How many tickets have 'refund' in their subject?")
    assert got == sum(1 for r in rows if "refund" in r[5].lower())


def test_a_median_and_a_value_given_with_its_unit(
    tickets: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    import statistics

    rows = _tickets()[1:]
    want = statistics.median(r[4] for r in rows if r[2] == "Email")
    q = "What is the median resolution time of email tickets?"
    assert answered(tickets, q) == pytest.approx(want)
    # (the planner's own query computes it too, with the view's MEDIAN aggregate)
    plan, view = plan_query(candidates(tickets, None, q)[0], q)
    assert plan is not None and plan.kind == "median"
    assert by_query(candidates(tickets, None, q)[0], q, plan, view).value == pytest.approx(want)
    rng = random.Random(6)
    machines: list[list[Any]] = [["Price", "RAM (MB)", "Screen Size"]]
    machines += [
        [rng.randint(900, 4000), rng.choice([4, 8, 16, 32]), rng.choice([14, 15, 17])] for _ in range(80)
    ]
    book = book_of(tmp_path_factory, "machines", machines)
    want = statistics.median(r[0] for r in machines[1:] if r[1] == 16)
    # ("with 16 MB of memory": the column the unit names, at that value)
    assert answered(book, "What's the median price of machines with 16 MB of memory?") == pytest.approx(want)


def test_the_most_frequent_value_in_a_year_named_by_header_years(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    rows: list[list[Any]] = [["name", "team86", "posit86", "hits86"]]
    picks = [("NY", "C"), ("NY", "SS"), ("NY", "1B"), ("LA", "C"), ("SD", "C"), ("SF", "2B")]
    rows += [[f"P{i}", t, p, 10 + i] for i, (t, p) in enumerate(picks)]
    book = book_of(tmp_path_factory, "positions", rows)
    # ("in 1986" names every column of 1986: the words after "most often" say which)
    assert answered(book, "Which fielding position shows up most often in 1986?") == "C"


def test_groups_ranked_by_their_number_of_rows(tickets: Any) -> None:
    rows = _tickets()[1:]
    per: dict[str, int] = {}
    for r in rows:
        per[r[2]] = per.get(r[2], 0) + 1
    got = answered(tickets, "Rank the channels by number of tickets, largest first.")
    assert got == sorted(per, key=lambda c: -per[c])


def test_the_oldest_is_the_highest_age_beside_dates(tmp_path_factory: pytest.TempPathFactory) -> None:
    from gridsight.text import ranked_column

    cols = [("text", "Ward"), ("number", "Age at Admission"), ("date", "Admission Date"), ("text", "Route")]
    assert ranked_column("oldest", cols) == (1, "desc") and ranked_column("youngest", cols) == (1, "asc")
    rng = random.Random(23)
    rows: list[list[Any]] = [["Ward", "Age at Admission", "Admission Date", "Route"]]
    for i in range(40):
        rows.append(
            [
                rng.choice(["A", "B"]),
                rng.randint(18, 90),
                dt.date(2020, 1, 1) + dt.timedelta(days=i * 7),
                f"R{i}",
            ]
        )
    book = book_of(tmp_path_factory, "wards", rows)
    want = max(rows[1:], key=lambda r: r[1])[3]
    assert answered(book, "What is the route of the oldest patient?") == want


def test_groups_ranked_by_head_count_and_by_their_average(tickets: Any) -> None:
    rows = _tickets()[1:]
    per: dict[str, list[float]] = {}
    for r in rows:
        per.setdefault(r[3], []).append(r[4])
    got = answered(tickets, "Rank the priorities by head count, largest first.")
    assert got == sorted(per, key=lambda p: -len(per[p]))
    got = answered(tickets, "Rank the priorities by their average resolution time, highest first.")
    assert got == sorted(per, key=lambda p: -sum(per[p]) / len(per[p]))


def test_every_row_tested_and_values_other_than_one(tickets: Any) -> None:
    rows = _tickets()[1:]
    assert answered(tickets, "Are all the tickets handled by Chat?") is all(r[2] == "Chat" for r in rows)
    got = answered(tickets, "Which priorities other than Low appear in the data? Alphabetical order please.")
    assert got == sorted({r[3] for r in rows} - {"Low"})


def test_row_counts_of_groups_named_ranked_or_listed(tickets: Any) -> None:
    rows = _tickets()[1:]
    per: dict[str, int] = {}
    agents: dict[int, int] = {}
    for r in rows:
        per[r[2]] = per.get(r[2], 0) + 1
        agents[r[1]] = agents.get(r[1], 0) + 1
    assert answered(tickets, "Does Email have more tickets than Chat?") is (per["Email"] > per["Chat"])
    assert answered(tickets, "Does Chat have more tickets than Email?") is (per["Chat"] > per["Email"])
    got = answered(tickets, "How many tickets do Email, Phone and Chat have, in that order?")
    assert got == [per["Email"], per["Phone"], per["Chat"]]
    assert (
        answered(tickets, "What are the 2 largest ticket counts by channel?")
        == sorted(per.values())[::-1][:2]
    )
    got = answered(tickets, "How many tickets did each of the 3 busiest agents handle?")
    assert got == sorted(agents.values())[::-1][:3]


def test_groups_ranked_by_their_median(tickets: Any) -> None:
    import statistics

    rows = _tickets()[1:]
    per: dict[str, list[float]] = {}
    for r in rows:
        per.setdefault(r[2], []).append(r[4])
    got = answered(tickets, "Rank the channels by their median resolution time, highest first.")
    assert got == sorted(per, key=lambda c: -statistics.median(per[c]))
    got = answered(tickets, "Which channel has the highest median resolution time?")
    assert got == max(per, key=lambda c: statistics.median(per[c]))
