"""Misspelt operation words ("betwen", "percentge", "averge", "diffrence") and shortened period words
("qtr", "yr", "mth").

The routes find an operation by its word ("between 2023 and 2024", "as a percentage"), so a typo in
that word loses the operation even where every label is still found by its near spelling. A word of
the question that is one typo away from exactly one long operation word (:data:`OPERATIONS`, seven
letters or more, so that "charge" never becomes "change") and that no text of the workbook holds is
written as that word before the question is read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from gridsight.qa._sqlgen import near_word, one_typo
from gridsight.text import (
    ASCENDING,
    AVERAGE_WORDS,
    CHANGE_WORDS,
    DESCENDING,
    FALL_WORDS,
    LESS_WORDS,
    MORE_WORDS,
    RISE_WORDS,
    SUM_WORDS,
    known_word,
)

#: The words operations are found by, seven letters or more.
OPERATIONS = frozenset(
    w
    for w in (
        *SUM_WORDS,
        *AVERAGE_WORDS,
        *CHANGE_WORDS,
        *RISE_WORDS,
        *FALL_WORDS,
        *MORE_WORDS,
        *LESS_WORDS,
        *DESCENDING,
        *ASCENDING,
        *"percentage percent between difference proportion compared previous combined".split(),
    )
    if len(w) >= 7 and w.isalpha()
)
_WORD = re.compile(r"[A-Za-z]{6,}")
#: Period words as notes shorten them.
_SHORT_PERIODS = {
    "qtr": "quarter",
    "qtrs": "quarters",
    "yr": "year",
    "yrs": "years",
    "mth": "month",
    "mths": "months",
}
_SHORT = re.compile(rf"\b(?:{'|'.join(_SHORT_PERIODS)})\b", re.IGNORECASE)


#: A question word long enough to be told from another by one typo.
_LONG_WORD = re.compile(r"(?<![\w-])[A-Za-z]{5,}(?![\w-])")
#: The words of a workbook's texts that a misspelt word may be meant as.
_TEXT_WORD = re.compile(r"[a-z]{5,}")
#: Texts longer than this are notes, not names.
_NAME_CHARS = 120


def labels_spelt(question: str, texts: Iterable[str]) -> str:
    """``question`` with each word that neither the embedder's vocabulary nor any text of the workbook
    holds, and that is one typo (a changed, dropped, added or swapped letter after the same first
    letter) from exactly one word of the workbook's texts, written as that word: "accurals" over an
    ``Accruals`` line, "net current assts" over ``Net current assets``. A word the vocabulary knows
    ("states" beside ``stated``) is the user's, and so is one close to several words."""
    unknown = {
        m.group(0).casefold() for m in _LONG_WORD.finditer(question) if not known_word(m.group(0).casefold())
    }
    if not unknown:
        return question
    held = {w for t in texts if len(t) <= _NAME_CHARS for w in _TEXT_WORD.findall(t.casefold())}
    meant: dict[str, str] = {}
    for word in unknown - held:
        close = {
            w
            for w in held
            if one_typo(word, w)
            and not (w.startswith(word) or word.startswith(w))  # (another ending: "asset", "assets")
        }
        if len(close) == 1:
            meant[word] = close.pop()
    if not meant:
        return question
    return _LONG_WORD.sub(lambda m: meant.get(m.group(0).casefold(), m.group(0)), question)


def operations_spelt(question: str, holds: Callable[[str], bool]) -> str:
    """``question`` with each misspelt operation word written right and each shortened period word
    written out (see the module docstring);
    ``holds``: whether a text of the workbook holds a word (a label's own spelling is kept)."""

    def mend(m: re.Match[str]) -> str:
        word = m.group(0)
        low = word.casefold()
        if low in OPERATIONS or holds(word):
            return word
        meant = [w for w in OPERATIONS if low[0] == w[0] and low != w and near_word(low, w)]
        if len(meant) != 1 or meant[0].startswith(low) or low.startswith(meant[0]):
            return word  # (none, several, or the same word with another ending: "percentages")
        return meant[0]

    question = _SHORT.sub(
        lambda m: m.group(0) if holds(m.group(0)) else _SHORT_PERIODS[m.group(0).casefold()], question
    )  # ("at which qtr end": quarter)
    return _WORD.sub(mend, question)
