"""A fast path for COUNTIF(S)/SUMIF(S)/AVERAGEIF(S)/MAXIFS/MINIFS with an array of plain criteria.

``COUNTIF(C2:C7245, UNIQUE(C2:C7245))`` -- how often each value occurs -- is how the formulas for
"most common", "top 5 by count" and group totals are written. The engine tests each criterion against
the whole range in turn: 3,721 authors x 7,244 rows took 20 s. Equality criteria (no operator, no
wildcard) are grouped instead: every row gets a code once, each criterion looks its rows up by code.
Matching follows the engine's own rules: text case-insensitively against text cells only, numbers
(and numeric text criteria) against the range's numeric view (numeric text cells count, as in Excel),
booleans against booleans. Anything else -- operators, wildcards, blanks, errors -- takes the engine's
original path unchanged.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

_OPERATORS = ("<>", ">=", "<=", "=", ">", "<")
_WILD = re.compile(r"[?*~]")
_ERRORS = frozenset(
    {"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA", "#SPILL!", "#CALC!"}
)


def _number(v: Any) -> float | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, int | float | np.integer | np.floating):
        return float(v)
    return None


def _criterion_key(v: Any) -> tuple[Any, ...] | None:
    """('s', text) / ('n', number) / ('b', bool) for a plain equality criterion, else None."""
    if isinstance(v, bool | np.bool_):
        return ("b", bool(v))
    num = _number(v)
    if num is not None:
        return ("n", num)
    if isinstance(v, str):
        if not v or v.startswith(_OPERATORS) or _WILD.search(v) or v.upper() in _ERRORS:
            return None
        try:
            return ("n", float(v))
        except ValueError:
            return ("s", v.casefold())
    return None


def make_fast_xfilter(
    original: Any, xfilter_mask: Any, text2num: Any, found_error: type[BaseException]
) -> Any:
    """Wrap the engine's vectorised ``_xfilter(accumulator, operating_range, test_ranges, *conds)``."""

    def fast(accumulator: Any, operating_range: Any, test_ranges: Any, *conditions: Any) -> Any:
        arrays = [c for c in conditions if isinstance(c, np.ndarray) and c.size > 1]
        if not arrays:
            return original(accumulator, operating_range, test_ranges, *conditions)
        keyed: list[list[tuple[Any, ...]] | None] = []
        for c in conditions:
            if isinstance(c, np.ndarray) and c.size > 1:
                keyed.append([_criterion_key(v) or ("slow", v) for v in c.ravel()])
            else:
                keyed.append(None)
        try:
            shape = np.broadcast_shapes(*(np.shape(c) for c in arrays))
        except ValueError:
            return original(accumulator, operating_range, test_ranges, *conditions)
        operating = np.asarray(operating_range)
        makers: list[Any] = []
        for test_range, cond, keys in zip(test_ranges, conditions, keyed, strict=True):
            if keys is None:
                scalar = cond.ravel()[0] if isinstance(cond, np.ndarray) else cond
                makers.append(xfilter_mask(test_range, scalar))
                continue
            raw = np.asarray(test_range["raw"], object)
            if "num" not in test_range:
                test_range["num"] = text2num(test_range["raw"])
            num = np.asarray(test_range["num"], object)
            codes: dict[tuple[Any, ...], int] = {}
            text_codes = np.full(raw.shape, -1, dtype=np.int64)
            num_codes = np.full(raw.shape, -1, dtype=np.int64)
            for i, (r, n) in enumerate(zip(raw.ravel(), num.ravel(), strict=True)):
                if isinstance(r, str):
                    text_codes.flat[i] = codes.setdefault(("s", r.casefold()), len(codes))
                elif isinstance(r, bool | np.bool_):
                    text_codes.flat[i] = codes.setdefault(("b", bool(r)), len(codes))
                x = _number(n)
                if x is not None:
                    num_codes.flat[i] = codes.setdefault(("n", x), len(codes))
            flat = np.empty(len(keys), dtype=object)
            for i, k in enumerate(keys):  # element by element: tuples must stay single objects
                flat[i] = k
            cond_arr = np.broadcast_to(flat.reshape(np.shape(cond)), shape)
            makers.append((text_codes, num_codes, codes, cond_arr, test_range))
        out = np.empty(shape, dtype=object)
        for idx in np.ndindex(shape):
            b = None
            for m in makers:
                if isinstance(m, tuple):
                    text_codes, num_codes, codes, cond_arr, test_range = m
                    key = cond_arr[idx]
                    if key[0] == "slow":  # an operator, a wildcard, an error: the engine's own test
                        mask = xfilter_mask(test_range, key[1])
                    else:
                        code = codes.get(key, -2)
                        mask = (num_codes == code) if key[0] == "n" else (text_codes == code)
                else:
                    mask = m
                b = mask if b is None else b & mask
            try:
                out[idx] = accumulator(operating[b])
            except found_error as ex:  # an error value in the data: the engine's answer for it
                out[idx] = ex.err  # type: ignore[attr-defined]
        return out

    fast.original = original  # type: ignore[attr-defined]  # tests compare both paths
    return fast
