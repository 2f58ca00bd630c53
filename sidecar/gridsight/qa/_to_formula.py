"""The winning query as an Excel formula over the real ranges, verified by the formula engine.

Queries come out of :func:`gridsight.qa._sqlgen.sql_grammar` in a fixed spelling, so the common
shapes are read back with patterns rather than a SQL parser:

* ``SELECT AGG("c") FROM data [WHERE a AND b ...]`` -> SUM/AVERAGE/MIN/MAX/COUNTA or their ``…IFS``;
* ``SELECT "x" FROM data WHERE ...`` -> ``FILTER(x, (cond)*(cond))``;
* ``SELECT "x" FROM data [WHERE ...] ORDER BY "y" DESC LIMIT n`` -> ``TAKE(SORTBY(x, y, -1), n)``;
* ``SELECT COUNT(DISTINCT "c") FROM data`` -> ``COUNTA(UNIQUE(c))``;
* ``SELECT "g" FROM data GROUP BY "g" ORDER BY SUM("v") DESC LIMIT n`` ->
  ``TAKE(SORTBY(UNIQUE(g), SUMIFS(v, g, UNIQUE(g)), -1), n)`` (the engine's check tells whether
  empty cells made a group of their own).

A formula is kept only when the engine evaluates it to the query's own result; otherwise there is
none, and the caller says so and keeps the query.
"""

from __future__ import annotations

import re
from typing import Any

from gridsight.grid import Workbook
from gridsight.qa._relational import Relation

_COL = r'"((?:[^"]|"")+)"'
_AGG = re.compile(
    rf"^SELECT (COUNT\(\*\)|(COUNT|SUM|AVG|MIN|MAX|MEDIAN)\((DISTINCT )?{_COL}\)) FROM data(?: WHERE (.+))?$"
)
_PICK = re.compile(
    rf"^SELECT {_COL} FROM data(?: WHERE (.+?))?(?: ORDER BY {_COL}( ASC| DESC)? LIMIT (\d+))?$"
)
_GROUP = re.compile(
    rf"^SELECT (?:DISTINCT )?{_COL} FROM data(?: WHERE (.+?))? GROUP BY {_COL} "
    rf"ORDER BY (COUNT\(\*\)|(SUM|AVG|MIN|MAX|COUNT)\({_COL}\))"
    r"( ASC| DESC)? LIMIT (\d+)$"
)
_COND = re.compile(
    rf"^{_COL} (=|!=|<|>|<=|>=) ('(?:[^']|'')*'|-?\d+(?:\.\d+)?)$|^{_COL} LIKE '%([^'%]+)%'$"
    rf"|^{_COL} IS NOT NULL$"
)
_IFS = {"SUM": "SUMIFS", "AVG": "AVERAGEIFS", "MIN": "MINIFS", "MAX": "MAXIFS", "COUNT": "COUNTIFS"}
_PLAIN = {"SUM": "SUM", "AVG": "AVERAGE", "MIN": "MIN", "MAX": "MAX", "MEDIAN": "MEDIAN"}


def _name(quoted: str) -> str:
    return quoted.replace('""', '"')


def _excel_text(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


class _Untranslatable(Exception):
    pass


def _range(rel: Relation, name: str) -> str:
    try:
        col = rel.column(name)
    except StopIteration:
        raise _Untranslatable(name) from None
    if col.role in ("section", "total", "position") or col.data.width != 1:
        raise _Untranslatable(name)  # derived columns have no cells of their own
    return col.data.with_sheet(None).ref()


def _conditions(rel: Relation, where: str | None) -> list[tuple[str, str, str]]:
    """(range, operator, operand as SQL text) per AND-ed condition; untranslatable otherwise."""
    if not where:
        return []
    if " OR " in where or where.startswith("NOT ") or "(" in where:
        raise _Untranslatable(where)
    out = []
    for part in where.split(" AND "):
        m = _COND.match(part.strip())
        if m is None:
            raise _Untranslatable(part)
        if m.group(1) is not None:
            out.append((_range(rel, _name(m.group(1))), m.group(2), m.group(3)))
        elif m.group(4) is not None:
            out.append((_range(rel, _name(m.group(4))), "LIKE", m.group(5)))
        else:
            out.append((_range(rel, _name(m.group(6))), "!=", "''"))  # IS NOT NULL: not empty
    return out


def _operand(op: str, operand: str) -> tuple[str, bool]:
    """The operand as Excel text or number, and whether it is text."""
    if operand.startswith("'"):
        return operand[1:-1].replace("''", "'"), True
    return operand, False


def _criteria(conds: list[tuple[str, str, str]]) -> list[str]:
    """COUNTIFS-style (range, criterion) argument pairs."""
    args = []
    for rng, op, operand in conds:
        if op == "LIKE":
            crit = _excel_text("*" + re.sub(r"([*?~])", r"~\1", operand) + "*")
        else:
            value, _text = _operand(op, operand)
            value = re.sub(r"([*?~])", r"~\1", value)
            sign = {"=": "", "!=": "<>"}.get(op, op)
            crit = _excel_text(sign + value) if (sign or _text) else value
        args += [rng, crit]
    return args


def _mask(conds: list[tuple[str, str, str]]) -> str:
    """A 1/0 row mask for FILTER: (cond)*(cond)."""
    parts = []
    for rng, op, operand in conds:
        if op == "LIKE":
            parts.append(f"ISNUMBER(SEARCH({_excel_text(operand)},{rng}))")
        else:
            value, text = _operand(op, operand)
            sign = {"!=": "<>"}.get(op, op)
            parts.append(f"({rng}{sign}{_excel_text(value) if text else value})")
    return "*".join(parts)


def translate(rel: Relation, sql: str) -> str | None:
    """An Excel formula for ``sql`` over ``rel``'s ranges, or None when no shape fits."""
    try:
        m = _AGG.match(sql)
        if m is not None:
            func, distinct, col, where = m.group(2), m.group(3), m.group(4), m.group(5)
            conds = _conditions(rel, where)
            if func is None:  # COUNT(*)
                first = rel.columns[0]
                if not conds:
                    return f"=ROWS({_range(rel, first.name)})" if len(rel.rows) == first.data.height else None
                return f"=COUNTIFS({','.join(_criteria(conds))})"
            rng = _range(rel, _name(col))
            if distinct:
                return None if conds or func != "COUNT" else f"=COUNTA(UNIQUE({rng}))"
            if func == "COUNT":
                if not conds:
                    return f"=COUNTA({rng})"
                return f'=COUNTIFS({rng}, "<>", {", ".join(_criteria(conds))})'
            if not conds:
                return f"={_PLAIN[func]}({rng})"
            if func == "MEDIAN":
                return f"=MEDIAN(FILTER({rng},{_mask(conds)}))"
            return f"={_IFS[func]}({rng},{','.join(_criteria(conds))})"
        m = _GROUP.match(sql)
        if m is not None and m.group(1) == m.group(3):
            groups = _range(rel, _name(m.group(1)))
            conds = [c for c in _conditions(rel, m.group(2)) if not (c[0] == groups and c[2] == "''")]
            # (the group column's own "not empty" test: COUNTIFS over UNIQUE keys never counts blanks)
            keys = f"UNIQUE(FILTER({groups},{_mask(conds)}))" if conds else f"UNIQUE({groups})"
            crit = "".join("," + a for a in _criteria(conds))
            if m.group(5) is None:
                score = f"COUNTIFS({groups},{keys}{crit})"
            else:
                score = f"{_IFS[m.group(5)]}({_range(rel, _name(m.group(6)))},{groups},{keys}{crit})"
            order = "1" if (m.group(7) or "").strip() == "ASC" else "-1"
            return f"=TAKE(SORTBY({keys},{score},{order}),{int(m.group(8))})"
        m = _PICK.match(sql)
        if m is not None:
            rng = _range(rel, _name(m.group(1)))
            conds = _conditions(rel, m.group(2))
            by = m.group(3)
            if by is None:
                return f"=FILTER({rng},{_mask(conds)})" if conds else None
            key = _range(rel, _name(by))
            order = "1" if (m.group(4) or "").strip() == "ASC" else "-1"
            n = int(m.group(5))
            if conds:
                rng, key = f"FILTER({rng},{_mask(conds)})", f"FILTER({key},{_mask(conds)})"
            return f"=TAKE(SORTBY({rng},{key},{order}),{n})"
    except _Untranslatable:
        return None
    return None


def verified_formula(rel: Relation, workbook: Workbook, sql: str, value: Any) -> str | None:
    """:func:`translate`, kept only when the engine evaluates it to ``value``."""
    from gridsight.formula import evaluate_formula
    from gridsight.qa._pipeline import same_value

    formula = translate(rel, sql)
    if formula is None:
        return None
    result = evaluate_formula(formula, workbook, rel.sheet)
    if not result.ok or result.error is not None:
        return None
    got = result.value
    if isinstance(got, list):
        got = [x for row in got for x in (row if isinstance(row, list) else [row])]
        got = got[0] if len(got) == 1 and not isinstance(value, list) else got
    return formula if same_value(got, value) else None
