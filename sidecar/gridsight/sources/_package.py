"""Part names of an .xlsx package compared as the format compares them: ignoring ASCII case.

ECMA-376 Part 2 (Open Packaging Conventions, 9.1.1.1) makes part names equivalent when they differ
only in ASCII case, so a package may hold ``xl/SharedStrings.xml`` while its relationships name
``xl/sharedStrings.xml`` (and Excel opens it). Python's zipfile, and openpyxl through it, look names up
exactly. :class:`Package` is a zip whose lookups fall back to the name ignoring case;
:func:`spelled_as_referenced` gives a copy of a package whose parts are renamed to the spelling its
relationships and content types use, for readers that compare names themselves (openpyxl).
"""

from __future__ import annotations

import io
import posixpath
import zipfile
from pathlib import Path
from typing import IO

from defusedxml import ElementTree

_PKG_RELS = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
_TYPES = "{http://schemas.openxmlformats.org/package/2006/content-types}Override"
#: Relationship parts larger than this are not read for names (nothing written by Excel is close).
_MAX_RELS_BYTES = 2_000_000


class Package(zipfile.ZipFile):
    """A zip archive whose members are found by name ignoring ASCII case when the exact name is not
    there (``getinfo``, and through it ``open`` and ``read``)."""

    _folded: dict[str, zipfile.ZipInfo] | None = None

    def getinfo(self, name: str) -> zipfile.ZipInfo:
        try:
            return super().getinfo(name)
        except KeyError:
            if self._folded is None:
                self._folded = {i.filename.lower(): i for i in self.infolist()}
            hit = self._folded.get(name.lower())
            if hit is None:
                raise
            return hit

    def has(self, name: str) -> bool:
        """Whether the package holds the part ``name`` (ignoring case)."""
        try:
            self.getinfo(name)
        except KeyError:
            return False
        return True


def _referenced(zf: zipfile.ZipFile) -> set[str]:
    """Every part name the package's relationships and content types spell out."""
    names: set[str] = set()
    for info in zf.infolist():
        lower = info.filename.lower()
        if info.file_size > _MAX_RELS_BYTES:
            continue
        if lower.endswith(".rels"):
            folder = posixpath.dirname(posixpath.dirname(info.filename))
            for rel in ElementTree.fromstring(zf.read(info)).iter(_PKG_RELS):
                target = rel.get("Target", "")
                if rel.get("TargetMode", "") == "External" or not target:
                    continue
                names.add(
                    target.lstrip("/")
                    if target.startswith("/")
                    else posixpath.normpath(posixpath.join(folder, target))
                )
        elif lower == "[content_types].xml":
            for part in ElementTree.fromstring(zf.read(info)).iter(_TYPES):
                names.add(part.get("PartName", "").lstrip("/"))
    return names


def spelled_as_referenced(source: str | Path | IO[bytes]) -> io.BytesIO | None:
    """A copy of the package with each part renamed to the spelling its references use, where that
    differs from the stored name only in case; None when every name is already spelled so."""
    with zipfile.ZipFile(source) as zf:
        stored = {i.filename.lower(): i.filename for i in zf.infolist()}
        renames = {
            stored[name.lower()]: name
            for name in _referenced(zf)
            if name not in zf.NameToInfo and name.lower() in stored
        }
        if not renames:
            return None
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as copy:
            for info in zf.infolist():
                copy.writestr(renames.get(info.filename, info.filename), zf.read(info))
    out.seek(0)
    return out


__all__ = ["Package", "spelled_as_referenced"]
