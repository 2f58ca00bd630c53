"""The content card: a table's headers and first rows, embedded, place a question by what the rows are
about when the question names neither a header nor a value of the table."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gridsight.retrieval import Library, build_index
from gridsight.retrieval._search import nearest
from gridsight.retrieval._store import SHEETS

from .conftest import write_csv

#: Three tables with the same headers: only their rows tell them apart.
TABLES: dict[str, list[tuple[object, ...]]] = {
    "a.csv": [
        ("Item", "Detail", "Count"),
        ("Apple", "Red", 12),
        ("Banana", "Yellow", 7),
        ("Cherry", "Dark", 30),
    ],
    "b.csv": [
        ("Item", "Detail", "Count"),
        ("Mars", "Rocky", 2),
        ("Jupiter", "Gas giant", 79),
        ("Saturn", "Gas giant", 82),
    ],
    "c.csv": [
        ("Item", "Detail", "Count"),
        ("Hammer", "Steel", 4),
        ("Wrench", "Adjustable", 9),
        ("Saw", "Hand", 3),
    ],
}


@pytest.fixture(scope="module")
def same_headers(tmp_path_factory: pytest.TempPathFactory, embedder: object) -> Library:
    root = tmp_path_factory.mktemp("content")
    folder = root / "tables"
    folder.mkdir()
    for name, rows in TABLES.items():
        write_csv(folder / name, rows)
    write_csv(
        folder / "notes.csv",
        [
            ("Item", "Remark"),
            ("x", "a long remark of many words about the weather and the planets"),
            ("y", "ok"),
        ],
    )
    build_index(folder, root / "index", embedder=embedder)
    return Library(root / "index", embedder)


def test_the_rows_place_a_question_that_names_no_header_or_value(same_headers: Library) -> None:
    question = "which world orbiting the sun has the most moons?"
    vec = np.asarray(same_headers.embedder.embed([question])[0], dtype=np.float32)
    rows = nearest(same_headers.store.tables[SHEETS], vec, "content_vector", ["file"], 4)
    assert rows[0]["file"] == "b.csv"
    assert same_headers.search(question, k=3, strategy="sheets").tables[0].file == "b.csv"


def test_the_content_card_holds_headers_and_short_values(same_headers: Library) -> None:
    rows = same_headers.store.tables[SHEETS].to_arrow().select(["file", "content"]).to_pylist()
    content = {r["file"]: r["content"] for r in rows}
    assert content["b.csv"].splitlines() == [
        "item | detail | count",
        "Mars | Rocky | 2",
        "Jupiter | Gas giant | 79",
        "Saturn | Gas giant | 82",
    ]
    assert "weather" not in content["notes.csv"]  # a sentence is left out, as on the value cards
    assert "y | ok" in content["notes.csv"].splitlines()


def test_an_index_without_content_vectors_is_rebuilt(tmp_path: Path, embedder: object) -> None:
    import json

    from gridsight.retrieval._store import INDEX_VERSION, VERSION_FILE

    folder = tmp_path / "f"
    folder.mkdir()
    write_csv(folder / "b.csv", TABLES["b.csv"])
    db = tmp_path / "db"
    build_index(folder, db, embedder=embedder)
    meta = json.loads((db / VERSION_FILE).read_text())
    (db / VERSION_FILE).write_text(json.dumps({**meta, "version": INDEX_VERSION - 1}))
    assert build_index(folder, db, embedder=embedder).rebuilt
