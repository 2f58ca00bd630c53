"""Answer a question over a folder: retrieval chooses the tables, the single-workbook pipeline answers.

A question that needs a column of another retrieved table sharing a key with the first is answered
over the two joined (:mod:`gridsight.retrieval._join`). Otherwise the retrieved tables are tried best
first; inside each, :func:`gridsight.qa.answer_question` (the
same pipeline as a question about one workbook) answers or abstains. The first answer wins and its
evidence names the file as well as the sheet and range. When no table is about the question,
GridSight abstains and names the closest tables. Retrieval never answers by itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gridsight.grid import Workbook
from gridsight.qa import QAAnswer, answer_question
from gridsight.retrieval._index import build_index, default_db
from gridsight.retrieval._join import answer_joined
from gridsight.retrieval._search import Library, Retrieval
from gridsight.retrieval._store import VERSION_FILE

#: Retrieved tables the pipeline is asked, best first, before GridSight abstains.
TRY_TABLES = 3


@dataclass
class FolderAnswer:
    """The answer, the file it came from, what retrieval found, and what each table said."""

    answer: QAAnswer
    file: str | None
    retrieval: Retrieval
    tried: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.answer.to_dict(),
            "file": self.file,
            "retrieval": self.retrieval.to_dict(),
            "tried": self.tried,
        }


def open_library(folder: Path, db: Path | None = None, embedder: Any = None) -> Library:
    """The folder's index opened for search, built first when there is none."""
    db = db or default_db(folder)
    if not (db / VERSION_FILE).is_file():
        build_index(folder, db, embedder=embedder)
    return Library(db, embedder)


def _open(path: Path) -> Workbook:
    from gridsight.sources import open_workbook

    return open_workbook(path)


def ask_library(
    library: Library,
    folder: Path,
    question: str,
    *,
    model: Any = None,
    tries: int = TRY_TABLES,
    opener: Callable[[Path], Workbook] = _open,
    compose: bool = True,
) -> FolderAnswer:
    """Answer ``question`` from the library's tables (see the module docstring). A question that compares
    two things (:mod:`gridsight.retrieval._compose`) is answered side by side when both sides answer."""
    if compose:
        from gridsight.retrieval._compose import answer_composed

        def side(q: str) -> tuple[QAAnswer, str | None]:
            one = ask_library(library, folder, q, model=model, tries=tries, opener=opener, compose=False)
            return one.answer, one.file

        composed = answer_composed(question, side)
        if composed is not None and composed.status == "answered":
            found = library.search(question, k=max(tries, 5), model=model)
            files = sorted({e["file"] for e in composed.evidence if "file" in e})
            return FolderAnswer(composed, ", ".join(files) or None, found)
    found = library.search(question, k=max(tries, 5), model=model)
    if not found.answerable:
        return FolderAnswer(QAAnswer(question, "abstained", reason=found.reason), None, found)
    joined = answer_joined(question, found.tables, lambda hit: opener(folder / hit.file))
    if joined is not None:
        files = sorted({e["file"] for e in joined.evidence})
        return FolderAnswer(joined, ", ".join(files), found)
    tried: list[str] = []
    for hit in found.tables[:tries]:
        where = f"{hit.file} {hit.sheet}!{hit.range}"
        try:
            wb = opener(folder / hit.file)
            ans = answer_question(wb, question, hit.sheet, model=model)
        except Exception as exc:  # a file that changed or vanished since indexing: try the next table
            tried.append(f"{where}: {exc}")
            continue
        if ans.status == "answered":
            ans.evidence = [{"file": hit.file, **e} for e in ans.evidence]
            ans.explanation += f" (table retrieved from {hit.file}: {hit.reason})"
            return FolderAnswer(ans, hit.file, found, tried)
        tried.append(f"{where}: {ans.reason}")
    closest = ", ".join(f"{h.file} {h.sheet}!{h.range}" for h in found.tables[:3])
    reason = f"none of the closest tables ({closest}) answered: " + "; ".join(tried)
    return FolderAnswer(QAAnswer(question, "abstained", reason=reason), None, found, tried)


def ask_folder(
    folder: Path, question: str, *, db: Path | None = None, model: Any = None, embedder: Any = None
) -> FolderAnswer:
    """Answer ``question`` over every spreadsheet under ``folder`` (indexing it first when needed).

    Args:
        folder: the folder of workbooks.
        question: the user's words.
        db: the index folder (default: one per folder in GridSight's data folder).
        model: a loaded runtime for the QA pipeline (None: its rules alone).
        embedder: the sentence embedder (default: the shared MiniLM one).

    Returns:
        A :class:`FolderAnswer`: the pipeline's answer with file/sheet/range evidence, or an abstention
        naming the closest tables.
    """
    return ask_library(open_library(folder, db, embedder), folder, question, model=model)
