"""BESSELI, BESSELJ and BESSELY as Excel computes them.

Excel does not give the exact Bessel functions (the engine's, from SciPy): its values are those of the
polynomial approximations of Abramowitz & Stegun 9.4 and 9.8 as *Numerical Recipes in C* (2nd ed.,
6.5-6.6) writes them, ``bessi0``/``bessj0``/``bessy0`` and their order-1 forms, with the book's
recurrences for higher orders (Miller's downward recurrence for I and for J of an order above x,
upward otherwise). ``BESSELI(1,0)`` is 1.2660658480342601 in Excel (exactly: 1.2660658777520084);
the functions below give Excel's saved values to the last digit.
"""

from __future__ import annotations

import math
from typing import Any


def i0(x: float) -> float:
    ax = abs(x)
    if ax < 3.75:
        y = (x / 3.75) ** 2
        return 1.0 + y * (
            3.5156229
            + y * (3.0899424 + y * (1.2067492 + y * (0.2659732 + y * (0.360768e-1 + y * 0.45813e-2))))
        )
    y = 3.75 / ax
    return (math.exp(ax) / math.sqrt(ax)) * (
        0.39894228
        + y
        * (
            0.1328592e-1
            + y
            * (
                0.225319e-2
                + y
                * (
                    -0.157565e-2
                    + y
                    * (
                        0.916281e-2
                        + y * (-0.2057706e-1 + y * (0.2635537e-1 + y * (-0.1647633e-1 + y * 0.392377e-2)))
                    )
                )
            )
        )
    )


def i1(x: float) -> float:
    ax = abs(x)
    if ax < 3.75:
        y = (x / 3.75) ** 2
        ans = ax * (
            0.5
            + y
            * (
                0.87890594
                + y
                * (0.51498869 + y * (0.15084934 + y * (0.2658733e-1 + y * (0.301532e-2 + y * 0.32411e-3))))
            )
        )
    else:
        y = 3.75 / ax
        ans = 0.2282967e-1 + y * (-0.2895312e-1 + y * (0.1787654e-1 - y * 0.420059e-2))
        ans = 0.39894228 + y * (
            -0.3988024e-1 + y * (-0.362018e-2 + y * (0.163801e-2 + y * (-0.1031555e-1 + y * ans)))
        )
        ans *= math.exp(ax) / math.sqrt(ax)
    return -ans if x < 0 else ans


def i_n(n: int, x: float) -> float:
    if n == 0:
        return i0(x)
    if n == 1:
        return i1(x)
    if x == 0:
        return 0.0
    tox = 2.0 / abs(x)
    bip = ans = 0.0
    bi = 1.0
    for j in range(2 * (n + int(math.sqrt(40.0 * n))), 0, -1):
        bim = bip + j * tox * bi
        bip = bi
        bi = bim
        if abs(bi) > 1e10:
            ans *= 1e-10
            bi *= 1e-10
            bip *= 1e-10
        if j == n:
            ans = bip
    ans *= i0(x) / bi
    return -ans if x < 0 and n & 1 else ans


def j0(x: float) -> float:
    ax = abs(x)
    if ax < 8.0:
        y = x * x
        a1 = 57568490574.0 + y * (
            -13362590354.0 + y * (651619640.7 + y * (-11214424.18 + y * (77392.33017 + y * (-184.9052456))))
        )
        a2 = 57568490411.0 + y * (
            1029532985.0 + y * (9494680.718 + y * (59272.64853 + y * (267.8532712 + y * 1.0)))
        )
        return a1 / a2
    z = 8.0 / ax
    y = z * z
    xx = ax - 0.785398164
    a1 = 1.0 + y * (-0.1098628627e-2 + y * (0.2734510407e-4 + y * (-0.2073370639e-5 + y * 0.2093887211e-6)))
    a2 = -0.1562499995e-1 + y * (
        0.1430488765e-3 + y * (-0.6911147651e-5 + y * (0.7621095161e-6 - y * 0.934935152e-7))
    )
    return math.sqrt(0.636619772 / ax) * (math.cos(xx) * a1 - z * math.sin(xx) * a2)


def j1(x: float) -> float:
    ax = abs(x)
    if ax < 8.0:
        y = x * x
        a1 = x * (
            72362614232.0
            + y
            * (
                -7895059235.0
                + y * (242396853.1 + y * (-2972611.439 + y * (15704.48260 + y * (-30.16036606))))
            )
        )
        a2 = 144725228442.0 + y * (
            2300535178.0 + y * (18583304.74 + y * (99447.43394 + y * (376.9991397 + y * 1.0)))
        )
        return a1 / a2
    z = 8.0 / ax
    y = z * z
    xx = ax - 2.356194491
    a1 = 1.0 + y * (0.183105e-2 + y * (-0.3516396496e-4 + y * (0.2457520174e-5 + y * (-0.240337019e-6))))
    a2 = 0.04687499995 + y * (
        -0.2002690873e-3 + y * (0.8449199096e-5 + y * (-0.88228987e-6 + y * 0.105787412e-6))
    )
    ans = math.sqrt(0.636619772 / ax) * (math.cos(xx) * a1 - z * math.sin(xx) * a2)
    return -ans if x < 0 else ans


def j_n(n: int, x: float) -> float:
    if n == 0:
        return j0(x)
    if n == 1:
        return j1(x)
    ax = abs(x)
    if ax == 0:
        return 0.0
    tox = 2.0 / ax
    if ax > n:
        bjm = j0(ax)
        bj = j1(ax)
        for j in range(1, n):
            bjp = j * tox * bj - bjm
            bjm = bj
            bj = bjp
        ans = bj
    else:
        m = 2 * ((n + int(math.sqrt(40.0 * n))) // 2)
        jsum = False
        bjp = ans = s = 0.0
        bj = 1.0
        for j in range(m, 0, -1):
            bjm = j * tox * bj - bjp
            bjp = bj
            bj = bjm
            if abs(bj) > 1e10:
                bj *= 1e-10
                bjp *= 1e-10
                ans *= 1e-10
                s *= 1e-10
            if jsum:
                s += bj
            jsum = not jsum
            if j == n:
                ans = bjp
        s = 2.0 * s - bj
        ans /= s
    return -ans if x < 0 and n & 1 else ans


def y0(x: float) -> float:
    if x < 8.0:
        y = x * x
        a1 = -2957821389.0 + y * (
            7062834065.0 + y * (-512359803.6 + y * (10879881.29 + y * (-86327.92757 + y * 228.4622733)))
        )
        a2 = 40076544269.0 + y * (
            745249964.8 + y * (7189466.438 + y * (47447.26470 + y * (226.1030244 + y * 1.0)))
        )
        return a1 / a2 + 0.636619772 * j0(x) * math.log(x)
    z = 8.0 / x
    y = z * z
    xx = x - 0.785398164
    a1 = 1.0 + y * (-0.1098628627e-2 + y * (0.2734510407e-4 + y * (-0.2073370639e-5 + y * 0.2093887211e-6)))
    a2 = -0.1562499995e-1 + y * (
        0.1430488765e-3 + y * (-0.6911147651e-5 + y * (0.7621095161e-6 + y * (-0.934945152e-7)))
    )
    return math.sqrt(0.636619772 / x) * (math.sin(xx) * a1 + z * math.cos(xx) * a2)


def y1(x: float) -> float:
    if x < 8.0:
        y = x * x
        a1 = x * (
            -0.4900604943e13
            + y
            * (
                0.1275274390e13
                + y * (-0.5153438139e11 + y * (0.7349264551e9 + y * (-0.4237922726e7 + y * 0.8511937935e4)))
            )
        )
        a2 = 0.2499580570e14 + y * (
            0.4244419664e12
            + y * (0.3733650367e10 + y * (0.2245904002e8 + y * (0.1020426050e6 + y * (0.3549632885e3 + y))))
        )
        return a1 / a2 + 0.636619772 * (j1(x) * math.log(x) - 1.0 / x)
    z = 8.0 / x
    y = z * z
    xx = x - 2.356194491
    a1 = 1.0 + y * (0.183105e-2 + y * (-0.3516396496e-4 + y * (0.2457520174e-5 + y * (-0.240337019e-6))))
    a2 = 0.04687499995 + y * (
        -0.2002690873e-3 + y * (0.8449199096e-5 + y * (-0.88228987e-6 + y * 0.105787412e-6))
    )
    return math.sqrt(0.636619772 / x) * (math.sin(xx) * a1 + z * math.cos(xx) * a2)


def y_n(n: int, x: float) -> float:
    if n == 0:
        return y0(x)
    if n == 1:
        return y1(x)
    tox = 2.0 / x
    by = y1(x)
    bym = y0(x)
    for j in range(1, n):
        byp = j * tox * by - bym
        bym = by
        by = byp
    return by


def _excel_bessel(fn: Any, name: str) -> Any:
    """The engine's BESSEL function with Excel's numbers: the engine's argument checks (errors,
    logicals, blanks, a truncated order), then ``fn``; #NUM! for a negative order or no value."""
    from formulas.functions import Error
    from formulas.functions.eng import _parse_x_n

    def bessel(x: Any, n: Any) -> Any:
        x, n = _parse_x_n(x, n)
        if n < 0 or (name == "BESSELY" and x <= 0):
            return Error.errors["#NUM!"]
        try:
            value = fn(n, x)
        except (OverflowError, ValueError, ZeroDivisionError):
            return Error.errors["#NUM!"]
        return value if math.isfinite(value) else Error.errors["#NUM!"]

    return bessel


def patch_bessel() -> None:
    """BESSELI, BESSELJ and BESSELY give Excel's approximations (see the module's docstring);
    BESSELK is left to the engine."""
    import formulas
    from formulas.functions import wrap_func

    fns = formulas.get_functions()
    for name, fn in (("BESSELI", i_n), ("BESSELJ", j_n), ("BESSELY", y_n)):
        fns[name] = wrap_func(_excel_bessel(fn, name))
