"""Gold answers for ``bench qa`` and ``bench formula``: reading a corpus folder, scoring a reply.

A corpus folder has either layout, whatever it is called (both may sit in one folder):

- DataBench: ``<id>.qa.jsonl`` beside ``datasets/<id>.csv`` (or ``.xlsx``); each dataset id is its own
  entry of ``by_dataset``.
- workbook-QA: ``qa.jsonl`` whose lines name a ``file`` found in ``xlsx/``, ``files/``, ``datasets/`` or
  the folder itself (``sheet`` optional); the folder's name is the entry of ``by_dataset`` unless a line
  carries its own ``dataset``.

A line needs ``question`` and ``answer``; ``answer`` may be text (DataBench writes Python literals such as
``"['a', 'b']"``), a JSON number, a bool or a list. ``type`` (boolean, number, category, list[number],
list[category]) is inferred from a JSON answer when absent. A line that is not a JSON object, or lacks
what it needs, stops the bench with the file, the line number and what is wrong.

Scoring (see :func:`score`) is DataBench's type-aware comparison, plus ``answer_alt`` and, for lines that
carry ``answer_canon``/``canon_type`` (WikiTableQuestions), the official WTQ evaluator's matching.
"""

from __future__ import annotations

import ast
import datetime as dt
import json
import math
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

#: The gold types DataBench defines.
TYPES = ("boolean", "number", "category", "list[number]", "list[category]")
#: Other names gold files give the same types ("text" for a label, "numeric", "bool"); "list" is
#: read from the answer itself.
TYPE_NAMES = {
    "text": "category",
    "string": "category",
    "str": "category",
    "label": "category",
    "categorical": "category",
    "numeric": "number",
    "float": "number",
    "int": "number",
    "integer": "number",
    "bool": "boolean",
    "yes/no": "boolean",
    "list": "list",
}

#: Where a workbook-QA line's ``file`` is looked for, in this order (relative to the folder).
FILE_DIRS = ("xlsx", "files", "datasets", ".")

#: What the JSON written by the benches says about scoring.
SCORING = (
    "A reply is right when any of these holds. (1) DataBench's type-aware comparison with the gold "
    "'answer' (booleans by truth, numbers rounded to 2 decimals, categories as exact text or equal "
    "numbers, list[category] as sets, list[number] as sorted lists); a gold answer may be text (a "
    "Python literal for lists), a JSON number, a bool or a list. (2) The same comparison with "
    "'answer_alt' when the line has one (e.g. the percent 84.6 beside the fraction 0.846). (3) Only for "
    "lines with 'answer_canon'/'canon_type' (WikiTableQuestions): the official WTQ evaluator "
    "(evaluator.py 1.0.2) on 'answer_raw' with 'answer_canon' as the CoreNLP values: each gold item is "
    "a number when its canonical value parses as one ('17 years' canon 17.0), a date when it is "
    "yyyy-mm-dd with xx for unknown parts (a bare year is a number), else text; a reply item is a "
    "number (Python int/float, or text that int()/float() parse), a date (a date/datetime value, or "
    "text in ISO form or a written date such as 'December 27, 2008', '27 December 2008', "
    "'December 2008'), a bool as 'yes'/'no', else text. Items match when their normalised texts are "
    "equal (NFKD with diacritics dropped; quotes and dashes unified; trailing citations "
    "[..]/*/#/+/†/‡, trailing ' (..)' details and outer double quotes removed repeatedly; final '.' "
    "removed; whitespace collapsed; lower-case), or both are numbers within 1e-6, or both are dates "
    "with equal year, month and day. The reply is right when, after removing duplicates, it has as "
    "many items as the gold and every gold item matches one of them."
)


@dataclass
class Question:
    """One gold question and where its workbook is."""

    question: str
    answer: Any
    type: str
    dataset: str
    path: Path | None  # None: the file named is not in the folder (the question abstains)
    file: str
    sheet: str | None = None
    id: str | None = None
    alt: list[Any] = field(default_factory=list)
    raw: list[str] | None = None  # WTQ answer_raw
    canon: list[str] | None = None  # WTQ answer_canon
    canon_type: str | None = None
    where: str = ""  # "qa.jsonl:12"

    @property
    def wtq(self) -> bool:
        return self.canon is not None


# --------------------------------------------------------------------------- reading a folder


def _infer_type(answer: Any) -> str | None:
    if isinstance(answer, bool):
        return "boolean"
    if isinstance(answer, int | float):
        return "number"
    if isinstance(answer, list):
        flat = _flat(answer)
        numeric = flat and all(isinstance(x, int | float) and not isinstance(x, bool) for x in flat)
        return "list[number]" if numeric else "list[category]"
    return None


def _lines(path: Path) -> Iterable[tuple[str, dict[str, Any]]]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(f"cannot read {path}: {exc}") from None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path.name}:{n}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise click.ClickException(
                f"{path}:{n}: not valid JSON ({exc.msg}, column {exc.colno})"
            ) from None
        if not isinstance(obj, dict):
            raise click.ClickException(f"{path}:{n}: a line must be a JSON object, not {type(obj).__name__}")
        yield where, obj


def _question(obj: dict[str, Any], where: str, *, need_file: bool) -> tuple[str, Any, str]:
    missing = [k for k in ("question", "answer", *(("file",) if need_file else ())) if k not in obj]
    if missing:
        raise click.ClickException(f"{where}: the line has no {', '.join(repr(m) for m in missing)}")
    question = obj["question"]
    if not isinstance(question, str) or not question.strip():
        raise click.ClickException(f"{where}: 'question' must be non-empty text")
    answer = obj["answer"]
    if answer is None or isinstance(answer, dict):
        raise click.ClickException(f"{where}: 'answer' must be text, a number, a bool or a list")
    kind = obj.get("type")
    if isinstance(kind, str):
        kind = TYPE_NAMES.get(kind.strip().casefold(), kind)
    if kind is None or kind == "list":
        kind = _infer_type(answer) or "category"
    if not isinstance(kind, str) or kind.strip() not in TYPES:
        raise click.ClickException(f"{where}: unknown answer type {kind!r} (known: {', '.join(TYPES)})")
    if need_file and (not isinstance(obj["file"], str) or not obj["file"].strip()):
        raise click.ClickException(f"{where}: 'file' must name a workbook")
    return question, answer, kind.strip()


def _items(value: Any) -> list[str] | None:
    if value is None:
        return None
    if isinstance(value, list):
        return ["" if v is None else str(v) for v in value]
    return [str(value)]


def _extras(obj: dict[str, Any], kind: str) -> dict[str, Any]:
    alt = obj.get("answer_alt")
    if alt is None:
        alts = []
    elif isinstance(alt, list) and not kind.startswith("list"):
        alts = list(alt)  # several alternatives of a one-item answer
    else:
        alts = [alt]
    canon = _items(obj.get("answer_canon"))
    raw = _items(obj.get("answer_raw"))
    if canon is not None and raw is None:
        parsed = parse_gold(obj["answer"])
        raw = _items(_flat(parsed)) if isinstance(parsed, list | tuple) else [str(obj["answer"])]
    return {
        "alt": alts,
        "raw": raw,
        "canon": canon,
        "canon_type": obj.get("canon_type") if canon is not None else None,
        "sheet": obj.get("sheet") if isinstance(obj.get("sheet"), str) else None,
        "id": str(obj["id"]) if obj.get("id") is not None else None,
    }


def load_questions(root: Path) -> list[Question]:
    """Every question of ``root`` in file order: ``qa.jsonl`` first, then each ``<id>.qa.jsonl``."""
    out: list[Question] = []
    name = root.resolve().name or str(root)
    if (root / "qa.jsonl").is_file():
        for where, obj in _lines(root / "qa.jsonl"):
            question, answer, kind = _question(obj, where, need_file=True)
            file = obj["file"]
            path = next((root / d / file for d in FILE_DIRS if (root / d / file).is_file()), None)
            ds = obj["dataset"] if isinstance(obj.get("dataset"), str) else name
            out.append(Question(question, answer, kind, ds, path, file, where=where, **_extras(obj, kind)))
    for qa in sorted(root.glob("*.qa.jsonl")):
        ds = qa.name.removesuffix(".qa.jsonl")
        path = next(
            (p for p in (root / "datasets" / f"{ds}{ext}" for ext in (".csv", ".xlsx")) if p.is_file()), None
        )
        for where, obj in _lines(qa):
            question, answer, kind = _question(obj, where, need_file=False)
            file = path.name if path is not None else f"datasets/{ds}.csv"
            out.append(Question(question, answer, kind, ds, path, file, where=where, **_extras(obj, kind)))
    if not out:
        if (root / "qa.jsonl").is_file() or any(root.glob("*.qa.jsonl")):
            raise click.ClickException(f"the question files in {root} hold no questions")
        raise click.ClickException(
            f"{root} holds neither a workbook-QA qa.jsonl nor DataBench <id>.qa.jsonl files"
        )
    return out


# --------------------------------------------------------------------------- DataBench comparison

_STRIP = "[]'\" "


def _flat(value: Any) -> list[Any]:
    if isinstance(value, list | tuple):
        out: list[Any] = []
        for v in value:
            out.extend(_flat(v))
        return out
    return [value]


def parse_gold(text: Any) -> Any:
    """A gold answer as written by pandas: a Python literal, where a missing value prints as nan.
    A gold answer that is not text (a JSON number, bool or list) is returned as it is."""
    if not isinstance(text, str):
        return text
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        pass
    try:  # "[nan, 'Los Angeles']": the bare nan is pandas' missing value
        return ast.literal_eval(re.sub(r"(?<![\w'\"])nan(?![\w'\"])", "None", text))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return text


def _num(v: Any) -> float | None:
    try:
        x = float(v)
    except (TypeError, ValueError, OverflowError):
        return None
    return None if math.isnan(x) or math.isinf(x) else round(x, 2)


def _scalar_gold(gold: Any) -> Any:
    """The one item of a scalar gold answer; a JSON list of one item is that item."""
    if isinstance(gold, list | tuple):
        flat = _flat(gold)
        return flat[0] if len(flat) == 1 else None
    return gold


def _truth(x: Any) -> str:
    """A yes/no answer as "true" or "false" ("Yes" and True alike); other text as written, lower case."""
    text = str(x).strip(_STRIP).lower()
    return {"yes": "true", "no": "false"}.get(text, text)


def compare(value: Any, gold: Any, kind: str) -> bool:
    """DataBench's type-aware comparison of an answer with the gold answer (text, number, bool or list)."""
    kind = kind.strip()
    if kind in ("boolean", "number", "category"):
        g = _scalar_gold(gold)
        if g is None:
            return False
        v = _flat(value)
        if len(v) != 1:
            return False
        if kind == "boolean":  # (a gold "Yes" / "No" is True / False)
            return _truth(v[0]) == _truth(g)
        if kind == "number":
            return _num(v[0]) is not None and _num(v[0]) == _num(g)
        a, b = str(v[0]).strip(_STRIP), str(g).strip(_STRIP)
        return a == b or (_num(a) is not None and _num(a) == _num(b))
    gold_list = parse_gold(gold)
    gold_items = _flat(gold_list) if isinstance(gold_list, list | tuple) else [gold_list]
    got = _flat(value)
    if kind == "list[number]":
        na = sorted(x for x in (_num(g) for g in got) if x is not None)
        nb = sorted(x for x in (_num(g) for g in gold_items) if x is not None)
        return len(na) == len(got) and na == nb
    if kind == "list[category]":
        # an empty cell is pandas' NaN: None, "" and nan compare equal
        norm = lambda x: "nan" if x is None or x == "" else str(x).strip(_STRIP)  # noqa: E731
        return {norm(x) for x in got} == {norm(x) for x in gold_items}
    return False


# --------------------------------------------------------------------------- WTQ's evaluator


def wtq_normalize(x: str) -> str:
    """WikiTableQuestions' official ``normalize`` (evaluator.py 1.0.2)."""
    x = "".join(c for c in unicodedata.normalize("NFKD", x) if unicodedata.category(c) != "Mn")
    x = re.sub(r"[‘’´`]", "'", x)
    x = re.sub(r"[“”]", '"', x)
    x = re.sub(r"[‐‑‒–—−]", "-", x)
    while True:
        old = x
        x = re.sub(r"((?<!^)\[[^\]]*\]|\[\d+\]|[•♦†‡*#+])*$", "", x.strip())  # citations
        x = re.sub(r"(?<!^)( \([^)]*\))*$", "", x.strip())  # details in parenthesis
        x = re.sub(r'^"([^"]*)"$', r"\1", x.strip())  # outermost quotation marks
        if x == old:
            break
    if x and x[-1] == ".":
        x = x[:-1]
    return re.sub(r"\s+", " ", x, flags=re.U).lower().strip()


# A value: (kind, key, normalised text); kind "n" number (key the amount), "d" date (key (y, m, d) with -1
# for unknown parts), "s" text (key the normalised text).
_Value = tuple[str, Any, str]


def _parse_number(text: str) -> float | None:
    try:
        return float(int(text))
    except (ValueError, OverflowError):
        pass
    try:
        x = float(text)
    except (ValueError, OverflowError):
        return None
    return None if math.isnan(x) or math.isinf(x) else x


def _parse_ymd(text: str) -> tuple[int, int, int] | None:
    parts = text.lower().split("-")
    if len(parts) != 3:
        return None
    try:
        y = -1 if parts[0] in ("xx", "xxxx") else int(parts[0])
        m = -1 if parts[1] == "xx" else int(parts[1])
        d = -1 if parts[2] == "xx" else int(parts[2])
    except ValueError:
        return None
    if (y == m == d == -1) or not (m == -1 or 1 <= m <= 12) or not (d == -1 or 1 <= d <= 31):
        return None
    return y, m, d


def _to_value(original: str, canon: str | None = None) -> _Value:
    """WTQ's ``to_value``: the canonical value decides number/date/text; matching text is the original's."""
    norm = wtq_normalize(original)
    probe = canon or original
    amount = _parse_number(probe)
    if amount is not None:
        return ("n", amount, norm)
    ymd = _parse_ymd(probe)
    if ymd is not None:
        if ymd[1] == ymd[2] == -1:
            return ("n", float(ymd[0]), norm)
        return ("d", ymd, norm)
    return ("s", norm, norm)


_DATE_FORMATS = (
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%dT%H:%M:%S",
    "%B %d, %Y",
    "%b %d, %Y",
    "%d %B %Y",
    "%d %b %Y",
    "%B %d %Y",
    "%Y/%m/%d",
)
_MONTH_YEAR_FORMATS = ("%B %Y", "%b %Y")


def _written_date(text: str) -> tuple[int, int, int] | None:
    t = re.sub(r"\s+", " ", text.strip())
    for fmt in _DATE_FORMATS:
        try:
            d = dt.datetime.strptime(t, fmt)
        except ValueError:
            continue
        return d.year, d.month, d.day
    for fmt in _MONTH_YEAR_FORMATS:
        try:
            d = dt.datetime.strptime(t, fmt)
        except ValueError:
            continue
        return d.year, d.month, -1
    return None


def _reply_value(item: Any) -> _Value:
    """A reply item as WTQ reads a predicted string, with dates canonicalised."""
    if isinstance(item, bool):
        return ("s", "yes" if item else "no", "yes" if item else "no")
    if isinstance(item, int | float):
        x = float(item)
        if math.isnan(x) or math.isinf(x):
            return ("s", "nan", "nan")
        return ("n", x, str(x))
    if isinstance(item, dt.datetime | dt.date):
        ymd = (item.year, item.month, item.day)
        return ("d", ymd, f"{ymd[0]}-{ymd[1]}-{ymd[2]}")
    text = "" if item is None else str(item)
    value = _to_value(text)
    if value[0] == "s":
        written = _written_date(text)
        if written is not None:
            return ("d", written, value[2])
    return value


def _dedup(values: Iterable[_Value]) -> list[_Value]:
    seen: dict[tuple[str, Any], _Value] = {}
    for v in values:
        seen.setdefault((v[0], v[1]), v)
    return list(seen.values())


def _match(target: _Value, pred: _Value) -> bool:
    if target[2] == pred[2]:
        return True
    if target[0] == pred[0] == "n":
        return bool(abs(target[1] - pred[1]) < 1e-6)
    return target[0] == pred[0] == "d" and target[1] == pred[1]


def wtq_match(value: Any, raw: list[str], canon: list[str] | None) -> bool:
    """The official WTQ denotation check of a reply against ``answer_raw`` with ``answer_canon``."""
    canon = canon if canon is not None and len(canon) == len(raw) else [None] * len(raw)  # type: ignore[list-item]
    targets = _dedup(_to_value(r, c) for r, c in zip(raw, canon, strict=True))
    preds = _dedup(_reply_value(v) for v in _flat(value))
    if len(targets) != len(preds):
        return False
    return all(any(_match(t, p) for p in preds) for t in targets)


# --------------------------------------------------------------------------- scoring


def score(value: Any, q: Question) -> str | None:
    """How a reply is right -- "answer", "answer_alt" or "wtq" -- or None when it is wrong."""
    if compare(value, q.answer, q.type):
        return "answer"
    if any(compare(value, alt, q.type) for alt in q.alt):
        return "answer_alt"
    if q.canon is not None and q.raw is not None and wtq_match(value, q.raw, q.canon):
        return "wtq"
    return None
