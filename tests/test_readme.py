"""The README is part of the product: its examples run, and CI runs its test command."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")


def blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


def test_quick_start_has_exactly_two_commands() -> None:
    quick = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```bash\n(.*?)\n```", quick, flags=re.S)
    assert len(commands) == 2
    assert "gridsight demo" in commands[0] and "pytest" in commands[1]


def test_ci_runs_the_readme_test_command() -> None:
    quick = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    test_command = re.findall(r"```bash\n(.*?)\n```", quick, flags=re.S)[1]
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == test_command


@pytest.mark.parametrize("code", blocks("python"))
def test_python_examples_run(code: str, corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    exec(compile(code, "README.md", "exec"), {"__name__": "readme"})


def test_documented_library_output(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, expected = blocks("python")[0], blocks("text")[0]
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
    finally:
        os.chdir(cwd)
    assert capsys.readouterr().out == expected
