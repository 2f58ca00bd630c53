"""docs/extract.md's schemas parse as the page says (its example runs in tests/test_docs.py)."""

from __future__ import annotations

import re
from pathlib import Path

DOC = (Path(__file__).resolve().parents[2] / "docs" / "extract.md").read_text(encoding="utf-8")


def test_documented_schemas_parse() -> None:
    from gridsight.extract import parse_schema

    blocks = re.findall(r"```json\n(.*?)```", DOC, flags=re.S)
    assert len(blocks) == 2
    assert [parse_schema(b).names for b in blocks] == [["Other", "IC50"], ["Other", "IC50", "EC50"]]
