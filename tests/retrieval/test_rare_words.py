"""Rare words: among many small tables, a question naming a value rare in the library finds the table
holding it, over a table whose headers match the question's words better."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from gridsight.retrieval import Library, build_index
from gridsight.retrieval._terms import (
    HEADER_WEIGHT,
    RARE_SHARE,
    TermIndex,
    header_terms,
    language_weight,
    question_terms,
    table_terms,
    value_terms,
)

from .conftest import write_csv

#: Thirteen small tables of one kind (sports results), as a library of scraped tables is: most share
#: headers such as Year, Team, Points; each holds its own names.
TABLES: dict[str, list[tuple[object, ...]]] = {
    "grand_prix.csv": [
        ("Pos", "Driver", "Constructor", "Laps"),
        (1, "Denny Hulme", "McLaren", 80),
        (2, "Jo Siffert", "Lotus", 58),
        (3, "Pedro Rodriguez", "BRM", 80),
    ],
    "sprint.csv": [("Rider", "Laps", "Gap"), ("Lena Vos", 20, "+0.4"), ("Tom Ekker", 20, "+1.9")],
    "laps_driven.csv": [
        ("Driver", "Laps driven", "Laps led"),
        ("Ayrton Senna", 71, 40),
        ("Alain Prost", 71, 31),
        ("Nigel Mansell", 69, 0),
    ],
    "league_2001.csv": [
        ("Year", "Team", "Points"),
        (2001, "Newcastle Falcons", 41),
        (2001, "London Irish", 37),
        (2001, "Sale Sharks", 30),
    ],
    "league_2002.csv": [("Year", "Team", "Points"), (2002, "Leeds Tykes", 33), (2002, "Bath", 29)],
    "cities.csv": [("City", "Population", "Founded"), ("Holon", 184700, 1935), ("Bnei Brak", 154400, 1924)],
    "mayors.csv": [
        ("Mayor", "Party", "Term"),
        ("Ann Ortiz", "Green", "1990-1994"),
        ("Raj Patel", "Blue", "1994-1998"),
    ],
    "stadiums.csv": [("Stadium", "Capacity", "Team"), ("Kirkstall Arena", 21000, "Leeds Tykes")],
    "albums.csv": [("Album", "Year", "Tracks"), ("Quiet Harbour", 1994, 12), ("Iron Meadow", 1997, 10)],
    "medals.csv": [("Nation", "Gold", "Silver"), ("Norway", 11, 5), ("Chile", 2, 1)],
    "episodes.csv": [("Episode", "Viewers", "Rating"), (1, 5.1, 3.2), (2, 4.8, 3.0)],
    "bridges.csv": [("Bridge", "Length", "Opened"), ("Tarn Span", 410, 1961), ("Orrin Gate", 220, 1930)],
    "elections.csv": [
        ("Year", "Candidate", "Votes"),
        (1970, "Ida Brenner", 40211),
        (1974, "Olu Adeyemi", 38002),
    ],
}


@pytest.fixture(scope="module")
def sports(tmp_path_factory: pytest.TempPathFactory, embedder: object) -> Library:
    root = tmp_path_factory.mktemp("sports")
    folder = root / "tables"
    folder.mkdir()
    for name, rows in TABLES.items():
        write_csv(folder / name, rows)
    build_index(folder, root / "index", embedder=embedder)
    return Library(root / "index", embedder)


def test_a_rare_value_word_beats_a_better_header_match(sports: Library) -> None:
    """Another table has two laps columns, one of them 'Laps driven'; only the grand prix results hold
    'Hulme' (and only inside the value 'Denny Hulme', which the question does not name whole)."""
    found = sports.search("How many laps did Hulme drive?", k=3)
    assert sports.sheets[found.rankings["columns"][0]]["file"] == "laps_driven.csv"  # by headers alone
    assert found.tables[0].file == "grand_prix.csv"
    assert "rare words 'hulme'" in found.tables[0].reason
    assert found.tables[0].rare == ["hulme"]
    assert found.rankings["words"][0] == found.tables[0].table_id
    assert any(t.file == "laps_driven.csv" for t in found.tables)  # still among the candidates


def test_a_named_pair_of_words_weighs_more_than_one(sports: Library) -> None:
    """Both leagues have a Team, Year and Points; the question names two teams of one of them."""
    found = sports.search("how many more points did the newcastle falcons get than the london irish?", k=3)
    assert found.tables[0].file == "league_2001.csv"
    assert {"newcastle falcon", "london irish"} <= set(found.tables[0].rare)


def test_a_common_word_is_no_evidence(sports: Library) -> None:
    """'team' is a header or a value word of four tables of thirteen (more than one in ten) and 'laps'
    a header of three: neither ranks anything."""
    assert sports._terms.search("which team?") == []
    assert sports._terms.search("how many laps?") == []


def test_terms_of_a_table() -> None:
    text = ["Newcastle Falcons", "a sentence of many words that says a lot", "x" * 61]
    terms = table_terms([text, [1970, 1971.0, 2.5, True], [dt.date(1999, 1, 2)]])
    assert terms.split() == sorted(terms.split())
    assert set(terms.split()) == {"newcastle", "falcon", "newcastle_falcon", "1970", "1971"}
    assert header_terms("finalWorth") == ["final", "worth"]
    assert value_terms("1970") == ["1970"]
    assert question_terms("What did the Newcastle Falcons score?") == [
        "newcastle",
        "falcon",
        "score",
        "newcastle_falcon",
        "falcon_score",
    ]


def test_rare_share_and_length() -> None:
    """A term in more than :data:`RARE_SHARE` of the tables weighs nothing; of two tables holding a rare
    term, the one with fewer terms scores higher (it holds any word less easily)."""
    many = " ".join(f"w{i}" for i in range(200))
    index = TermIndex(["hulme year", f"hulme year {many}", "year", *["other"] * 17], [[]] * 20)
    assert index.idf("year") == 0.0 and RARE_SHARE < 3 / 20
    assert index.idf("hulme") > 0.0
    hits = index.search("hulme in which year")
    assert [h.index for h in hits] == [0]  # the long table scores under half the short one's
    assert TermIndex([], []).search("anything") == []


def test_a_header_word_weighs_less_than_a_value_word() -> None:
    """Two tables hold the question's one rare word: one as a value, the other only as a header."""
    index = TermIndex(["denny hulme", "alain prost", *["other"] * 28], [["Driver"], ["Hulme"], *[["x"]] * 28])
    assert index.postings["hulme"] == [(0, 1.0), (1, HEADER_WEIGHT)]
    assert index.search("hulme")[0].index == 0


def test_old_index_is_rebuilt(tmp_path: Path, embedder: object) -> None:
    """The terms are a new field: an index of the previous version is rebuilt, not read."""
    import json

    from gridsight.retrieval._store import INDEX_VERSION, VERSION_FILE

    folder = tmp_path / "f"
    folder.mkdir()
    write_csv(folder / "a.csv", TABLES["cities.csv"])
    db = tmp_path / "db"
    build_index(folder, db, embedder=embedder)
    meta = json.loads((db / VERSION_FILE).read_text())
    (db / VERSION_FILE).write_text(json.dumps({**meta, "version": INDEX_VERSION - 1}))
    report = build_index(folder, db, embedder=embedder)
    assert report.rebuilt and report.indexed == ["a.csv"]
    assert "holon" in Library(db, embedder).store.terms().popitem()[1].split()


def test_a_common_word_held_by_chance_weighs_less_than_a_name() -> None:
    """One table holds the common word 'before' inside a title; another, three times longer than the
    average table, holds the invented name 'Zorvath'. Both words are in one table of thirty: by the
    library alone they weigh the same and the short table wins; the language says 'before' is common."""
    filler = " ".join(f"f{i}" for i in range(40))
    values = ["before dawn", f"zorvath {filler}", *["other"] * 28]
    ranks = {"the": 0, "before": 81, "who": 40, "dawn": 5000, **{f"w{i}": i for i in range(20000)}}
    plain = TermIndex(values, [[]] * 30)
    assert plain.search("who came before zorvath?")[0].index == 0
    weighed = TermIndex(values, [[]] * 30, ranks)
    hits = weighed.search("who came before zorvath?")
    assert hits[0].index == 1 and hits[0].terms == ["zorvath"]


def test_language_weight_follows_the_rank() -> None:
    ranks = {"the": 0, "before": 81, "harbour": 3000, "mizzen": 19000}
    size = 20000
    weights = [language_weight(w, ranks, size) for w in ("the", "before", "harbour", "mizzen", "zorvath")]
    assert weights == sorted(weights) and weights[-1] == 1.0 and weights[0] < 0.1
    assert language_weight("before", None, 0) == 1.0


def test_the_embedders_vocabulary_ranks_common_words_first(embedder: object) -> None:
    ranks = embedder.word_ranks()  # type: ignore[attr-defined]
    assert ranks["the"] == 0
    assert ranks["before"] < ranks["harbour"] < ranks["lighthouse"]
    assert "zorvath" not in ranks  # an invented name is cut into pieces
