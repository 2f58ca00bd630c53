"""Shared fixtures: the corpus beside the repo, and small real workbooks written by openpyxl."""

from __future__ import annotations

import os
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
