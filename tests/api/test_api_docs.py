"""The curl examples of docs/retrieval.md (folder libraries) and docs/extract.md (records to a new
sheet), run with real curl against a real sidecar: every field each documented output shows must be
in the real answer (`…` stands for what varies: ids and paths)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from gridsight.api import Running, start_server

from .conftest import write_assay

DOCS = Path(__file__).resolve().parents[2] / "docs"
DEFAULT_URL = "https://localhost:8765"
DEFAULT_HOME = "~/.local/share/gridsight"


def documented_session(doc: str) -> list[tuple[str, list[str]]]:
    """The console block that talks to the API (the one that reads the secret): (command, output lines)."""
    text = (DOCS / doc).read_text(encoding="utf-8")
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.S):
        if "api-secret" in block:
            steps: list[tuple[str, list[str]]] = []
            for line in block.splitlines():
                if line.startswith("$ "):
                    steps.append((line[2:], []))
                else:
                    steps[-1][1].append(line)
            return steps
    raise AssertionError(f"{doc} has no curl example")


def like(expected: Any, got: Any, where: str = "") -> None:
    """``expected`` is a part of ``got``: dict keys a subset, lists the same length, `…` any text."""
    if isinstance(expected, dict):
        assert isinstance(got, dict), (where, got)
        for key, value in expected.items():
            assert key in got, (f"{where}.{key} missing", got)
            like(value, got[key], f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected), (where, expected, got)
        for i, (e, g) in enumerate(zip(expected, got, strict=True)):
            like(e, g, f"{where}[{i}]")
    elif isinstance(expected, str) and "…" in expected:
        pattern = ".*".join(re.escape(part) for part in expected.split("…"))
        assert isinstance(got, str) and re.fullmatch(pattern, got, flags=re.S), (where, expected, got)
    else:
        assert expected == got, (where, expected, got)


def run_session(steps: list[tuple[str, list[str]]], running: Running, home: Path, cwd: Path) -> None:
    env = {**os.environ}
    last: Any = None
    for command, output in steps:
        command = command.replace(DEFAULT_URL, running.url).replace(DEFAULT_HOME, str(home))
        assign = re.fullmatch(r"(\w+)=(\w+_…)", command)
        if assign:  # `W=wb_…`: the id of the answer above
            env[assign.group(1)] = last["id"]
            continue
        if command.startswith("S=$(cat "):  # the secret and the CA, as the shell would set them
            env["S"] = running.secret
            env["CA"] = str(running.certs.ca_cert)
            continue
        done = subprocess.run(
            ["bash", "-c", command],
            env=env,
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, (command, done.stderr)
        if output:
            last = json.loads(done.stdout)
            like(json.loads("\n".join(output)), last, command[:60])
        else:
            assert done.stdout == "", (command, done.stdout[:300])


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[tuple[Running, Path]]:
    if shutil.which("curl") is None:
        pytest.skip("curl is not installed")
    home = tmp_path / "home"
    with pytest.MonkeyPatch.context() as mp:
        # The examples show what the rules answer; the model path is tested in test_library_api.py.
        mp.setenv("GRIDSIGHT_MODEL", str(tmp_path / "no-model.gguf"))
        r = start_server(0, home, threads=4)
        try:
            yield r, home
        finally:
            r.stop()


def test_folder_library_example(server: tuple[Running, Path], tmp_path: Path) -> None:
    running, home = server
    books = tmp_path / "books"
    books.mkdir()
    # The two files of docs/retrieval.md's first example, written by its own printf lines.
    text = (DOCS / "retrieval.md").read_text(encoding="utf-8")
    for content, name in re.findall(r"\$ printf '(.*)' > books/(\S+)", text):
        (books / name).write_text(content.replace("\\n", "\n"), encoding="utf-8")
    assert sorted(p.name for p in books.iterdir()) == ["billionaires.csv", "passengers.csv"]
    run_session(documented_session("retrieval.md"), running, home, tmp_path)


def test_extract_to_sheet_example(server: tuple[Running, Path], tmp_path: Path) -> None:
    running, home = server
    write_assay(tmp_path / "assay.xlsx")
    run_session(documented_session("extract.md"), running, home, tmp_path)
    assert openpyxl.load_workbook(tmp_path / "assay.xlsx").sheetnames == ["Assay"]  # undone
