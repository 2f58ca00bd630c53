"""`gridsight bench excel --corpus DIR`: does the formula engine agree with Excel's saved results?

Every ``.xlsx``/``.xlsm`` under DIR (any folder, searched recursively, whatever it is named) is
recalculated with :func:`gridsight.formula._recalc.recalculate`: each formula evaluated in dependency
order from the saved values of the non-formula cells, and compared with the value Excel saved.
Workbooks without formulas (files written by programs, not Excel) add nothing. A file that cannot be
read is listed with its reason and adds nothing either.

Summary keys (shares in 0..1): ``formulas`` (compared: agreed + differ + unsupported), ``agreed``,
``differ``, ``unsupported`` (cannot be run, or skipped by the time budget), ``agreement``,
``by_kind`` (``status: kind`` -> cells, largest first), ``seconds_total``; and
``saved_inputs_agreed`` / ``saved_inputs_agreement`` (each formula from Excel's saved inputs, which
isolates per-function errors from propagation), ``circular``, ``volatile``, ``external`` (reported,
not counted),
``workbooks``, ``workbooks_with_formulas``, ``unreadable``.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Any

import click

from gridsight.bench._common import BenchResult, corpus_options, emit, resolve_corpus, share
from gridsight.commands.recalc import recalc_file
from gridsight.errors import GridSightError, SourceNotFoundError

__all__ = ["command", "run"]

_SUFFIXES = (".xlsx", ".xlsm")
#: Differences listed per kind in the JSON's ``examples``.
EXAMPLES_PER_KIND = 10


def workbooks(root: Path) -> list[Path]:
    """Every workbook under ``root``, in a stable order (Office's ~$ lock files left out)."""
    return sorted(
        p
        for p in root.rglob("*")
        if p.suffix.lower() in _SUFFIXES and p.is_file() and not p.name.startswith("~$")
    )


def run(corpus: Path | None, budget_s: float) -> BenchResult:
    root = resolve_corpus(corpus, ".")
    paths = workbooks(root)
    if not paths:
        raise SourceNotFoundError(f"no .xlsx or .xlsm files under {root}")
    start = time.perf_counter()
    rows: list[dict[str, Any]] = []
    totals: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    examples: dict[str, list[dict[str, Any]]] = {}
    unreadable = with_formulas = 0
    for path in paths:
        name = str(path.relative_to(root))
        try:
            result = recalc_file(path, budget_s=budget_s)
        except GridSightError as exc:
            unreadable += 1
            rows.append({"workbook": name, "error": str(exc)})
            continue
        s = result.summary()
        with_formulas += s["formulas"] > 0
        for key in (
            "formulas",
            "agreed",
            "differ",
            "unsupported",
            "saved_inputs_agreed",
            "circular",
            "volatile",
            "external",
        ):
            totals[key] += s[key]
        kinds.update(s["by_kind"])
        for c in result.cells:
            if c.status in ("differ", "unsupported", "skipped", "external"):
                shown = examples.setdefault(f"{c.status}: {c.kind}", [])
                if len(shown) < EXAMPLES_PER_KIND:
                    shown.append({"workbook": name, **c.to_dict()})
        rows.append(
            {
                "workbook": name,
                "formulas": s["formulas"],
                "agreed": s["agreed"],
                "differ": s["differ"],
                "unsupported": s["unsupported"],
                "agreement": s["agreement"],
                "circular": s["circular"],
                "seconds": s["seconds"],
                "stopped": s["stopped"],
            }
        )
    n = totals["formulas"]
    summary = {
        "formulas": n,
        "agreed": totals["agreed"],
        "differ": totals["differ"],
        "unsupported": totals["unsupported"],
        "agreement": share(totals["agreed"], n),
        "by_kind": dict(kinds.most_common()),
        "seconds_total": round(time.perf_counter() - start, 2),
        "saved_inputs_agreed": totals["saved_inputs_agreed"],
        "saved_inputs_agreement": share(totals["saved_inputs_agreed"], n),
        "circular": totals["circular"],
        "volatile": totals["volatile"],
        "external": totals["external"],
        "workbooks": len(paths),
        "workbooks_with_formulas": with_formulas,
        "unreadable": unreadable,
    }
    top = ", ".join(f"{k} {v}" for k, v in list(kinds.most_common())[:3]) or "none"
    headline = (
        f"excel: {totals['agreed']}/{n} formulas agree with Excel's saved results "
        f"({summary['agreement']:.1%}; from saved inputs {summary['saved_inputs_agreement']:.1%}), "
        f"{totals['differ']} differ, {totals['unsupported']} unsupported, in {with_formulas} of {len(paths)} "
        f"workbooks; top kinds: {top} ({summary['seconds_total']:.1f} s)"
    )
    return BenchResult(
        "excel",
        ("workbook", "formulas", "agreed", "differ", "unsupported", "agreement", "seconds"),
        rows,
        summary,
        headline,
        extra={"corpus": str(root), "examples": examples},
    )


@click.command("excel")
@corpus_options
@click.option(
    "--budget",
    type=click.FloatRange(min=0.1),
    default=120.0,
    show_default=True,
    help="Seconds per workbook; formulas left after it count as unsupported (skipped).",
)
def command(corpus: Path | None, out: Path | None, budget: float) -> None:
    """Recalculate every formula of every workbook under the corpus and compare with Excel's results."""
    emit(run(corpus, budget), out)
