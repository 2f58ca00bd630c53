"""The README is part of the product: CI runs its test command, and it stays a short index.

Its examples (and those of docs/*.md) run in tests/test_docs.py.
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    return README.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_quick_start_has_exactly_two_commands() -> None:
    commands = re.findall(r"```bash\n(.*?)\n```", section("Quick start"), flags=re.S)
    assert len(commands) == 2
    assert "gridsight demo" in commands[0] and "pytest" in commands[1]


def test_ci_runs_the_readme_test_command() -> None:
    test_command = re.findall(r"```bash\n(.*?)\n```", section("Quick start"), flags=re.S)[1]
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == test_command


def test_the_readme_keeps_only_its_sections() -> None:
    assert re.findall(r"^## (.+)$", README, flags=re.M) == [
        "Quick start",
        "What works",
        "Benchmarks",
        "Layout",
        "Development",
    ]
    assert "\n### " not in README, "a feature's details belong on its page under docs/"


def test_what_works_is_one_line_per_feature_with_its_page() -> None:
    lines = section("What works").strip().splitlines()
    first = next(i for i, ln in enumerate(lines) if ln.startswith("- "))
    items = [ln for ln in lines[first:] if ln.strip()]
    assert len(items) >= 10
    for item in items:
        # one line each (no continuation lines), ending in a link to a page under docs/ that exists
        assert item.startswith("- "), f"not a one-line item: {item}"
        page = re.search(r"\]\((docs/[\w.-]+\.md)\)\.?$", item)
        assert page is not None, f"no docs/ link at the end of: {item}"
        assert (REPO / page.group(1)).is_file(), page.group(1)


def test_every_benchmark_has_a_row_with_its_page() -> None:
    from gridsight.bench import BENCHMARKS

    rows = dict(
        re.findall(r"^\| `gridsight bench (\w+)` \|.*?\]\((docs/[^)#]+)", section("Benchmarks"), flags=re.M)
    )
    assert sorted(rows) == sorted(BENCHMARKS)
    assert all((REPO / page).is_file() for page in rows.values())
