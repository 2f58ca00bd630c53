"""Shared fixtures: the corpus beside the repo, and small real workbooks written by openpyxl."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def corpus_root() -> Path:
    env = os.environ.get("GRIDSIGHT_CORPUS")
    return Path(env) if env else (REPO / ".." / "shared" / "corpus").resolve()


@pytest.fixture(scope="session")
def corpus() -> Path:
    root = corpus_root()
    if not (root / "tables").is_dir():
        pytest.fail(f"the shared corpus is missing at {root}; CI runs with ../shared beside the repo")
    return root


def write_spreadsheet_folder(folder: Path) -> Path:
    """A folder library: two CSVs and one .xlsx in a subfolder, three small tables about different things."""
    import openpyxl

    (folder / "sub").mkdir(parents=True)
    (folder / "passengers.csv").write_text(
        "Name,Sex,Age,Fare\nAnn,female,4,16.7\nBob,male,40,7.25\nCid,male,2,21\n", encoding="utf-8"
    )
    (folder / "billionaires.csv").write_text(
        "personName,gender,age,finalWorth\nAda,F,31,2100\nBen,M,58,5400\nCal,M,27,1300\n", encoding="utf-8"
    )
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Harvest"
    ws.append(["Crop", "Tonnes", "Hectares"])
    for row in (("Wheat", 120, 40), ("Barley", 80, 30), ("Oats", 45, 20)):
        ws.append(row)
    wb.save(folder / "sub" / "farm.xlsx")
    return folder


@pytest.fixture(scope="session")
def spreadsheet_folder() -> Callable[[Path], Path]:
    """spreadsheet_folder(path) writes the small three-table folder library there and returns it."""
    return write_spreadsheet_folder
