"""BESSELI, BESSELJ, BESSELK and BESSELY as Excel computes them.

Excel does not give the exact Bessel functions (the engine's, from SciPy): its values are those of the
polynomial approximations of Abramowitz & Stegun 9.4 and 9.8 as *Numerical Recipes in C* (2nd ed.,
6.5-6.6) writes them, ``bessi0``/``bessj0``/``bessk0``/``bessy0`` and their order-1 forms, with the book's
recurrences for higher orders (Miller's downward recurrence for I and for J of an order above x,
upward otherwise). ``BESSELI(1,0)`` is 1.2660658480342601 in Excel (exactly: 1.2660658777520084);
the functions below give Excel's saved values to the last digit.
"""

from __future__ import annotations

import math
from typing import Any


def _poly(y: float, coefficients: tuple[float, ...]) -> float:
    """c0 + y*(c1 + y*(c2 + ...)), in that order of operations (the book's nested form)."""
    acc = coefficients[-1]
    for c in reversed(coefficients[:-1]):
        acc = c + y * acc
    return acc


_I0_SMALL = (1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.360768e-1, 0.45813e-2)
_I0_LARGE = (
    0.39894228, 0.1328592e-1, 0.225319e-2, -0.157565e-2, 0.916281e-2,
    -0.2057706e-1, 0.2635537e-1, -0.1647633e-1, 0.392377e-2,
)  # fmt: skip
_I1_SMALL = (0.5, 0.87890594, 0.51498869, 0.15084934, 0.2658733e-1, 0.301532e-2, 0.32411e-3)
_I1_TAIL = (0.2282967e-1, -0.2895312e-1, 0.1787654e-1, -0.420059e-2)
_I1_HEAD = (0.39894228, -0.3988024e-1, -0.362018e-2, 0.163801e-2, -0.1031555e-1)
_J0_NUM = (57568490574.0, -13362590354.0, 651619640.7, -11214424.18, 77392.33017, -184.9052456)
_J0_DEN = (57568490411.0, 1029532985.0, 9494680.718, 59272.64853, 267.8532712, 1.0)
_J1_NUM = (72362614232.0, -7895059235.0, 242396853.1, -2972611.439, 15704.48260, -30.16036606)
_J1_DEN = (144725228442.0, 2300535178.0, 18583304.74, 99447.43394, 376.9991397, 1.0)
_Y0_NUM = (-2957821389.0, 7062834065.0, -512359803.6, 10879881.29, -86327.92757, 228.4622733)
_Y0_DEN = (40076544269.0, 745249964.8, 7189466.438, 47447.26470, 226.1030244, 1.0)
_Y1_NUM = (
    -0.4900604943e13,
    0.1275274390e13,
    -0.5153438139e11,
    0.7349264551e9,
    -0.4237922726e7,
    0.8511937935e4,
)
_Y1_DEN = (
    0.2499580570e14,
    0.4244419664e12,
    0.3733650367e10,
    0.2245904002e8,
    0.1020426050e6,
    0.3549632885e3,
    1.0,
)
#: x >= 8: amplitude and phase polynomials (P, Q) of order 0 and 1; the book's Y0 has -0.934945152e-7
#: where its J0 has -0.934935152e-7, and Excel follows each.
_P0 = (1.0, -0.1098628627e-2, 0.2734510407e-4, -0.2073370639e-5, 0.2093887211e-6)
_Q0_J = (-0.1562499995e-1, 0.1430488765e-3, -0.6911147651e-5, 0.7621095161e-6, -0.934935152e-7)
_Q0_Y = (-0.1562499995e-1, 0.1430488765e-3, -0.6911147651e-5, 0.7621095161e-6, -0.934945152e-7)
_P1 = (1.0, 0.183105e-2, -0.3516396496e-4, 0.2457520174e-5, -0.240337019e-6)
_Q1 = (0.04687499995, -0.2002690873e-3, 0.8449199096e-5, -0.88228987e-6, 0.105787412e-6)


def i0(x: float) -> float:
    ax = abs(x)
    if ax < 3.75:
        return _poly((x / 3.75) ** 2, _I0_SMALL)
    return (math.exp(ax) / math.sqrt(ax)) * _poly(3.75 / ax, _I0_LARGE)


def i1(x: float) -> float:
    ax = abs(x)
    if ax < 3.75:
        ans = ax * _poly((x / 3.75) ** 2, _I1_SMALL)
    else:
        y = 3.75 / ax
        ans = _poly(y, (*_I1_HEAD, _poly(y, _I1_TAIL))) * (math.exp(ax) / math.sqrt(ax))
    return -ans if x < 0 else ans


def i_n(n: int, x: float) -> float:
    if n < 2:
        return (i0, i1)[n](x)
    if x == 0:
        return 0.0
    tox = 2.0 / abs(x)
    bip = ans = 0.0
    bi = 1.0
    for j in range(2 * (n + int(math.sqrt(40.0 * n))), 0, -1):  # Miller's downward recurrence
        bip, bi = bi, bip + j * tox * bi
        if abs(bi) > 1e10:  # rescaled to stay in range (the ratio is what counts)
            ans, bi, bip = ans * 1e-10, bi * 1e-10, bip * 1e-10
        if j == n:
            ans = bip
    ans *= i0(x) / bi
    return -ans if x < 0 and n & 1 else ans


def _wave(ax: float, shift: float, p: tuple[float, ...], q: tuple[float, ...], sine: bool) -> float:
    """The large-x form sqrt(2/(pi x)) (P cos(t) - z Q sin(t)) for J, (P sin(t) + z Q cos(t)) for Y."""
    z = 8.0 / ax
    y = z * z
    xx = ax - shift
    a1, a2 = _poly(y, p), _poly(y, q)
    if sine:
        return math.sqrt(0.636619772 / ax) * (math.sin(xx) * a1 + z * math.cos(xx) * a2)
    return math.sqrt(0.636619772 / ax) * (math.cos(xx) * a1 - z * math.sin(xx) * a2)


def j0(x: float) -> float:
    ax = abs(x)
    if ax < 8.0:
        y = x * x
        return _poly(y, _J0_NUM) / _poly(y, _J0_DEN)
    return _wave(ax, 0.785398164, _P0, _Q0_J, sine=False)


def j1(x: float) -> float:
    ax = abs(x)
    if ax < 8.0:
        y = x * x
        return x * _poly(y, _J1_NUM) / _poly(y, _J1_DEN)
    ans = _wave(ax, 2.356194491, _P1, _Q1, sine=False)
    return -ans if x < 0 else ans


def j_n(n: int, x: float) -> float:
    if n < 2:
        return (j0, j1)[n](x)
    ax = abs(x)
    if ax == 0:
        return 0.0
    tox = 2.0 / ax
    if ax > n:  # upward recurrence
        bjm, bj = j0(ax), j1(ax)
        for j in range(1, n):
            bjm, bj = bj, j * tox * bj - bjm
        ans = bj
    else:  # Miller's downward recurrence, normalised by the sum of the even orders
        m = 2 * ((n + int(math.sqrt(40.0 * n))) // 2)
        even = False
        bjp = ans = total = 0.0
        bj = 1.0
        for j in range(m, 0, -1):
            bjp, bj = bj, j * tox * bj - bjp
            if abs(bj) > 1e10:
                bj, bjp, ans, total = bj * 1e-10, bjp * 1e-10, ans * 1e-10, total * 1e-10
            if even:
                total += bj
            even = not even
            if j == n:
                ans = bjp
        ans /= 2.0 * total - bj
    return -ans if x < 0 and n & 1 else ans


def y0(x: float) -> float:
    if x < 8.0:
        y = x * x
        return _poly(y, _Y0_NUM) / _poly(y, _Y0_DEN) + 0.636619772 * j0(x) * math.log(x)
    return _wave(x, 0.785398164, _P0, _Q0_Y, sine=True)


def y1(x: float) -> float:
    if x < 8.0:
        y = x * x
        return x * _poly(y, _Y1_NUM) / _poly(y, _Y1_DEN) + 0.636619772 * (j1(x) * math.log(x) - 1.0 / x)
    return _wave(x, 2.356194491, _P1, _Q1, sine=True)


def y_n(n: int, x: float) -> float:
    if n < 2:
        return (y0, y1)[n](x)
    tox = 2.0 / x
    bym, by = y0(x), y1(x)
    for j in range(1, n):  # upward recurrence
        bym, by = by, j * tox * by - bym
    return by


_K0_SMALL = (-0.57721566, 0.42278420, 0.23069756, 0.3488590e-1, 0.262698e-2, 0.10750e-3, 0.74e-5)
_K0_LARGE = (1.25331414, -0.7832358e-1, 0.2189568e-1, -0.1062446e-1, 0.587872e-2, -0.251540e-2, 0.53208e-3)
_K1_SMALL = (1.0, 0.15443144, -0.67278579, -0.18156897, -0.1919402e-1, -0.110404e-2, -0.4686e-4)
_K1_LARGE = (1.25331414, 0.23498619, -0.3655620e-1, 0.1504268e-1, -0.780353e-2, 0.325614e-2, -0.68245e-3)


def k0(x: float) -> float:
    if x <= 2.0:
        return -math.log(x / 2.0) * i0(x) + _poly(x * x / 4.0, _K0_SMALL)
    return (math.exp(-x) / math.sqrt(x)) * _poly(2.0 / x, _K0_LARGE)


def k1(x: float) -> float:
    if x <= 2.0:
        return math.log(x / 2.0) * i1(x) + (1.0 / x) * _poly(x * x / 4.0, _K1_SMALL)
    return (math.exp(-x) / math.sqrt(x)) * _poly(2.0 / x, _K1_LARGE)


def k_n(n: int, x: float) -> float:
    if n < 2:
        return (k0, k1)[n](x)
    tox = 2.0 / x
    bkm, bk = k0(x), k1(x)
    for j in range(1, n):  # upward recurrence
        bkm, bk = bk, bkm + j * tox * bk
    return bk


def _excel_bessel(fn: Any, name: str) -> Any:
    """The engine's BESSEL function with Excel's numbers: the engine's argument checks (errors,
    logicals, blanks, a truncated order), then ``fn``; #NUM! for a negative order or no value."""
    from formulas.functions import Error
    from formulas.functions.eng import _parse_x_n

    def bessel(x: Any, n: Any) -> Any:
        x, n = _parse_x_n(x, n)
        if n < 0 or (name in ("BESSELY", "BESSELK") and x <= 0):
            return Error.errors["#NUM!"]
        try:
            value = fn(n, x)
        except (OverflowError, ValueError, ZeroDivisionError):
            return Error.errors["#NUM!"]
        return value if math.isfinite(value) else Error.errors["#NUM!"]

    return bessel


def patch_bessel() -> None:
    """BESSELI, BESSELJ, BESSELK and BESSELY give Excel's approximations (see the module's
    docstring): ``BESSELK(1.5,1)`` is 0.2773878 as Excel saves it, where SciPy's exact value differs
    in the 8th digit."""
    import formulas
    from formulas.functions import wrap_func

    fns = formulas.get_functions()
    for name, fn in (("BESSELI", i_n), ("BESSELJ", j_n), ("BESSELK", k_n), ("BESSELY", y_n)):
        fns[name] = wrap_func(_excel_bessel(fn, name))
