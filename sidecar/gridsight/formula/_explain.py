"""Explain a formula in words, deterministically, naming ranges by their headers.

"=SUMIFS(C2:C200,B2:B200,"East")" -> 'Sums Sales (C2:C200) where Region (B2:B200) is "East".'
The facts come from the parse tree and the sheet; a model may later polish the sentence, never
the facts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeGuard

from gridsight.formula._translate import expand_structured, inline_lambdas
from gridsight.formula._tree import BinOp, Call, Literal, Missing, Node, Ref, UnaryOp, parse_formula
from gridsight.grid import Kind, Range, Sheet, Workbook

_OPS = {
    "+": "plus",
    "-": "minus",
    "*": "times",
    "/": "divided by",
    "^": "to the power of",
    "&": "joined with",
    "=": "equals",
    "<>": "is not",
    "<": "is less than",
    ">": "is greater than",
    "<=": "is at most",
    ">=": "is at least",
    " ": "intersected with",
}
_PREC = {"=": 1, "<>": 1, "<": 1, ">": 1, "<=": 1, ">=": 1, "&": 2, "+": 3, "-": 3, "*": 4, "/": 4, "^": 5}
_CRITERION = re.compile(r"^(<>|>=|<=|=|<|>)?(.*)$", re.S)
_CRIT_WORDS = {
    "<>": "is not",
    ">=": "is at least",
    "<=": "is at most",
    "=": "is",
    "<": "is below",
    ">": "is above",
}


class _Namer:
    """Names references by their headers: 'Sales (C2:C200)'."""

    def __init__(self, workbook: Workbook | None, sheet: Sheet | None) -> None:
        self.wb = workbook
        self.sheet = sheet
        self._tables: dict[str, list[object]] = {}

    def _detected_header(self, sheet: Sheet, rng: Range) -> str | None:
        """The header path table detection gives the range's column, when the range lies in a
        detected table's body (multi-row headers: 'Revenue › 2023 › Q1')."""
        if sheet.name not in self._tables:
            from gridsight.detect import detect_tables

            try:
                self._tables[sheet.name] = list(detect_tables(sheet).tables)
            except Exception:  # explanation must not fail because detection did
                self._tables[sheet.name] = []
        for t in self._tables[sheet.name]:
            tr = t.range  # type: ignore[attr-defined]
            header = max(t.header_rows) if t.header_rows else None  # type: ignore[attr-defined]
            if header is None or rng.width != 1 or not (tr.left <= rng.left <= tr.right):
                continue
            if header < rng.top and rng.bottom <= tr.bottom:
                path = t.header_paths[rng.left - tr.left]  # type: ignore[attr-defined]
                return path or None
        return None

    def _sheet_for(self, ref: Ref) -> Sheet | None:
        if ref.sheet and self.wb is not None:
            try:
                return self.wb.sheet(ref.sheet)
            except Exception:
                return None
        return self.sheet

    def name(self, ref: Ref) -> str:
        if ref.rng is None:
            return ref.name or ref.text
        addr = (f"{ref.sheet}!" if ref.sheet else "") + ref.rng.ref()
        header = self.header(ref)
        return f"{header} ({addr})" if header else addr

    def header(self, ref: Ref) -> str | None:
        sheet = self._sheet_for(ref)
        rng = ref.rng
        if sheet is None or rng is None or sheet.used_range is None:
            return None
        if rng.size == 1:
            col = _column_header(sheet, rng.top, rng.left)
            row = _text_left(sheet, rng.top, rng.left)
            if col and row:
                return f"{col} for {row}"
            return col or row
        if rng.width == 1:
            return self._detected_header(sheet, rng) or _text_above(sheet, rng.top, rng.left)
        if rng.height == 1 and rng.width > 1:
            first = _column_header(sheet, rng.top, rng.left)
            last = _column_header(sheet, rng.top, rng.right)
            if first and last and first != last:
                return f"{first} to {last}"
            return _text_left(sheet, rng.top, rng.left)
        return None


def _is_text(sheet: Sheet, row: int, col: int) -> str | None:
    cell = sheet.cell(row, col)
    if cell.kind == Kind.TEXT and str(cell.value).strip():
        return str(cell.value).strip()
    return None


def _text_above(sheet: Sheet, top: int, col: int) -> str | None:
    """The column's header: the nearest text cell above the range (within 3 rows), or the
    range's own first cell when it is text above non-text values."""
    for r in range(top - 1, max(top - 4, -1), -1):
        hit = _is_text(sheet, r, col)
        if hit:
            return hit
        if sheet.cell(r, col).kind != Kind.EMPTY:
            break
    own = _is_text(sheet, top, col)
    below = sheet.cell(top + 1, col)
    if own and below.kind not in (Kind.TEXT, Kind.EMPTY):
        return own
    return None


def _column_header(sheet: Sheet, row: int, col: int) -> str | None:
    """For one cell: the first text cell above it, past the column's other values (50 rows)."""
    if sheet.cell(row, col).kind == Kind.TEXT:
        return None
    for r in range(row - 1, max(row - 51, -1), -1):
        hit = _is_text(sheet, r, col)
        if hit:
            return hit
    return None


def _text_left(sheet: Sheet, row: int, left: int) -> str | None:
    for c in range(left - 1, max(left - 4, -1), -1):
        hit = _is_text(sheet, row, c)
        if hit:
            return hit
    return None


def _q(text: str) -> str:
    return '"' + text + '"'


class _Explainer:
    def __init__(self, namer: _Namer) -> None:
        self.n = namer
        self.calls: dict[str, Callable[[Call], str]] = {
            "SUM": lambda c: f"the sum of {self.list(c.args)}",
            "AVERAGE": lambda c: f"the average of {self.list(c.args)}",
            "MEDIAN": lambda c: f"the median of {self.list(c.args)}",
            "MAX": lambda c: f"the largest value in {self.list(c.args)}",
            "MIN": lambda c: f"the smallest value in {self.list(c.args)}",
            "COUNT": lambda c: f"the count of numbers in {self.list(c.args)}",
            "COUNTA": lambda c: f"the count of non-empty cells in {self.list(c.args)}",
            "COUNTBLANK": lambda c: f"the count of empty cells in {self.list(c.args)}",
            "PRODUCT": lambda c: f"the product of {self.list(c.args)}",
            "SUMIF": lambda c: self.if_family(
                "the sum of", c.args[2] if len(c.args) > 2 else c.args[0], [(c.args[0], c.args[1])]
            ),
            "AVERAGEIF": lambda c: self.if_family(
                "the average of", c.args[2] if len(c.args) > 2 else c.args[0], [(c.args[0], c.args[1])]
            ),
            "COUNTIF": lambda c: self.if_family("the count of cells", None, [(c.args[0], c.args[1])]),
            "SUMIFS": lambda c: self.if_family("the sum of", c.args[0], _pairs(c.args[1:])),
            "AVERAGEIFS": lambda c: self.if_family("the average of", c.args[0], _pairs(c.args[1:])),
            "MAXIFS": lambda c: self.if_family("the largest", c.args[0], _pairs(c.args[1:])),
            "MINIFS": lambda c: self.if_family("the smallest", c.args[0], _pairs(c.args[1:])),
            "COUNTIFS": lambda c: self.if_family("the count of rows", None, _pairs(c.args)),
            "IF": self.if_,
            "IFERROR": lambda c: f"{self.x(c.args[0])}, or {self.x(c.args[1])} if that is an error",
            "VLOOKUP": self.vlookup,
            "XLOOKUP": lambda c: (
                f"the {self.x(c.args[2])} whose {self.x(c.args[1])} matches {self.x(c.args[0])}"
            ),
            "INDEX": self.index,
            "MATCH": lambda c: f"the position of {self.x(c.args[0])} in {self.x(c.args[1])}",
            "ROUND": lambda c: f"{self.x(c.args[0])} rounded to {self.x(c.args[1])} decimal places",
            "ABS": lambda c: f"the absolute value of {self.x(c.args[0])}",
            "AND": lambda c: " and ".join(self.x(a) for a in c.args),
            "OR": lambda c: " or ".join(self.x(a) for a in c.args),
            "NOT": lambda c: f"not ({self.x(c.args[0])})",
            "CONCAT": lambda c: " joined with ".join(self.x(a) for a in c.args),
            "TEXTJOIN": lambda c: f"{self.list(c.args[2:])} joined with {self.x(c.args[0])}",
            "UNIQUE": lambda c: f"the distinct values of {self.x(c.args[0])}",
            "SORT": self.sort,
            "DATE": self.date,
            "FILTER": lambda c: f"the rows of {self.x(c.args[0])} where {self.mask(c.args[1])}",
            "YEAR": lambda c: f"the year of {self.x(c.args[0])}",
            "MONTH": lambda c: f"the month of {self.x(c.args[0])}",
            "TODAY": lambda c: "today's date",
            "NOW": lambda c: "the current date and time",
            "LEN": lambda c: f"the length of {self.x(c.args[0])}",
            "ROWS": lambda c: f"the number of rows in {self.x(c.args[0])}",
            "TAKE": self.take,
            "OFFSET": self.offset,
            "SORTBY": self.sortby,
            "VSTACK": lambda c: f"the list of {self.list(c.args)}",
            "ARRAY": lambda c: "{" + ", ".join(self.x(a) for a in _array_items(c)) + "}",
            "TRIM": lambda c: f"{self.x(c.args[0])} without extra spaces",
            "SUBSTITUTE": lambda c: (
                f"{self.x(c.args[0])} with {self.x(c.args[1])} replaced by {self.x(c.args[2])}"
            ),
        }

    def list(self, args: tuple[Node, ...]) -> str:
        parts = [self.x(a) for a in args]
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]

    def if_family(self, what: str, target: Node | None, conds: Sequence[tuple[Node, Node]]) -> str:
        where = " and ".join(self.criterion(rng, crit) for rng, crit in conds)
        head = f"{what} {self.x(target)}" if target is not None else what
        return f"{head} where {where}"

    def criterion(self, rng: Node, crit: Node) -> str:
        subject = self.x(rng)
        if isinstance(crit, Literal) and crit.kind == "text":
            m = _CRITERION.match(str(crit.value))
            op, rest = (m.group(1), m.group(2)) if m else (None, str(crit.value))
            words = _CRIT_WORDS.get(op or "=", "is")
            value = rest if _looks_numeric(rest) else _q(rest)
            return f"{subject} {words} {value}"
        if isinstance(crit, Literal):
            return f"{subject} is {self.x(crit)}"
        if (
            isinstance(crit, BinOp)
            and crit.op == "&"
            and isinstance(crit.left, Literal)
            and crit.left.kind == "text"
            and str(crit.left.value) in _CRIT_WORDS
        ):
            return f"{subject} {_CRIT_WORDS[str(crit.left.value)]} {self.x(crit.right)}"
        return f"{subject} matches {self.x(crit)}"

    def if_(self, c: Call) -> str:
        cond = self.x(c.args[0]) if c.args else "?"
        yes = self.x(c.args[1]) if len(c.args) > 1 else "TRUE"
        no = self.x(c.args[2]) if len(c.args) > 2 and not isinstance(c.args[2], Missing) else "FALSE"
        return f"if {cond} then {yes}, otherwise {no}"

    def sort(self, c: Call) -> str:
        by = c.args[1] if len(c.args) > 1 and not isinstance(c.args[1], Missing) else None
        order = c.args[2] if len(c.args) > 2 and not isinstance(c.args[2], Missing) else None
        desc = isinstance(order, Literal | UnaryOp) and self.x(order) in ("-1", "minus 1")
        col = f" by its column {self.x(by)}" if by is not None else ""
        return f"{self.x(c.args[0])} sorted{col}, {'largest' if desc else 'smallest'} first"

    def date(self, c: Call) -> str:
        if len(c.args) == 3 and all(isinstance(a, Literal) and a.kind == "number" for a in c.args):
            y, m, d = (int(float(a.value)) for a in c.args)  # type: ignore[attr-defined]
            return f"the date {y:04d}-{m:02d}-{d:02d}"
        return f"the date from year {self.x(c.args[0])}, month {self.x(c.args[1])}, day {self.x(c.args[2])}"

    def vlookup(self, c: Call) -> str:
        key, table = self.x(c.args[0]), c.args[1]
        col = c.args[2] if len(c.args) > 2 else None
        exact = len(c.args) > 3 and isinstance(c.args[3], Literal) and c.args[3].value in (False, 0.0)
        col_name = None
        if (
            isinstance(table, Ref)
            and table.rng is not None
            and isinstance(col, Literal)
            and col.kind == "number"
        ):
            k = int(col.value) - 1
            if 0 <= k < table.rng.width:
                column = table.rng.left + k
                sub = Ref(
                    table.text,
                    Range(table.rng.top, column, table.rng.bottom, column, table.rng.sheet),
                    table.sheet,
                )
                col_name = self.n.header(sub)
        returned = f"column {self.x(col)}" + (f" ({col_name})" if col_name else "") if col else "a column"
        how = "an exact match of" if exact else "the closest match at or below"
        return f"{returned} of {self.x(table)} for {how} {key} in its first column"

    def index(self, c: Call) -> str:
        if len(c.args) >= 2 and isinstance(c.args[1], Call) and c.args[1].name == "MATCH":
            m = c.args[1]
            if len(m.args) >= 2 and isinstance(m.args[0], Call) and m.args[0].name in ("MAX", "MIN"):
                extreme = m.args[0]
                most = "largest" if extreme.name == "MAX" else "smallest"
                if extreme.args and extreme.args[0].text == m.args[1].text:
                    # INDEX(UNIQUE(x), MATCH(MAX(COUNTIF(x, UNIQUE(x))), ...)): the mode
                    values = c.args[0]
                    if isinstance(values, Call) and values.name == "UNIQUE" and _counts_of(m.args[1]):
                        word = "most" if extreme.name == "MAX" else "least"
                        return f"the {word} common {self.pool(values.args[0])}"
                    if _is_array(values) and isinstance(m.args[1], Call) and m.args[1].name == "VSTACK":
                        word = "most" if extreme.name == "MAX" else "fewest"
                        return f"the one of {self.ranges(values, m.args[1])} with the {word} rows"
                    if isinstance(values, Call | Ref):
                        return f"the {self.pool(values)} of the row with the {most} {self.pool(m.args[1])}"
                    return f"the item of {self.x(values)} with the {most} {self.x(m.args[1])}"
            return f"the {self.x(c.args[0])} whose {self.x(m.args[1])} matches {self.x(m.args[0])}"
        first = len(c.args) == 2 and isinstance(c.args[1], Literal) and c.args[1].value == 1.0
        inner = c.args[0]
        if first and isinstance(inner, Call) and inner.name == "SORTBY" and len(inner.args) >= 3:
            values, by = inner.args[0], inner.args[1]
            if isinstance(values, Call) and values.name == "UNIQUE" and _counts_of(by):
                word = "least" if self.x(inner.args[2]) == "1" else "most"
                return f"the {word} common {self.pool(values.args[0])}"
            if isinstance(values, Call) and values.name == "UNIQUE":
                high = "lowest" if self.x(inner.args[2]) == "1" else "highest"
                return f"the {self.pool(values.args[0])} with the {high} {self.measure(by)}"
        return f"the item of {self.x(c.args[0])} at position {self.list(c.args[1:])}"

    def mask(self, node: Node) -> str:
        """A FILTER condition: (a)*(b) is 'a and b', (a)+(b) is 'a or b'."""
        if isinstance(node, BinOp) and node.op in ("*", "+"):
            word = " and " if node.op == "*" else " or "
            return self.mask(node.left) + word + self.mask(node.right)
        return self.x(node)

    def pool(self, node: Node) -> str:
        """A column, or a column filtered by conditions: 'Pclass (B2:B888) where Survived ... is
        TRUE'. A filter that only drops blanks is left out (it changes no answer a reader cares about)."""
        if isinstance(node, Call) and node.name == "UNIQUE" and node.args:
            return f"distinct {self.pool(node.args[0])}"
        if isinstance(node, Call) and node.name == "FILTER" and len(node.args) >= 2:
            mask = node.args[1]
            if isinstance(mask, BinOp) and mask.op == "<>" and mask.left.text == node.args[0].text:
                return self.x(node.args[0])
            return f"{self.x(node.args[0])} where {self.mask(mask)}"
        return self.x(node)

    def offset(self, c: Call) -> str:
        rows, cols = self.x(c.args[1]), self.x(c.args[2])
        text = f"the range {rows} rows down and {cols} columns right of {self.x(c.args[0])}"
        size = []
        if len(c.args) > 3 and not isinstance(c.args[3], Missing):
            size.append(f"{self.x(c.args[3])} rows tall")
        if len(c.args) > 4 and not isinstance(c.args[4], Missing):
            size.append(f"{self.x(c.args[4])} columns wide")
        return text + (", " + " and ".join(size) if size else "")

    def measure(self, node: Node) -> str:
        """What a per-group number is: 'average Fare (H2:H888)', 'share of rows where ...'."""
        if isinstance(node, Call) and node.name in ("AVERAGEIFS", "SUMIFS") and node.args:
            word = "average" if node.name == "AVERAGEIFS" else "total"
            return f"{word} {self.x(node.args[0])}"
        if (
            isinstance(node, BinOp)
            and node.op == "/"
            and isinstance(node.left, Call)
            and node.left.name == "COUNTIFS"
            and len(node.left.args) >= 4
        ):
            where = " and ".join(self.criterion(r, k) for r, k in _pairs(node.left.args[2:]))
            return f"share of rows where {where}"
        return self.x(node)

    def ranges(self, labels: Call, counts: Call) -> str:
        """'the ranges "0-18", "18-30" and "50+" of Age (E2:E888), counting rows where ...'."""
        items = [self.x(a) for a in _array_items(labels)]
        first = counts.args[0] if counts.args else None
        text = "the ranges " + (
            ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)
        )
        if isinstance(first, Call) and first.name == "COUNTIFS" and first.args:
            col = first.args[0]
            text += f" of {self.x(col)}"
            extra = [(r, k) for r, k in _pairs(first.args) if r.text != col.text]
            if extra:
                text += " counting rows where " + " and ".join(self.criterion(r, k) for r, k in extra)
        return text

    def take(self, c: Call) -> str:
        inner, n = c.args[0], self.x(c.args[1]) if len(c.args) > 1 else "?"
        if isinstance(inner, Call) and inner.name in ("SORT", "SORTBY") and len(inner.args) >= 2:
            order = inner.args[2] if len(inner.args) > 2 else None
            desc = order is not None and self.x(order) in ("-1", "minus 1")
            if inner.name == "SORT":
                return f"the {n} {'largest' if desc else 'smallest'} values of {self.pool(inner.args[0])}"
            values, by = inner.args[0], inner.args[1]
            if isinstance(values, Call) and values.name == "UNIQUE" and _counts_of(by):
                return f"the {n} {'most' if desc else 'least'} common {self.pool(values.args[0])}"
            if isinstance(values, Call) and values.name == "UNIQUE":
                high = "highest" if desc else "lowest"
                return f"the {n} {self.pool(values.args[0])} with the {high} {self.measure(by)}"
            if _is_array(values) and isinstance(by, Call) and by.name == "VSTACK":
                return f"the {n} of {self.ranges(values, by)}, {'most' if desc else 'fewest'} rows first"
            return (
                f"the {self.pool(values)} of the {n} rows with the {'largest' if desc else 'smallest'} "
                f"{self.pool(by)}"
            )
        return f"the first {n} of {self.x(inner)}"

    def sortby(self, c: Call) -> str:
        order = c.args[2] if len(c.args) > 2 else None
        desc = order is not None and self.x(order) in ("-1", "minus 1")
        return (
            f"{self.pool(c.args[0])} sorted by {self.x(c.args[1])}, {'largest' if desc else 'smallest'} first"
        )

    def side(self, child: Node, parent_op: str) -> str:
        """An operand, in parentheses when it binds looser than its parent (so words keep the maths)."""
        text = self.x(child)
        if isinstance(child, BinOp) and _PREC.get(child.op, 9) < _PREC.get(parent_op, 9):
            return f"({text})"
        return text

    def x(self, node: Node | None) -> str:
        if node is None:
            return "?"
        if isinstance(node, Ref):
            return self.n.name(node)
        if isinstance(node, Literal):
            if node.kind == "text":
                return _q(str(node.value))
            if node.kind == "bool":
                return "TRUE" if node.value else "FALSE"
            if node.kind == "number":
                v = float(node.value)
                return str(int(v)) if v.is_integer() else str(v)
            return str(node.value)
        if isinstance(node, Missing):
            return "(default)"
        if isinstance(node, UnaryOp):
            if node.op == "%":
                return f"{self.x(node.operand)} percent"
            return f"minus {self.x(node.operand)}" if node.op == "-" else self.x(node.operand)
        if isinstance(node, BinOp):
            op = _OPS.get(node.op, node.op)
            return f"{self.side(node.left, node.op)} {op} {self.side(node.right, node.op)}"
        if isinstance(node, Call):
            fn = self.calls.get(node.name.removeprefix("_XLFN."))
            if fn is not None:
                try:
                    return fn(node)
                except IndexError:
                    pass
            args = ", ".join(self.x(a) for a in node.args)
            return f"{node.name}({args})"
        return node.text


def _is_array(node: Node) -> TypeGuard[Call]:
    return isinstance(node, Call) and node.name == "ARRAY"


def _array_items(node: Call) -> list[Node]:
    """The cells of an array constant, row by row ({1;2} parses as ARRAY(ARRAY(1), ARRAY(2)))."""
    out: list[Node] = []
    for a in node.args:
        out.extend(_array_items(a) if _is_array(a) else [a])
    return out


def _counts_of(node: Node) -> bool:
    """COUNTIF/COUNTIFS of a column against its own distinct values: how often each occurs."""
    return isinstance(node, Call) and node.name in ("COUNTIF", "COUNTIFS")


def _pairs(args: tuple[Node, ...]) -> list[tuple[Node, Node]]:
    return [(args[i], args[i + 1]) for i in range(0, len(args) - 1, 2)]


def _looks_numeric(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def explain_formula(formula: str, workbook: Workbook | None = None, sheet: str | Sheet | None = None) -> str:
    """One sentence saying what a formula computes, naming ranges by their headers.

    Raises FormulaSyntaxError when the formula cannot be parsed.
    """
    text = formula.strip() if formula.strip().startswith("=") else "=" + formula.strip()
    current = (
        sheet
        if isinstance(sheet, Sheet)
        else (
            workbook.sheet(sheet)
            if workbook is not None and sheet is not None
            else workbook.sheets[0]
            if workbook is not None and workbook.sheets
            else None
        )
    )
    text = expand_structured(text, workbook, current.name if current else None)
    tree = parse_formula(inline_lambdas(text))
    ex = _Explainer(_Namer(workbook, current))
    if isinstance(tree, Call) and tree.name == "IF" and len(tree.args) >= 2:
        no = tree.args[2] if len(tree.args) > 2 and not isinstance(tree.args[2], Missing) else None
        sentence = f"If {ex.x(tree.args[0])}, returns {ex.x(tree.args[1])}"
        return sentence + (f"; otherwise {ex.x(no)}." if no is not None else "; otherwise FALSE.")
    return re.sub(r"\bthe the\b", "the", "Returns " + ex.x(tree) + ".")
