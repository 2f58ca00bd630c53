"""SheetCompressor (SpreadsheetLLM, sections 3.1-3.4): encode a sheet for the model in few tokens.

>>> from gridsight.encode import encode_sheet, EncodeOptions, measure
>>> enc = encode_sheet(sheet)                       # anchors (k=4), index + lists, aggregation, semantic
>>> enc.text                                        # 'Year|A1\\n{IntNum}|A2:A9\\n...'
>>> enc.translate("A2:C9")                          # compact range -> original range text
>>> measure(sheet).ratio                            # vanilla cl100k tokens / compressed tokens

Pure functions over :class:`gridsight.grid.Sheet`; no file I/O here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gridsight.encode._anchors import Anchors, find_anchors
from gridsight.encode._decode import decode_sheet
from gridsight.encode._encode import (
    EncodeOptions,
    SheetEncoding,
    decode_index,
    encode_sheet,
    escape_value,
    unescape_value,
    vanilla_encoding,
)
from gridsight.encode._rects import rectangles
from gridsight.encode._remap import AddressMap, AxisMap
from gridsight.encode._tokens import TokenCounter, cl100k_tokens, gguf_token_counter
from gridsight.encode._types import DataType, format_type, number_types, recognize_text
from gridsight.grid import Sheet


@dataclass(frozen=True)
class Measurement:
    """Token counts of one sheet: vanilla vs compressed, with cl100k and optionally a model tokenizer."""

    encoding: SheetEncoding
    vanilla_tokens: int
    compressed_tokens: int
    model_vanilla_tokens: int | None = None
    model_compressed_tokens: int | None = None

    @property
    def ratio(self) -> float:
        """Compression ratio r = n / n' (section 5.1); 1.0 for an empty sheet."""
        if self.compressed_tokens == 0:
            return 1.0 if self.vanilla_tokens == 0 else float(self.vanilla_tokens)
        return self.vanilla_tokens / self.compressed_tokens

    def to_json(self) -> dict[str, Any]:
        enc = self.encoding
        return {
            "sheet": enc.sheet,
            "modules": enc.options.label,
            "k": enc.options.k if enc.options.anchors else None,
            "vanilla_tokens": self.vanilla_tokens,
            "compressed_tokens": self.compressed_tokens,
            "ratio": round(self.ratio, 3),
            "model_vanilla_tokens": self.model_vanilla_tokens,
            "model_compressed_tokens": self.model_compressed_tokens,
            "rows": enc.rows,
            "cols": enc.cols,
            "kept_rows": enc.kept_rows,
            "kept_cols": enc.kept_cols,
            "address_map": enc.address_map.to_json(),
            "text": enc.text,
        }


def measure(
    sheet: Sheet,
    options: EncodeOptions | None = None,
    *,
    counter: TokenCounter = cl100k_tokens,
    model_counter: TokenCounter | None = None,
    vanilla: str | None = None,
) -> Measurement:
    """Encode ``sheet`` and count tokens of the result and of the vanilla encoding.

    Args:
        sheet: the sheet to encode.
        options: module switches (default: all modules, k=4).
        counter: the tokenizer for the headline counts (default cl100k_base, as in the paper).
        model_counter: optionally the loaded model's tokenizer (see :func:`gguf_token_counter`).
        vanilla: the vanilla text if the caller already built it (ablations reuse it).
    """
    enc = encode_sheet(sheet, options)
    base = vanilla if vanilla is not None else vanilla_encoding(sheet)
    return Measurement(
        enc,
        counter(base),
        counter(enc.text),
        model_counter(base) if model_counter else None,
        model_counter(enc.text) if model_counter else None,
    )


__all__ = [
    "AddressMap",
    "Anchors",
    "AxisMap",
    "DataType",
    "EncodeOptions",
    "Measurement",
    "SheetEncoding",
    "TokenCounter",
    "cl100k_tokens",
    "decode_index",
    "decode_sheet",
    "encode_sheet",
    "escape_value",
    "find_anchors",
    "format_type",
    "gguf_token_counter",
    "measure",
    "number_types",
    "recognize_text",
    "rectangles",
    "unescape_value",
    "vanilla_encoding",
]
