"""The docs pages are part of the product: every ```python example in README.md and docs/*.md runs as
written (from the repository root, with the shared corpus beside it and the real default model), prints
the ```text block that follows it where the page shows one, and every relative link and #anchor resolves.

A page marks, in an HTML comment just above the fence, an example this file does not run itself:
``<!-- doc-test: run by tests/PATH.py -->`` (a feature's own test runs it, with the setup it needs),
``<!-- doc-test: needs the coder15 extra -->`` (run only when the optional 1.5B model is installed) or
``<!-- doc-test: not run: REASON -->``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\S*)\n(.*?)^```[ \t]*$", flags=re.S | re.M)
MARKER = re.compile(r"<!--\s*doc-test:\s*(.*?)\s*-->\s*\Z", flags=re.S)
LINK = re.compile(r"\]\(([^)\s]+)\)")


@dataclass(frozen=True)
class Example:
    page: Path
    index: int  # among the page's ```python blocks, from 0
    code: str
    marker: str | None  # what the page's doc-test comment says, if it has one
    expected: str | None  # the ```text block the page shows as this example's output

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(REPO)}:python{self.index}"


def examples(page: Path) -> list[Example]:
    text = page.read_text(encoding="utf-8")
    fences = list(FENCE.finditer(text))
    found: list[Example] = []
    for i, fence in enumerate(fences):
        if fence.group(1) != "python":
            continue
        before = text[fences[i - 1].end() if i else 0 : fence.start()]
        marker = MARKER.search(before)
        expected = None
        if i + 1 < len(fences) and fences[i + 1].group(1) == "text":
            between = [ln for ln in text[fence.end() : fences[i + 1].start()].splitlines() if ln.strip()]
            # the output right below the code, or after one lead-in line such as "This prints:"
            if not between or (len(between) == 1 and between[0].rstrip().endswith(":")):
                expected = fences[i + 1].group(2)
        found.append(Example(page, len(found), fence.group(2), marker.group(1) if marker else None, expected))
    return found


EXAMPLES = [e for page in PAGES for e in examples(page)]


def coder15_installed() -> bool:
    from gridsight.llm import CODER_15B
    from gridsight.llm._locate import missing_packages

    return not missing_packages(CODER_15B)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.name)
def test_example_runs_and_prints_what_the_page_shows(
    example: Example, corpus: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = example.marker or ""
    if marker.startswith("run by "):
        owner = REPO / marker.removeprefix("run by ")
        assert owner.is_file(), f"{example.name} says it is run by {owner}, which does not exist"
        assert f"docs/{example.page.name}" in owner.read_text(encoding="utf-8"), (
            f"{owner} does not read {example.page.name}"
        )
        pytest.skip(f"run by {owner.relative_to(REPO)}")
    if marker.startswith("not run: "):
        pytest.skip(marker)
    if marker == "needs the coder15 extra":
        if not coder15_installed():
            pytest.skip("the optional 1.5B model is not installed (pip install -e '.[coder15]')")
    elif marker:
        pytest.fail(f"{example.name}: unknown doc-test marker {marker!r}")
    monkeypatch.chdir(REPO)
    exec(compile(example.code, example.name, "exec"), {"__name__": "docs"})
    if example.expected is not None:
        assert capsys.readouterr().out == example.expected


def test_the_moved_readme_example_still_compares_its_output() -> None:
    """The README's first example (the workbook model) moved to docs/workbooks.md with its output."""
    first = examples(REPO / "docs" / "workbooks.md")[0]
    assert "open_workbook" in first.code and first.marker is None
    assert first.expected is not None and first.expected.startswith("Sensitivity!A1:D24\n")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    kept = "".join(
        c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN"
    )  # letters, digits, space, hyphen, underscore
    return kept.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    found = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, flags=re.M):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_relative_links_and_anchors_resolve(page: Path) -> None:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading with that anchor in {dest.name}")
    assert not broken, f"{page.name}: " + "; ".join(broken)


def test_slugs_follow_github() -> None:
    assert slug("The sidecar service (`gridsight serve`)") == "the-sidecar-service-gridsight-serve"
    assert slug("4. Formulas from the same plan") == "4-formulas-from-the-same-plan"
    assert slug("Benchmark: `gridsight bench detect`") == "benchmark-gridsight-bench-detect"
