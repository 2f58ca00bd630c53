"""Every prompt GridSight sends, in one place, versioned.

The table-detection and QA prompts adapt appendix L of SpreadsheetLLM (Tian et al., 2024) for a
0.5B model: the paper's long upper-case instructions are cut to a few short sentences, the output
format matches a grammar (so "DON'T ADD OTHER WORDS" is enforced by decoding, not by asking), and
each template carries few-shot examples -- small models copy examples far better than they follow
instructions (FINDINGS.md: few-shot + header->range list + grammar took valid formulas from 43% to 83%).

Bump a template's ``version`` whenever its text changes: cached answers and benchmark results are
keyed by ``template.id``.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass

from gridsight.errors import GridSightError
from gridsight.llm._runtime import Message
from gridsight.llm._trim import PromptPart, _render

PROMPTS_VERSION = 1


@dataclass(frozen=True)
class PromptTemplate:
    """A system instruction, few-shot (user, assistant) pairs, and user sections with ``{fields}``.

    A user section that is exactly ``{field}`` may be given a list of strings (cells, rows): it becomes
    a trimmable unit list in :meth:`parts`, so a long sheet is cut by whole cells, never mid-cell.
    """

    name: str
    version: int
    system: str
    user: tuple[str, ...]
    examples: tuple[tuple[str, str], ...] = ()
    source: str = ""
    unit_name: str = "cells"

    @property
    def id(self) -> str:
        return f"{self.name}@v{self.version}"

    @property
    def fields(self) -> list[str]:
        out: list[str] = []
        for section in self.user:
            for _, name, _, _ in string.Formatter().parse(section):
                if name and name not in out:
                    out.append(name)
        return out

    def parts(self, **values: str | Sequence[str]) -> list[PromptPart]:
        """Structured parts for :func:`gridsight.llm.fit_prompt` (examples drop before the question)."""
        missing = [f for f in self.fields if f not in values]
        extra = [k for k in values if k not in self.fields]
        if missing or extra:
            raise GridSightError(
                f"prompt {self.id}: missing fields {missing}"
                if missing
                else f"prompt {self.id}: unknown fields {extra}"
            )
        parts = [PromptPart("system", self.system, role="system")]
        for i, (question, answer) in enumerate(self.examples):
            parts.append(PromptPart(f"example{i}.user", question, required=False, priority=1))
            parts.append(
                PromptPart(f"example{i}.assistant", answer, role="assistant", required=False, priority=1)
            )
        for i, section in enumerate(self.user):
            field = section[1:-1] if section.startswith("{") and section.endswith("}") else None
            value = values.get(field) if field else None
            if field is not None and value is not None and not isinstance(value, str):
                parts.append(PromptPart(field, units=list(value), required=False, unit_name=self.unit_name))
            else:
                text = section.format(
                    **{k: v if isinstance(v, str) else "\n".join(v) for k, v in values.items()}
                )
                parts.append(PromptPart(f"user{i}", text))
        return _pair_examples(parts)

    def render(self, **values: str | Sequence[str]) -> list[Message]:
        """The chat messages, untrimmed."""
        return _render(self.parts(**values), {}, set())


def _pair_examples(parts: list[PromptPart]) -> list[PromptPart]:
    """Few-shot turns stay user/assistant pairs: each pair gets its own priority, so both drop together."""
    out = []
    for p in parts:
        if p.name.startswith("example"):
            n = int(p.name[len("example") :].split(".")[0])
            p = PromptPart(p.name, p.text, required=False, priority=1 + n, role=p.role)
        out.append(p)
    return out


#: How the SheetCompressor text reads (gridsight.encode): one line per value, addresses first.
_SHEET_FORMAT = (
    "The sheet is given one line per value: the cells that hold it, a space, then the value ('A1 Year'). "
    "'B2:C9 {IntNum}' is a block of numbers of one type (IntNum, FloatNum, DateData, TextData, or a "
    "number format such as {#,##0}); 'A3:C3 Region|Q1|Q2' gives one value per cell in turn. Empty cells "
    "are left out."
)

DETECT_TABLES = PromptTemplate(
    name="detect_tables",
    version=2,
    source="SpreadsheetLLM appendix L.2, shortened for small models",
    system=(
        "You find tables in spreadsheets. " + _SHEET_FORMAT + " Give the range of every table: header and "
        "data only, no title or notes. Answer with ranges separated by ', ', or NONE."
    ),
    examples=(
        (
            "A1 Sales 2023\nA3:C3 Region|Q1|Q2\nA4:A6 North|South|West\nB4:C6 {IntNum}\nA8 Source: finance",
            "A3:C6",
        ),
        (
            "A1:E1 Name|Age||Item|Price\nA2 Ann\nB2:B5 {IntNum}\nD2:D3 Pen|Ink\nE2:E3 {FloatNum}\n"
            "A3:A4 {TextData}\nA5 Di",
            "A1:B5, D1:E3",
        ),
    ),
    user=("{sheet}",),
)

DETECT_CHOOSE = PromptTemplate(
    name="detect_choose",
    version=2,
    source="GridSight (appendix L.2's task as a choice between two readings the rules found)",
    system=(
        "You find the table in a part of a spreadsheet. " + _SHEET_FORMAT + " A table's range covers its "
        "header rows and data rows only: never a title line above it, never notes below it. Answer with "
        "one of the two ranges."
    ),
    examples=(
        (
            "A1 Sales 2023\nA2:C2 Region|Q1|Q2\nA3:A5 North|South|West\nB3:C5 {IntNum}\n"
            "The table is A1:C5 or A2:C5?",
            "A2:C5",
        ),
        (
            "A1:B1 Name|Age\nA2 Ann\nA3:A5 {TextData}\nA6 Di\nB2:B6 {IntNum}\nA8 Source: census\n"
            "The table is A1:B6 or A1:B8?",
            "A1:B6",
        ),
    ),
    user=("{sheet}\nThe table is {first} or {second}?",),
)

QA_PICK_TABLE = PromptTemplate(
    name="qa_pick_table",
    version=2,
    source="SpreadsheetLLM appendix L.3 stage 1, shortened for small models",
    system=(
        "You pick the table that answers a question. " + _SHEET_FORMAT + " Answer with the range of ONE "
        "table, nothing else."
    ),
    examples=(
        (
            "Tables: A1:C20 (Date, Product, Units), E1:F5 (Product, Price)\n"
            "Question: What does a Widget cost?",
            "E1:F5",
        ),
    ),
    user=("{sheet}", "Question: {question}"),
)

QA_ANSWER_CELL = PromptTemplate(
    name="qa_answer_cell",
    version=1,
    source="SpreadsheetLLM appendix L.3 stage 2, shortened for small models",
    system=(
        "You answer a question about a table. Cells are given as 'A1,Year|A2,Profit' (address, text). "
        "Answer with the one cell that holds the answer, like B3, or a formula that computes it, like "
        "=SUM(B2:B10)."
    ),
    examples=(
        ("A1,Year|B1,Profit|A2,2021|B2,120|A3,2022|B3,95\nQuestion: What was the profit in 2022?", "B3"),
        (
            "A1,Item|B1,Cost|A2,Pen|B2,2|A3,Ink|B3,7\nQuestion: What do all items cost together?",
            "=SUM(B2:B3)",
        ),
    ),
    user=("{table}", "Question: {question}"),
)

QA_CHOOSE = PromptTemplate(
    name="qa_choose",
    version=1,
    source="GridSight (SQuARE-style: the model only chooses among candidates the rules computed)",
    system=(
        "You judge which option answers a question about a spreadsheet. Answer with the number of the "
        "best option only."
    ),
    examples=(
        (
            "Question: How many people are older than 30?\nOptions:\n1. counts the rows where Age > 30\n"
            "2. takes the highest Age",
            "1",
        ),
        (
            "Question: How many cakes did we sell?\nOptions:\n1. the table Staff: columns Name, Role; rows "
            "Ann, Bo\n2. the table Sales: columns Product, Units; rows Tea, Cake",
            "2",
        ),
    ),
    user=("Question: {question}\nOptions:\n{options}",),
)

QA_ASK_ABOUT = PromptTemplate(
    name="qa_ask_about",
    version=1,
    source=(
        "GridSight (noisy-channel choice: the model scores the user's question as its reply to each "
        "option; measured 12/12 on hand-made ties where naming an option under a grammar was at chance)"
    ),
    system="You write one short question a user might ask about a spreadsheet.",
    user=("{option}",),
)

FORMULA = PromptTemplate(
    name="formula",
    version=1,
    source="GridSight (FINDINGS.md: header->range list + few-shot + grammar)",
    system=(
        "You write one Excel formula. Use only the ranges listed for the columns. Answer with the formula "
        "only, starting with =."
    ),
    examples=(
        ("Columns: Price=B2:B50, Units=C2:C50\nTask: total units", "=SUM(C2:C50)"),
        ("Columns: Name=A2:A30, Score=B2:B30\nTask: highest score", "=MAX(B2:B30)"),
        ("Columns: City=A2:A99, Sales=D2:D99\nTask: how many rows are for Paris", '=COUNTIF(A2:A99,"Paris")'),
        ("Columns: Cost=E2:E12\nTask: average cost", "=AVERAGE(E2:E12)"),
    ),
    user=("Columns: {columns}\nTask: {task}",),
    unit_name="columns",
)

SUGGEST = PromptTemplate(
    name="suggest",
    version=1,
    source="GridSight (suggestions while typing: the model picks the completion the typed words mean)",
    system="Pick the option that best finishes what the user typed. Answer with its number only.",
    examples=(
        ("Typed: avg sal\nOptions:\n1. average Age\n2. average Salary", "2"),
        ("Typed: how many c\nOptions:\n1. how many rows have City Paris\n2. how many unique Country", "1"),
    ),
    user=("Typed: {partial}\nOptions:\n{options}",),
)

CHAT = PromptTemplate(
    name="chat",
    version=1,
    source="GridSight",
    system=(
        "You are GridSight, a careful assistant for Excel workbooks. Be brief. Only state numbers that "
        "appear in the cells you are given, and name the cells you used."
    ),
    user=("{context}", "{question}"),
)

RETRIEVAL_SPLIT = PromptTemplate(
    name="retrieval_split",
    version=1,
    source="GridSight (multi-spreadsheet QA, Hou et al.: sub-queries matched to columns); made-up examples",
    system=(
        "You split a question into the separate things it asks about, so that each can be looked up in "
        "its own table. Copy the words from the question. Reply with JSON only."
    ),
    examples=(
        (
            "Question: Is the average salary of the engineers higher than the average price of the houses?",
            '{"parts": ["average salary of the engineers", "average price of the houses"]}',
        ),
        (
            "Question: Do the tallest tree and the oldest statue stand in the same park?",
            '{"parts": ["park of the tallest tree", "park of the oldest statue"]}',
        ),
        ("Question: Which city has the most stores?", '{"parts": ["city with the most stores"]}'),
    ),
    user=("Question: {question}",),
)

PROMPTS: dict[str, PromptTemplate] = {
    t.name: t
    for t in (
        DETECT_TABLES,
        DETECT_CHOOSE,
        QA_PICK_TABLE,
        QA_ANSWER_CELL,
        QA_CHOOSE,
        QA_ASK_ABOUT,
        FORMULA,
        SUGGEST,
        CHAT,
        RETRIEVAL_SPLIT,
    )
}


def get_prompt(name: str) -> PromptTemplate:
    try:
        return PROMPTS[name]
    except KeyError:
        raise GridSightError(f"no prompt template {name!r}; known: {', '.join(sorted(PROMPTS))}") from None
