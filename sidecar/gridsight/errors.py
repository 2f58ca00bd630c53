"""Typed errors: every failure a user can cause has its own class and one clear message.

The CLI turns any :class:`GridSightError` into one line on stderr and exit code 2; the API
(later) turns it into a 4xx JSON error. Anything else escaping is a bug.
"""

from __future__ import annotations

__all__ = [
    "CorruptFileError",
    "EncodingError",
    "GridSightError",
    "PasswordProtectedError",
    "RangeSyntaxError",
    "ResourceLimitError",
    "SnapshotError",
    "SourceNotFoundError",
    "UnknownSheetError",
    "UnsupportedFormatError",
]


class GridSightError(Exception):
    """Base class of every error GridSight reports to a user."""


class SourceNotFoundError(GridSightError, FileNotFoundError):
    """The file (or source name) does not exist."""


class UnsupportedFormatError(GridSightError):
    """The file is not a spreadsheet GridSight can read."""


class CorruptFileError(GridSightError):
    """The file claims to be a spreadsheet but cannot be parsed."""


class PasswordProtectedError(GridSightError):
    """The workbook is encrypted; GridSight never guesses passwords."""


class ResourceLimitError(GridSightError):
    """The input would exceed a safety cap (decompressed size, cells, characters)."""


class EncodingError(GridSightError):
    """A text file's encoding could not be determined or decoded."""


class UnknownSheetError(GridSightError, KeyError):
    """A sheet name that the workbook does not have."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "unknown sheet"


class RangeSyntaxError(GridSightError, ValueError):
    """An address or range that is not valid A1 / R1C1 text."""


class SnapshotError(GridSightError, ValueError):
    """A snapshot.v1 payload that does not match its schema."""
