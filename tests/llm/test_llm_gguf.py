"""The GGUF header reader: the real default model, and real files of the wrong kind or damaged."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import pytest

from gridsight.errors import ModelIntegrityError, ModelKindError, ModelNotFoundError
from gridsight.llm import ModelFile, check_chat_model, read_gguf, template_label


def test_default_model_header(default_model: ModelFile) -> None:
    info = read_gguf(default_model.path)
    assert (info.version, info.architecture, info.context_length, info.tensor_count) == (
        3,
        "qwen2",
        32768,
        291,
    )
    assert info.name == "Qwen2.5 Coder 0.5B Instruct AWQ"
    assert info.file_type == "Q4_K_M"
    assert info.file_size == info.data_end == 491_400_064
    assert info.chat_template is not None and "<|im_start|>" in info.chat_template
    assert check_chat_model(info) is None  # its own template, no fallback
    assert template_label(info.chat_template, None) == "ChatML (from the GGUF, 2,507 chars)"


@pytest.mark.parametrize(
    ("meta", "message"),
    [
        (("bert", None, {"bert.pooling_type": 1}), "embedding/encoder model (bert)"),
        (("nomic-bert", "{{x}}", {}), "embedding/encoder model (nomic-bert)"),
        (("llama", "{{x}}", {"llama.pooling_type": 2}), "embedding/encoder model (llama)"),
        (("llama", "{{x}}", {"general.type": "adapter"}), "GGUF 'adapter', not a chat model"),
        (("llama", None, {}), "(llama) has no chat template"),
    ],
)
def test_wrong_kind_of_model(
    tmp_path: Path, gguf: Any, meta: tuple[str, str | None, dict[str, Any]], message: str
) -> None:
    arch, template, extra = meta
    path = gguf.write(tmp_path / "m.gguf", gguf.meta(arch, template, **extra))
    with pytest.raises(ModelKindError, match=message.replace("(", r"\(").replace(")", r"\)")):
        check_chat_model(read_gguf(path))


@pytest.mark.parametrize(("arch", "fallback"), [("gemma3", "gemma"), ("gemma", "gemma"), ("qwen2", "chatml")])
def test_base_models_without_template_get_a_known_format(
    gguf: Any, tmp_path: Path, arch: str, fallback: str
) -> None:
    info = read_gguf(gguf.write(tmp_path / "m.gguf", gguf.meta(arch, None)))
    assert check_chat_model(info) == fallback
    assert template_label(None, fallback) == f"{fallback} (built-in; the GGUF has none)"


def test_small_valid_file_reads_exactly(gguf: Any, tmp_path: Path) -> None:
    path = gguf.write(tmp_path / "m.gguf", gguf.meta(), tensors=3)
    info = read_gguf(path)
    assert (info.architecture, info.name, info.context_length, info.tensor_count) == (
        "llama",
        "tiny llama",
        2048,
        3,
    )
    assert info.data_end == info.file_size
    assert info.chat_template == "{{ messages }}"


def test_missing_context_length_is_an_integrity_error(gguf: Any, tmp_path: Path) -> None:
    meta = gguf.meta()
    del meta["llama.context_length"]
    with pytest.raises(ModelIntegrityError, match=r"no llama\.context_length"):
        check_chat_model(read_gguf(gguf.write(tmp_path / "m.gguf", meta)))


@pytest.mark.parametrize("keep", [4, 23, 30, 100, 4_000, 2_000_000])
def test_truncated_header_of_the_real_model(default_model: ModelFile, tmp_path: Path, keep: int) -> None:
    cut = tmp_path / "cut.gguf"
    with default_model.path.open("rb") as fh:
        cut.write_bytes(fh.read(keep))
    with pytest.raises(ModelIntegrityError, match=r"truncated|not a GGUF model"):
        read_gguf(cut)


def test_truncated_tensor_data_of_the_real_model(default_model: ModelFile, tmp_path: Path) -> None:
    """Header intact, the last 64 bytes of weights missing (a sparse copy: no 0.5 GB write)."""
    cut = tmp_path / "cut.gguf"
    with default_model.path.open("rb") as src, cut.open("wb") as out:
        out.write(src.read(8 << 20))
        out.truncate(491_400_064 - 64)
    with pytest.raises(ModelIntegrityError) as err:
        read_gguf(cut)
    assert "its tensors need 491,400,064 bytes but the file has 491,400,000" in str(err.value)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"PK\x03\x04" + b"\0" * 60, "does not start with 'GGUF'"),
        (b"hello", "not a GGUF model (5 bytes)"),
        (b"GGUF" + struct.pack("<IQQ", 1, 0, 0), "GGUF version 1"),
        (b"GGUF" + struct.pack("<IQQ", 3, 0, 1 << 40), "implausible metadata count"),
        (b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 10**12), "truncated"),
    ],
)
def test_not_a_gguf(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "x.gguf"
    path.write_bytes(content)
    with pytest.raises(ModelIntegrityError) as err:
        read_gguf(path)
    assert message in str(err.value)


def test_unknown_value_type_is_corrupt(tmp_path: Path) -> None:
    data = b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 1) + b"k" + struct.pack("<I", 99)
    path = tmp_path / "x.gguf"
    path.write_bytes(data)
    with pytest.raises(ModelIntegrityError, match="unknown type 99"):
        read_gguf(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ModelNotFoundError, match="does not exist"):
        read_gguf(tmp_path / "nope.gguf")


def test_tensor_data_missing_in_small_file(gguf: Any, tmp_path: Path) -> None:
    data = gguf.bytes(gguf.meta(), tensors=2)
    path = tmp_path / "m.gguf"
    path.write_bytes(data[:-10])
    with pytest.raises(ModelIntegrityError, match="truncated: its tensors need"):
        read_gguf(path)
