"""LINEST, LOGEST, TREND and GROWTH as Excel computes them.

* **Collinear columns**: Excel fits by a QR decomposition that drops an x column which is a linear
  combination of the columns before it (the constant first when ``const`` is TRUE); a dropped column
  gets the coefficient 0 and the standard error 0. ``LINEST({1,3,6,9,12},{1,1,1,1,1})`` is slope 0,
  intercept 6.2 (the mean), and TREND gives 6.2 everywhere. The engine took the least-squares solution
  of least norm (slope 3.1, intercept 3.1).
* **One new x** (``TREND(y,x,5)``) is a 1x1 array (the engine: #VALUE!).
* **An omitted ``const``** (``LINEST(y,x,,TRUE)``) is TRUE, as Excel documents; the engine received
  an omitted argument as 0 and fitted without a constant. :func:`omitted_defaults` writes the default
  into the formula before it runs (XLOOKUP's and XMATCH's omitted arguments too, see
  :mod:`_excel_lookup`).
"""

from __future__ import annotations

from typing import Any

from gridsight.formula._excel_lookup import OMITTED
from gridsight.formula._translate import to_text
from gridsight.formula._tree import Call, Missing, Node, walk

#: Omitted arguments whose default is not what the engine assumes (0): function -> {position: text}.
_DEFAULTS: dict[str, dict[int, str]] = {
    "LINEST": {2: "TRUE"},
    "LOGEST": {2: "TRUE"},
    "TREND": {3: "TRUE"},
    "GROWTH": {3: "TRUE"},
    "WORKDAY.INTL": {2: "1"},  # the weekend: Saturday and Sunday (the engine read an empty one as 0)
    "NETWORKDAYS.INTL": {2: "1"},
}
_DEFAULTS.update(OMITTED)
#: Upper-case words that make :func:`omitted_defaults` worth parsing a formula for.
DEFAULT_WORDS = tuple(_DEFAULTS)
#: A column whose part outside the span of the columns before it is below this share of its own size
#: is collinear with them.
_COLLINEAR = 1e-7


def omitted_defaults(tree: Node) -> str | None:
    """The formula with Excel's default written where an argument of the table above is omitted
    (``LINEST(y,x,,TRUE)`` -> ``LINEST(y,x,TRUE,TRUE)``); None when there is none."""
    missing: dict[int, str] = {}
    for node in walk(tree):
        if isinstance(node, Call):
            name = node.name.removeprefix("_XLFN.")
            for i, default in _DEFAULTS.get(name, {}).items():
                if i < len(node.args) and isinstance(node.args[i], Missing):
                    missing[id(node.args[i])] = default
    if not missing:
        return None
    return "=" + to_text(tree, lambda n: missing.get(id(n)))


def independent_columns(x: Any) -> list[int]:
    """The columns of ``x`` kept by a QR decomposition without pivoting: each one not (nearly) a
    linear combination of the kept columns before it (modified Gram-Schmidt)."""
    import numpy as np

    basis: list[Any] = []
    kept: list[int] = []
    for j in range(x.shape[1]):
        v = np.asarray(x[:, j], dtype=float)
        size = float(np.linalg.norm(v))
        r = v.copy()
        for q in basis:
            r -= (q @ r) * q
        rest = float(np.linalg.norm(r))
        if size > 0 and rest > _COLLINEAR * size:
            basis.append(r / rest)
            kept.append(j)
    return kept


def _fit(x: Any, y: Any, const: Any, stats: Any) -> Any:
    """The engine's ``_xlinest`` (coefficients in Excel's layout, and the statistics rows), fitting
    only the independent columns."""
    import numpy as np
    from formulas.functions import Error
    from scipy import linalg

    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float).reshape(-1, 1)
    n, k = x.shape
    full = np.column_stack([np.ones(n), x]) if const else x
    kept = independent_columns(full)
    p = np.zeros(full.shape[1])
    if kept:
        p[kept] = linalg.lstsq(full[:, kept], y)[0].ravel()
    coef = p if const else np.append([0.0], p)  # [b, m1, ..., mk]
    res = np.empty((5 if stats else 1, k + 1), object)
    res[:, :] = Error.errors["#N/A"]
    res[0, :] = coef[::-1]
    if stats:
        xs = full[:, kept]
        yhat = xs @ p[kept] if kept else np.zeros(n)
        ybar = float(np.mean(y)) if const else 0.0
        ssreg = float(np.sum((yhat - ybar) ** 2))
        sse = float(np.sum((y.ravel() - yhat) ** 2))
        df = n - len(kept)
        res[4, 0], res[4, 1], res[3, 1] = ssreg, sse, df
        total = ssreg + sse
        res[2, 0] = ssreg / total if total else Error.errors["#NUM!"]
        if df > 0:
            sigma2 = sse / df
            res[2, 1] = float(np.sqrt(sigma2))
            se = np.zeros(full.shape[1])
            if kept:
                inverse = np.linalg.pinv(xs.T @ xs)
                se[kept] = np.sqrt(np.maximum(0.0, np.diag(sigma2 * inverse)))
            errors = se if const else np.append([np.nan], se)
            res[1, :] = [Error.errors["#N/A"] if np.isnan(e) else float(e) for e in errors[::-1]]
            regressors = len(kept) - (1 if const and 0 in kept else 0)
            res[3, 0] = (ssreg / regressors) / sigma2 if regressors and sigma2 else Error.errors["#NUM!"]
        else:
            res[1, :] = Error.errors["#NUM!"]
            res[2, 1] = res[3, 0] = Error.errors["#NUM!"]
    return res


def patch_linest() -> None:
    """LINEST, LOGEST, TREND and GROWTH drop collinear columns as Excel does (see the module's
    docstring). The engine's functions look ``_xlinest`` up in their module at call time."""
    import formulas.functions.stat as stat
    import numpy as np

    stat._xlinest = _fit
    parse = stat._parse_linest

    def parse_one_new_x(known_y: Any, known_x: Any = None, new_x: Any = None) -> Any:
        if new_x is not None and np.ndim(new_x) == 0:
            new_x = np.array([[new_x]], dtype=object)  # TREND(y,x,5): one new x (the engine: #VALUE!)
        return parse(known_y, known_x, new_x)

    stat._parse_linest = parse_one_new_x
