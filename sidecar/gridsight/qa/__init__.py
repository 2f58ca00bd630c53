"""Question answering over a workbook: find the table, route by its structure, answer with evidence.

Stage 1 picks the detected table the question is about; stage 2 routes by the table's structure
(SQuARE's score: header depth and merged-cell density): flat tables are answered by a formula (the
formula engine's rules, then optionally the model tier), multi-header tables by finding the cell whose
row label and header path the question names. A confidence gate tries the other route, then abstains
with the reason. Every answer carries its value, the formula that produced it, evidence ranges that
exist in the workbook, the route, the unit and one sentence.
"""

from gridsight.qa._answer import QAAnswer
from gridsight.qa._ask import answer_question, structure_score
from gridsight.qa._formula import formula_from_question

__all__ = ["QAAnswer", "answer_question", "formula_from_question", "structure_score"]
