"""The winning query as an Excel formula over the real ranges, verified by the formula engine.

The query is parsed (sqlglot, SQLite dialect) and its tree compiled into Excel 365 array formulas:

* a condition becomes a 1/0 row mask: comparisons ``(B2:B9="x")``, ``AND`` a product, ``OR`` a sum
  tested ``>0``, ``NOT`` ``1-(…)``, ``IN`` ``ISNUMBER(MATCH(B2:B9,{…},0))``, ``BETWEEN`` two
  comparisons, ``LIKE`` ``ISNUMBER(SEARCH(…))`` with ``%``/``_`` as ``*``/``?`` (anchored ends through
  LEFT/RIGHT), ``IS [NOT] NULL`` ``(B2:B9[<>]="")``; a comparison SQL leaves unknown on an empty cell
  (``!=``, ``<``, a number) is also 0 there, as in SQL;
* an aggregate over the rows the mask keeps: ``SUMIFS``/``AVERAGEIFS``/``MINIFS``/``MAXIFS``/``COUNTIFS``
  where every condition is a criterion, else ``SUM(FILTER(expr, mask))`` and the like,
  ``COUNT(DISTINCT c)`` ``COUNTA(UNIQUE(FILTER(c, …)))``;
* a scalar subquery (``WHERE x = (SELECT MAX(x) FROM data)``, ``(SELECT …) - (SELECT …)``) the
  formula of its own query, its first row where it is rows;
* rows: ``FILTER(expr, mask)``, ``ORDER BY`` ``SORTBY`` over the same rows, ``DISTINCT`` ``UNIQUE``,
  ``LIMIT n`` ``TAKE(…, n)``;
* ``GROUP BY g``: the groups ``UNIQUE(g)`` (of the kept rows), each group's aggregate by ``…IFS`` over
  the keys or ``MAP(keys, LAMBDA(k, …))``, ``HAVING`` a FILTER of the keys, ranked by SORTBY;
* ``CASE WHEN … THEN … ELSE … END`` ``IF``, ``ROUND``/``ABS``/``LENGTH``/``LOWER``/``UPPER``, ``CAST``.

Several spellings may be tried (the plain one first); a formula is kept only when the engine evaluates
it to the query's own result, otherwise there is none, and the caller says so and keeps the query.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import sqlglot
from sqlglot import exp

from gridsight.grid import Range, Workbook
from gridsight.qa._relational import Relation, RelColumn
from gridsight.qa._sql import QueryRefused, run_query

#: SQL aggregate -> Excel function over plain values, and its ``…IFS`` form.
_PLAIN = {"SUM": "SUM", "AVG": "AVERAGE", "MIN": "MIN", "MAX": "MAX", "MEDIAN": "MEDIAN"}
_IFS = {"SUM": "SUMIFS", "AVG": "AVERAGEIFS", "MIN": "MINIFS", "MAX": "MAXIFS"}
_AGG_NODES: dict[type, str] = {
    exp.Sum: "SUM",
    exp.Avg: "AVG",
    exp.Min: "MIN",
    exp.Max: "MAX",
    exp.Count: "COUNT",
    exp.Median: "MEDIAN",
}
_CMP: dict[type, str] = {exp.EQ: "=", exp.NEQ: "<>", exp.GT: ">", exp.GTE: ">=", exp.LT: "<", exp.LTE: "<="}
#: A comparison and its negation.
_FLIPPED: dict[type, Any] = {
    exp.EQ: exp.NEQ,
    exp.NEQ: exp.EQ,
    exp.LT: exp.GTE,
    exp.GTE: exp.LT,
    exp.GT: exp.LTE,
    exp.LTE: exp.GT,
}
_ARITH: dict[type, str] = {exp.Add: "+", exp.Sub: "-", exp.Mul: "*", exp.Div: "/"}
_FUNCS: dict[type, str] = {exp.Abs: "ABS", exp.Length: "LEN", exp.Lower: "LOWER", exp.Upper: "UPPER"}
_ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
#: Excel keeps formulas of up to 8,192 characters (its wrappers here add a few).
MAX_FORMULA_CHARS = 8_100
#: How many spellings of one query the engine checks at most.
MAX_TRIES = 4


class _Untranslatable(Exception):
    pass


#: Columns the view derives (a row's section, whether it is a total): no cells of their own.
_DERIVED = ("section", "total")


def _conjuncts(node: exp.Expression) -> list[exp.Expression]:
    """``a AND (b AND c)`` as [a, b, c]."""
    if isinstance(node, exp.Paren) and isinstance(node.this, exp.And):
        return _conjuncts(node.this)
    if isinstance(node, exp.And):
        return _conjuncts(node.this) + _conjuncts(node.expression)
    return [node]


def _excel_text_of(value: Any) -> str | None:
    """What ``TRIM(cell&"")`` gives for a cell holding ``value`` (None: a value it does not suit)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return str(int(value)) if float(value).is_integer() else None
    if isinstance(value, str):
        return re.sub(" +", " ", value).strip(" ")
    return None


def _excel_text(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _tilde(text: str) -> str:
    """Excel's wildcards in a criterion, escaped."""
    return re.sub(r"([*?~])", r"~\1", text)


def _agg_name(node: exp.Expression) -> str | None:
    for cls, name in _AGG_NODES.items():
        if isinstance(node, cls):
            return name
    if isinstance(node, exp.Anonymous) and str(node.name).upper() in _PLAIN:
        return str(node.name).upper()
    return None


def _has_agg(node: exp.Expression) -> bool:
    """Whether ``node`` aggregates rows of its own query (aggregates inside subqueries do not count)."""
    if _agg_name(node) is not None:
        return True
    if isinstance(node, exp.Subquery | exp.Select):
        return False
    return any(_has_agg(c) for c in node.iter_expressions())


def _columns(node: exp.Expression) -> list[exp.Column]:
    """The columns ``node`` reads in its own query (not in its subqueries)."""
    if isinstance(node, exp.Column):
        return [node]
    if isinstance(node, exp.Subquery | exp.Select):
        return []
    return [c for child in node.iter_expressions() for c in _columns(child)]


def _only(node: exp.Expression, *args: str) -> bool:
    """``node`` sets no argument but ``args`` (``TRIM(x)``, not ``TRIM(x, 'ab')``)."""
    return all(v is None for k, v in node.args.items() if k not in args)


def _direction(order: exp.Expression) -> str:
    """SORTBY's order for one ``ORDER BY`` term: -1 descending, 1 ascending."""
    return "-1" if order.args.get("desc") else "1"


def _paren(text: str) -> str:
    """``text`` in one pair of parentheses (as it is when it already is one group)."""
    depth = 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and i < len(text) - 1:
            return f"({text})"
    return text if text.startswith("(") else f"({text})"


#: A condition every row meets (``IS NOT NULL`` on a column with no empty cell): left out of masks.
_TRUE = "TRUE"


def _and(*masks: str | None) -> str | None:
    kept = [m for m in masks if m and m != _TRUE]
    return "*".join(kept) if kept else None


def _literal(node: exp.Expression) -> tuple[str, bool] | None:
    """(SQL text of a literal, whether it is text), or None for anything else."""
    if isinstance(node, exp.Literal):
        return str(node.this), bool(node.is_string)
    if isinstance(node, exp.Neg) and isinstance(node.this, exp.Literal) and not node.this.is_string:
        return "-" + str(node.this.this), False
    if isinstance(node, exp.Paren):
        return _literal(node.this)
    return None


def _blank_fails(left: exp.Expression, op: str, right: exp.Expression) -> bool:
    """Whether ``column op literal`` is false on an empty cell in Excel too (an empty cell compares
    as 0 with a number and as "" with text), so SQL's NULL needs no test of its own."""
    if not isinstance(left, exp.Column):
        left, right = right, left
        op = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(op, op)
    lit = _literal(right)
    if not isinstance(left, exp.Column) or lit is None:
        return False
    text, is_text = lit
    blank: Any = "" if is_text else 0.0
    value: Any = text.casefold() if is_text else float(text)
    tests: dict[str, Callable[[Any, Any], bool]] = {
        "=": lambda a, b: a == b,
        "<>": lambda a, b: a != b,
        ">": lambda a, b: a > b,
        ">=": lambda a, b: a >= b,
        "<": lambda a, b: a < b,
        "<=": lambda a, b: a <= b,
    }
    return not tests[op](blank, value)


class _Compiler:
    def __init__(self, rel: Relation, guard: bool = False, rows: tuple[int, int] | None = None) -> None:
        self.rel = rel
        self.guard = guard  # leave empty cells out of selected columns and groups, as answers do
        self.wheres: dict[str, exp.Expression] = {}  # a query's mask -> its WHERE (for …IFS criteria)
        self.bound: dict[str, str] = {}  # an expression's SQL -> the LAMBDA name standing for it
        # the sheet rows the query reads: the records' extent, narrowed by conditions on derived
        # columns (a section, not a total) where the rows they keep are one block
        self.extent = (min(rel.rows), max(rel.rows)) if rel.rows else None  # (the records' rows)
        self.window: tuple[int, int] | None = self.extent
        if rows is not None and self.window is not None:  # (the sheet rows of the view the query ran on)
            self.window = (max(self.window[0], rows[0]), min(self.window[1], rows[1]))
        self._trimmed: dict[str, bool] = {}
        self._held: dict[str, list[tuple[Any, Any]]] = {}
        self._marked: dict[str, bool] = {}

    # -- references and values ------------------------------------------------------------------
    def range(self, node: exp.Column) -> str:
        name = node.name
        try:
            col = self.rel.column(name)
        except StopIteration:
            raise _Untranslatable(name) from None
        if col.role in ("section", "total", "position") or col.data.width != 1:
            raise _Untranslatable(name)  # derived columns have no cells of their own
        if col.data.sheet not in (None, self.rel.sheet.name):
            return str(col.data)  # (a period's column on a sheet of its own: 'Dec 2024'!B7:B26)
        return self.cells(col).with_sheet(None).ref()

    def cells(self, col: RelColumn) -> Range:
        """The column's cells in the rows the query reads (:attr:`window`), where its cells run
        beside the records (a column of another block keeps its own)."""
        data, window, extent = col.data, self.window, self.extent
        if window is None or extent is None or not (data.top <= extent[0] and extent[1] <= data.bottom):
            return data
        return Range(max(data.top, window[0]), data.left, min(data.bottom, window[1]), data.right, data.sheet)

    def held(self, col: RelColumn) -> list[tuple[Any, Any]]:
        """(what the cell holds, what the view holds) for each record's cell of ``col``."""
        if col.name not in self._held:
            i = self.rel.columns.index(col)
            raw = self.rel.sheet.column_values(col.data)
            top = col.data.top
            self._held[col.name] = [
                (raw[row - top] if 0 <= row - top < len(raw) else None, stored)
                for row, stored in zip(self.rel.rows, self.rel.values[i], strict=False)
            ]
        return self._held[col.name]

    def _numbers(self, node: exp.Column) -> RelColumn | None:
        """The column, where it is one of numbers with cells of its own."""
        self._role(node)  # (a column the view does not have: no translation)
        col = self.rel.column(node.name)
        return col if col.kind == "number" and col.role == "data" and col.data.width == 1 else None

    def marked(self, node: exp.Column) -> bool:
        """Whether a column of numbers has cells holding a mark the view reads as no value
        (``..``, ``[c]``, ``:``, ``-``): Excel sees text there, which ``--`` cannot turn into a number."""
        col = self._numbers(node)
        if col is None:
            return False
        if col.name not in self._marked:
            self._marked[col.name] = any(
                stored is None and isinstance(cell, str) and cell.strip() for cell, stored in self.held(col)
            )
        return self._marked[col.name]

    def filled(self, node: exp.Column) -> str:
        """1 where the column's cell holds a value the view reads (not empty, not a mark)."""
        ref = self.range(node)
        if not self.marked(node):
            return f'({ref}<>"")'
        return f'({ref}<>"")*ISNUMBER(--{ref})' if self.text_numbers(node) else f"ISNUMBER({ref})"

    def trimmed(self, node: exp.Column) -> bool:
        """Whether a text column's cells hold its values with spaces around them or as numbers
        (indented line labels, years typed as numbers): the view holds them trimmed, as text, and
        so does ``TRIM(cells&"")``."""
        self._role(node)  # (a column the view does not have: no translation)
        col = self.rel.column(node.name)
        if col.kind != "text" or col.role not in ("key", "data") or col.data.width != 1:
            return False
        if col.name not in self._trimmed:
            differs = False
            for held, stored in self.held(col):
                if stored is None or held is None or held == stored:
                    continue
                if _excel_text_of(held) != stored:
                    differs = False  # (some other difference: the cells as they are)
                    break
                differs = True
            self._trimmed[col.name] = differs
        return self._trimmed[col.name]

    def has_blanks(self, node: exp.Column) -> bool:
        """Whether some cell of the column's range is empty (or holds no value SQL reads: ``n/a``)."""
        i = [c.name for c in self.rel.columns].index(node.name)
        cells = self.cells(self.rel.columns[i])
        inside = [
            v
            for r, v in zip(self.rel.rows, self.rel.values[i], strict=False)
            if cells.top <= r <= cells.bottom
        ]
        return len(inside) != cells.height or any(v is None for v in inside)

    def is_int(self, node: exp.Expression) -> bool:
        """Whether SQLite computes ``node`` as an integer (its type, from the view's stored values)."""
        if isinstance(node, exp.Paren | exp.Neg | exp.Abs | exp.Alias):
            return self.is_int(node.this)
        if isinstance(node, exp.Literal):
            return not node.is_string and re.fullmatch(r"-?\d+", str(node.this)) is not None
        if isinstance(node, exp.Column):
            i = [c.name for c in self.rel.columns].index(node.name)
            filled = [v for v in self.rel.values[i] if v is not None]
            return bool(filled) and all(isinstance(v, int) and not isinstance(v, bool) for v in filled)
        if isinstance(node, exp.Count | exp.Length):
            return True
        if isinstance(node, exp.Sum | exp.Min | exp.Max):
            return self.is_int(node.this)
        if isinstance(node, exp.Add | exp.Sub | exp.Mul | exp.Div):
            return self.is_int(node.this) and self.is_int(node.expression)
        if isinstance(node, exp.Cast):
            return node.to.this in (exp.DataType.Type.INT, exp.DataType.Type.BIGINT)
        if isinstance(node, exp.Subquery) and isinstance(node.this, exp.Select) and node.this.expressions:
            return self.is_int(node.this.expressions[0])
        return False

    def _role(self, node: exp.Column) -> str:
        try:
            return self.rel.column(node.name).role
        except StopIteration:
            raise _Untranslatable(node.name) from None

    @staticmethod
    def count_of(values: str, known: str | None) -> str:
        return f"SUM(--{_paren(known)})" if known else f"ROWS({values})"

    def ranged(self, node: exp.Expression) -> bool:
        """Whether ``node`` is a column with cells of its own (what ``…IFS`` functions take) that
        hold what the view holds (numbers written as text are read as numbers only by ``--``)."""
        return (
            isinstance(node, exp.Column)
            and self._role(node) != "position"
            and not self.text_numbers(node)
            and not self.trimmed(node)
            and not self.marked(node)
        )

    def text_numbers(self, node: exp.Column) -> bool:
        """Whether a column of numbers has cells that hold them as text (a mark is no number)."""
        col = self._numbers(node)
        return col is not None and any(isinstance(c, str) and v is not None for c, v in self.held(col))

    def position(self) -> str:
        """Each row's place in the table (1 = first), where the table's rows have no gaps."""
        col = next((c for c in self.rel.columns if c.role not in ("section", "total", "position")), None)
        if col is None or len(self.rel.rows) != col.data.height or self.cells(col) != col.data:
            raise _Untranslatable("a row number with gaps")
        return f"SEQUENCE(ROWS({self.range(exp.column(col.name, quoted=True))}))"

    def is_bool(self, node: exp.Expression) -> bool:
        return isinstance(node, exp.Column) and self._kind(node) == "boolean"

    def is_date(self, node: exp.Expression) -> bool:
        return isinstance(node, exp.Column) and self._kind(node) == "date"

    def _kind(self, node: exp.Column) -> str:
        try:
            return self.rel.column(node.name).kind
        except StopIteration:
            raise _Untranslatable(node.name) from None

    def literal(self, node: exp.Expression, beside: exp.Expression | None = None) -> str | None:
        lit = _literal(node)
        if lit is None:
            return None
        text, is_text = lit
        if not is_text and abs(float(text)) >= 1e307:
            # (SQL's stand-in for "below everything", -1e308, is past what Excel accepts typed)
            return "-9.99E+307" if text.startswith("-") else "9.99E+307"
        if not is_text:
            if text in ("0", "1") and beside is not None and self.is_bool(beside):
                return "TRUE" if text == "1" else "FALSE"  # SQL's 1/0, the cells' TRUE/FALSE
            return text
        m = _ISO_DATE.match(text)
        if m and beside is not None and self.is_date(beside):  # a date column holds serials in Excel
            return f"DATE({int(m.group(1))},{int(m.group(2))},{int(m.group(3))})"
        return _excel_text(text)

    def expr(self, node: exp.Expression, mask: str | None = None) -> str:
        """A value or a per-row array; aggregates in it run over the rows ``mask`` keeps."""
        if self.bound and node.sql() in self.bound:
            return self.bound[node.sql()]
        if isinstance(node, exp.Paren):
            return f"({self.expr(node.this, mask)})"
        if isinstance(node, exp.Alias):
            return self.expr(node.this, mask)
        if isinstance(node, exp.Column):
            if self._role(node) == "position":
                return self.position()
            if self.trimmed(node):
                return f'TRIM({self.range(node)}&"")'
            if self.marked(node):  # (a mark is no value: empty here, as the view has it)
                return f'IFERROR(--{self.range(node)},"")'
            return f"(--{self.range(node)})" if self.text_numbers(node) else self.range(node)
        lit = self.literal(node)
        if lit is not None:
            return lit
        if isinstance(node, exp.Null):
            return '""'
        if isinstance(node, exp.Neg):
            return f"-{self.expr(node.this, mask)}"
        if isinstance(node, exp.Mul) and _literal(node.expression) in (("1.0", False), ("1", False)):
            return self.expr(node.this, mask)  # (SQL's "* 1.0" keeps a division exact; Excel's always is)
        for cls, op in _ARITH.items():
            if isinstance(node, cls):
                out = f"{self.expr(node.this, mask)}{op}{self.expr(node.expression, mask)}"
                if op == "/" and self.is_int(node.this) and self.is_int(node.expression):
                    return f"TRUNC({out})"  # SQLite divides integers as integers
                return out
        if isinstance(node, exp.Exists):
            return self.exists(node)
        if isinstance(node, exp.Not) and isinstance(node.this, exp.Exists):
            return f"NOT({self.exists(node.this)})"
        if type(node) in _CMP or isinstance(
            node, exp.And | exp.Or | exp.Not | exp.In | exp.Between | exp.Like
        ):
            return f"({self.pred(node)})" if not _has_agg(node) else self.agg_pred(node, mask)
        if isinstance(node, exp.Subquery):
            return self.scalar(node.this)
        if _agg_name(node) is not None:
            return self.aggregate(node, mask)
        if isinstance(node, exp.Round):
            digits = node.args.get("decimals")
            return f"ROUND({self.expr(node.this, mask)},{self.expr(digits) if digits is not None else 0})"
        for cls, fn in _FUNCS.items():
            if isinstance(node, cls):
                return f"{fn}({self.expr(node.this, mask)})"
        if isinstance(node, exp.Cast):
            value = self.expr(node.this, mask)
            whole = node.to.this in (exp.DataType.Type.INT, exp.DataType.Type.BIGINT)
            return f"TRUNC({value})" if whole and not self.is_int(node.this) else value
        if isinstance(node, exp.Case):
            return self.case(node, mask)
        if isinstance(node, exp.StrPosition) and _only(node, "this", "substr"):
            # INSTR(text, part): where ``part`` starts in ``text`` (case kept, as FIND does), 0 if nowhere
            return f"IFERROR(FIND({self.expr(node.args['substr'], mask)},{self.expr(node.this, mask)}),0)"
        if isinstance(node, exp.DPipe):
            return f"({self.expr(node.this, mask)}&{self.expr(node.expression, mask)})"
        if isinstance(node, exp.Replace) and _only(node, "this", "expression", "replacement"):
            # REPLACE(text, old, new): every ``old`` replaced, case kept, as SUBSTITUTE does
            parts = (node.this, node.expression, node.args["replacement"])
            return f"SUBSTITUTE({','.join(self.expr(p, mask) for p in parts)})"
        if isinstance(node, exp.Coalesce) and node.expressions:
            # COALESCE(a, b, c): the first with a value, as nested IFs from the last
            out = self.expr(node.expressions[-1], mask)
            for earlier in reversed([node.this, *node.expressions[:-1]]):
                value = self.expr(earlier, mask)
                out = f'IF({value}="",{out},{value})'
            return out
        if isinstance(node, exp.Least | exp.Greatest) and node.expressions:
            fn = "MIN" if isinstance(node, exp.Least) else "MAX"  # SQLite's MIN(a, b): one row's values
            return f"{fn}({','.join(self.expr(e, mask) for e in [node.this, *node.expressions])})"
        if isinstance(node, exp.Trim) and _only(node, "this"):
            return f"TRIM({self.expr(node.this, mask)})"  # (Excel also joins inner runs of spaces: checked)
        if isinstance(node, exp.TimeToStr):
            return self.date_part(node, mask)
        raise _Untranslatable(node.sql())

    def date_part(self, node: exp.TimeToStr, mask: str | None) -> str:
        """strftime('%Y' | '%m' | '%d' | '%H' | '%w', date) as the same text: TEXT(date,"yyyy"),
        and the weekday as SQLite counts it (Sunday is 0)."""
        fmt = node.args.get("format")
        inner = node.this.this if isinstance(node.this, exp.TsOrDsToTimestamp) else node.this
        code = fmt.this if isinstance(fmt, exp.Literal) else None
        value = self.expr(inner, mask)
        if code == "%w":
            return f'TEXT(WEEKDAY({value})-1,"0")'
        pictures = {"%Y": "yyyy", "%m": "mm", "%d": "dd", "%H": "hh"}
        if code not in pictures:
            raise _Untranslatable(node.sql())
        return f'TEXT({value},"{pictures[code]}")'

    def case(self, node: exp.Case, mask: str | None) -> str:
        default = node.args.get("default")
        if node.this is not None:  # CASE x WHEN v THEN r …: Excel's SWITCH
            pairs = [
                f"{self.expr(w.this, mask)},{self.expr(w.args['true'], mask)}"
                for w in node.args.get("ifs") or []
            ]
            tail = [self.expr(default, mask)] if default is not None else []
            return f"SWITCH({','.join([self.expr(node.this, mask), *pairs, *tail])})"

        out = self.expr(default, mask) if default is not None else '""'
        for when in reversed(node.args.get("ifs") or []):
            cond = when.this
            test = self.agg_pred(cond, mask) if _has_agg(cond) else self.pred(cond)
            out = f"IF({test},{self.expr(when.args['true'], mask)},{out})"
        return out

    def exists(self, node: exp.Exists) -> str:
        """``EXISTS (SELECT … FROM data WHERE …)``: whether any row meets the condition, as the
        count of those rows (the same query counting them) above 0."""
        select = node.this
        if not isinstance(select, exp.Select) or any(
            select.args.get(k) for k in ("group", "having", "limit", "distinct")
        ):
            raise _Untranslatable(node.sql())
        counted = select.copy()
        counted.set("expressions", [exp.Count(this=exp.Star())])
        body, _rows = self.query(counted)
        return f"({body}>0)"

    def agg_pred(self, node: exp.Expression, mask: str | None) -> str:
        """A test over aggregates (``COUNT(*) > 0``): plain Excel comparisons and logic."""
        if isinstance(node, exp.Paren):
            return self.agg_pred(node.this, mask)
        for cls, op in _CMP.items():
            if isinstance(node, cls):
                return f"({self.expr(node.this, mask)}{op}{self.expr(node.expression, mask)})"
        if isinstance(node, exp.And | exp.Or):
            fn = "AND" if isinstance(node, exp.And) else "OR"
            return f"{fn}({self.agg_pred(node.this, mask)},{self.agg_pred(node.expression, mask)})"
        if isinstance(node, exp.Not):
            return f"NOT({self.agg_pred(node.this, mask)})"
        raise _Untranslatable(node.sql())

    def scalar(self, select: exp.Expression) -> str:
        """A subquery's one value: its aggregate, or the first of its rows."""
        if not isinstance(select, exp.Select):
            raise _Untranslatable(select.sql())
        where = select.args.get("where")
        item = select.expressions[0] if select.expressions else None
        if (  # one row by one key: a lookup
            isinstance(item, exp.Column)
            and where is not None
            and isinstance(where.this, exp.EQ)
            and isinstance(where.this.this, exp.Column)
            and self._role(where.this.this) not in _DERIVED
            and _literal(where.this.expression) is not None
            and not select.args.get("order")
            and not select.args.get("group")
            and not select.args.get("distinct")
            and not self.guard
        ):
            key = self.literal(where.this.expression, where.this.this)
            # (the cells themselves returned where they hold what the view does; a mark found is
            # text, no value: the query's NULL, and the check fails, leaving the next spelling)
            found = self.range(item) if self.marked(item) and not self.text_numbers(item) else self.expr(item)
            return f"XLOOKUP({key},{self.expr(where.this.this)},{found})"
        body, rows = self.query(select)
        return f"INDEX({body},1)" if rows else body

    # -- conditions -------------------------------------------------------------------------------
    def _known(self, *nodes: exp.Expression) -> str | None:
        """1 where every column in ``nodes`` has a value (SQL's comparisons with NULL are unknown)."""
        tests = dict.fromkeys(
            self.filled(c)
            for n in nodes
            for c in _columns(n)
            if self.has_blanks(c) and c.find_ancestor(exp.Coalesce) is None  # (COALESCE fills the gap)
        )
        return _and(*tests)

    def pred(self, node: exp.Expression) -> str:
        """A 1/0 (or TRUE/FALSE) array: the rows where ``node`` holds, as SQL decides it."""
        if isinstance(node, exp.Paren):
            return self.pred(node.this)
        if isinstance(node, exp.And):
            return _and(self.pred(node.this), self.pred(node.expression)) or _TRUE
        if isinstance(node, exp.Or):
            a, b = self.pred(node.this), self.pred(node.expression)
            return _TRUE if _TRUE in (a, b) else f"({a}+{b}>0)"
        if isinstance(node, exp.Not):
            inner = node.this.this if isinstance(node.this, exp.Paren) else node.this
            if isinstance(inner, exp.Is) and isinstance(inner.this, exp.Column):
                return self._known(inner.this) or _TRUE
            return _and(f"(1-{self.pred(inner)})", self._known(inner)) or ""
        if isinstance(node, exp.Is):
            if not isinstance(node.expression, exp.Null):
                raise _Untranslatable(node.sql())
            if isinstance(node.this, exp.Column) and self.marked(node.this):
                return f"(1-{self.filled(node.this)})"
            return f'({self.expr(node.this)}="")'
        for cls, op in _CMP.items():
            if isinstance(node, cls):
                left, right = node.this, node.expression
                a = self.literal(left, right) or self.expr(left)
                b = self.literal(right, left) or self.expr(right)
                cmp = f"({a}{op}{b})"
                if _blank_fails(left, op, right) and not any(self.marked(c) for c in _columns(node)):
                    return cmp  # (an empty cell fails the test in Excel too; a mark, read as "", may not)
                return _and(cmp, self._known(left, right)) or cmp
        if isinstance(node, exp.Between):
            col = node.this
            lo = self.literal(node.args["low"], col) or self.expr(node.args["low"])
            hi = self.literal(node.args["high"], col) or self.expr(node.args["high"])
            ref = self.expr(col)
            return f"({ref}>={lo})*({ref}<={hi})" + (f"*{k}" if (k := self._known(col)) else "")
        if isinstance(node, exp.In):
            if node.args.get("query") is not None:
                raise _Untranslatable(node.sql())
            items = [self.literal(v, node.this) for v in node.expressions]
            if not items or any(i is None or i.startswith("DATE(") for i in items):
                raise _Untranslatable(node.sql())
            return f"ISNUMBER(MATCH({self.expr(node.this)},{{{','.join(i for i in items if i)}}},0))"
        if isinstance(node, exp.Like):
            return self.like(node)
        if isinstance(node, exp.Column) and self.is_bool(node):
            return f"({self.expr(node)}=TRUE)"
        if isinstance(node, exp.Column | exp.Boolean):
            return f"({self.expr(node)}<>0)"
        raise _Untranslatable(node.sql())

    def like(self, node: exp.Like) -> str:
        lit = _literal(node.expression)
        if lit is None or not lit[1] or node.args.get("escape") is not None:
            raise _Untranslatable(node.sql())
        pattern, ref = lit[0], self.expr(node.this)
        core = pattern.strip("%")
        if not core or "%" in core or "_" in core:  # a wildcard inside: SEARCH's own wildcards
            body = _tilde(core).replace("%", "*").replace("_", "?")
            if pattern.startswith("%") and pattern.endswith("%"):
                return f"ISNUMBER(SEARCH({_excel_text(body)},{ref}))"
            raise _Untranslatable(node.sql())
        if pattern.startswith("%") and pattern.endswith("%"):
            return f"ISNUMBER(SEARCH({_excel_text(_tilde(core))},{ref}))"
        if pattern.endswith("%"):
            return f"(LEFT({ref},{len(core)})={_excel_text(core)})"
        if pattern.startswith("%"):
            return f"(RIGHT({ref},{len(core)})={_excel_text(core)})"
        return f"({ref}={_excel_text(core)})"

    def criteria(self, node: exp.Expression | None) -> list[str] | None:
        """``COUNTIFS``-style (range, criterion) arguments for AND-ed simple conditions; None when
        some condition is no criterion."""
        try:
            return self._criteria(node)
        except _Untranslatable:
            return None  # (a column with no range of its own: the mask spells it)

    def _criteria(self, node: exp.Expression | None) -> list[str] | None:
        if node is None:
            return []
        if isinstance(node, exp.Paren):
            return self._criteria(node.this)
        if isinstance(node, exp.And):
            a, b = self._criteria(node.this), self._criteria(node.expression)
            return None if a is None or b is None else a + b
        if any(self.marked(c) or self.trimmed(c) for c in _columns(node)):
            return None  # (cells the view reads otherwise than Excel's criteria do: the mask spells it)
        if isinstance(node, exp.Between) and isinstance(node.this, exp.Column):
            lo, hi = _literal(node.args["low"]), _literal(node.args["high"])
            if lo is None or hi is None or lo[1] or hi[1]:
                return None
            ref = self.range(node.this)
            inside = [ref, f'">={lo[0]}"', ref, f'"<={hi[0]}"']
            blank_in = self.has_blanks(node.this) and float(lo[0]) <= 0 <= float(hi[0])
            return [*inside, ref, '"<>"'] if blank_in else inside
        if (
            isinstance(node, exp.Not)
            and isinstance(node.this, exp.Is)
            and isinstance(node.this.this, exp.Column)
        ):
            return [self.range(node.this.this), '"<>"'] if self.has_blanks(node.this.this) else []
        if isinstance(node, exp.Like) and isinstance(node.this, exp.Column):
            if self.trimmed(node.this):
                return None
            lit = _literal(node.expression)
            if lit is None or not lit[1] or "_" in lit[0]:
                return None
            return [self.range(node.this), _excel_text(_tilde(lit[0]).replace("%", "*"))]
        if isinstance(node, exp.Not):
            inner = node.this.this if isinstance(node.this, exp.Paren) else node.this
            flipped = _FLIPPED.get(type(inner))
            if flipped is None:
                return None
            # NOT (x < 18) is x >= 18, an empty x meeting neither, as in SQL
            return self._criteria(flipped(this=inner.this, expression=inner.expression))
        op = next((o for cls, o in _CMP.items() if isinstance(node, cls)), None)
        if op is None or not isinstance(node.this, exp.Column) or not self.ranged(node.this):
            return None
        lit = _literal(node.expression)
        if lit is None or (lit[1] and op not in ("=", "<>")) or (lit[1] and _ISO_DATE.match(lit[0])):
            return None
        value, text = lit
        if self.is_bool(node.this):
            truth = self.literal(node.expression, node.this)
            return [self.range(node.this), truth] if op == "=" and truth in ("TRUE", "FALSE") else None
        sign = "" if op == "=" else op
        crit = _excel_text(sign + _tilde(value)) if (sign or text) else value
        ref = self.range(node.this)
        # an empty cell meets "<>x" and "<5" in Excel; in SQL it meets nothing
        blank_in = self.has_blanks(node.this) and not _blank_fails(node.this, op, node.expression)
        return [ref, crit, ref, '"<>"'] if blank_in else [ref, crit]

    # -- aggregates -------------------------------------------------------------------------------
    def aggregate(self, node: exp.Expression, mask: str | None, where: exp.Expression | None = None) -> str:
        """One aggregate over the rows ``mask`` keeps (``where``, when given, is the same condition
        as a tree, for the ``…IFS`` spelling)."""
        name = _agg_name(node)
        arg = node.this
        distinct = isinstance(arg, exp.Distinct)
        if distinct:
            if name != "COUNT" or len(arg.expressions) != 1:
                raise _Untranslatable(node.sql())
            arg = arg.expressions[0]
        where = where if where is not None else self.wheres.get(mask or "")
        crit = self.criteria(where) if where is not None else None
        if name == "COUNT" and (arg is None or isinstance(arg, exp.Star)):
            if crit:
                return f"COUNTIFS({','.join(crit)})"
            if mask:
                return f"SUM(--{_paren(mask)})"
            first = self.rel.columns[0]
            if len(self.rel.rows) != first.data.height or self.cells(first) != first.data:
                raise _Untranslatable("COUNT(*) of a table with gaps")
            return f"ROWS({self.range(exp.column(first.name, quoted=True))})"
        values = self.expr(arg)
        if self.is_bool(arg) and name != "COUNT":  # SUM and the like skip TRUE/FALSE: as 1/0, like SQL
            values, arg = f"--{_paren(values)}", exp.Paren(this=arg)
        known = self._known(arg)
        if distinct and not mask and not self.guard:
            return f"COUNTA(UNIQUE({values}))"
        if distinct:
            return f"COUNTA(UNIQUE(FILTER({values},{_and(known, mask)})))"
        if name == "COUNT":
            if crit and self.ranged(arg):
                return f'COUNTIFS({values},"<>",{",".join(crit)})'
            if not mask:
                return f"COUNTA({values})" if self.ranged(arg) else self.count_of(values, known)
            return f"SUM(--{_paren(_and(known, mask) or mask)})"
        if name is None:
            raise _Untranslatable(node.sql())
        if crit and name in _IFS and self.ranged(arg):
            return f"{_IFS[name]}({values},{','.join(crit)})"
        if not mask and self.ranged(arg):
            return f"{_PLAIN[name]}({values})"
        keep = _and(known, mask)
        return f"{_PLAIN[name]}(FILTER({values},{keep}))" if keep else f"{_PLAIN[name]}({values})"

    # -- queries ----------------------------------------------------------------------------------
    def query(self, select: exp.Select) -> tuple[str, bool]:
        """The query's formula body and whether it gives rows (True) or one value (False)."""
        where = select.args.get("where")
        if where is None:
            return self._query(select)
        saved = self.window
        rest = self.fixed_rows(where.this)
        if rest is where.this:
            return self._query(select)
        narrowed = select.copy()
        if rest is None:
            narrowed.set("where", None)
        else:
            narrowed.set("where", exp.Where(this=rest))
        try:
            return self._query(narrowed)
        finally:
            self.window = saved

    def fixed_rows(self, where: exp.Expression) -> exp.Expression | None:
        """``where`` less its conditions on derived columns (a section, a total flag), which set
        :attr:`window` to the one block of rows they keep; ``where`` itself where there are none
        (or the rows they keep are not one block of records: those conditions stay, untranslatable)."""
        parts = _conjuncts(where)
        fixed = [p for p in parts if _columns(p) and all(self._role(c) in _DERIVED for c in _columns(p))]
        if not fixed or self.window is None:
            return where
        test = " AND ".join(f"({p.sql(dialect='sqlite')})" for p in fixed)
        try:
            kept, _read = run_query(f"SELECT CASE WHEN {test} THEN 1 ELSE 0 END FROM data", self.rel.view)
        except QueryRefused:
            return where
        if len(kept) != len(self.rel.rows):
            return where
        rows = [r for r, (k,) in zip(self.rel.rows, kept, strict=True) if k]
        if not rows:
            return where
        top, bottom = min(rows), max(rows)
        if any(top <= r <= bottom for r, (k,) in zip(self.rel.rows, kept, strict=True) if not k):
            return where  # (records left out between the kept ones: no block of cells)
        if not (self.window[0] <= top and bottom <= self.window[1]):
            return where
        self.window = (top, bottom)
        rest = [p for p in parts if all(p is not f for f in fixed)]
        out: exp.Expression | None = None
        for p in rest:
            out = p if out is None else exp.And(this=out, expression=p)
        return out

    def _query(self, select: exp.Select) -> tuple[str, bool]:
        source = select.args.get("from_") or select.args.get("from")
        table = source.this if source is not None else None
        only = select.expressions[0] if len(select.expressions) == 1 else None
        if source is None and only is not None and only.find(exp.Select) is not None and not _columns(only):
            return self.expr(select.expressions[0]), False  # SELECT (subquery) - (subquery): one value
        if isinstance(table, exp.Subquery) and isinstance(table.this, exp.Union):
            return self.over_union(select, table.this)
        if not isinstance(table, exp.Table) or table.name.lower() != "data" or select.args.get("joins"):
            raise _Untranslatable("FROM")
        if not select.expressions or isinstance(select.expressions[0], exp.Star):
            raise _Untranslatable("*")
        item = select.expressions[0]
        item = item.this if isinstance(item, exp.Alias) else item
        where_node = select.args["where"].this if select.args.get("where") else None
        mask = _and(self.pred(where_node)) if where_node is not None else None
        if mask is not None and where_node is not None:
            self.wheres[mask] = where_node
        if select.args.get("group"):
            return self.grouped(select, item, where_node, mask), True
        if _has_agg(item):
            if _agg_name(item) is not None:
                return self.aggregate(item, mask, where_node), False
            return self.expr(item, mask), False
        if not _columns(item):  # one value repeated on every row (scalar subqueries): the value
            return self.expr(item), False
        values = self.expr(item)
        order = select.args.get("order")
        sorted_by = [o.this for o in order.expressions] if order is not None else []
        keep = _and(mask, self._known(item, *sorted_by) if self.guard else None)
        rows = f"FILTER({values},{keep})" if keep else values
        if order is not None:
            keys: list[str] = []
            for o in order.expressions:
                key = self.expr(o.this)
                keys += [f"FILTER({key},{keep})" if keep else key, _direction(o)]
            rows = f"SORTBY({rows},{','.join(keys)})"
        if select.args.get("distinct"):
            rows = f"UNIQUE({rows})"
        return self.cut(rows, select), True

    def cut(self, rows: str, node: exp.Expression) -> str:
        """``rows`` past ``OFFSET`` (``DROP``) and up to ``LIMIT`` (``TAKE``)."""
        offset, limit = node.args.get("offset"), node.args.get("limit")
        if offset is not None:
            rows = f"DROP({rows},{self.limit(offset)})"
        if limit is not None:
            rows = f"TAKE({rows},{self.limit(limit)})"
        return rows

    @staticmethod
    def limit(limit: exp.Expression) -> int:
        n = limit.expression if isinstance(limit, exp.Limit | exp.Offset) else limit
        if not isinstance(n, exp.Literal) or n.is_string:
            raise _Untranslatable("LIMIT")
        return int(str(n.this))

    def grouped(
        self, select: exp.Select, item: exp.Expression, where: exp.Expression | None, mask: str | None
    ) -> str:
        """``GROUP BY g``: the groups (of the rows ``mask`` keeps), or one aggregate per group."""
        group = select.args["group"].expressions
        if len(group) != 1 or not _columns(group[0]) or _has_agg(group[0]):
            raise _Untranslatable("GROUP BY")
        by_column = isinstance(group[0], exp.Column) and not self.trimmed(group[0])
        g = self.range(group[0]) if by_column else self.expr(group[0])  # (a weekday of a date: TEXT(…))
        keep = _and(mask, self._known(group[0]) if self.guard else None)
        keys = f"UNIQUE(FILTER({g},{keep}))" if keep else f"UNIQUE({g})"
        crit = self.criteria(where) if by_column else None  # (…IFS read ranges, not computed values)
        if crit is not None:  # the group column's own "not empty" test: the keys are never empty
            pairs = [(crit[i], crit[i + 1]) for i in range(0, len(crit), 2)]
            crit = [x for r, c in pairs if (r, c) != (g, '"<>"') for x in (r, c)]

        def per_group(agg: exp.Expression) -> str:
            """Each group's value of ``agg`` (an aggregate, or a test or sum of aggregates)."""
            name = _agg_name(agg)
            arg = agg.this if name is not None else None
            if crit is not None and name in ("SUM", "AVG", "MIN", "MAX") and isinstance(arg, exp.Column):
                return f"{_IFS[name]}({self.range(arg)},{g},{keys}{''.join(',' + c for c in crit)})"
            if crit is not None and name == "COUNT" and (arg is None or isinstance(arg, exp.Star)):
                return f"COUNTIFS({g},{keys}{''.join(',' + c for c in crit)})"
            inner = self.expr(agg, _and(f"({g}=k)", mask))
            return f"MAP({keys},LAMBDA(k,{inner}))"

        def per_row(node: exp.Expression) -> str:
            """One array over the groups: the group itself or an aggregate of each group."""
            if node.sql() == group[0].sql():
                return keys
            if not _has_agg(node):
                # a value of the group's key (a weekday's name from its number): per key, the key bound
                key = group[0].sql()
                if not _columns(node) or not all(_under(c, key) for c in _columns(node)):
                    raise _Untranslatable("a grouped item")
                self.bound[key] = "k"
                try:
                    return f"MAP({keys},LAMBDA(k,{self.expr(node)}))"
                finally:
                    del self.bound[key]
            return per_group(node)

        having = select.args.get("having")
        test = self._group_test(having.this, per_group) if having is not None else None

        def kept(groups: str) -> str:
            return f"FILTER({groups},{test})" if test else groups

        out = kept(per_row(item))
        order = select.args.get("order")
        if order is not None:
            args: list[str] = []
            for o in order.expressions:
                args += [kept(per_row(o.this)), _direction(o)]
            out = f"SORTBY({out},{','.join(args)})"
        return self.cut(out, select)

    def _group_test(self, node: exp.Expression, per_group: Callable[[exp.Expression], str]) -> str:
        if isinstance(node, exp.Paren):
            return self._group_test(node.this, per_group)
        for cls, op in _CMP.items():
            if isinstance(node, cls):
                sides = []
                for side in (node.this, node.expression):
                    lit = self.literal(side)
                    sides.append(lit if lit is not None else per_group(side))
                return f"({sides[0]}{op}{sides[1]})"
        raise _Untranslatable(node.sql())

    def union(self, node: exp.Union) -> tuple[str, bool]:
        """``SELECT a, b … UNION ALL SELECT a, b …`` (one row of values each: the planner's listed
        cells, its counts of list items): each column of the result a ``VSTACK`` of the rows' values,
        the first column the answer, ranked by ``ORDER BY`` and cut by ``LIMIT`` like a query."""
        names, columns = self.union_columns(node)
        out = columns[0]
        order = node.args.get("order")
        if order is not None:
            out = f"SORTBY({out},{','.join(self.union_keys(order, names, columns))})"
        return self.cut(out, node), True

    def union_columns(self, node: exp.Union) -> tuple[list[str], list[str]]:
        """The union's column names and each column as a ``VSTACK`` of its rows' values."""
        branches = _branches(node)
        width = len(branches[0].expressions) if branches else 0
        if not width or any(len(b.expressions) != width for b in branches):
            raise _Untranslatable("UNION")
        names = [e.alias_or_name for e in branches[0].expressions]
        columns: list[str] = []
        for j in range(width):
            values: list[str] = []
            for b in branches:
                item = b.expressions[j].this if isinstance(b.expressions[j], exp.Alias) else b.expressions[j]
                if not (b.args.get("from_") or b.args.get("from")) and self.literal(item) is not None:
                    values.append(str(self.literal(item)))  # (a listed cell's name: 'Apr-24' AS p)
                    continue
                one = b.copy()
                one.set("expressions", [b.expressions[j].copy()])
                value, rows = self.query(one)
                if rows:
                    raise _Untranslatable("UNION of rows")
                values.append(value)
            columns.append(f"VSTACK({','.join(values)})")
        return names, columns

    @staticmethod
    def union_keys(order: exp.Expression, names: list[str], columns: list[str]) -> list[str]:
        """``SORTBY`` arguments for an ``ORDER BY`` over a union's columns (by name or place)."""
        keys: list[str] = []
        for o in order.expressions:
            at = o.this
            if isinstance(at, exp.Column) and at.name in names:
                j = names.index(at.name)
            elif isinstance(at, exp.Literal) and not at.is_string and 1 <= int(str(at.this)) <= len(columns):
                j = int(str(at.this)) - 1
            else:
                raise _Untranslatable("ORDER BY")
            keys += [columns[j], _direction(o)]
        return keys

    def over_union(self, select: exp.Select, union: exp.Union) -> tuple[str, bool]:
        """``SELECT AVG(v) FROM (… UNION ALL …)``, ``SELECT p FROM (…) ORDER BY v DESC LIMIT 1``:
        the outer query over the union's columns (no condition: the planner's listed cells)."""
        if len(select.expressions) != 1 or any(select.args.get(k) for k in ("where", "group", "having")):
            raise _Untranslatable("a query over a union")
        names, columns = self.union_columns(union)
        item = select.expressions[0]
        item = item.this if isinstance(item, exp.Alias) else item
        name = _agg_name(item)
        arg = item.this if name is not None else item
        if not isinstance(arg, exp.Column) or arg.name not in names:
            raise _Untranslatable("a query over a union")
        values = columns[names.index(arg.name)]
        if name is not None:
            if name not in _PLAIN:
                raise _Untranslatable(name)
            return f"{_PLAIN[name]}({values})", False
        order = select.args.get("order")
        if order is not None:
            values = f"SORTBY({values},{','.join(self.union_keys(order, names, columns))})"
        return self.cut(values, select), True


def _under(node: exp.Expression, sql: str) -> bool:
    """``node`` stands inside an expression written ``sql`` (the group key a grouped item reads)."""
    up = node.parent
    while up is not None and up.sql() != sql:
        up = up.parent
    return up is not None


def _branches(node: exp.Union) -> list[exp.Select]:
    """The SELECTs a ``UNION ALL`` chain joins, in order (none when one is no SELECT, or a UNION
    drops duplicates)."""
    if node.args.get("distinct"):
        return []
    out: list[exp.Select] = []
    for part in (node.this, node.expression):
        if isinstance(part, exp.Union) and not part.args.get("order") and not part.args.get("limit"):
            inner = _branches(part)
            if not inner:
                return []
            out += inner
        elif isinstance(part, exp.Select) and part.expressions:
            out.append(part)
        else:
            return []
    return out


def _parse(sql: str) -> exp.Select | exp.Union | None:
    try:
        tree = sqlglot.parse_one(sql, read="sqlite")
    except sqlglot.errors.SqlglotError:
        return None
    return tree if isinstance(tree, exp.Select | exp.Union) else None


def translations(rel: Relation, sql: str, rows: tuple[int, int] | None = None) -> list[str]:
    """Excel formulas that may compute ``sql`` over ``rel``'s ranges, the plainest first; none when
    some part of the query has no translation. ``rows``: the first and last sheet rows of the view
    the query ran on, where it reads fewer rows than ``rel`` (a flat view without the total row)."""
    tree = _parse(sql)
    if tree is None:
        return []
    out: list[str] = []
    for guard in (False, True):
        try:
            compiler = _Compiler(rel, guard, rows)
            body, _rows = compiler.union(tree) if isinstance(tree, exp.Union) else compiler.query(tree)
        except (_Untranslatable, KeyError, ValueError, TypeError, AttributeError, IndexError):
            # (a query shape the compiler does not know: no formula, never a traceback)
            continue
        if "=" + body not in out and len(body) < MAX_FORMULA_CHARS:
            out.append("=" + body)
    return out


def translate(rel: Relation, sql: str) -> str | None:
    """The plainest Excel formula for ``sql`` over ``rel``'s ranges, or None when none fits."""
    found = translations(rel, sql)
    return found[0] if found else None


def view_rows(view: Any) -> tuple[int, int] | None:
    """The first and last sheet rows a query view's own columns read (None: none on this sheet)."""
    own = [c.data for c in getattr(view, "columns", []) if c.sheet is None]
    return (min(r.top for r in own), max(r.bottom for r in own)) if own else None


def _flat_result(got: Any, value: Any) -> Any:
    if isinstance(got, list):
        got = [x for row in got for x in (row if isinstance(row, list) else [row])]
        got = got[0] if len(got) == 1 and not isinstance(value, list) else got
    return got


def verified_formula(
    rel: Relation,
    workbook: Workbook,
    sql: str,
    value: Any,
    written: str | None = None,
    rows: tuple[int, int] | None = None,
) -> str | None:
    """The first of :func:`translations` that the engine evaluates to ``value`` (the query's answer:
    a yes/no answer from a count is the count above 0, one value from several rows is the first);
    else ``written``, a formula a plan wrote over the cells themselves (a lookup by label is kept
    where one translates: it still holds when rows are inserted)."""
    from gridsight.formula import evaluate_formula
    from gridsight.qa._pipeline import same_value

    tries = 0
    for formula in translations(rel, sql, rows):
        body = formula[1:]
        spellings = [formula]
        if isinstance(value, bool):
            spellings.append(f"=({body})>0")
        elif not isinstance(value, list):
            spellings.append(f"=INDEX({body},1)")
        for candidate in spellings:
            if tries >= MAX_TRIES:
                break
            tries += 1
            result = evaluate_formula(candidate, workbook, rel.sheet)
            if not result.ok or result.error is not None:
                break  # the other spellings wrap the same failing body
            got = _flat_result(result.value, value)
            if same_value(got, value):
                return candidate
            if isinstance(value, bool) is isinstance(got, bool) and not isinstance(got, list):
                break  # a value of the right shape that differs: no wrapper changes that
    if written:
        result = evaluate_formula(written, workbook, rel.sheet)
        if result.ok and result.error is None and same_value(_flat_result(result.value, value), value):
            return written
    return None
