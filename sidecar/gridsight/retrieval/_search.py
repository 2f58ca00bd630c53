"""Retrieval: which tables of the library a question is about, with the reason each was picked.

Two strategies, each measurable on its own, and their fusion (the default):

- ``columns`` -- the question is split into sub-queries (:func:`split_question`); each sub-query is
  searched over the column cards three ways -- meaning (MiniLM vector of the card), exact header words
  (full text over the header) and the column's own values (full text over its most frequent values,
  so a question naming "Southampton" finds the column that holds it) -- and the three ranked lists
  are fused by reciprocal rank. A table scores the sum of its best three columns; the best table of
  each sub-query is kept near the top so that a question spanning tables retrieves each of them.
- ``sheets`` -- query-sheet matching: the whole question against each table's sheet card (vector of
  its description, vector of its content -- headers and first rows --, full text of its description,
  full text of all its name-like values), fused the same way.
- ``words`` (a signal of the hybrid, ranked on its own in :attr:`Retrieval.rankings`) -- the
  question's words that are rare in the library, found among a table's value and header words, weighed
  by inverse document frequency (:mod:`gridsight.retrieval._terms`): among hundreds of small tables a
  question names a value ("Hulme", "1970") more often than a header.
- ``hybrid`` -- the reciprocal-rank fusion of the three tables rankings; its first three tables are then
  ordered by how many of the question's words their headers or named values hold (ties keep the
  fused order).

Nothing here knows any dataset or any question: the signals are the cards' words, vectors and values.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from gridsight.retrieval._split import split_question
from gridsight.retrieval._store import COLUMNS, DIMENSIONS, SHEETS, Store
from gridsight.retrieval._terms import TermHit, TermIndex
from gridsight.text import FILLER, header_words, same, stem, words

STRATEGIES = ("hybrid", "columns", "sheets")
#: Candidates each ranked list contributes before fusion.
DEPTH = 40
#: Reciprocal rank fusion constant (Cormack et al. 2009 use 60).
RRF_K = 60
#: Header vectors each question word contributes, and the cosine at least for a word to name a column
#: ("youngest" -> age 0.62, "survivors" -> Survived 0.66; unrelated pairs stay under 0.45).
WORD_DEPTH = 10
WORD_COSINE = 0.45
#: A question word this close to a header makes the question about that column (for abstaining).
WORD_SURE = 0.6
#: Question words probed one by one.
MAX_WORDS = 10
#: Columns of a table summed into its score.
TOP_COLUMNS = 3
#: Tables of the fused ranking re-ordered by the question words their headers and named values hold.
RERANK = 3
#: Below this cosine (question to the best column card) and without any header-word match, no table is
#: about the question: retrieval abstains and names the closest tables.
ABSTAIN_COSINE = 0.30


@dataclass
class ColumnHit:
    """One column card the question (or one of its sub-queries) found."""

    table_id: str
    file: str
    column: str
    kind: str
    score: float
    cosine: float = 0.0
    header: bool = False  # exact header words matched
    values: bool = False  # the column holds words of the question
    words: list[str] = field(default_factory=list)  # question words whose meaning names the header
    word_cosine: float = 0.0  # the closest of those words
    named: list[str] = field(default_factory=list)  # its values the question names

    def why(self) -> str:
        parts = [f"meaning {self.cosine:.2f}"]
        if self.words:
            parts.append("'" + "', '".join(self.words[:3]) + "'")
        if self.header:
            parts.append("header words")
        if self.values:
            parts.append("its values " + ", ".join(repr(v) for v in self.named[:3]))
        return f"{self.column} ({', '.join(parts)})"


@dataclass
class TableHit:
    """A retrieved table: where it is, its score, and why it was picked."""

    table_id: str
    file: str
    sheet: str
    range: str
    title: str
    score: float
    reason: str
    columns: list[ColumnHit] = field(default_factory=list)
    rare: list[str] = field(default_factory=list)  # the question's rare words it holds

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "sheet": self.sheet,
            "range": self.range,
            "title": self.title,
            "score": round(self.score, 5),
            "reason": self.reason,
            "columns": [c.column for c in self.columns],
        }


@dataclass
class Retrieval:
    """What retrieval returns for one question."""

    question: str
    strategy: str
    subqueries: list[str]
    tables: list[TableHit]
    columns: list[ColumnHit]  # ranked column hits across all tables (columns strategy)
    answerable: bool
    reason: str
    seconds: float
    #: Every table id ranked by each strategy that ran ("columns", "sheets", "words" with the hybrid,
    #: and the one asked for).
    rankings: dict[str, list[str]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "strategy": self.strategy,
            "subqueries": self.subqueries,
            "answerable": self.answerable,
            "reason": self.reason,
            "tables": [t.to_dict() for t in self.tables],
            "seconds": round(self.seconds, 4),
        }


def _cosine(distance: float) -> float:
    """lancedb's default metric is squared L2; card vectors are unit length."""
    return 1.0 - float(distance) / 2.0


def nearest(table: Any, vec: np.ndarray, column: str, fields: list[str], depth: int) -> list[dict[str, Any]]:
    """The ``depth`` rows whose vector ``column`` is nearest ``vec`` (with ``_distance``)."""
    search = table.search(vec.tolist(), vector_column_name=column).limit(depth)
    return search.select([*fields, "_distance"]).to_list()


def matching(table: Any, text: str, column: str, fields: list[str], depth: int) -> list[dict[str, Any]]:
    """The ``depth`` best full-text matches of ``text`` in ``column`` (BM25, with ``_score``)."""
    try:
        search = table.search(text, query_type="fts", fts_columns=column).limit(depth)
        return search.select([*fields, "_score"]).to_list()
    except Exception:  # no full-text index yet (an empty library): no matches
        return []


class Library:
    """An indexed folder opened for search (read only)."""

    def __init__(self, db: Path, embedder: Any = None) -> None:
        if embedder is None:
            from gridsight.llm.embeddings import shared_embedder

            embedder = shared_embedder()
        self.embedder = embedder
        self.store = Store(db, embedder.name, create=False)
        self.sheets = {s["table_id"]: s for s in self.store.sheets()}
        terms = self.store.terms()
        self._term_ids = list(terms)
        ranks = getattr(embedder, "word_ranks", None)
        self._terms = TermIndex(
            [terms[t] for t in self._term_ids],
            [self.columns_of(t) for t in self._term_ids],
            ranks() if callable(ranks) else None,
        )
        heads = (
            self.store.tables[COLUMNS]
            .to_arrow()
            .select(["table_id", "file", "column", "kind", "header_vector"])
        )
        self._header_meta = heads.select(["table_id", "file", "column", "kind"]).to_pylist()
        flat = heads.column("header_vector").combine_chunks().flatten().to_numpy(zero_copy_only=False)
        self._header_vectors = np.asarray(flat, dtype=np.float32).reshape(len(self._header_meta), DIMENSIONS)

    @staticmethod
    def warm_up() -> Any:
        """Load lancedb and the shared embedder (seconds on a busy machine); returns the embedder."""
        import lancedb  # noqa: F401

        from gridsight.llm.embeddings import shared_embedder

        embedder = shared_embedder()
        embedder.embed(["warm up"])
        return embedder

    # -- the ranked lists ---------------------------------------------------------------------------
    def _columns(self, text: str, vec: np.ndarray) -> dict[tuple[str, str], ColumnHit]:
        table = self.store.tables[COLUMNS]
        fields = ["table_id", "file", "column", "kind"]
        # full text reads only the words that may name something: "how many ... in the dataset" must not
        # find a column headed "dataset"
        named = " ".join(w for w in words(text) if w not in FILLER)
        value_rows = matching(table, named, "values_text", [*fields, "values_text"], DEPTH) if named else []
        lists = [
            ("vector", nearest(table, vec, "vector", fields, DEPTH)),
            ("header", matching(table, named, "header_text", fields, DEPTH) if named else []),
            ("values", named_values(value_rows, text)),
        ]
        hits: dict[tuple[str, str], ColumnHit] = {}
        for how, rows in lists:
            for rank, row in enumerate(rows, 1):
                key = (row["table_id"], row["column"])
                hit = hits.setdefault(
                    key, ColumnHit(row["table_id"], row["file"], row["column"], row["kind"], 0.0)
                )
                hit.score += 1.0 / (RRF_K + rank)
                if how == "vector":
                    hit.cosine = max(hit.cosine, _cosine(row["_distance"]))
                elif how == "header":
                    hit.header = True
                else:
                    hit.values = True
                    hit.named = row["named"]
        return hits

    def _words(self, probes: list[str], vecs: np.ndarray, merged: dict[tuple[str, str], ColumnHit]) -> None:
        """Each question word against the header vectors: a word that means a header adds to its column.
        All words are scored at once against the header vectors read from the index when it was opened
        (one matrix product instead of one search per word)."""
        if not probes or self._header_vectors.size == 0:
            return
        sims = vecs @ self._header_vectors.T  # unit vectors: cosine
        for word, row in zip(probes, sims, strict=True):
            best = np.argsort(-row)[:WORD_DEPTH]
            for rank, j in enumerate(best.tolist(), 1):
                cos = float(row[j])
                if cos < WORD_COSINE:
                    break
                meta = self._header_meta[j]
                key = (meta["table_id"], meta["column"])
                hit = merged.setdefault(
                    key, ColumnHit(meta["table_id"], meta["file"], meta["column"], meta["kind"], 0.0)
                )
                hit.score += 1.0 / (RRF_K + rank)
                hit.words.append(word)
                hit.word_cosine = max(hit.word_cosine, cos)

    def _column_strategy(
        self, parts: list[str], vecs: np.ndarray, probes: list[str], pvecs: np.ndarray
    ) -> tuple[list[str], list[ColumnHit], list[str]]:
        """Tables ranked by their columns, the column hits ranked, and each sub-query's best table."""
        merged: dict[tuple[str, str], ColumnHit] = {}
        best_of_part: list[str] = []
        for text, vec in zip(parts, vecs, strict=True):
            hits = self._columns(text, vec)
            per_table: dict[str, list[float]] = defaultdict(list)
            for key, h in hits.items():
                per_table[h.table_id].append(h.score)
                m = merged.get(key)
                if m is None:
                    merged[key] = h
                else:
                    m.score += h.score
                    m.cosine = max(m.cosine, h.cosine)
                    m.header |= h.header
                    m.values |= h.values
            if per_table:
                best_of_part.append(max(per_table, key=lambda t: sum(sorted(per_table[t])[-TOP_COLUMNS:])))
        self._words(probes, pvecs, merged)
        by_table: dict[str, list[ColumnHit]] = defaultdict(list)
        for h in merged.values():
            by_table[h.table_id].append(h)
        scores = {
            t: sum(sorted((h.score for h in hs), reverse=True)[:TOP_COLUMNS]) for t, hs in by_table.items()
        }
        order = sorted(scores, key=lambda t: -scores[t])
        # the best table of each sub-query stays near the top (a question may span tables)
        head = [*order[:1], *(t for t in best_of_part[1:] if t not in order[:1])]
        ranked = list(dict.fromkeys([*head, *order]))
        columns = sorted(merged.values(), key=lambda h: -h.score)
        return ranked, columns, best_of_part

    def _sheet_strategy(self, question: str, vec: np.ndarray) -> tuple[list[str], dict[str, float]]:
        table = self.store.tables[SHEETS]
        vec_rows = nearest(table, vec, "vector", ["table_id"], DEPTH)
        content_rows = nearest(table, vec, "content_vector", ["table_id"], DEPTH)
        named = " ".join(w for w in words(question) if w not in FILLER)
        fts_rows = matching(table, named, "description", ["table_id"], DEPTH) if named else []
        value_rows = named_values(
            matching(table, named, "values_text", ["table_id", "values_text"], DEPTH) if named else [],
            question,
        )
        scores: dict[str, float] = defaultdict(float)
        for rows in (vec_rows, content_rows, fts_rows, value_rows):
            for rank, row in enumerate(rows, 1):
                scores[row["table_id"]] += 1.0 / (RRF_K + rank)
        return sorted(scores, key=lambda t: -scores[t]), dict(scores)

    # -- the public search --------------------------------------------------------------------------
    def search(self, question: str, k: int = 5, strategy: str = "hybrid", model: Any = None) -> Retrieval:
        """The top ``k`` tables for ``question`` by ``strategy`` (hybrid, columns or sheets); with a
        ``model``, its sub-queries (:mod:`gridsight.retrieval._model_split`) join the deterministic ones."""
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r} (known: {', '.join(STRATEGIES)})")
        start = time.perf_counter()
        parts = split_question(question)
        if model is not None and parts:
            from gridsight.retrieval._model_split import model_parts

            seen = {p.casefold() for p in parts}
            parts += [p for p in model_parts(model, question) if p.casefold() not in seen]
        if not parts or not self.sheets:
            why = "the library holds no tables" if not self.sheets else "the question is empty"
            return Retrieval(question, strategy, parts, [], [], False, why, time.perf_counter() - start)
        probes = question_words(parts[0])
        every = np.asarray(self.embedder.embed([*parts, *probes]), dtype=np.float32)
        vecs, pvecs = every[: len(parts)], every[len(parts) :]
        col_rank: list[str] = []
        columns: list[ColumnHit] = []
        part_best: list[str] = []
        if strategy in ("hybrid", "columns"):
            col_rank, columns, part_best = self._column_strategy(parts, vecs, probes, pvecs)
        sheet_rank: list[str] = []
        if strategy in ("hybrid", "sheets"):
            sheet_rank, _ = self._sheet_strategy(parts[0], vecs[0])
        rare: dict[str, TermHit] = {}
        if strategy == "hybrid":
            rare = {self._term_ids[h.index]: h for h in self._terms.search(question)[:DEPTH]}
        if strategy == "columns":
            ranked = col_rank
        elif strategy == "sheets":
            ranked = sheet_rank
        else:
            fused: dict[str, float] = defaultdict(float)
            for rank_list in (col_rank, sheet_rank, list(rare)):
                for r, t in enumerate(rank_list, 1):
                    fused[t] += 1.0 / (RRF_K + r)
            by_score = sorted(fused, key=lambda t: -fused[t])
            ranked = list(dict.fromkeys([*by_score[:1], *part_best[1:], *by_score]))  # each part's best
            ranked = self._by_words(parts[0], ranked, columns, rare)
        cols_of: dict[str, list[ColumnHit]] = defaultdict(list)
        for h in columns:
            cols_of[h.table_id].append(h)
        hits: list[TableHit] = []
        for i, tid in enumerate(ranked[:k]):
            s = self.sheets.get(tid)
            if s is None:
                continue
            mine = cols_of.get(tid, [])[:TOP_COLUMNS]
            reason = (
                "columns " + "; ".join(h.why() for h in mine)
                if mine
                else "its description is close to the question"
            )
            named = rare[tid].terms if tid in rare else []
            if named:
                reason += "; rare words " + ", ".join(repr(w) for w in named[:4])
            hits.append(
                TableHit(
                    tid, s["file"], s["sheet"], s["range"], s["title"], 1.0 / (i + 1), reason, mine, named
                )
            )
        answerable, why = _answerable(hits, columns, strategy)
        rankings = {"columns": col_rank, "sheets": sheet_rank, "words": list(rare), strategy: ranked}
        seconds = time.perf_counter() - start
        return Retrieval(question, strategy, parts, hits, columns, answerable, why, seconds, rankings)

    def _by_words(
        self,
        question: str,
        ranked: list[str],
        columns: list[ColumnHit],
        rare: dict[str, TermHit] | None = None,
    ) -> list[str]:
        """The first :data:`RERANK` tables re-ordered by how many of the question's words they name --
        by a header (by its letters: plurals and -ed/-ing forms count), by a value of theirs the
        question names, or by a rare word of their values (``rare``) -- the fused order breaking ties.
        The fusion weighs a table's meaning as much as its words, so a table that is merely about the
        same things can come first while another names more of what is asked."""
        qw = question_words(question)
        head = ranked[:RERANK]
        count: dict[str, int] = {}
        for t in head:
            heads = [h for c in self.columns_of(t) for h in header_words(c)]
            held = {w for h in columns if h.table_id == t for v in h.named for w in words(v, camel=False)}
            scarce = set(rare[t].terms) if rare and t in rare else set()
            count[t] = sum(1 for w in qw if w in held or stem(w) in scarce or any(same(h, w) for h in heads))
        return sorted(head, key=lambda t: -count[t]) + ranked[RERANK:]

    def columns_of(self, table_id: str) -> list[str]:
        s = self.sheets.get(table_id)
        return list(json.loads(s["columns"])) if s else []


@lru_cache(maxsize=1 << 17)
def _value_words(value: str) -> tuple[str, ...]:
    """The words of a card value (cached: the same values come back in the full-text hits of question
    after question, and reading words is most of a search's own time)."""
    return tuple(words(value, camel=False))


def named_values(rows: list[dict[str, Any]], question: str) -> list[dict[str, Any]]:
    """The full-text hits whose values the question really names (every content word of a value, with
    plurals and one typo: :func:`gridsight.qa._sqlgen.match_score`), most named words first; each row
    gets ``named``, the values. Bag-of-words overlap alone ("age" inside a long list of values) is
    dropped: a value grounds a table only when the question says it."""
    from gridsight.qa._sqlgen import match_score
    from gridsight.qa._sqlgen import question_words as value_words

    qwords = value_words(question)
    heads = {w[:4] for w in qwords}
    kept: list[tuple[int, int, dict[str, Any]]] = []
    for i, row in enumerate(rows):
        named: list[str] = []
        for v in (row.get("values_text") or "").split(" | "):
            toks = _value_words(v)
            if toks and any(t[:4] in heads for t in toks) and match_score(v, qwords, question) >= 1.0:
                named.append(v)
        if named:
            size = sum(len(_value_words(v)) for v in named)
            kept.append((-size, i, {**row, "named": named}))
    return [row for *_, row in sorted(kept, key=lambda x: (x[0], x[1]))]


def question_words(question: str) -> list[str]:
    """The words of a question that may name a column (no function, request or operation words)."""
    out: list[str] = []
    for w in words(question):
        if len(w) > 2 and w not in FILLER and not w.isdigit() and w not in out:
            out.append(w)
    return out[:MAX_WORDS]


def _answerable(hits: list[TableHit], columns: list[ColumnHit], strategy: str) -> tuple[bool, str]:
    """Whether any table is about the question; else the reason, naming the closest tables."""
    if not hits:
        return False, "no table in the library"
    if strategy == "sheets":
        return True, f"closest table: {hits[0].file} {hits[0].sheet}!{hits[0].range}"
    best = max(columns, key=lambda h: h.cosine, default=None)
    worded = any(h.header or h.values or h.word_cosine >= WORD_SURE for h in columns[: DEPTH // 2])
    if (best is not None and best.cosine >= ABSTAIN_COSINE) or worded:
        return True, f"{hits[0].file} {hits[0].sheet}!{hits[0].range}: {hits[0].reason}"
    closest = ", ".join(f"{h.file} {h.sheet}!{h.range}" for h in hits[:3])
    return False, f"no table's columns are about the question; the closest are {closest}"
