"""Read a GGUF file's header ourselves, before llama.cpp ever sees the file.

Why: llama.cpp aborts or crashes on some malformed files, and its errors ("failed to load model")
do not say what is wrong. Parsing the header in Python lets us say "truncated: 12 MB of 491 MB", "an
embedding model, not a chat model", or "no chat template" as a typed error, and report the model's
name, architecture and context length in `gridsight model status` without loading any weights.
"""

from __future__ import annotations

import mmap
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gridsight.errors import ModelIntegrityError, ModelKindError, ModelNotFoundError

MAGIC = b"GGUF"
SUPPORTED_VERSIONS = (2, 3)

# GGUF metadata value types.
(
    _UINT8,
    _INT8,
    _UINT16,
    _INT16,
    _UINT32,
    _INT32,
    _FLOAT32,
    _BOOL,
    _STRING,
    _ARRAY,
    _UINT64,
    _INT64,
    _FLOAT64,
) = range(13)
_SCALARS: dict[int, str] = {
    _UINT8: "<B",
    _INT8: "<b",
    _UINT16: "<H",
    _INT16: "<h",
    _UINT32: "<I",
    _INT32: "<i",
    _FLOAT32: "<f",
    _BOOL: "<?",
    _UINT64: "<Q",
    _INT64: "<q",
    _FLOAT64: "<d",
}

#: ggml tensor type -> (elements per block, bytes per block); used to compute where the data must end.
GGML_BLOCKS: dict[int, tuple[int, int]] = {
    0: (1, 4),  # F32
    1: (1, 2),  # F16
    2: (32, 18),  # Q4_0
    3: (32, 20),  # Q4_1
    6: (32, 22),  # Q5_0
    7: (32, 24),  # Q5_1
    8: (32, 34),  # Q8_0
    9: (32, 36),  # Q8_1
    10: (256, 84),  # Q2_K
    11: (256, 110),  # Q3_K
    12: (256, 144),  # Q4_K
    13: (256, 176),  # Q5_K
    14: (256, 210),  # Q6_K
    15: (256, 292),  # Q8_K
    16: (256, 66),  # IQ2_XXS
    17: (256, 74),  # IQ2_XS
    18: (256, 98),  # IQ3_XXS
    19: (256, 50),  # IQ1_S
    20: (32, 18),  # IQ4_NL
    21: (256, 110),  # IQ3_S
    22: (256, 82),  # IQ2_S
    23: (256, 136),  # IQ4_XS
    24: (1, 1),  # I8
    25: (1, 2),  # I16
    26: (1, 4),  # I32
    27: (1, 8),  # I64
    28: (1, 8),  # F64
    29: (256, 56),  # IQ1_M
    30: (1, 2),  # BF16
    34: (256, 54),  # TQ1_0
    35: (256, 66),  # TQ2_0
    39: (32, 17),  # MXFP4
}

#: Architectures that embed or encode but cannot chat.
ENCODER_ARCHITECTURES = frozenset(
    {
        "bert",
        "nomic-bert",
        "nomic-bert-moe",
        "jina-bert-v2",
        "jina-bert-v3",
        "neo-bert",
        "modern-bert",
        "t5encoder",
        "clip",
        "wavtokenizer-dec",
    }
)

#: Chat formats for base/instruct models whose GGUF carries no template (llama-cpp-python names).
FALLBACK_CHAT_FORMATS: dict[str, str] = {
    "gemma": "gemma",
    "gemma2": "gemma",
    "gemma3": "gemma",
    "qwen2": "chatml",
}

_MAX_COUNT = 1 << 24  # no sane header has more keys, tensors or array items than this


@dataclass(frozen=True)
class GGUFInfo:
    """What the header says: enough to check the file and to describe the model without loading it."""

    path: Path
    file_size: int
    version: int
    architecture: str
    name: str
    context_length: int
    chat_template: str | None
    tensor_count: int
    data_end: int  # the byte offset where the last tensor's data ends (the least valid file size)
    metadata: dict[str, Any] = field(repr=False)

    @property
    def is_encoder(self) -> bool:
        return (
            self.architecture in ENCODER_ARCHITECTURES or f"{self.architecture}.pooling_type" in self.metadata
        )

    @property
    def file_type(self) -> str:
        """The quantisation, e.g. ``Q4_K_M``, when the header names it."""
        ft = self.metadata.get("general.file_type")
        return _FILE_TYPES.get(ft, str(ft)) if ft is not None else "unknown"


_FILE_TYPES = {
    0: "F32",
    1: "F16",
    2: "Q4_0",
    3: "Q4_1",
    7: "Q8_0",
    8: "Q5_0",
    9: "Q5_1",
    10: "Q2_K",
    11: "Q3_K_S",
    12: "Q3_K_M",
    13: "Q3_K_L",
    14: "Q4_K_S",
    15: "Q4_K_M",
    16: "Q5_K_S",
    17: "Q5_K_M",
    18: "Q6_K",
    32: "BF16",
}


class _Reader:
    """Bounds-checked little-endian reads over a memory map; running off the end means 'truncated'."""

    def __init__(self, buf: mmap.mmap | bytes, path: Path) -> None:
        self.buf = buf
        self.pos = 0
        self.size = len(buf)
        self.path = path

    def truncated(self) -> ModelIntegrityError:
        return ModelIntegrityError(
            f"{self.path} is truncated: its GGUF header ends after {self.size:,} bytes"
            " (re-download or re-copy it)"
        )

    def scalar(self, fmt: str) -> Any:
        n = struct.calcsize(fmt)
        if self.pos + n > self.size:
            raise self.truncated()
        (value,) = struct.unpack_from(fmt, self.buf, self.pos)
        self.pos += n
        return value

    def count(self, what: str) -> int:
        n = int(self.scalar("<Q"))
        if n > _MAX_COUNT:
            raise ModelIntegrityError(f"{self.path} is corrupt: implausible {what} count {n:,}")
        return n

    def string(self) -> str:
        n = int(self.scalar("<Q"))
        if self.pos + n > self.size:
            raise self.truncated()
        raw = bytes(self.buf[self.pos : self.pos + n])
        self.pos += n
        return raw.decode("utf-8", errors="replace")

    def skip_string(self) -> None:
        n = int(self.scalar("<Q"))
        if self.pos + n > self.size:
            raise self.truncated()
        self.pos += n

    def value(self, vtype: int, key: str) -> Any:
        if vtype in _SCALARS:
            return self.scalar(_SCALARS[vtype])
        if vtype == _STRING:
            return self.string()
        if vtype == _ARRAY:
            etype = int(self.scalar("<I"))
            n = self.count(f"array {key!r}")
            if etype in _SCALARS:
                width = struct.calcsize(_SCALARS[etype])
                if self.pos + n * width > self.size:
                    raise self.truncated()
                self.pos += n * width  # vocab scores, token types: not needed, skip without decoding
            elif etype == _STRING:
                for _ in range(n):
                    self.skip_string()
            else:
                raise ModelIntegrityError(
                    f"{self.path} is corrupt: array {key!r} of unsupported type {etype}"
                )
            return _ArrayInfo(etype, n)
        raise ModelIntegrityError(f"{self.path} is corrupt: metadata {key!r} has unknown type {vtype}")


@dataclass(frozen=True)
class _ArrayInfo:
    """An array value summarised (type and length): token lists are large and only llama.cpp needs them."""

    element_type: int
    length: int


def read_gguf(path: str | Path) -> GGUFInfo:
    """Parse and check a GGUF header: magic, version, metadata, tensor table, and that no data is missing.

    Raises:
        ModelNotFoundError: no such file.
        ModelIntegrityError: not a GGUF file, an unsupported version, a cut-off or corrupt header,
            or tensor data that runs past the end of the file (a truncated download or copy).
    """
    p = Path(path).expanduser()
    if not p.is_file():
        raise ModelNotFoundError(f"model file {p} does not exist")
    size = p.stat().st_size
    if size < 24:
        raise ModelIntegrityError(f"{p} is not a GGUF model ({size} bytes)")
    with p.open("rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as buf:
        return _parse(_Reader(buf, p), p, size)


def _parse(r: _Reader, p: Path, size: int) -> GGUFInfo:
    if bytes(r.buf[:4]) != MAGIC:
        raise ModelIntegrityError(f"{p} is not a GGUF model (it does not start with 'GGUF')")
    r.pos = 4
    version = int(r.scalar("<I"))
    if version not in SUPPORTED_VERSIONS:
        raise ModelIntegrityError(f"{p} is GGUF version {version}; GridSight reads versions 2 and 3")
    n_tensors = r.count("tensor")
    n_kv = r.count("metadata")
    meta: dict[str, Any] = {}
    for _ in range(n_kv):
        key = r.string()
        meta[key] = r.value(int(r.scalar("<I")), key)
    tensor_end = 0
    for _ in range(n_tensors):
        name = r.string()
        n_dims = int(r.scalar("<I"))
        if n_dims > 8:
            raise ModelIntegrityError(f"{p} is corrupt: tensor {name!r} has {n_dims} dimensions")
        elements = 1
        for _ in range(n_dims):
            elements *= int(r.scalar("<Q"))
        ttype = int(r.scalar("<I"))
        offset = int(r.scalar("<Q"))
        block = GGML_BLOCKS.get(ttype)
        nbytes = (elements // block[0]) * block[1] if block else 1  # unknown type: at least its first byte
        tensor_end = max(tensor_end, offset + nbytes)
    alignment = meta.get("general.alignment", 32)
    if not isinstance(alignment, int) or alignment <= 0:
        raise ModelIntegrityError(f"{p} is corrupt: general.alignment = {alignment!r}")
    data_start = (r.pos + alignment - 1) // alignment * alignment
    data_end = data_start + tensor_end if n_tensors else r.pos
    if size < data_end:
        raise ModelIntegrityError(
            f"{p} is truncated: its tensors need {data_end:,} bytes but the file has {size:,}"
            " (re-download or re-copy it)"
        )
    arch = meta.get("general.architecture")
    if not isinstance(arch, str) or not arch:
        raise ModelIntegrityError(f"{p} has no general.architecture in its header; not a usable model")
    ctx = meta.get(f"{arch}.context_length")
    template = meta.get("tokenizer.chat_template")
    general_name = meta.get("general.name")
    return GGUFInfo(
        path=p,
        file_size=size,
        version=version,
        architecture=arch,
        name=general_name if isinstance(general_name, str) and general_name else p.stem,
        context_length=int(ctx) if isinstance(ctx, int) else 0,
        chat_template=template if isinstance(template, str) and template.strip() else None,
        tensor_count=n_tensors,
        data_end=data_end,
        metadata=meta,
    )


def check_chat_model(info: GGUFInfo) -> str | None:
    """Check that a GGUF can serve chat; return the fallback chat format to use, or None for its template.

    Raises:
        ModelKindError: an embedding/encoder model, a LoRA adapter or projector, or a model with no
            chat template and no known fallback format.
        ModelIntegrityError: no context length in the header.
    """
    kind = info.metadata.get("general.type")
    if isinstance(kind, str) and kind not in ("model", ""):
        raise ModelKindError(f"{info.path.name} is a GGUF {kind!r}, not a chat model; give a model file")
    if info.is_encoder:
        raise ModelKindError(
            f"{info.path.name} is an embedding/encoder model ({info.architecture}), not a chat model;"
            " GridSight needs an instruct (chat) GGUF"
        )
    if info.context_length <= 0:
        raise ModelIntegrityError(f"{info.path.name} has no {info.architecture}.context_length in its header")
    if info.chat_template is not None:
        return None
    fallback = FALLBACK_CHAT_FORMATS.get(info.architecture)
    if fallback is None:
        raise ModelKindError(
            f"{info.path.name} ({info.architecture}) has no chat template in its header;"
            " use an instruct/chat GGUF"
        )
    return fallback


def template_label(template: str | None, fallback: str | None) -> str:
    """A short human name for a chat template (the full Jinja text is hundreds of lines)."""
    if template is None:
        return f"{fallback} (built-in; the GGUF has none)" if fallback else "none"
    for marker, label in (
        ("<|im_start|>", "ChatML"),
        ("<start_of_turn>", "Gemma"),
        ("<|start_header_id|>", "Llama 3"),
        ("[INST]", "Llama 2 / Mistral"),
        ("<|user|>", "Phi / Zephyr"),
    ):
        if marker in template:
            return f"{label} (from the GGUF, {len(template):,} chars)"
    return f"custom (from the GGUF, {len(template):,} chars)"
