"""Excel's implicit intersection, for formulas that are not array formulas.

In a plain (non-array) formula, a multi-cell reference where one value is expected -- an operand of
``+``, the first argument of ``LEFT``, ``IF``'s condition -- is replaced by the cell of that range in the
formula's own row (for a column), column (for a row) or both; with no such cell it is ``#VALUE!``.
Arguments that take ranges (``SUM``'s, ``INDEX``'s first, ``SUMIF``'s ranges, ``MATCH``'s lookup array...)
keep the whole range. This is what makes ``=Table1[End]-Table1[Bgn]`` give its own row's duration, and
what Excel 365 shows as ``@``; in the file format ``@`` is ``_xlfn.SINGLE(...)``.

The rewrite works on the syntax tree: each reference learns whether it sits where a range is taken
(``array``) or where one value is (``scalar``). Functions not in the table below are taken to accept
ranges everywhere (nothing is intersected), which errs on the side of the engine's own behaviour.
"""

from __future__ import annotations

from gridsight.formula._translate import to_text
from gridsight.formula._tree import BinOp, Call, Node, Ref, UnaryOp
from gridsight.grid import Range

SCALAR, REF, ARRAY, PASS, OPS = "scalar", "ref", "array", "pass", "ops"

#: Functions whose arguments are all arrays: any expression in them is evaluated array-wise.
_ARRAY_FUNCTIONS = frozenset(
    (
        "SUMPRODUCT MMULT MDETERM MINVERSE TRANSPOSE FREQUENCY LINEST LOGEST TREND GROWTH CORREL COVAR "
        "COVARIANCE.P COVARIANCE.S PEARSON RSQ SLOPE INTERCEPT STEYX SUMX2MY2 SUMX2PY2 SUMXMY2 PROB IRR "
        "MIRR XNPV XIRR FILTER SORT SORTBY UNIQUE TAKE DROP VSTACK HSTACK TOCOL TOROW CHOOSECOLS CHOOSEROWS "
        "EXPAND "
        "WRAPROWS WRAPCOLS MAP REDUCE SCAN BYROW BYCOL MAKEARRAY ARRAYTOTEXT ANCHORARRAY T.TEST TTEST F.TEST "
        "FTEST CHISQ.TEST CHITEST"
    ).split()
)
#: Functions whose arguments all take a reference as it is (an expression in them is one value).
_REF_FUNCTIONS = frozenset(
    (
        "SUM SUMSQ PRODUCT AVERAGE AVERAGEA COUNT COUNTA COUNTBLANK MAX MAXA MIN MINA MEDIAN MODE MODE.SNGL "
        "MODE.MULT STDEV STDEV.S STDEV.P STDEVP STDEVA STDEVPA VAR VAR.S VAR.P VARP VARA VARPA AND OR XOR "
        "CONCAT GEOMEAN HARMEAN AVEDEV DEVSQ KURT SKEW ROW COLUMN ROWS COLUMNS AREAS ISREF GCD LCM "
        "MULTINOMIAL IMSUM IMPRODUCT SKEW.P PERCENTOF"
    ).split()
)
#: Argument positions (0-based) of other functions: ``(kind, positions)``; ``"k+"`` means k and after.
_POSITIONS: dict[str, tuple[tuple[str, tuple[int | str, ...]], ...]] = {
    # operators in these arguments work on whole arrays (INDEX((A1:A9=x)*(B1:B9=y),0)); a function
    # called there is evaluated as usual (INDEX(INDIRECT(LEFT(A1:A9)),1) intersects A1:A9)
    "INDEX": ((OPS, (0,)),),
    "LOOKUP": ((OPS, (1, 2)),),
    "XLOOKUP": ((ARRAY, (1, 2)),),
    "XMATCH": ((ARRAY, (1,)),),
    "FORECAST": ((ARRAY, (1, 2)),),
    "FORECAST.LINEAR": ((ARRAY, (1, 2)),),
    "MATCH": ((REF, (1,)),),
    "VLOOKUP": ((REF, (1,)),),
    "HLOOKUP": ((REF, (1,)),),
    "OFFSET": ((REF, (0,)),),
    "GRIDSIGHT.SPAN": ((REF, (0, 1)),),  # a:b beside a function giving a reference (_translate)
    "CELL": ((REF, (1,)),),
    "LARGE": ((REF, (0,)),),
    "SMALL": ((REF, (0,)),),
    "PERCENTILE": ((REF, (0,)),),
    "PERCENTILE.INC": ((REF, (0,)),),
    "PERCENTILE.EXC": ((REF, (0,)),),
    "QUARTILE": ((REF, (0,)),),
    "QUARTILE.INC": ((REF, (0,)),),
    "QUARTILE.EXC": ((REF, (0,)),),
    "PERCENTRANK": ((REF, (0,)),),
    "PERCENTRANK.INC": ((REF, (0,)),),
    "PERCENTRANK.EXC": ((REF, (0,)),),
    "TRIMMEAN": ((REF, (0,)),),
    "RANK": ((REF, (1,)),),
    "RANK.EQ": ((REF, (1,)),),
    "RANK.AVG": ((REF, (1,)),),
    "NPV": ((REF, ("1+",)),),
    "TEXTJOIN": ((REF, ("2+",)),),
    "SUBTOTAL": ((REF, ("1+",)),),
    "AGGREGATE": ((REF, ("2+",)),),
    "SUMIF": ((REF, (0, 2)),),
    "AVERAGEIF": ((REF, (0, 2)),),
    "COUNTIF": ((REF, (0,)),),
    "NETWORKDAYS": ((REF, (2,)),),
    "NETWORKDAYS.INTL": ((REF, (3,)),),
    "WORKDAY": ((REF, (2,)),),
    "WORKDAY.INTL": ((REF, (3,)),),
    "FVSCHEDULE": ((REF, (1,)),),
    "Z.TEST": ((REF, (0,)),),
    "ZTEST": ((REF, (0,)),),
    "SERIESSUM": ((REF, (3,)),),
    **{
        d: ((REF, (0, 2)),)
        for d in "DSUM DCOUNT DCOUNTA DAVERAGE DMAX DMIN DGET DPRODUCT DSTDEV DSTDEVP DVAR DVARP".split()
    },
    # value arguments that pass what they are given through (a reference stays a reference)
    "IF": ((PASS, (1, 2)),),
    "IFERROR": ((PASS, (0, 1)),),
    "IFNA": ((PASS, (0, 1)),),
    "CHOOSE": ((PASS, ("1+",)),),
    "LET": ((PASS, ("0+",)),),
}
#: Criteria functions: ranges at positions ``start``, ``start + 2``...; SUMIFS & co. also at 0.
_CRITERIA_PAIRS = {"SUMIFS": 1, "AVERAGEIFS": 1, "MAXIFS": 1, "MINIFS": 1, "COUNTIFS": 0}
#: Functions of the old Analysis ToolPak: an argument they take as one value does not lift over a
#: range; in an array formula a range of several cells there is ``#VALUE!`` (``{=ISEVEN(A1:A3)}``,
#: ``{=EOMONTH(A1:A3,0)}``), though an array is fine (``EOMONTH(A1:A3+0,0)``).
NO_RANGES = frozenset("ISEVEN ISODD MROUND YEARFRAC EDATE EOMONTH WORKDAY NETWORKDAYS".split())
#: Functions whose result is an array they compute (not a reference, which Excel would intersect
#: with the formula's row): in a formula that is not an array formula, Excel shows its top-left value
#: (``=MMULT(A1:B2,C1:D2)`` typed in one cell is the product's first item).
ARRAY_RESULTS = frozenset(
    (
        "MMULT MINVERSE MUNIT TRANSPOSE FREQUENCY LINEST LOGEST TREND GROWTH SEQUENCE RANDARRAY SORT "
        "SORTBY FILTER UNIQUE TEXTSPLIT TOCOL TOROW WRAPROWS WRAPCOLS VSTACK HSTACK TAKE DROP EXPAND "
        "CHOOSECOLS CHOOSEROWS MAKEARRAY MAP SCAN BYROW BYCOL MODE.MULT"
    ).split()
)
#: ``_xlfn.SINGLE`` is the ``@`` operator.
_SINGLE = "SINGLE"


def param_kind(name: str, i: int) -> str:
    """What argument ``i`` of function ``name`` takes: scalar, ref, array, ops (arrays through
    operators), or pass (the caller's context)."""
    if name == _SINGLE:
        return SCALAR
    if name in _ARRAY_FUNCTIONS:
        return ARRAY
    if name in _REF_FUNCTIONS:
        return REF
    if name in _CRITERIA_PAIRS:
        start = _CRITERIA_PAIRS[name]
        return REF if (i == 0 or (i >= start and (i - start) % 2 == 0)) else SCALAR
    for kind, positions in _POSITIONS.get(name, ()):
        for p in positions:
            if p == i or (isinstance(p, str) and i >= int(p[:-1])):
                return kind
    return SCALAR


def computed_array(tree: Node) -> bool:
    """Whether the formula's value is an array one of ``ARRAY_RESULTS`` computed (through operators
    around it), not a reference: its top-left item is what a single cell shows."""
    node = tree
    while True:
        if isinstance(node, UnaryOp):
            node = node.operand
        elif isinstance(node, BinOp) and node.op not in (" ", ","):
            if computed_array(node.left):
                return True
            node = node.right
        elif isinstance(node, Call):
            return node.name.removeprefix("_XLFN.").removeprefix("_XLWS.") in ARRAY_RESULTS
        else:
            return False


def intersect_range(rng: Range, at: tuple[int, int]) -> Range | None:
    """The cell of ``rng`` in the row and column of ``at`` (a single cell stays), or None (#VALUE!)."""
    row, col = rng.top, rng.left
    if rng.height > 1:
        if not rng.top <= at[0] <= rng.bottom:
            return None
        row = at[0]
    if rng.width > 1:
        if not rng.left <= at[1] <= rng.right:
            return None
        col = at[1]
    return Range(row, col, row, col, rng.sheet)


def implicit_intersection(tree: Node, at: tuple[int, int], single_only: bool = False) -> str | None:
    """The formula with every range in a one-value place intersected with ``at``'s row and column;
    None when nothing changes. ``single_only``: only the explicit ``@`` (``_xlfn.SINGLE``), which an
    array formula keeps too."""
    changed = False
    contexts: dict[int, str] = {}

    def mark(node: Node, ctx: str) -> None:
        contexts[id(node)] = ctx
        if isinstance(node, Call):
            name = node.name.removeprefix("_XLFN.").removeprefix("_XLWS.")
            for i, arg in enumerate(node.args):
                kind = param_kind(name, i)
                mark(arg, ARRAY if ctx == ARRAY else (ctx if kind == PASS else kind))
        elif isinstance(node, BinOp):
            inner = ctx if node.op in (":", " ", ",") or ctx in (ARRAY, OPS) else SCALAR
            mark(node.left, inner)
            mark(node.right, inner)
        elif isinstance(node, UnaryOp):
            mark(node.operand, ctx if ctx in (ARRAY, OPS) else SCALAR)

    mark(tree, SCALAR)

    def swap(node: Node) -> str | None:
        nonlocal changed
        if single_only and isinstance(node, Call) and node.name.removeprefix("_XLFN.") in NO_RANGES:
            name = node.name.removeprefix("_XLFN.")
            if any(
                isinstance(a, Ref) and a.rng is not None and a.rng.size > 1 and param_kind(name, i) == SCALAR
                for i, a in enumerate(node.args)
            ):
                changed = True
                return "#VALUE!"
        if isinstance(node, Call) and node.name.removeprefix("_XLFN.") == _SINGLE and len(node.args) == 1:
            inner = node.args[0]
            if isinstance(inner, Ref) and inner.rng is not None:
                changed = True
                return _cell_text(inner, at)
            return None
        if (
            not single_only
            and isinstance(node, Ref)
            and node.rng is not None
            and node.rng.size > 1
            and contexts.get(id(node)) == SCALAR
        ):
            changed = True
            return _cell_text(node, at)
        return None

    text = "=" + to_text(tree, swap)
    return text if changed else None


def _cell_text(ref: Ref, at: tuple[int, int]) -> str:
    assert ref.rng is not None
    hit = intersect_range(ref.rng, at)
    if hit is None:
        return "#VALUE!"
    sheet = ref.sheet
    return f"'{sheet.replace(chr(39), chr(39) * 2)}'!{hit.ref()}" if sheet else hit.ref()
