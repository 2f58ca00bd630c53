"""A small library of real files built in the test: passengers (xlsx), billionaires (csv), shops (xlsx, two
sheets), and the index built from it once per session."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from openpyxl import Workbook

PASSENGERS = [
    ("Name", "Sex", "Age", "Survived", "Fare"),
    ("Ann Lee", "female", 4, True, 16.7),
    ("Bob Stone", "male", 40, False, 7.25),
    ("Cid Moss", "male", 2, True, 21.0),
    ("Dee Hart", "female", 29, True, 71.3),
    ("Eve Holt", "female", 54, False, 8.05),
]
BILLIONAIRES = [
    ("personName", "gender", "age", "finalWorth", "country"),
    ("Ada Grant", "F", 31, 2100, "Norway"),
    ("Ben Ruiz", "M", 58, 5400, "Chile"),
    ("Cal Park", "M", 27, 1300, "Japan"),
    ("Dana Wu", "F", 66, 9800, "Kenya"),
]
STORES = [
    ("Store", "City", "Opened"),
    ("North", "Trondheim", "2015-03-01"),
    ("South", "Valparaiso", "2018-07-15"),
    ("East", "Kisumu", "2020-01-20"),
]
ORDERS = [
    ("Order", "Store", "Amount", "Comment"),
    (1, "North", 120.5, "delivered on time to the back door of the building"),
    (2, "South", 80.0, None),
    (3, "North", 45.25, "customer asked for a second copy of the invoice"),
    (4, "East", 300.0, None),
]


def write_xlsx(path: Path, sheets: dict[str, list[tuple[object, ...]]]) -> Path:
    wb = Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(list(row))
    wb.save(path)
    return path


def write_csv(path: Path, rows: list[tuple[object, ...]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return path


def make_library(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    write_xlsx(folder / "passengers.xlsx", {"Passengers": PASSENGERS})
    write_csv(folder / "billionaires.csv", BILLIONAIRES)
    (folder / "shops").mkdir(exist_ok=True)
    write_xlsx(folder / "shops" / "shops.xlsx", {"Stores": STORES, "Orders": ORDERS})
    return folder


@pytest.fixture(scope="session")
def embedder():  # type: ignore[no-untyped-def]
    from gridsight.llm.embeddings import shared_embedder

    return shared_embedder()


@pytest.fixture(scope="session")
def library_dir(tmp_path_factory: pytest.TempPathFactory, embedder: object) -> tuple[Path, Path]:
    """(folder, index) built once for the search tests (never modified by them)."""
    from gridsight.retrieval import build_index

    root = tmp_path_factory.mktemp("lib")
    folder = make_library(root / "books")
    db = root / "index"
    build_index(folder, db, embedder=embedder)
    return folder, db


@pytest.fixture(scope="session")
def library(library_dir: tuple[Path, Path], embedder: object):  # type: ignore[no-untyped-def]
    from gridsight.retrieval import Library

    return Library(library_dir[1], embedder)


@pytest.fixture(scope="session")
def model():  # type: ignore[no-untyped-def]
    """The real default model, loaded once (one thread: the machine is shared)."""
    from gridsight.llm import load_runtime

    return load_runtime(n_threads=1)
