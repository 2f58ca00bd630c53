"""The Source protocol and the registry that maps names and file types to readers.

A source turns something outside (a file, a live Excel, an add-in snapshot) into the one
:class:`~gridsight.grid.Workbook` model. The engine never imports a source's library.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from gridsight.errors import SourceNotFoundError, UnknownSheetError, UnsupportedFormatError
from gridsight.grid import Workbook


@runtime_checkable
class Source(Protocol):
    """Anything that can produce a Workbook. ``sheets=None`` means every sheet."""

    name: str

    def read(self, sheets: Sequence[str] | None = None) -> Workbook: ...

    def close(self) -> None: ...


SourceFactory = Callable[..., Source]


@dataclass(frozen=True)
class SourceInfo:
    name: str
    factory: SourceFactory
    extensions: tuple[str, ...] = ()
    description: str = ""
    options: dict[str, Any] = field(default_factory=dict)


_REGISTRY: dict[str, SourceInfo] = {}


def register_source(
    name: str, factory: SourceFactory, *, extensions: Sequence[str] = (), description: str = ""
) -> None:
    """Register a reader under a name (built-ins use this too, as an add-on would)."""
    _REGISTRY[name] = SourceInfo(name, factory, tuple(e.lower() for e in extensions), description)


def get_source(name: str) -> SourceInfo:
    """A registered source by name; raises UnsupportedFormatError listing the known ones."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnsupportedFormatError(
            f"no source named {name!r}; known sources: {', '.join(sorted(_REGISTRY))}"
        ) from None


def list_sources() -> list[SourceInfo]:
    return list(_REGISTRY.values())


def source_for_path(path: Path, *, values_only: bool = False) -> SourceInfo:
    """Choose a reader from the file's content first (magic bytes), then its extension."""
    from gridsight.sources._safety import sniff_kind

    if not path.exists():
        raise SourceNotFoundError(f"{path}: no such file")
    if path.is_dir():
        raise UnsupportedFormatError(f"{path} is a folder, not a spreadsheet file")
    kind = sniff_kind(path)
    if kind == "zip":
        return get_source("calamine" if values_only else "xlsx")
    if kind in ("xls", "xlsb", "ods"):
        return get_source("calamine")
    ext = path.suffix.lower()
    for info in _REGISTRY.values():
        if ext in info.extensions and info.name not in ("xlsx", "calamine"):
            return info
    if kind == "text":
        return get_source("csv")
    raise UnsupportedFormatError(
        f"{path.name} is not a spreadsheet GridSight can read (.xlsx, .xlsm, .xls, .xlsb, .ods, .csv, .tsv)"
    )


def choose_sheets(names: Sequence[str], wanted: Sequence[str] | None, fname: str) -> list[str]:
    """The workbook's own spelling of each wanted sheet (case-insensitive, as in Excel), in the
    order asked; an unknown name raises UnknownSheetError listing the real ones."""
    if wanted is None:
        return list(names)
    by_fold = {n.casefold(): n for n in names}
    out = []
    for w in wanted:
        hit = by_fold.get(w.casefold())
        if hit is None:
            listed = ", ".join(repr(n) for n in names) or "none"
            raise UnknownSheetError(f"{fname} has no sheet named {w!r}; sheets are: {listed}")
        out.append(hit)
    return out
