"""Many workbooks: index a folder of spreadsheets in lancedb and find the tables a question is about.

- :func:`build_index` -- every sheet of every .xlsx/.xlsm/.csv under a folder -> detected tables ->
  a sheet card per table and a column card per column (facts from the relational view), embedded with
  the local MiniLM model and stored in lancedb with full-text indexes; incremental by content hash.
- :class:`Library` -- an index opened for search: ``search(question, k, strategy)`` returns the top-k
  tables with the reason each was picked (column-card hybrid search, query-sheet matching, or both).
- :func:`ask_folder` -- answers a question over a folder: retrieval chooses the tables, the
  single-workbook QA pipeline (:func:`gridsight.qa.answer_question`) answers inside them.
"""

from gridsight.retrieval._index import FileEvent, IndexReport, build_index, default_db
from gridsight.retrieval._search import STRATEGIES, Library, Retrieval, TableHit
from gridsight.retrieval._split import split_question

__all__ = [
    "STRATEGIES",
    "FileEvent",
    "IndexReport",
    "Library",
    "Retrieval",
    "TableHit",
    "build_index",
    "default_db",
    "split_question",
]
