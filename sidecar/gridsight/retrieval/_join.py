"""Questions that need two retrieved tables of different files joined on a shared key.

"What is the total amount of the orders in Trondheim?" over a folder where ``orders.xlsx`` holds
(Order, Store, Amount) and ``stores.csv`` holds (Store, City) needs both: retrieval finds the two
tables, and the workbook join (:mod:`gridsight.qa._join`, the same mechanism as for two sheets of one
workbook) widens the orders by the store's city. The tables of the other files are labelled with their
file, so the key must be a text column or two columns whose headers name each other, and the answer's
evidence names the file, sheet and range of every table it read. The query is the planner's SELECT
over the read-only joined view, checked by the same guard; nothing here writes a query.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gridsight.grid import Workbook
from gridsight.qa import QAAnswer
from gridsight.qa._ask import answer_over_join
from gridsight.qa._join import label_of, parse_label
from gridsight.qa._pick import Candidate, candidates
from gridsight.retrieval._search import TableHit

#: Retrieved tables (best first) among which a join is looked for.
JOIN_TABLES = 3


def table_of(workbook: Workbook, hit: TableHit, question: str) -> Candidate | None:
    """The detected table a retrieved hit names (same sheet and range), or None when it is gone."""
    for cand in candidates(workbook, hit.sheet, question):
        if cand.table.range.ref() == hit.range:
            return cand
    return None


def answer_joined(
    question: str, hits: list[TableHit], open_hit: Callable[[TableHit], Workbook]
) -> QAAnswer | None:
    """The answer over two of the first :data:`JOIN_TABLES` retrieved tables joined on a shared key,
    with file/sheet/range evidence for both; None when no two of them join for this question."""
    tables: list[Candidate] = []
    files: dict[int, str] = {}
    for hit in hits[:JOIN_TABLES]:
        try:
            cand = table_of(open_hit(hit), hit, question)
        except Exception:  # a file that changed or vanished since indexing: not joined
            continue
        if cand is not None:
            tables.append(cand)
            files[id(cand)] = hit.file
    if len({files[id(c)] for c in tables}) < 2:
        return None  # one file: the workbook pipeline already joins its sheets

    def across(cand: Candidate) -> str:
        return label_of(files[id(cand)], cand.sheet.name)

    ans = answer_over_join(question, tables, across)
    if ans is None:
        return None
    right = {e["sheet"] for e in ans.evidence if parse_label(e["sheet"])[0] is not None}
    # the table the query reads from (the other's cells carry their label; two tables of one sheet
    # share it)
    mine = [c for c in tables if c.ref == ans.table]
    left = next((c for c in mine if across(c) not in right), mine[0])
    evidence: list[dict[str, Any]] = []
    for e in ans.evidence:
        file, sheet = parse_label(e["sheet"])
        evidence.append({"file": file or files[id(left)], **e, "sheet": sheet})
    ans.evidence = evidence
    used = sorted({e["file"] for e in evidence})
    own = f"(over {left.ref} joined"
    ans.explanation = ans.explanation.replace(own, f"(over {files[id(left)]} {left.ref} joined", 1)
    ans.explanation += f" (tables retrieved from {', '.join(used)})"
    return ans
