"""A value no cell holds: "Are there any cars painted Purple?" where no car is purple.

A yes/no question about whether some row has a named value is answered *no* when the name is a
value of the kind one of the table's text columns holds (a code of the same shape as its codes, a
word close in meaning to its values) and no cell holds it in any form. Names that are the rows
themselves ("any Pokémon with ...") or a header's words are not values.

Pure functions over the question and the columns' distinct values; the caller checks that no cell
holds the name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from gridsight.text import proper_phrases, same, similarities
from gridsight.text import words as split_words

#: Cosine a name must reach with one of a column's values to be a value of its kind ("Purple" and
#: ``Silver``; "Ethiopian" and ``Chinese``).
KIND_FLOOR = 0.4
#: The same for a column the question's words name just before the name.
NAMED_FLOOR = 0.25
#: Values of a column compared with the name (the most frequent first).
KIND_SAMPLE = 60
#: A code: capitals and digits, two to five of them (``ISL``, ``HNL``, ``B2``).
_CODE = re.compile(r"^[A-Z0-9]{2,5}$")
#: Words after which a name is the rows asked about, not a value of theirs ("are there any Pokémon").
_ROWS_NAMED = re.compile(r"\b(?:any|there|one|some)\s*$", re.IGNORECASE)


def absent_phrase(question: str, taken: Sequence[str], header_words: set[str]) -> str | None:
    """The one name the question writes that no filter read (``taken``: the filters' words), that
    is no header's words and does not name the rows; None when there is not exactly one."""
    names = []
    for name in proper_phrases(question):
        low = name.lower()
        if any(low in t or t in low for t in taken if t):
            continue
        if all(any(same(h, w) for h in header_words) for w in split_words(low)):
            continue
        at = question.find(name)
        if at >= 0 and _ROWS_NAMED.search(question[:at]):
            continue
        names.append(name)
    return names[0] if len(names) == 1 else None


def value_column(name: str, values: Mapping[str, Sequence[str]], named: Sequence[str] = ()) -> str | None:
    """The text column whose values are of the kind ``name`` is: codes of its shape (every value
    of the column; one ``named`` first), else the column with a value closest in meaning -- at
    least :data:`NAMED_FLOOR` for a column the words before the name say ("cuisine type
    Ethiopian"), :data:`KIND_FLOOR` for any other."""
    if _CODE.fullmatch(name):
        shaped = [
            col
            for col, vs in values.items()
            if vs and all(len(v) == len(name) and _CODE.fullmatch(v) for v in vs)
        ]
        return next((c for c in named if c in shaped), shaped[0] if shaped else None)
    tops: dict[str, float] = {}
    for col, vs in values.items():
        sample = [v for v in vs[:KIND_SAMPLE] if len(v) >= 3 and not _CODE.fullmatch(v)]
        if sample:
            tops[col] = max(similarities(name, sample), default=0.0)
    said = [c for c in named if tops.get(c, 0.0) >= NAMED_FLOOR]
    if said:
        return max(said, key=lambda c: tops[c])
    best = max(tops, key=lambda c: tops[c], default=None)
    return best if best is not None and tops[best] >= KIND_FLOOR else None
