"""The platform whose Excel last calculated a workbook, where results depend on it.

CHAR and CODE use the platform's character set (Microsoft's documentation of CHAR: "Macintosh:
Macintosh character set; Windows: ANSI"): ``CHAR(233)`` is ``é`` on Windows (code page 1252) and
``È`` on a Mac. A workbook saved by Excel for Mac says so in ``docProps/app.xml``
(``Microsoft Macintosh Excel``); its formulas are recalculated with the Macintosh set
(:func:`character_set`), every other one with Windows'.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

#: The ``Application`` an .xlsx package names when Excel for Mac saved it.
MAC_EXCEL = "Microsoft Macintosh Excel"

_MAC: contextvars.ContextVar[bool] = contextvars.ContextVar("_MAC", default=False)


def is_mac() -> bool:
    """Whether the formula running now belongs to a workbook Excel for Mac calculated."""
    return _MAC.get()


@contextlib.contextmanager
def character_set(mac: bool) -> Iterator[None]:
    """Within the block, CHAR and CODE use the Macintosh character set (when ``mac``)."""
    token = _MAC.set(bool(mac))
    try:
        yield
    finally:
        _MAC.reset(token)


def encoding() -> str:
    """The Python codec of the character set in use."""
    return "mac_roman" if _MAC.get() else "cp1252"
