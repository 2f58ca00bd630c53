"""Columns of entities: segments, funds, companies, regions side by side, each a column of amounts
that names no period, beside the columns that combine them (``Total segments``, ``Corporate``,
``Group``).

The entities are the columns a combining column adds up: the run of columns right before it whose
sum it holds on most rows (``Total segments`` = North America + Europe + Asia Pacific; ``Corporate``
stands after it and is none of them). A combining column whose header holds the noun the question
counts by ("segments") is the one read; where no column adds others up, there are no entities
(``Average price per gallon`` beside ``Gallons`` and ``Cost`` combines nothing), unless every column's
header ends in one noun (``Growth Fund``, ``Income Fund``, ``Small Cap Growth Fund``): entities of one
kind side by side, which nothing need add up.

Pure functions over a :class:`~gridsight.qa._relational.Relation`; the plans are
:mod:`gridsight.qa._cells`'.
"""

from __future__ import annotations

from gridsight.qa._groups import adds_to
from gridsight.qa._headers import YEARS, parts, unit_part, year_of
from gridsight.qa._named_lines import amounts
from gridsight.qa._relational import Relation, RelColumn
from gridsight.qa._sqlgen import near_word, tokens

#: Header words of a column that combines others.
COMBINED = frozenset(
    "total totals consolidated consolidating eliminations adjustments combined average median group".split()
)


def _path(col: RelColumn) -> list[str]:
    """A column's header parts, its unit aside (``Share capital › £m``: the unit is no part of what
    the column is)."""
    path = parts(col.name)
    path = path[:-1] if len(path) > 1 and unit_part(path[-1]) else path
    if len(path) > 1 and year_of(path[-1]) is not None and year_of(path[-2]) is None:
        return path[
            :-1
        ]  # (``Parent › Dec 31, 2025``: each entity's columns by date, the entity its own part)
    return path


def own_part(col: RelColumn) -> str:
    """The part of a column's path that names it among its group (``Parent`` of ``Parent › Dec 31,
    2025`` and of ``December 31, 2025 › Parent``)."""
    return _path(col)[-1]


def _dated_after(col: RelColumn) -> tuple[str, ...]:
    """The period a column's path writes after its own part (``Parent › Dec 31, 2025``), else ()."""
    full = [p for p in parts(col.name) if not unit_part(p)]
    return tuple(full[len(_path(col)) :])


def _words(col: RelColumn) -> set[str]:
    """The words of a column's own header part (``Total segments``)."""
    return set(tokens(_path(col)[-1]))


def entity_columns(rel: Relation) -> list[RelColumn]:
    """The amount columns that name no period, where at least two of them stand beside a column
    that combines them (see the module docstring), in every group of columns under one header
    (each period's block of segments); else none."""
    return rel.memo(
        "entity columns",
        lambda: (
            []
            if _records(rel)
            else [c for g in _groups(rel) for c in _entity_columns(rel, g, None)] or _under_a_heading(rel)
        ),
    )


def _under_a_heading(rel: Relation) -> list[RelColumn]:
    """Three or more columns under one heading (``Region › Northmark`` .. ``Region › Highcairn``)
    that a combining column outside it adds up (``Total``): the entities, where no group of its own
    forms them."""
    cols = [c for c in amounts(rel) if year_of(_path(c)[-1]) is None and not _dated_after(c)]
    for t in cols:
        if not _words(t) & COMBINED:
            continue
        run = _added_by(rel, cols, t)
        if len(run) >= 3 and len({tuple(_path(c)[:-1]) for c in run}) == 1 and len(_path(run[0])) > 1:
            return run
    return []


def _records(rel: Relation) -> bool:
    """Whether the table is one of records (hospitals with their city and affiliation beside their
    beds and operating rooms): a text column besides the row labels. Its number columns are
    measures of each record, not entities side by side."""
    return any(
        c.role == "data"
        and c.kind == "text"
        and not all(YEARS.fullmatch(str(v)) for v in rel.distinct_values(c.name))  # (a block's year)
        for c in rel.columns
    )


def entities_named(rel: Relation, noun: str, question: str = "") -> list[RelColumn]:
    """The entity columns of the group the question names by its years (the only group where the
    columns form one), those the combining column whose header holds ``noun`` adds up where one
    does ("segments": ``Total segments``)."""
    if _records(rel):
        return []
    found = [(g, cols) for g in _groups(rel) if (cols := _entity_columns(rel, g, noun))]
    if not found and (heading := _under_a_heading(rel)):
        return heading  # (``Region › Northmark`` .. under one heading, ``Total`` beside)
    said = set(YEARS.findall(question))
    if len(found) > 1 and not any(YEARS.search(c.name) for g, _ in found for c in g):
        # (funds under group headings, ``Equity Funds`` and ``Fixed Income Funds``: one kind, all of them)
        return [c for _, cols in found for c in cols]
    if len(found) > 1:
        found = [(g, cols) for g, cols in found if said & {y for c in g for y in YEARS.findall(c.name)}]
    return found[0][1] if len(found) == 1 else []


def _groups(rel: Relation) -> list[list[RelColumn]]:
    """The amount columns under one header (all their parts but the last alike), whose own part
    names no period."""
    out: dict[tuple[str, ...], list[RelColumn]] = {}
    for c in amounts(rel):  # (number columns all)
        path = _path(c)
        if year_of(path[-1]) is None:
            out.setdefault((*path[:-1], *_dated_after(c)), []).append(c)
    return list(out.values())


def _entity_columns(rel: Relation, cols: list[RelColumn], noun: str | None) -> list[RelColumn]:
    dated = any(_dated_after(c) for c in cols)  # (entities by date are known by the column combining them)
    if len(cols) >= 2 and not dated and not any(_words(c) & COMBINED for c in cols) and _one_kind(cols):
        return cols  # (``Growth Fund | Growth and Income Fund | Income Fund``: funds, nothing combines them)
    if not dated and not any(_words(c) & COMBINED for c in cols) and peers(rel, cols):
        return cols  # (``Oceanic Line | Baltic Cargo | Harbourline``: a peer comparison's companies)
    if len(cols) < 3 or not any(_words(c) & COMBINED for c in cols):
        return []
    runs = [(t, run) for t in cols if _words(t) & COMBINED if (run := _added_by(rel, cols, t))]
    if noun is not None:
        named = [(t, run) for t, run in runs if any(near_word(noun, w) for w in _words(t))]
        runs = named or runs
    return runs[0][1] if runs else []


def peers(rel: Relation, cols: list[RelColumn]) -> bool:
    """Whether ``cols`` are a peer comparison's entities: three or more columns of amounts, every one
    the table has, none a period nor a combining column, beside lines of a statement (two total lines
    at least: ``Total current assets``, ``Total assets``), which are what the columns are compared by
    -- not a list of records whose columns are its measures."""
    from gridsight.qa._relational import TOTAL

    flags = rel.values_of(TOTAL) or []
    return (
        len(cols) >= 3
        and len(cols) == len(amounts(rel))
        and sum(1 for f in flags if f == 1) >= 2
        and not any(year_of(c.name) is not None for c in cols)
    )


def _one_kind(cols: list[RelColumn]) -> bool:
    """Whether every column's own header ends in one noun, two words at least each (``Growth Fund``,
    ``Small Cap Growth Fund``): entities of one kind side by side."""
    heads = [_path(c)[-1].split() for c in cols]
    last = [tokens(h[-1]) if len(h) >= 2 else [] for h in heads]
    return all(last) and len({t[0] for t in last}) == 1


def _added_by(rel: Relation, cols: list[RelColumn], total: RelColumn) -> list[RelColumn]:
    """The run of two or more columns right before ``total`` (among ``cols``) whose sum it holds on
    most rows where two of them at least are something (a row of one part and zeros is no evidence:
    a movement in retained earnings alone), the longest such run; none where no run adds up."""
    at = cols.index(total)
    whole = rel.values_of(total.name) or []
    for start in range(at - 1):
        run = cols[start:at]
        if _words(run[0]) & COMBINED:
            continue  # (a run opens with a part; ``Eliminations`` within it is added, no entity)
        values = [rel.values_of(c.name) or [] for c in run]
        checked = adds = 0
        for i, w in enumerate(whole):
            # (an empty cell or a dash is nothing: ``—`` under ``Eliminations`` on most lines, and
            # under the consolidated column where the eliminations cancel the parts)
            vals = [float(x) if isinstance(x := v[i], int | float) else 0.0 for v in values]
            if sum(1 for v in vals if v) < 2:
                continue
            checked += 1
            adds += adds_to(vals, float(w) if isinstance(w, int | float) else 0.0)
        parts_ = [c for c in run if not _words(c) & COMBINED]
        if checked and 2 * adds > checked and len(parts_) >= 2:
            return parts_
    return []
