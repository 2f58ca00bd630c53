"""Typed errors: every failure a user can cause has its own class and one clear message.

The CLI turns any :class:`GridSightError` into one line on stderr and exit code 2; the API
(later) turns it into a 4xx JSON error. Anything else escaping is a bug.
"""

from __future__ import annotations

__all__ = [
    "AlreadyRunningError",
    "CertificateError",
    "CorruptFileError",
    "DesktopError",
    "EditConflictError",
    "EditPlanError",
    "EncodingError",
    "FileChangedError",
    "FormulaPolicyError",
    "FormulaSyntaxError",
    "GrammarError",
    "GridSightError",
    "ModelError",
    "ModelIntegrityError",
    "ModelKindError",
    "ModelNotFoundError",
    "NothingToUndoError",
    "PasswordProtectedError",
    "PlanStateError",
    "PromptTooLongError",
    "RangeSyntaxError",
    "RequestCancelledError",
    "RequestTimeoutError",
    "ResourceLimitError",
    "SnapshotError",
    "SourceNotFoundError",
    "TokenizerError",
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


class ModelError(GridSightError):
    """Base of everything that can go wrong with the local model; deterministic features keep working."""


class ModelNotFoundError(ModelError, FileNotFoundError):
    """No model file (or no model runtime) where GridSight was told to look."""


class ModelIntegrityError(ModelError):
    """A model file that is truncated, corrupt, or does not match its pinned checksum."""


class ModelKindError(ModelError):
    """A valid model of the wrong kind (an embedding model, an adapter) given where a chat model is needed."""


class PromptTooLongError(ModelError, ValueError):
    """The parts of a prompt that cannot be trimmed do not fit the model's context."""


class GrammarError(ModelError, ValueError):
    """A grammar or JSON schema that does not compile, or that can match no finite output."""


class RequestCancelledError(ModelError):
    """A model request was cancelled (e.g. a newer request from the same typing session)."""


class RequestTimeoutError(ModelError, TimeoutError):
    """A model request ran past its time limit; ``partial`` holds the text produced so far."""

    def __init__(self, message: str, partial: str = "") -> None:
        super().__init__(message)
        self.partial = partial


class FormulaSyntaxError(GridSightError, ValueError):
    """Formula text that Excel's grammar does not accept."""


class FormulaPolicyError(GridSightError):
    """A formula GridSight refuses to write or run (external calls, links, DDE)."""


class EditPlanError(GridSightError, ValueError):
    """An edit plan that is malformed or did not validate; nothing was written."""

    def __init__(self, message: str, problems: list[dict[str, object]] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []


class EditConflictError(GridSightError):
    """A cell an edit plan (or an undo) would write no longer holds what the plan expected."""

    def __init__(self, message: str, conflicts: list[dict[str, object]] | None = None) -> None:
        super().__init__(message)
        self.conflicts = conflicts or []


class FileChangedError(EditConflictError):
    """The workbook file changed on disk since it was read or previewed; nothing was written."""


class PlanStateError(GridSightError):
    """An edit plan asked to do something its state forbids (applied twice, not previewed, replayed)."""


class NothingToUndoError(GridSightError):
    """Undo was asked for a workbook whose undo journal is empty."""


class CertificateError(GridSightError):
    """The local HTTPS certificate could not be created, read or trusted."""


class TokenizerError(GridSightError):
    """A tokenizer needed for token counts is missing or unreadable (e.g. cl100k_base offline data)."""


class DesktopError(GridSightError):
    """The desktop window cannot open: no display, no GUI backend, a busy port, a failed page."""


class AlreadyRunningError(DesktopError):
    """Another GridSight desktop window already owns the sidecar (it was brought to the front)."""


class ExtractSchemaError(GridSightError, ValueError):
    """An extraction schema that is not valid JSON Schema or JSON templates."""


class ExtractInputError(GridSightError, ValueError):
    """A table given for extraction that cannot be read, or holds no numeric cells."""
