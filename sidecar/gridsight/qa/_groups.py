"""Lines that add up the lines under them: ``Fossil fuels`` above ``Hard coal``, ``Lignite`` and
``Natural gas``; a region above its districts.

Statistics tables group their rows by indentation, and the group's line carries the group's figures
(unlike a statement's section line, which stands alone). The figures tell the groups apart without
reading any indent: a line is a group when the lines right under it -- each a plain line or a group
of its own, with everything under it -- add up to it in most of the figure columns (to the
rounding of the figures): three or more of them, or two indented under it (two lines adding up to
the one above is also a statement's arithmetic: revenue, cost of sales, gross profit). Groups nest;
the smallest run that adds up is taken.

Pure functions over the figures; :func:`gridsight.qa._relational.build_relation` turns each group
into the ``Section`` of the lines under it and marks the group's line as a total.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Sequence

#: The most lines one group may hold directly (a long list is a table, not a group).
MAX_MEMBERS = 60
#: Rows beyond which groups are not looked for (the search is quadratic).
MAX_ROWS = 2000


def rounding_step(values: Sequence[float]) -> float:
    """The rounding step of a column's figures: 1 for whole numbers, 0.1 for one decimal..."""
    decimals = 0
    for v in values:
        text = f"{v:.6f}".rstrip("0")
        decimals = max(decimals, len(text.split(".")[1]) if "." in text else 0)
    return 10.0**-decimals


def adds_to(parts: Sequence[float], whole: float) -> bool:
    """Whether ``parts`` add up to ``whole`` within the rounding of the figures: half a step of the
    finest digit per part (published figures are rounded one by one)."""
    step = rounding_step([whole, *parts])
    return abs(sum(parts) - whole) <= 0.5 * len(parts) * step + 1e-9 * max(1.0, abs(whole))


def _steps(figures: Sequence[Sequence[float | None]]) -> list[float]:
    """Each column's rounding step (:func:`_step`) over its finite figures."""
    return [
        rounding_step([v for row in figures if (v := row[c]) is not None and math.isfinite(v)])
        for c in range(len(figures[0]))
    ]


def _adds_up(
    total: Sequence[float | None],
    parts: list[Sequence[float | None]],
    steps: Sequence[float],
    means: bool = False,
) -> bool:
    """Whether the parts add up to the total in most of the columns both fill (two at least). A
    column of zeros is no evidence: nothing adds up to nothing in any list (a player's goals), nor
    is one where a single part is something (5 goals = 0 + 5 + 0).
    ``means``: also when the columns that do not add up hold rates of the whole, each between the
    parts' least and greatest (a country's smoking rate under its regions'), and at least one count
    column adds up three parts that are not zero."""
    # (a heading between the parts holds nothing where the whole holds a figure: no part of it --
    # ``Debtors:`` above ``Trade debtors`` and ``Other debtors``, a note number beside it)
    parts = [p for p in parts if any(p[c] is not None for c, w in enumerate(total) if w is not None)]
    checked = matched = averaged = summed = withheld = 0
    for c, whole in enumerate(total):
        # (a part blank in this column but filled in another is nil here: ``Assets held for sale``
        # shown "-" in the years before it arose)
        vals = [0.0 if p[c] is None and any(v is not None for v in p) else p[c] for p in parts]
        if whole is None or any(v is None for v in vals) or sum(1 for v in vals if v) < 2:
            continue  # (a whole that is one of its parts, the others nothing, is no evidence either)
        # (the rounding of each part, but no more than a twentieth of the whole: 0 apps is no sum of
        # 0, 0 and 1, whatever the rounding of three whole numbers could be)
        allowed = min(0.5 * len(parts) * steps[c], 0.05 * abs(whole)) + 1e-9 * max(1.0, abs(whole))
        short = whole - sum(v for v in vals if v is not None)
        if short > allowed and any(p[c] is None for p in parts):
            withheld += 1  # (a part withheld here, ``[c]``, that the whole counts: no evidence either way)
            continue
        checked += 1
        if abs(sum(v for v in vals if v is not None) - whole) <= allowed:
            matched += 1
            summed += sum(1 for v in vals if v) >= 3  # (three parts that are something, added)
        elif min(v for v in vals if v is not None) <= whole <= max(v for v in vals if v is not None):
            averaged += 1
    if matched >= 2 and 2 * matched > checked:
        return True
    if matched == checked == 1 and withheld and len(parts) >= 3:
        return True  # (the one column with every part shown adds up; the others withhold a part)
    return means and summed >= 1 and matched + averaged == checked


def sum_groups(
    figures: Sequence[Sequence[float | None]],
    blocks: Sequence[object],
    indents: Sequence[int] | None = None,
    names: Sequence[str] | None = None,
) -> dict[int, int]:
    """The group lines among ``figures`` (one list of numbers or None per row, the same columns in
    each), as {group row: its last row}. ``blocks``: each row's section; a group holds rows of its
    own section only. ``indents``: each row label's leading spaces. Two lines that add up to the
    line above them are a group only when both are indented under it, or groups themselves, or
    when a group named with the same last word follows them (``Long-term liabilities`` over two
    lines, then ``Short-term liabilities`` over four; ``names``: the row labels): a statement's
    "Revenue" above "Cost of sales" and "Gross profit" adds them up too, by arithmetic, not as a
    group."""
    spaces = indents if indents is not None else [0] * len(figures)
    heads_of = [_last_word(v) for v in names] if names is not None else [""] * len(figures)
    n = len(figures)
    if n < 3 or n > MAX_ROWS or not figures or not figures[0]:
        return {}
    steps = _steps(figures)
    ends = list(range(n))  # the last row of each row's span (itself, for a plain line)
    groups: dict[int, int] = {}
    for i in range(n - 1, -1, -1):
        if all(v is None for v in figures[i]):
            continue
        parts: list[Sequence[float | None]] = []
        heads: list[int] = []
        j = i + 1
        while j < n and len(parts) < MAX_MEMBERS and blocks[j] == blocks[i]:
            parts.append(figures[j])
            heads.append(j)
            j = ends[j] + 1
            # (or both groups of their own: a country over its two regions' lines, each over its areas)
            indented = all(spaces[h] > spaces[i] or h in groups for h in heads) or (
                j in groups and heads_of[i] != "" and heads_of[i] == heads_of[j]  # (a sibling group next)
            )
            # (the first line over all the others may hold rates of the whole as well: means)
            whole = i == 0 and j == n
            if (len(parts) >= 3 or (len(parts) == 2 and indented)) and _adds_up(
                figures[i], parts, steps, means=whole
            ):
                groups[i] = ends[i] = j - 1
                break
    return groups


def _last_word(name: str) -> str:
    """A label's last word, lowercase ("liabilities" of ``Long-term liabilities``)."""
    found = re.findall(r"[^\W\d_]+", name.casefold())
    return found[-1] if found else ""


def closing_totals(
    figures: Sequence[Sequence[float | None]], blocks: Sequence[object], skip: Collection[int] = ()
) -> set[int]:
    """The lines that add up the lines right above them, back to the start of their section or to
    the total before (``All ages`` under ``0–9`` … ``80 and over``), two lines at least: totals
    whose label says no "total". ``skip``: rows already read as groups."""
    n = len(figures)
    if n < 3 or n > MAX_ROWS or not figures[0]:
        return set()
    steps = _steps(figures)
    out: set[int] = set()
    start = 0
    for i in range(n):
        if i > 0 and blocks[i] != blocks[i - 1]:
            start = i
        if i in skip:
            continue
        parts = [figures[j] for j in range(start, i) if j not in skip]
        closes = i == n - 1 or blocks[i + 1] != blocks[i]  # (the last line of its section)
        # (or the total right before it and the lines after that: ``Equity`` adds up ``Equity
        # attributable to shareholders`` and ``Non-controlling interests``)
        before = start - 1 if start - 1 in out and blocks[start - 1] == blocks[i] else None
        adds = len(parts) >= 2 and _adds_up(figures[i], parts, steps, means=closes)
        if adds or (before is not None and parts and _adds_up(figures[i], [figures[before], *parts], steps)):
            out.add(i)
            start = i + 1
    return out


#: A classification code that spans others: ``B-E``, ``G–I``, ``C00-D48``, ``10-12``.
_RANGE = re.compile(r"^\s*([A-Z]?\d{0,3})\s*[-–]\s*([A-Z]?\d{0,3})\s*$")


def _bounds(code: object) -> tuple[str, str] | None:
    """(low, high) of a code: a range's ends, or a plain code twice; None for no code."""
    if not isinstance(code, str) or not code.strip():
        return None
    text = re.sub(r"\s*\([^)]*\)\s*$", "", code.strip())  # ``C00-D48 (rest)``: its code
    m = _RANGE.match(text)
    if m and m.group(1) and m.group(2):
        return m.group(1), m.group(2)
    return (text, text) if re.fullmatch(r"[A-Z]?\d{0,4}", text) and text else None


def _within(inner: tuple[str, str], outer: tuple[str, str]) -> bool:
    """Whether a code (or range) falls inside a range, comparing each code by as many characters as
    the range's ends have (``C18`` inside ``B-E``; ``C50`` inside ``C00-D48``)."""
    lo, hi = outer
    return lo <= inner[0][: len(lo)] and inner[1][: len(hi)] <= hi and inner != outer


def code_ranges(codes: Sequence[object]) -> dict[int, int]:
    """The group lines of a classification written in codes, as {group row: its last row}: a line
    whose code is a range (``B-E`` Production) holds the lines right under it whose codes fall inside
    the range (``B``, ``C``, ``D``, ``E``), two at least. Industries' weights add up under such a
    line, their indices do not: the codes tell the groups apart where the figures cannot."""
    bounds = [_bounds(c) for c in codes]
    groups: dict[int, int] = {}
    for i, own in enumerate(bounds):
        if own is None or own[0] == own[1]:
            continue
        j = i + 1
        while j < len(bounds) and (b := bounds[j]) is not None and _within(b, own):
            j += 1
        if j - i - 1 >= 2:
            groups[i] = j - 1
    return groups


def outline_groups(
    marks: Sequence[str | None], blocks: Sequence[object], closing: Collection[int] = ()
) -> dict[int, int]:
    """The group lines of a statement numbered in outline (``A)`` › ``I.`` › ``1.``, as Spanish, German
    and Italian statements are), as {group row: its last row}. ``marks``: the kind of outline number
    each row opens with (:func:`gridsight.text.outline_kind`), or None. A line numbered of one kind
    holds the lines after it that are numbered of kinds it does not stand in, up to the next line
    numbered of its own kind or of a kind it stands in, the end of its section (``blocks``), or a line
    of ``closing`` (a total): ``II. Long-term debts`` holds ``2. Bank borrowings`` and ``5. Other
    financial liabilities`` until ``IV. Deferred tax liabilities``. A line is a group only where a line
    numbered a kind deeper follows it; rows without a number between its numbered lines are in it, those
    after its last (``Rohergebnis`` after ``5. b)``) are not.
    No figure is read: the numbering tells the groups apart where the figures do not add up."""
    groups: dict[int, int] = {}
    if len(marks) > MAX_ROWS:
        return groups
    open_: list[tuple[str, int]] = []  # (kind, row) of each open line, outermost first

    def close(keep: int, last: int) -> None:
        while len(open_) > keep:
            _, head = open_.pop()
            inside = [k for k in range(head + 1, last + 1) if marks[k] is not None]
            if inside:  # (to its last numbered line, and that line's own group)
                groups[head] = groups.get(inside[-1], inside[-1])

    for i, mark in enumerate(marks):
        if i > 0 and blocks[i] != blocks[i - 1]:
            close(0, i - 1)
        if i in closing:
            close(0, i - 1)
            continue
        if mark is None:
            continue
        kinds = [kind for kind, _ in open_]
        if mark in kinds:
            close(kinds.index(mark), i - 1)
        open_.append((mark, i))
    close(0, len(marks) - 1)
    return groups
