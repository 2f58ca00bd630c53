"""docs/extract.md's example runs as written and prints what the page shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = (Path(__file__).resolve().parents[2] / "docs" / "extract.md").read_text(encoding="utf-8")


def test_documented_example(capsys: pytest.CaptureFixture[str]) -> None:
    code = re.findall(r"```python\n(.*?)```", DOC, flags=re.S)[0]
    expected = re.findall(r"```text\n(.*?)```", DOC, flags=re.S)[0]
    exec(compile(code, "docs/extract.md", "exec"), {"__name__": "docs"})
    assert capsys.readouterr().out == expected


def test_documented_schemas_parse() -> None:
    from gridsight.extract import parse_schema

    blocks = re.findall(r"```json\n(.*?)```", DOC, flags=re.S)
    assert len(blocks) == 2
    assert [parse_schema(b).names for b in blocks] == [["Other", "IC50"], ["Other", "IC50", "EC50"]]
