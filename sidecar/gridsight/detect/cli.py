"""`gridsight detect PATH`: list every table of a workbook's sheets, optionally draw the sheet map."""

from __future__ import annotations

import json
from pathlib import Path

import click

from gridsight.detect._detect import detect_tables
from gridsight.detect._model import Detection
from gridsight.detect._refine import load_refiner
from gridsight.sources import open_workbook


def describe_detection(det: Detection) -> list[str]:
    """The detection as the lines `gridsight detect` prints."""
    used = det.used_range.ref() if det.used_range else "-"
    lines = [f"sheet {det.sheet}: {len(det.tables)} table(s)  used {used}"]
    for i, t in enumerate(det.tables, 1):
        lines.append(f"  T{i} {t.range.ref()}")
        if t.title:
            lines.append(f"     title   {t.title.range.ref()}  {t.title.text[:70]}")
        if t.header_rows:
            hr = t.header_range
            lines.append(
                f"     header  {hr.ref() if hr else ''}  rows {', '.join(str(r + 1) for r in t.header_rows)}"
            )
            named = [p for p in t.header_paths if p][:6]
            if named:
                lines.append(
                    "     columns " + " | ".join(named) + (" | …" if len(t.header_paths) > 6 else "")
                )
        if t.row_header_cols:
            lines.append(
                "     row labels in column(s) " + ", ".join(str(c) for c in t.to_dict()["row_header_cols"])
            )
        if t.total_rows or t.subtotal_rows:
            lines.append(
                "     totals  rows "
                + ", ".join(str(r + 1) for r in t.total_rows)
                + ("  subtotals " + ", ".join(str(r + 1) for r in t.subtotal_rows) if t.subtotal_rows else "")
            )
        for u in t.units:
            lines.append(f"     unit    {u.range.ref()}  {u.text[:60]}")
        for n in t.notes:
            lines.append(f"     note    {n.range.ref()}  {n.text[:70]}")
    for m in det.notes:
        lines.append(f"  ({m})")
    return lines


@click.command(name="detect")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--sheet", default=None, help="Only this sheet (default: every sheet).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option(
    "--picture",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the sheet map as PNG (one file per sheet when there are several).",
)
@click.option("--no-model", is_flag=True, help="Rules only; never load the local model.")
def command(path: Path, sheet: str | None, fmt: str, picture: Path | None, no_model: bool) -> None:
    """Find every table (with header, title, notes, units, totals) on a workbook's sheets."""
    wb = open_workbook(path, sheets=[sheet] if sheet else None)
    refiner, why = (None, "model switched off (--no-model)") if no_model else load_refiner()
    sheets = [wb.sheet(sheet)] if sheet else list(wb)
    detections = [detect_tables(s, refiner=refiner) for s in sheets]
    pictures: list[str] = []
    if picture is not None:
        from gridsight.detect.picture import render_map

        for s, det in zip(sheets, detections, strict=True):
            out = (
                picture
                if len(sheets) == 1
                else picture.with_name(f"{picture.stem}-{_safe(s.name)}{picture.suffix}")
            )
            pictures.append(str(render_map(s, det, out)))
    if fmt == "json":
        doc = {
            "file": str(path),
            "model_status": why,
            "sheets": [d.to_dict() for d in detections],
            "pictures": pictures,
        }
        click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
        return
    for det in detections:
        click.echo("\n".join(describe_detection(det)))
    click.echo(f"({why})")
    for p in pictures:
        click.echo(f"wrote {p}")


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in name)
