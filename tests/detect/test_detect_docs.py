"""docs/detection.md is kept true: its example runs and prints what the page shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = (Path(__file__).resolve().parents[2] / "docs" / "detection.md").read_text(encoding="utf-8")


def test_documented_example(capsys: pytest.CaptureFixture[str]) -> None:
    code = re.findall(r"```python\n(.*?)```", DOC, flags=re.S)[0]
    expected = re.findall(r"```text\n(.*?)```", DOC, flags=re.S)[0]
    exec(compile(code, "docs/detection.md", "exec"), {"__name__": "docs"})
    assert capsys.readouterr().out == expected
