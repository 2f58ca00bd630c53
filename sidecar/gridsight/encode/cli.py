"""`gridsight encode PATH`: a sheet as the model reads it, with its token counts and address map."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from gridsight.commands._shared import echo_json, format_option, load, path_argument
from gridsight.encode import EncodeOptions, Measurement, TokenCounter, gguf_token_counter, measure
from gridsight.errors import ModelNotFoundError, UnknownSheetError
from gridsight.grid import Workbook


def module_options(func: Any) -> Any:
    """The ablation switches of the paper's Table 1, shared with `gridsight bench compress`."""
    for opt in reversed(
        (
            click.option(
                "--no-anchors",
                is_flag=True,
                help="Skip structural-anchor extraction (keep every row/column).",
            ),
            click.option(
                "--no-table-anchors",
                is_flag=True,
                help="Anchors: every discrepancy line, not only the edges of detected tables.",
            ),
            click.option(
                "--no-index", is_flag=True, help="Skip inverted-index translation (row-major cells instead)."
            ),
            click.option(
                "--no-aggregate", is_flag=True, help="Skip data-format-aware aggregation (keep every value)."
            ),
            click.option(
                "--no-lists",
                is_flag=True,
                help="Index: one address per value even for runs of values that occur once.",
            ),
            click.option(
                "--no-semantic",
                is_flag=True,
                help="Keep every text value whole (no {TextData} row labels, no shortened notes).",
            ),
            click.option(
                "--addresses",
                type=click.Choice(["compact", "original"]),
                default="compact",
                show_default=True,
                help="compact: kept rows/columns renumbered (mapped back by address_map); original: the "
                "sheet's own addresses, ranges split at dropped rows/columns.",
            ),
            click.option(
                "--k",
                "k",
                type=click.IntRange(min=0, max=1000),
                default=4,
                show_default=True,
                help="Rows/columns kept on each side of a structural anchor.",
            ),
        )
    ):
        func = opt(func)
    return func


def options_from(
    no_anchors: bool,
    no_index: bool,
    no_aggregate: bool,
    k: int,
    addresses: str = "compact",
    no_lists: bool = False,
    no_semantic: bool = False,
    no_table_anchors: bool = False,
) -> EncodeOptions:
    return EncodeOptions(
        anchors=not no_anchors,
        k=k,
        index=not no_index,
        aggregate=not no_aggregate,
        addresses="original" if addresses == "original" else "compact",
        lists=not no_lists,
        semantic=not no_semantic,
        table_anchors=not no_table_anchors,
    )


def _sheets(wb: Workbook, sheet: str | None) -> list[Any]:
    if sheet:
        return [wb.sheet(sheet)]
    if not wb.sheets:
        raise UnknownSheetError("the workbook has no sheets")
    return list(wb.sheets)


def model_path(spec: str) -> Path:
    """A GGUF path, or the configured chat model for ``default`` (the model layer finds it)."""
    if spec != "default":
        return Path(spec)
    try:
        from gridsight.llm import locate_model
    except ImportError:
        raise ModelNotFoundError("the model layer is not installed; pass a GGUF path to --model") from None
    return Path(locate_model().path)


def map_lines(m: Measurement) -> str:
    """The segments whose numbers changed, e.g. ``rows 10:17 = 30:37; columns D:D = F:F``."""
    doc = m.encoding.address_map.to_json()
    parts = []
    for axis, name in (("rows", "rows"), ("cols", "columns")):
        moved = [f"{s['compact']} = {s['original']}" for s in doc[axis] if s["compact"] != s["original"]]
        if moved:
            parts.append(f"{name} " + ", ".join(moved))
    return "; ".join(parts)


def summary_line(m: Measurement) -> str:
    enc = m.encoding
    if enc.rows == 0:
        return f"{enc.sheet}: empty sheet, nothing to encode"
    line = (
        f"{enc.sheet}: {m.vanilla_tokens:,} -> {m.compressed_tokens:,} cl100k tokens ({m.ratio:.1f}x); "
        f"kept {enc.kept_rows:,}/{enc.rows:,} rows, {enc.kept_cols:,}/{enc.cols:,} columns"
    )
    if m.model_compressed_tokens is not None:
        line += f"; model tokens {m.model_vanilla_tokens:,} -> {m.model_compressed_tokens:,}"
    return line


@click.command("encode")
@path_argument
@click.option("--sheet", default=None, help="Sheet name (default: every sheet).")
@module_options
@click.option(
    "--model",
    "model",
    default=None,
    metavar="GGUF|default",
    help="Also count tokens with this GGUF's own tokenizer ('default': the configured chat model).",
)
@format_option
def command(
    path: Path,
    sheet: str | None,
    no_anchors: bool,
    no_table_anchors: bool,
    no_index: bool,
    no_aggregate: bool,
    no_lists: bool,
    no_semantic: bool,
    addresses: str,
    k: int,
    model: str | None,
    fmt: str,
) -> None:
    """Encode a sheet the SpreadsheetLLM way (anchors + inverted index + aggregation + semantic).

    Addresses in the output are compact-sheet addresses; the JSON's address_map (and
    SheetEncoding.translate) turns any of them into the original sheet's address.
    """
    opts = options_from(
        no_anchors, no_index, no_aggregate, k, addresses, no_lists, no_semantic, no_table_anchors
    )
    wb = load(path, sheets=[sheet] if sheet else None)
    model_counter: TokenCounter | None = gguf_token_counter(model_path(model)) if model else None
    results = [measure(s, opts, model_counter=model_counter) for s in _sheets(wb, sheet)]
    if fmt == "json":
        doc = {"file": str(path), "modules": opts.label, "k": k, "addresses": opts.addresses}
        echo_json(doc | {"sheets": [m.to_json() for m in results]})
        return
    many = len(results) > 1
    for i, m in enumerate(results):
        if many:
            click.echo(("\n" if i else "") + f"## {m.encoding.sheet}")
        click.echo(m.encoding.text, nl=False)
        click.echo(f"-- {summary_line(m)}")
        moved = map_lines(m)
        if moved:
            click.echo(f"-- address map (compact = original): {moved}")
