"""Financial functions as Excel computes them, where the `formulas` engine differs.

* ``patch_accrint``: ACCRINT over the quasi-coupon periods of its schedule, with Excel's day counts
  and its ``calc_method`` (the algorithm the ExcelFinancialFunctions library worked out against Excel:
  the settlement's period prorated, each earlier full period counted once when accruing from the
  issue, the issue's stub period prorated on its own length);
* EFFECT and NOMINAL keep the errors of their arguments (the engine: #VALUE!);
* IPMT and PPMT: a period outside 1 to the number of periods is #NUM!;
* PMT, PV, FV, NPER, IPMT, PPMT: any non-zero ``type`` is 1; PMT's rate from -1 down #NUM!; NPER
  at a rate of 0.

Registered by :func:`patch_finance` (from :func:`gridsight.formula._engine_excel.patch_all`), tested in
``tests/formula/test_excel_finance.py``.
"""

from __future__ import annotations

import calendar
import datetime as dt
from typing import Any


def _month_end(d: dt.date) -> bool:
    return d.day == calendar.monthrange(d.year, d.month)[1]


def _february_end(d: dt.date) -> bool:
    return d.month == 2 and _month_end(d)


def _add_months(d: dt.date, n: int, to_month_end: bool) -> dt.date:
    """``d`` moved ``n`` months, its day cut to the month's length (31 January + 1 is 28 February);
    to the month's last day when ``to_month_end`` (a schedule anchored on a month end)."""
    months = d.year * 12 + d.month - 1 + n
    year, month = divmod(months, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return dt.date(year, month + 1, last if to_month_end else min(d.day, last))


def _days_360(start: dt.date, end: dt.date, *, european: bool = False, both: bool = False) -> float:
    """30/360 days: US (NASD) rules, ``both`` adjusting the end's February too; or European."""
    sd, ed = start.day, end.day
    if european:
        sd, ed = min(sd, 30), min(ed, 30)
    else:
        if _february_end(end) and (_february_end(start) or both):
            ed = 30
        if ed == 31 and (sd >= 30 or both):
            ed = 30
        if sd == 31 or _february_end(start):
            sd = 30
    return float((end.year - start.year) * 360 + (end.month - start.month) * 30 + (ed - sd))


def _days_365(start: dt.date, end: dt.date) -> float:
    """Actual/365's denominator: whole years of 365 days plus the days between, 29 February as 28th."""
    s = start.replace(day=28) if start.month == 2 and start.day > 28 else start
    e = end.replace(day=28) if end.month == 2 and end.day > 28 else end
    return float((end.year - start.year) * 365 + (e - s.replace(year=e.year)).days)


def _days(start: dt.date, end: dt.date, basis: int, numerator: bool) -> float:
    if basis == 0:
        return _days_360(start, end)
    if basis == 4:
        return _days_360(start, end, european=True)
    if basis == 2 and not numerator:
        return _days_360(start, end)
    if basis == 3 and not numerator:
        return _days_365(start, end)
    return float((end - start).days)


def _bracket(start: dt.date, end: dt.date, months: int, to_month_end: bool) -> tuple[dt.date, dt.date]:
    """Steps of ``months`` from ``start`` until ``end`` is reached or passed: (the step that reached
    it, the one before)."""
    front, trailing = start, end
    while (front < end) if months > 0 else (front > end):
        trailing = front
        front = _add_months(front, months, to_month_end)
    return front, trailing


def _period_length(settlement: dt.date, maturity: dt.date, frequency: int, basis: int) -> float:
    """A coupon period's normal length: 360 or 365 days a year, or (actual/actual) the actual days of
    the period around ``settlement`` in the schedule that ends at ``maturity``."""
    if basis in (0, 2, 4):
        return 360 / frequency
    if basis == 3:
        return 365 / frequency
    ncd, pcd = _bracket(maturity, settlement, -(12 // frequency), _month_end(maturity))
    return float((pcd - ncd).days) if pcd > ncd else float((ncd - pcd).days)


def accrued_interest(
    issue: dt.date,
    first_interest: dt.date,
    settlement: dt.date,
    rate: float,
    par: float,
    frequency: int,
    basis: int,
    from_issue: bool,
) -> float:
    """ACCRINT's sum over quasi-coupon periods, times ``par * rate / frequency``."""
    months = 12 // frequency
    to_month_end = _month_end(first_interest)
    regular_start = _add_months(first_interest, -months, to_month_end)
    if settlement > first_interest and from_issue:
        pcd = _bracket(first_interest, settlement, months, to_month_end)[1]
    else:
        pcd = regular_start
    accrued = _days(max(issue, pcd), settlement, basis, True)
    total = accrued / _period_length(regular_start, first_interest, frequency, basis)
    front = pcd
    while front > issue:
        period_end = front
        front = _add_months(front, -months, to_month_end)
        if issue <= front:
            total += 1.0 if from_issue else 0.0
            continue
        if basis == 0:
            numerator = _days_360(issue, period_end)
            denominator = _days_360(front, period_end, both=True)
        else:
            numerator = _days(issue, period_end, basis, True)
            denominator = 365 / frequency if basis == 3 else _days(front, period_end, basis, False)
        total += numerator / denominator
    return par * rate / frequency * total


def _accrint(
    issue: Any,
    first_interest: Any,
    settlement: Any,
    rate: float,
    par: float,
    frequency: float,
    basis: int = 0,
    calc_method: Any = True,
) -> Any:
    from formulas.functions import Error, XlError

    if isinstance(calc_method, XlError):
        return calc_method
    freq = int(frequency)
    if rate <= 0 or par <= 0 or freq not in (1, 2, 4) or not 0 <= basis <= 4 or issue >= settlement:
        return Error.errors["#NUM!"]
    try:
        start, first, settle = (dt.date(*d) for d in (issue, first_interest, settlement))
    except (TypeError, ValueError):
        return Error.errors["#NUM!"]
    from_issue = True if calc_method is None else bool(calc_method)
    return accrued_interest(start, first, settle, rate, par, freq, int(basis), from_issue)


def patch_accrint(fns: Any) -> None:
    """ACCRINT: ``ACCRINT(DATE(2021,6,21),DATE(2021,12,1),DATE(2021,9,1),0.1,1000,2,0,FALSE)`` is
    19.44 (the engine: 38.89, a period counted twice); accruing from the first interest date after
    settlement is negative (the engine: positive); actual/actual and actual/360 over several periods
    as Excel counts them."""
    import formulas.functions.financial as fin
    from formulas.functions import replace_empty, wrap_ufunc

    def parse(
        issue: Any,
        first_interest: Any,
        settlement: Any,
        rate: Any,
        par: Any,
        frequency: Any,
        basis: Any = 0,
        calc_method: Any = True,
    ) -> tuple[Any, ...]:
        return (
            fin.parse_date(issue),
            fin.parse_date(first_interest),
            fin.parse_date(settlement),
            fin.parse_basis(rate, float),
            fin.parse_basis(par, float),
            fin.parse_basis(frequency, float),
            fin.parse_basis(basis),
            calc_method,
        )

    fns["ACCRINT"] = wrap_ufunc(_accrint, input_parser=parse, args_parser=lambda *a: map(replace_empty, a))


def _rates(rate: Any, periods: Any, effect: bool) -> Any:
    """EFFECT / NOMINAL: the first error of the arguments; logicals #VALUE!; a rate from 0 down or
    fewer than one period a year (periods truncated) #NUM!."""
    import math

    import numpy as np
    from formulas.functions import Error

    from gridsight.formula._excel_coerce import numbers_in_order

    values = numbers_in_order(rate, periods)
    if not isinstance(values, list):
        return values
    for v in (rate, periods):
        item = v.ravel()[0] if isinstance(v, np.ndarray) and v.size else v
        if isinstance(item, bool | np.bool_):
            return Error.errors["#VALUE!"]
    r, n = values[0], math.trunc(values[1])
    if r <= 0 or n < 1:
        return Error.errors["#NUM!"]
    return (1 + r / n) ** n - 1 if effect else n * ((1 + r) ** (1 / n) - 1)


def _period_checked(original: Any) -> Any:
    """IPMT / PPMT: the period, truncated, must lie from 1 to the number of periods (the fraction is
    kept for the value: ``IPMT(0.1,3.9,3,8000)`` is -30.51), else #NUM! (the engine gave values)."""
    import math

    import numpy as np
    from formulas.functions import Error, XlError

    def checked(rate: Any, per: Any, nper: Any, *rest: Any) -> Any:
        def item(v: Any) -> Any:
            return v.ravel()[0] if isinstance(v, np.ndarray) and v.size == 1 else v

        values = [item(v) for v in (rate, per, nper)]
        if any(isinstance(v, np.ndarray) for v in values):
            return original(rate, per, nper, *rest)  # arrays: the engine's own path
        for v in values:
            if isinstance(v, XlError):
                return v
        try:
            p, n = float(values[1]), float(values[2])
        except (TypeError, ValueError):
            return original(rate, per, nper, *rest)
        if not 1 <= math.trunc(p) <= n:  # 3.9 of 3 periods is the third; 0.99999 none
            return Error.errors["#NUM!"]
        return original(rate, per, nper, *rest)

    return checked


#: The position of the payment-timing argument ``type`` of the annuity functions.
_TYPE_AT = {"PMT": 4, "PV": 4, "FV": 4, "NPER": 4, "IPMT": 5, "PPMT": 5}


def _annuity(name: str, original: Any) -> Any:
    """PMT, PV, FV, NPER, IPMT, PPMT: any non-zero ``type`` is 1 (payments at the start; the engine:
    #VALUE! for 5 or -1); PMT of a rate from -1 down is #NUM!; NPER at a rate of 0 is
    -(pv+fv)/pmt whatever the type (the engine: half of it with type 1)."""
    import numpy as np
    from formulas.functions import Error, XlError

    def item(v: Any) -> Any:
        return v.ravel()[0] if isinstance(v, np.ndarray) and v.size == 1 else v

    def number(v: Any) -> float | None:
        v = item(v)
        if isinstance(v, bool | np.bool_ | XlError | str | np.ndarray):
            return None
        try:
            return float(v) if v is not None else None
        except (TypeError, ValueError):
            return None

    def run(*args: Any) -> Any:
        args_list = list(args)
        at = _TYPE_AT[name]
        if len(args_list) > at:
            t = number(args_list[at])
            if t is not None and t != 0:
                args_list[at] = 1.0
        rate = number(args_list[0]) if args_list else None
        if any(isinstance(item(a), XlError) for a in args_list):
            return original(*args_list)
        if name == "PMT" and rate is not None and rate <= -1:
            return Error.errors["#NUM!"]
        if name == "NPER" and rate == 0 and len(args_list) >= 3:
            pmt, pv = number(args_list[1]), number(args_list[2])
            fv = number(args_list[3]) if len(args_list) > 3 else 0.0
            if pmt is not None and pv is not None and fv is not None:
                return Error.errors["#NUM!"] if pmt == 0 else -(pv + fv) / pmt
        return original(*args_list)

    return run


def patch_finance() -> None:
    """Every patch of this module."""
    import functools

    import formulas
    from formulas.functions import wrap_ufunc

    fns = formulas.get_functions()
    patch_accrint(fns)
    for name in ("IPMT", "PPMT"):
        if callable(fns.get(name)):
            fns[name] = fns[f"_XLFN.{name}"] = _period_checked(fns[name])
    for name in _TYPE_AT:
        if callable(fns.get(name)):
            fns[name] = fns[f"_XLFN.{name}"] = _annuity(name, fns[name])
    for name, effect in (("EFFECT", True), ("NOMINAL", False)):  # errors of the arguments kept
        fns[name] = fns[f"_XLFN.{name}"] = wrap_ufunc(
            functools.partial(_rates, effect=effect),
            input_parser=lambda *a: a,
            check_error=lambda *a: None,
            args_parser=lambda *a: a,
        )
