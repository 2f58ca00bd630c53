"""Checks made before any parser sees a file: what it really is, and whether it is a bomb.

openpyxl parses XML through defusedxml when it is installed (it is a dependency), which stops
entity-expansion bombs; here we stop zip bombs by the sizes the archive declares (Python's
zipfile never inflates a member past its declared size) and spot encrypted workbooks.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from gridsight.errors import CorruptFileError, PasswordProtectedError, ResourceLimitError

#: Largest total uncompressed size of a workbook's parts we agree to read.
MAX_UNCOMPRESSED_BYTES = 2 * 1024**3
#: A member this much larger than its compressed size (and over 64 MB) is treated as a bomb.
MAX_RATIO = 200
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def sniff_kind(path: Path) -> str:
    """'zip' (xlsx/xlsm), 'xlsb', 'xls', 'ods', 'text' or 'binary', from the first bytes."""
    with path.open("rb") as fh:
        head = fh.read(8192)
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        try:
            with zipfile.ZipFile(path) as zf:
                names = set(zf.namelist())
        except (zipfile.BadZipFile, OSError, ValueError) as exc:
            raise CorruptFileError(f"{path.name}: damaged zip archive ({exc})") from None
        if "mimetype" in names and "content.xml" in names:
            return "ods"
        if "xl/workbook.bin" in names:
            return "xlsb"
        return "zip"
    if head.startswith(_OLE_MAGIC):
        if _is_encrypted_ole(path):
            raise PasswordProtectedError(
                f"{path.name} is password-protected; open it in Excel, remove the password, and save a copy"
            )
        return "xls"
    if b"\x00" in head and not head.startswith((b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf")):
        return "binary"
    return "text"


def _is_encrypted_ole(path: Path) -> bool:
    """Encrypted OOXML is an OLE file holding an 'EncryptedPackage' stream."""
    marker = "EncryptedPackage".encode("utf-16-le")
    with path.open("rb") as fh:
        data = fh.read(4 * 1024 * 1024)
    return marker in data


def check_zip(path: Path) -> None:
    """Refuse archives that are not workbooks, are damaged, or would inflate past the caps."""
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            total = 0
            for info in infos:
                total += info.file_size
                if info.file_size > 64 * 1024**2 and info.file_size > MAX_RATIO * max(info.compress_size, 1):
                    raise ResourceLimitError(
                        f"{path.name}: part {info.filename} would inflate {info.file_size:,} bytes from "
                        f"{info.compress_size:,} (a zip bomb?); refusing to read it"
                    )
            if total > MAX_UNCOMPRESSED_BYTES:
                raise ResourceLimitError(
                    f"{path.name} would inflate to {total / 1024**3:.1f} GiB; the limit is "
                    f"{MAX_UNCOMPRESSED_BYTES / 1024**3:.0f} GiB"
                )
            names = {i.filename for i in infos}
    except zipfile.BadZipFile as exc:
        raise CorruptFileError(f"{path.name}: damaged zip archive ({exc})") from None
    if "xl/workbook.xml" not in names and not any(n.endswith("workbook.xml") for n in names):
        raise CorruptFileError(f"{path.name} is a zip archive but not an Excel workbook (no xl/workbook.xml)")
