"""A table as a plain cell grid: from XML/HTML markup, CSV text, LaTeX tabular source, or a sheet region.

Spanning cells (``colspan``/``rowspan``, merged sheet cells) are copied into every slot they cover, so
row ``r``, column ``c`` of the grid is what a reader sees there. Header rows and row-label columns are
found by :mod:`gridsight.extract._detect`; this module only reads.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from gridsight.errors import ExtractInputError
from gridsight.grid import Range, Sheet, rc_to_a1

#: Cells in one table at most (a bigger table is refused with a clear message, never half-read).
MAX_CELLS = 200_000
#: The widest span honoured (a ``colspan="1000"`` typo must not blow the grid up).
MAX_SPAN = 100

_SPACE = re.compile(r"\s+")


def clean(text: str) -> str:
    """One line: no-break and thin spaces as spaces, runs of white space as one."""
    return _SPACE.sub(" ", text.replace("\u00a0", " ").replace("\u2009", " ").replace("\u202f", " ")).strip()


@dataclass(frozen=True)
class TableGrid:
    """Rows of cell texts (spans expanded), the rows the markup marks as headers, and where it sits.

    ``origin`` is the sheet row/column of cell (0, 0) (0-based; (0, 0) for a table given as text), so
    :meth:`address` gives sheet addresses for sheet regions and table-relative ones otherwise.
    """

    rows: tuple[tuple[str, ...], ...]
    marked_header_rows: tuple[int, ...] = ()
    caption: str = ""
    notes: str = ""
    origin: tuple[int, int] = (0, 0)
    sheet: str | None = None
    #: Header rows found by table detection on a sheet (used instead of the rules when given).
    known_header_rows: tuple[int, ...] | None = None
    known_label_cols: tuple[int, ...] | None = None
    numbers: dict[tuple[int, int], float] = field(default_factory=dict, compare=False)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return max((len(r) for r in self.rows), default=0)

    def text(self, row: int, col: int) -> str:
        r = self.rows[row]
        return r[col] if col < len(r) else ""

    def address(self, row: int, col: int) -> str:
        return rc_to_a1(self.origin[0] + row, self.origin[1] + col)


class _TableParser(HTMLParser):
    """Collects the first <table>'s rows (with spans), its caption and footnotes; tolerant of both
    HTML and XML (JATS ``table-wrap``): tag names are compared without namespace prefixes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[tuple[str, int, int]]] = []
        self.header_flags: list[bool] = []
        self.caption: list[str] = []
        self.notes: list[str] = []
        self._cell: list[str] | None = None
        self._span = (1, 1)
        self._in_head = 0
        self._row_all_th = True
        self._where: list[str] = []
        self._depth = 0  # nested tables: only the outermost is read
        self._done = False

    @staticmethod
    def _name(tag: str) -> str:
        return tag.rsplit(":", 1)[-1].lower()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        name = self._name(tag)
        if name in ("caption", "title") and self._depth <= 1 and not self.rows:
            self._where.append("caption")
        elif name in ("table-wrap-foot", "tfoot", "fn"):
            self._where.append("notes")
        if self._done:
            return
        if name == "table":
            self._depth += 1
            return
        if self._depth != 1:
            return
        if name == "thead":
            self._in_head += 1
        elif name == "tr":
            self.rows.append([])
            self.header_flags.append(self._in_head > 0)
            self._row_all_th = True
        elif name in ("td", "th"):
            if not self.rows:
                self.rows.append([])
                self.header_flags.append(self._in_head > 0)
            a = dict(attrs)
            self._span = (_span(a.get("rowspan")), _span(a.get("colspan")))
            self._cell = []
            if name == "td":
                self._row_all_th = False
        elif name == "br" and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        name = self._name(tag)
        if name in ("caption", "title", "table-wrap-foot", "tfoot", "fn") and self._where:
            self._where.pop()
        if self._done:
            return
        if name == "table":
            self._depth -= 1
            if self._depth == 0 and self.rows:
                self._done = True
            return
        if self._depth != 1:
            return
        if name == "thead":
            self._in_head = max(0, self._in_head - 1)
        elif name in ("td", "th") and self._cell is not None:
            self.rows[-1].append((clean("".join(self._cell)), *self._span))
            self._cell = None
        elif name == "tr" and self.rows and self._row_all_th and self.rows[-1]:
            self.header_flags[-1] = True

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        elif self._where and self._where[-1] == "caption" and not self.rows:
            self.caption.append(data)
        elif self._where and self._where[-1] == "notes":
            self.notes.append(data)


def _span(value: str | None) -> int:
    try:
        return max(1, min(MAX_SPAN, int(str(value).strip())))
    except (TypeError, ValueError):
        return 1


def _expand(rows: list[list[tuple[str, int, int]]]) -> list[list[str]]:
    """Lay spanning cells out on a grid: each copy of a spanned text fills every slot it covers."""
    grid: dict[tuple[int, int], str] = {}
    n_rows = len(rows)
    for r, cells in enumerate(rows):
        c = 0
        for text, rs, cs in cells:
            while (r, c) in grid:
                c += 1
            for dr in range(min(rs, n_rows - r)):
                for dc in range(cs):
                    grid[(r + dr, c + dc)] = text
            c += cs
        if len(grid) > MAX_CELLS:
            raise ExtractInputError(f"the table has more than {MAX_CELLS:,} cells; give a smaller range")
    width = max((c for _, c in grid), default=-1) + 1
    return [[grid.get((r, c), "") for c in range(width)] for r in range(n_rows)]


def from_markup(text: str) -> TableGrid:
    """The first table in HTML or XML (JATS ``<table-wrap>``, plain ``<table>``) text."""
    parser = _TableParser()
    try:
        parser.feed(text)
        parser.close()
    except (ValueError, AssertionError) as exc:  # html.parser is lenient; these are truly broken inputs
        raise ExtractInputError(f"cannot read the table markup: {exc}") from None
    rows = [r for r in parser.rows]
    flags = [f for r, f in zip(parser.rows, parser.header_flags, strict=True)]
    keep = [i for i, r in enumerate(rows) if r]
    if not keep:
        raise ExtractInputError("no <table> with rows and cells was found in the text")
    grid = _expand([rows[i] for i in keep])
    header = tuple(n for n, i in enumerate(keep) if flags[i])
    return TableGrid(
        rows=tuple(tuple(r) for r in grid),
        marked_header_rows=header,
        caption=clean("".join(parser.caption)),
        notes=clean(" ".join(parser.notes)),
    )


def from_csv(text: str, delimiter: str | None = None) -> TableGrid:
    """CSV (or TSV, or ``|``-separated) text; the delimiter is sniffed when not given."""
    sample = text[:4096]
    if delimiter is None:
        try:
            delimiter = csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
        except csv.Error:
            delimiter = ","
    rows = [[clean(c) for c in row] for row in csv.reader(io.StringIO(text), delimiter=delimiter)]
    rows = [r for r in rows if any(r)]
    if not rows:
        raise ExtractInputError("the CSV text holds no rows")
    if sum(len(r) for r in rows) > MAX_CELLS:
        raise ExtractInputError(f"the table has more than {MAX_CELLS:,} cells; give a smaller range")
    width = max(len(r) for r in rows)
    return TableGrid(rows=tuple(tuple(r + [""] * (width - len(r))) for r in rows))


#: Commands whose (first) braced argument is a look, not content: dropped with it.
_LATEX_LOOKS = re.compile(
    r"\\(?:cellcolor|rowcolor|color|textcolor|colorbox|hspace|vspace|rule)\*?(?:\[[^\]]*\])?\{[^{}]*\}"
)
#: Any other command name (its braced arguments stay, as text).
_LATEX_CMD = re.compile(r"\\[a-zA-Z]+\*?(?:\[[^\]]*\])?")


def _latex_text(cell: str) -> str:
    """A LaTeX cell as plain text: looks dropped, commands unwrapped, math signs kept."""
    s = cell.replace("\\%", "%").replace("\\pm", "±").replace("\\times", "×").replace("\\&", "&")
    s = re.sub(r"^\s*\[[\d.]+\w*\]", "", s)  # the spacing of a "\\\\[2pt]" row end
    s = _LATEX_LOOKS.sub("", s)
    s = _LATEX_CMD.sub(" ", s)
    return clean(s.replace("$", "").replace("{", "").replace("}", "").replace("~", " "))


_MULTI = re.compile(r"\\multi(?:column|row)\{(\d+)\}\{[^{}]*\}\{((?:[^{}]|\{[^{}]*\})*)\}")


_INNER_TABULAR = re.compile(
    r"\\begin\{tabular\*?\}(?:\[[^\]]*\])?\{(?:[^{}]|\{[^{}]*\})*\}((?:(?!\\begin\{tabular).)*?)\\end\{tabular\*?\}",
    re.S,
)


def _flatten_nested(text: str) -> str:
    """A ``tabular`` inside a cell (a two-line header) becomes that cell's text, its lines joined."""
    while len(re.findall(r"\\begin\{tabular", text)) > 1:
        m = None
        for m in _INNER_TABULAR.finditer(text):
            if text[: m.start()].count("\\begin{tabular") >= 1:
                break
        else:
            return text
        inner = re.sub(r"\\\\", " ", m.group(1)).replace("&", " ")
        text = text[: m.start()] + inner + text[m.end() :]
    return text


def from_latex(text: str) -> TableGrid:
    """A LaTeX ``tabular``: rows split on ``\\\\``, cells on ``&``, ``\\multicolumn`` spans kept."""
    text = _flatten_nested(text)
    body = text
    m = re.search(
        r"\\begin\{tabular\*?\}(?:\{[^{}]*\})?\{(?:[^{}]|\{[^{}]*\})*\}(.*?)\\end\{tabular", text, re.S
    )
    if m:
        body = m.group(1)
    cap = re.search(r"\\caption\{((?:[^{}]|\{[^{}]*\})*)\}", text)
    rows: list[list[tuple[str, int, int]]] = []
    down: list[tuple[int, int, int]] = []  # \multirow cells: (row, cell number, rows spanned)
    for line in re.split(r"\\\\", body):
        line = re.sub(r"\\(?:hline|toprule|midrule|bottomrule|cline\{[^}]*\}|hdashline)", "", line)
        line = re.sub(r"(?<!\\)%.*", "", line)
        if not line.strip():
            continue
        cells: list[tuple[str, int, int]] = []
        for cell in re.split(r"(?<!\\)&", line):
            span = 1
            mm = _MULTI.search(cell)
            if mm and cell.strip().startswith("\\multicolumn"):
                span, cell = int(mm.group(1)), mm.group(2)
                mm = _MULTI.search(cell)
            if mm and cell.strip().startswith("\\multirow"):
                down.append((len(rows), len(cells), _span(mm.group(1))))
                cell = mm.group(2)
            cells.append((_latex_text(cell), 1, _span(str(span))))
        rows.append(cells)
    if not rows:
        raise ExtractInputError("no tabular rows were found in the LaTeX text")
    for r, k, n in down:  # LaTeX leaves the covered cells empty: the text fills them
        for below in rows[r + 1 : r + n]:
            if k < len(below) and not below[k][0]:
                below[k] = (rows[r][k][0], below[k][1], below[k][2])
    grid = _expand(rows)
    return TableGrid(rows=tuple(tuple(r) for r in grid), caption=clean(cap.group(1)) if cap else "")


def from_text(text: str, fmt: str | None = None) -> TableGrid:
    """A table given as text: ``fmt`` is ``html``, ``xml``, ``latex`` or ``csv`` (guessed when None)."""
    if not text.strip():
        raise ExtractInputError("the table text is empty")
    kind = (fmt or "").lower() or _guess_format(text)
    if kind in ("html", "xml", "htm"):
        return from_markup(text)
    if kind in ("latex", "tex"):
        return from_latex(text)
    if kind in ("csv", "tsv", "txt"):
        return from_csv(text, "\t" if kind == "tsv" else None)
    raise ExtractInputError(f"unknown table format {fmt!r}; use html, xml, latex or csv")


def _guess_format(text: str) -> str:
    head = text.lstrip()[:2000].lower()
    if "<table" in head or "<tr" in head or head.startswith("<"):
        return "html"
    if "\\begin{tabular" in text or ("&" in text and "\\\\" in text):
        return "latex"
    return "csv"


def from_sheet(sheet: Sheet, area: Range | None = None) -> TableGrid:
    """A sheet region as shown (display text), merged cells copied into every slot they cover.

    Header rows and row-label columns come from :func:`gridsight.detect.detect_tables` when it finds
    a table covering the region's top-left cell.
    """
    from gridsight.grid import format_value

    used = sheet.used_range
    if used is None:
        raise ExtractInputError(f"sheet {sheet.name!r} is empty")
    rng = area or used
    if rng.size > MAX_CELLS:
        raise ExtractInputError(f"{rng.ref()} has more than {MAX_CELLS:,} cells; give a smaller range")
    rows: list[list[str]] = []
    numbers: dict[tuple[int, int], float] = {}
    for r in range(rng.top, rng.bottom + 1):
        row: list[str] = []
        for c in range(rng.left, rng.right + 1):
            anchor = sheet.merge_at(r, c)
            rr, cc = (anchor.top, anchor.left) if anchor is not None else (r, c)
            cell = sheet.cell(rr, cc)
            row.append(clean(format_value(cell)))
            if isinstance(cell.value, (int, float)) and not isinstance(cell.value, bool):
                numbers[(r - rng.top, c - rng.left)] = float(cell.value)
        rows.append(row)
    header_rows, label_cols = _detected_structure(sheet, rng)
    return TableGrid(
        rows=tuple(tuple(r) for r in rows),
        origin=(rng.top, rng.left),
        sheet=sheet.name,
        known_header_rows=header_rows,
        known_label_cols=label_cols,
        numbers=numbers,
    )


def _detected_structure(sheet: Sheet, rng: Range) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    from gridsight.detect import detect_tables

    try:
        tables = detect_tables(sheet).tables
    except Exception:  # detection is a help here, never a reason to fail
        return None, None
    for t in tables:
        if t.range.intersect(rng) is not None and t.range.contains(max(rng.top, t.range.top), rng.left):
            hdr = tuple(r - rng.top for r in t.header_rows if rng.top <= r <= rng.bottom)
            labels = tuple(c - rng.left for c in t.row_header_cols if rng.left <= c <= rng.right)
            return hdr, labels
    return None, None
