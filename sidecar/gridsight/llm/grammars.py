"""Grammars for constrained decoding: anything code parses comes out of the model under one of these.

* :func:`formula_grammar` -- an Excel formula that may only call the given functions and only touch
  ranges that exist in the current sheet, with a hard cap on nesting and length (the 0.5B model
  otherwise nests without end: ``TAKE(TAKE(TAKE(...``).
* :func:`range_grammar` -- one or more A1 ranges inside a (compact) sheet of a given size, for
  table detection, parsed back by :func:`parse_ranges`.
* :meth:`Grammar.from_json_schema` -- any JSON schema, via llama-cpp-python's converter (raises on a
  schema it cannot express instead of silently accepting any JSON).

Every grammar is checked by :func:`gridsight.llm._gbnf.check_grammar` when it is built, so a grammar
that can match nothing is a :class:`GrammarError` here, not a crash inside llama.cpp.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from gridsight.errors import GrammarError, RangeSyntaxError
from gridsight.grid import MAX_COLS, MAX_ROWS, Range, col_to_letters
from gridsight.llm._gbnf import check_grammar

#: Functions never offered to the model (side effects, code execution, data exfiltration).
DANGEROUS_FUNCTIONS = frozenset(
    {
        "WEBSERVICE",
        "CALL",
        "REGISTER",
        "REGISTER.ID",
        "HYPERLINK",
        "DDE",
        "EXEC",
        "FILTERXML",
        "RTD",
        "SQL.REQUEST",
        "IMAGE",
    }
)

#: Functions that take no arguments: written ``TODAY()``.
ZERO_ARG_FUNCTIONS = frozenset({"TODAY", "NOW", "PI", "RAND", "NA"})

_FUNCTION_NAME = re.compile(r"^[A-Z_][A-Z0-9_.]*$")


@dataclass(frozen=True)
class Grammar:
    """A checked GBNF grammar (text) plus a name for logs and errors.

    ``phrases``: strings the grammar only ever writes whole (quoted names and values). Once the
    model has begun one, the part every phrase that fits shares is written for it without asking
    the model token by token (see :func:`forced_text`): jump-forward decoding.
    """

    gbnf: str
    name: str = "custom"
    root: str = "root"
    info: dict[str, Any] = field(default_factory=dict, compare=False)
    phrases: tuple[str, ...] = field(default=(), compare=False)

    def with_phrases(self, phrases: Iterable[str]) -> Grammar:
        """The same grammar with ``phrases`` (sorted, unique) for jump-forward decoding."""
        return replace(self, phrases=tuple(sorted(set(p for p in phrases if len(p) > 1))))

    @classmethod
    def from_gbnf(cls, text: str, name: str = "custom") -> Grammar:
        """Check GBNF text (syntax, defined rules, can always finish). Raises GrammarError."""
        check_grammar(text)
        return cls(text, name)

    @classmethod
    def from_json_schema(cls, schema: dict[str, Any] | str, name: str = "json") -> Grammar:
        """A grammar for JSON matching ``schema``. Raises GrammarError on a bad or unsupported schema."""
        try:
            text = schema if isinstance(schema, str) else json.dumps(schema)
            json.loads(text)
        except (TypeError, ValueError) as exc:
            raise GrammarError(f"JSON schema is not valid JSON: {exc}") from None
        from gridsight.llm._llama import import_llama_grammar

        converter = import_llama_grammar().json_schema_to_gbnf
        try:
            gbnf = converter(text)
        except Exception as exc:  # the converter raises bare Exception/ValueError/KeyError on bad schemas
            raise GrammarError(f"unsupported JSON schema: {exc}") from None
        check_grammar(gbnf)
        return cls(gbnf, name)


def _lit(text: str) -> str:
    """A GBNF string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _same_length(lo: str, hi: str, alphabet: str) -> list[list[str]]:
    """GBNF sequences (as lists of atoms) matching every string of len(lo) between lo and hi, in an
    alphabet whose order is its string order (digits, or letters for bijective column numbers)."""
    if lo == hi:
        return [[_lit(lo)]]
    if len(lo) == 1:
        return [[_cls(alphabet, lo, hi)]]
    if lo[0] == hi[0]:
        return [[_lit(lo[0]), *rest] for rest in _same_length(lo[1:], hi[1:], alphabet)]
    n = len(lo) - 1
    first, last = alphabet[0] * n, alphabet[-1] * n
    out: list[list[str]] = []
    lo_full, hi_full = lo[1:] == first, hi[1:] == last
    a, b = alphabet.index(lo[0]), alphabet.index(hi[0])
    if not lo_full:
        out += [[_lit(lo[0]), *rest] for rest in _same_length(lo[1:], last, alphabet)]
        a += 1
    if not hi_full:
        b -= 1
    if a <= b:
        out.append(
            [_cls(alphabet, alphabet[a], alphabet[b]), _cls(alphabet, alphabet[0], alphabet[-1]) + f"{{{n}}}"]
        )
    if not hi_full:
        out += [[_lit(hi[0]), *rest] for rest in _same_length(first, hi[1:], alphabet)]
    return out


def _cls(alphabet: str, lo: str, hi: str) -> str:
    return _lit(lo) if lo == hi else f"[{lo}-{hi}]"


_DIGITS = "0123456789"
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def int_range_gbnf(lo: int, hi: int) -> str:
    """A GBNF alternative list matching exactly the decimal integers lo..hi (no leading zeros)."""
    if not 0 <= lo <= hi:
        raise GrammarError(f"bad integer range {lo}..{hi}")
    seqs: list[list[str]] = []
    for length in range(len(str(lo)), len(str(hi)) + 1):
        a = max(lo, 10 ** (length - 1) if length > 1 else 0)
        b = min(hi, 10**length - 1)
        if a <= b:
            seqs += _same_length(str(a).zfill(length), str(b).zfill(length), _DIGITS)
    return " | ".join(" ".join(s) for s in seqs)


def column_range_gbnf(lo: int, hi: int) -> str:
    """A GBNF alternative list matching exactly the column letters of 0-based columns lo..hi."""
    if not 0 <= lo <= hi < MAX_COLS:
        raise GrammarError(f"bad column range {lo}..{hi}")
    seqs: list[list[str]] = []
    a_letters, b_letters = col_to_letters(lo), col_to_letters(hi)
    for length in range(len(a_letters), len(b_letters) + 1):
        a = a_letters if length == len(a_letters) else "A" * length
        b = b_letters if length == len(b_letters) else "Z" * length
        seqs += _same_length(a, b, _LETTERS)
    return " | ".join(" ".join(s) for s in seqs)


def _area_rules(area: Range, prefix: str) -> list[str]:
    return [
        f"{prefix}col ::= {column_range_gbnf(area.left, area.right)}",
        f"{prefix}row ::= {int_range_gbnf(area.top + 1, area.bottom + 1)}",
        f"{prefix}cell ::= {prefix}col {prefix}row",
    ]


def _as_range(value: Range | str) -> Range:
    try:
        return value if isinstance(value, Range) else Range.parse(value)
    except RangeSyntaxError as exc:
        raise GrammarError(f"bad range for a grammar: {exc}") from None


def formula_grammar(
    functions: Iterable[str],
    *,
    ranges: Iterable[Range | str] = (),
    area: Range | str | None = None,
    max_depth: int = 2,
    max_args: int = 4,
    max_terms: int = 3,
    numbers: bool = True,
    strings: bool = True,
    require_ref: bool = True,
) -> Grammar:
    """A grammar for ``=formula`` over known functions and existing ranges only.

    Args:
        functions: function names the formula may call (e.g. the engine's supported list); dangerous
            ones (WEBSERVICE, CALL, HYPERLINK, ...) are always left out.
        ranges: ranges the formula may reference verbatim (e.g. each column's data range ``B2:B20``).
        area: the sheet's used range; any cell inside it, or a rectangle of such cells, may be referenced.
        max_depth: how many function calls may nest (1 = ``SUM(B2:B9)`` but not ``ROUND(SUM(..),2)``).
        max_args: arguments per call at most.
        max_terms: operands joined by operators (``a+b*c`` is 3) per expression at most.
        numbers, strings: whether number / quoted-text literals are allowed (criteria such as ``">5"``).
        require_ref: the first operand (or first argument, recursively) must be a sheet reference, so
            every formula reads the sheet (``=SUM(B2:B9)*2``, not ``=COUNTIF(1,1)``).

    Returns:
        A checked :class:`Grammar`; ``info`` records the functions and ranges it admits.

    Raises:
        GrammarError: no range to reference, a bad range or function name, or caps below 1.
    """
    if max_depth < 1 or max_args < 1 or max_terms < 1:
        raise GrammarError("formula grammar caps (depth, args, terms) must be at least 1")
    names = sorted({f.strip().upper() for f in functions if f and f.strip()} - DANGEROUS_FUNCTIONS)
    for name in names:
        if not _FUNCTION_NAME.match(name):
            raise GrammarError(f"{name!r} is not a function name")
    fixed = sorted({_as_range(r).ref() for r in ranges}, key=lambda s: (len(s), s))
    used = _as_range(area) if area is not None else None
    if not fixed and used is None:
        raise GrammarError("a formula grammar needs the sheet's ranges (ranges= or area=)")
    if used is not None and (used.is_whole_columns or used.is_whole_rows):
        raise GrammarError("area= must be a bounded used range, not whole columns or rows")
    ref_alts = [_lit(r) for r in fixed]
    lines = ['root ::= "=" e0r' if require_ref else 'root ::= "=" e0']
    if used is not None:
        lines += _area_rules(used, "a")
        ref_alts.append('acell (":" acell)?')
    lines.append("ref ::= " + " | ".join(ref_alts))
    atoms = ["ref"]
    if numbers:
        lines.append('num ::= [0-9]{1,9} ("." [0-9]{1,4})?')
        atoms.append("num")
    if strings:
        lines.append(r'str ::= "\"" [^"\x00-\x1f]{0,30} "\""')
        atoms.append("str")
    atoms.append('"TRUE" | "FALSE"')
    lines.append('op ::= "+" | "-" | "*" | "/" | "^" | "&" | "=" | "<>" | "<=" | ">=" | "<" | ">"')
    with_args = [n for n in names if n not in ZERO_ARG_FUNCTIONS]
    no_args = [n for n in names if n in ZERO_ARG_FUNCTIONS]
    if with_args:
        lines.append("fn ::= " + " | ".join(_lit(n) for n in with_args))
    if no_args:
        lines.append("fn0 ::= " + " | ".join(_lit(n) for n in no_args))
        atoms.insert(1, 'fn0 "()"')
    lines.append("atom ::= " + " | ".join(atoms))
    for d in range(max_depth + 1):
        more = f" (op t{d}){{0,{max_terms - 1}}}" if max_terms > 1 else ""
        lines.append(f"e{d} ::= t{d}{more}")
        # The "r" rules must reach a cell reference through their first operand / first argument, so
        # a formula always reads the sheet (a small model otherwise writes =COUNTIF(1,1)).
        if require_ref:
            lines.append(f"e{d}r ::= t{d}r{more}")
        if d < max_depth:
            term = ["atom", '"-" atom', f'"(" e{d + 1} ")"']
            term_r = ["ref", '"-" ref', f'"(" e{d + 1}r ")"']
            if with_args:  # at least one argument: SUM() is not a formula Excel accepts
                rest = f' ("," e{d + 1}){{0,{max_args - 1}}}' if max_args > 1 else ""
                lines.append(f'c{d} ::= fn "(" e{d + 1}{rest} ")"')
                term.append(f"c{d}")
                if require_ref:
                    lines.append(f'c{d}r ::= fn "(" e{d + 1}r{rest} ")"')
                    term_r.append(f"c{d}r")
            lines.append(f"t{d} ::= " + " | ".join(term))
            if require_ref:
                lines.append(f"t{d}r ::= " + " | ".join(term_r))
        else:
            lines.append(f't{d} ::= atom | "-" atom')
            if require_ref:
                lines.append(f't{d}r ::= ref | "-" ref')
    text = "\n".join(lines) + "\n"
    check_grammar(text)
    return Grammar(
        text,
        "formula",
        info={
            "functions": names,
            "ranges": fixed,
            "area": used.ref() if used else None,
            "max_depth": max_depth,
        },
    )


def range_grammar(
    n_rows: int,
    n_cols: int,
    *,
    top: int = 0,
    left: int = 0,
    max_ranges: int = 8,
    allow_none: bool = True,
) -> Grammar:
    """A grammar for ``A1:F9, A12:F18`` -- up to ``max_ranges`` ranges inside the sheet area of
    ``n_rows`` x ``n_cols`` cells starting at 0-based (``top``, ``left``); ``NONE`` when allowed.

    Raises:
        GrammarError: an empty or out-of-grid area, or max_ranges < 1.
    """
    if n_rows < 1 or n_cols < 1 or max_ranges < 1:
        raise GrammarError("range grammar needs at least one row, one column and one range")
    if top < 0 or left < 0 or top + n_rows > MAX_ROWS or left + n_cols > MAX_COLS:
        raise GrammarError("range grammar area lies outside the worksheet grid")
    area = Range(top, left, top + n_rows - 1, left + n_cols - 1)
    lines = _area_rules(area, "")
    lines.append('rng ::= cell ":" cell')
    body = f'rng (", " rng){{0,{max_ranges - 1}}}' if max_ranges > 1 else "rng"
    lines.insert(0, f'root ::= {body} | "NONE"' if allow_none else f"root ::= {body}")
    text = "\n".join(lines) + "\n"
    check_grammar(text)
    return Grammar(text, "ranges", info={"area": area.ref(), "max_ranges": max_ranges})


_RANGE_TOKEN = re.compile(r"\$?[A-Za-z]{1,3}\$?\d{1,7}(?::\$?[A-Za-z]{1,3}\$?\d{1,7})?")


def parse_ranges(text: str, area: Range | None = None) -> list[Range]:
    """The ranges in a model answer (``A1:F9, A12:F18``, ``NONE``, or the paper's ``['range': 'A1:F9']``),
    each normalised (corners in order) and, given ``area``, required to lie inside it.

    Raises:
        RangeSyntaxError: a range outside ``area`` or outside the grid.
    """
    out: list[Range] = []
    for match in _RANGE_TOKEN.finditer(text):
        rng = Range.parse(match.group(0).upper())
        if area is not None and rng.intersect(area) != rng.with_sheet(area.sheet):
            raise RangeSyntaxError(f"range {rng.ref()} lies outside the sheet area {area.ref()}")
        if rng not in out:
            out.append(rng)
    return out


#: Characters of a phrase the model writes itself before the rest may be forced.
FORCE_AFTER = 2


def forced_text(phrases: Sequence[str], text: str) -> tuple[int, str]:
    """What must follow ``text`` when it ends inside a phrase, and how many characters of the phrase
    ``text`` has written: the longest tail of ``text`` (at least FORCE_AFTER characters) that begins
    some of ``phrases`` (sorted), extended by what all those phrases share. ``"Na`` with the phrases
    ``"Name"`` and ``"Nation"`` forces nothing; with only ``"Name"`` it forces ``me"``."""
    longest = max((len(p) for p in phrases), default=0)
    for n in range(min(len(text), longest - 1), FORCE_AFTER - 1, -1):
        tail = text[-n:]
        lo = bisect.bisect_left(phrases, tail)
        hi = bisect.bisect_left(phrases, tail + "\U0010ffff", lo)
        fits = [p for p in phrases[lo:hi] if len(p) > n]
        if fits:  # sorted: what the first and the last share, all share
            first, last = fits[0], fits[-1]
            k = next((i for i, (a, b) in enumerate(zip(first, last, strict=False)) if a != b), len(first))
            return (n, first[n:k]) if k > n else (0, "")
    return 0, ""
