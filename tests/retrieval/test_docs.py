"""docs/retrieval.md's examples, run as written: the same files, the same commands, the same output (the
seconds and the meaning scores excepted)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from gridsight.cli import cli

DOC = Path(__file__).resolve().parents[2] / "docs" / "retrieval.md"


def _steps() -> list[tuple[str, list[str]]]:
    """The commands and outputs of every console example that runs only mkdir, printf and gridsight (the
    curl examples run against a real sidecar in tests/api/test_api_docs.py)."""
    blocks = re.findall(r"```console\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    steps: list[tuple[str, list[str]]] = []
    for block in blocks:
        mine: list[tuple[str, list[str]]] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                mine.append((line[2:], []))
            else:
                mine[-1][1].append(line)
        if all(c.split()[0] in ("mkdir", "printf", "gridsight") for c, _ in mine):
            steps += mine
    assert len(steps) >= 9
    return steps


def _loose(line: str) -> str:
    """A line with its varying figures (seconds, meaning scores, sizes) blanked."""
    line = re.sub(r"in \d+(\.\d+)? s$", "in _ s", line)
    line = re.sub(r"meaning \d\.\d\d", "meaning _", line)
    return re.sub(r"\(\d+\.\d MB\)", "(_ MB)", line)


def test_documented_example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for command, expected in _steps():
        if command.startswith("mkdir "):
            Path(command.split()[1]).mkdir()
            continue
        printf = re.fullmatch(r"printf '(.*)' > (\S+)", command)
        if printf:
            Path(printf.group(2)).write_text(printf.group(1).replace("\\n", "\n"), encoding="utf-8")
            continue
        args = shlex.split(command)
        assert args[0] == "gridsight"
        res = runner.invoke(cli, args[1:], terminal_width=400)
        got = [_loose(x) for x in res.output.splitlines()]
        assert got == [_loose(x) for x in expected], res.output
