"""The task pane end to end in chromium: answers with evidence, formula preview/apply/undo on a
real file, suggestions while typing, the right-click command, and friendly failures."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import openpyxl

def _cell(path: Path, ref: str) -> Any:
    return openpyxl.load_workbook(path)["Sales"][ref].value


def test_formula_request_preview_apply_undo(open_pane: Any, workdir: Path, snap: Any) -> None:
    book = workdir / "sales.xlsx"
    page = open_pane(320)
    page.fill("#ask-input", "total units")
    page.press("#ask-input", "Escape")
    page.click("#ask-send")
    answer = page.locator(".msg.answer").last
    answer.locator(".value").wait_for()
    assert answer.locator(".value").inner_text() == "54"
    assert answer.locator(".formula code").inner_text() == "=SUM(C2:C6)"
    chip = answer.locator(".chip").first
    assert chip.inner_text() == "C2:C6"
    snap(page, "pane-320-answer")
    chip.click()  # evidence: the sheet preview opens with the cells highlighted
    page.wait_for_selector("td.evidence")
    assert page.eval_on_selector_all("td.evidence", "els => els.map(e => e.dataset.ref)") == [
        "C2", "C3", "C4", "C5", "C6"
    ]
    snap(page, "pane-320-evidence")
    page.click("#tab-chat")
    answer.get_by_role("button", name="Put in a cell…").click()
    cell = answer.locator(".cell-input")
    assert cell.input_value() == "C7"
    answer.get_by_role("button", name="Preview").click()
    table = answer.locator(".preview-table")
    table.wait_for()
    assert "=SUM(C2:C6) → 54" in table.locator("td.after").inner_text()
    assert table.locator("td.check").inner_text() == "valid"
    assert _cell(book, "C7") is None  # nothing written by a preview
    snap(page, "pane-320-preview")
    answer.get_by_role("button", name="Apply").click()
    answer.locator(".done").wait_for()
    assert _cell(book, "C7") == "=SUM(C2:C6)"
    answer.get_by_role("button", name="Undo").click()
    answer.locator(".done", has_text="Undone").wait_for()
    assert _cell(book, "C7") is None
    assert page.locator("[aria-busy='true']").count() == 0


def test_suggestions_while_typing(open_pane: Any) -> None:
    page = open_pane(320)
    t0 = time.perf_counter()
    page.type("#ask-input", "average pr", delay=20)
    option = page.locator("#suggestions [role=option]").first
    option.wait_for(timeout=3000)
    elapsed = time.perf_counter() - t0
    texts = page.locator("#suggestions .s-text").all_inner_texts()
    assert "average Price" in texts, texts
    assert elapsed < 3.0
    page.press("#ask-input", "ArrowDown")
    assert page.get_attribute("#ask-input", "aria-activedescendant") == "sugg-0"
    page.press("#ask-input", "Enter")  # takes the suggestion, does not send
    assert page.input_value("#ask-input") == texts[0]
    assert page.locator("#suggestions").is_hidden()
