"""The task pane in chromium: folder mode (open a folder, see it indexed, ask across its files, open
the evidence) and the Extract tab (region, schema, streamed preview, JSON download, new sheet with
preview/apply/undo) against a real sidecar, real files and a real lancedb index."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest


@pytest.fixture(scope="module")
def sidecar(sidecar: Any, workdir: Path) -> Any:
    """The shared sidecar without a chat model: these tests are about the pane; answering with the real
    model over a folder is tested in tests/api/test_library_api.py (it costs 10-50 s a question here)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GRIDSIGHT_MODEL", str(workdir / "no-model-here.gguf"))
        yield sidecar


SCHEMA = json.dumps(
    [{"value": "xx", "type": "Other"}, {"value": "xx", "type": "Units", "unit": "xx", "region": "xx"}]
)


def test_folder_mode_open_ask_and_show_evidence(
    open_pane: Any, sidecar: Any, workdir: Path, snap: Any, spreadsheet_folder: Any
) -> None:
    folder = spreadsheet_folder(workdir / "books")
    page = open_pane(800)
    page.check("#mode-folder")
    assert page.locator("#folder-bar").is_visible() and page.locator(".wb-pick").is_hidden()
    status = page.locator("#folder-status")
    for path, words in (
        (str(workdir / "missing"), "does not exist"),
        (str(folder / "passengers.csv"), "not a folder"),
        ("books", "must be absolute"),
        ("", "Type or paste"),
    ):
        page.fill("#folder-path", path)
        page.click("#folder-open")
        page.wait_for_function(
            "w => document.getElementById('folder-status').textContent.includes(w)", arg=words, timeout=15_000
        )
        assert "error" in (status.get_attribute("class") or "")
    page.fill("#folder-path", str(folder))
    page.click("#folder-open")
    page.wait_for_selector("body[data-folder='ready']", timeout=120_000)
    assert status.inner_text().startswith("books: 3 files, 3 tables"), status.inner_text()
    page.fill("#ask-input", "How old is the youngest billionaire?")
    page.click("#ask-send")
    answer = page.locator(".msg.answer.folder").last
    answer.locator(".value, .abstain, .error").first.wait_for(timeout=90_000)
    assert answer.get_attribute("data-status") == "answered", answer.inner_text()
    assert answer.locator(".value").inner_text() == "27"
    chip = answer.locator(".chip").first
    assert chip.inner_text() == "billionaires.csv · billionaires!C2:C4"
    snap(page, "pane-800-folder-answer")
    chip.click()  # opens the file as a workbook and marks the cells in the sheet view
    page.wait_for_selector("td.evidence")
    cells = page.eval_on_selector_all("td.evidence", "els => els.map(e => e.dataset.ref)")
    assert cells == ["C2", "C3", "C4"]
    assert page.locator("#workbook-select option:checked").inner_text() == "billionaires.csv"
    snap(page, "pane-800-folder-evidence")
    # A question no table answers abstains and names the closest tables; suggestions stay off.
    page.fill("#ask-input", "What is the capital of Mars?")
    page.click("#ask-send")
    last = page.locator(".msg.answer.folder").last
    last.locator(".abstain").wait_for(timeout=90_000)
    assert "closest" in last.inner_text()
    assert page.locator("#suggestions").is_hidden()
    # The helper forgot the folder (a restart): the pane opens it again and answers.
    lid = page.evaluate("window.GridSight.app.folder.lib.id")
    sidecar.app.extensions["gridsight_libraries"].remove(lid)
    page.fill("#ask-input", "What is the total of Tonnes?")
    page.click("#ask-send")
    last = page.locator(".msg.answer.folder").last
    last.locator(".value, .abstain, .error").first.wait_for(timeout=90_000)
    assert last.locator(".value").inner_text() == "245", last.inner_text()
    # Back to workbook mode: questions go to the open workbook again.
    page.check("#mode-workbook")
    assert page.locator("#folder-bar").is_hidden() and page.locator(".wb-pick").is_visible()
    assert page.locator("[aria-busy='true']").count() == 0


def test_folder_given_in_the_address_opens_in_folder_mode(
    open_pane: Any, sidecar: Any, workdir: Path, snap: Any, spreadsheet_folder: Any
) -> None:
    """What the desktop window does for `gridsight desktop FOLDER` (?folder=PATH)."""
    folder = spreadsheet_folder(workdir / "books2")
    from urllib.parse import quote

    page = open_pane(320, wait=False)
    page.goto(f"{sidecar.url}/?folder={quote(str(folder))}")
    page.wait_for_selector("body[data-folder='ready']", timeout=120_000)
    assert page.is_checked("#mode-folder") and page.input_value("#folder-path") == str(folder)
    page.fill("#ask-input", "What is the total of Tonnes?")
    page.click("#ask-send")
    answer = page.locator(".msg.answer.folder").last
    answer.locator(".value, .abstain, .error").first.wait_for(timeout=90_000)
    assert answer.locator(".value").inner_text() == "245"
    assert answer.locator(".chip").first.inner_text() == "sub/farm.xlsx · Harvest!B2:B4"
    snap(page, "pane-320-folder-answer")
    page.goto(f"{sidecar.url}/")  # next time: Folder mode offers the last folder
    page.wait_for_selector("body[data-ready='1']", timeout=15_000)
    page.check("#mode-folder")
    assert page.input_value("#folder-path") == str(folder)


def test_extract_preview_download_and_new_sheet_with_undo(
    open_pane: Any, sidecar: Any, workdir: Path, snap: Any
) -> None:
    book = workdir / "sales.xlsx"
    wid = next(s.id for s in sidecar.app.extensions["gridsight"].sessions.list() if s.name == "sales.xlsx")
    page = open_pane(800, wait=False)
    page.goto(f"{sidecar.url}/?wb={wid}")
    page.wait_for_selector("body[data-ready='1']", timeout=15_000)
    # Choose the region by selecting it in the sheet view, then "Use selection".
    page.click("#tab-sheet")
    page.locator("td[data-ref='A1']").hover()
    page.mouse.down()
    page.locator("td[data-ref='D6']").hover()
    page.mouse.up()
    page.click("#tab-extract")
    page.click("#extract-use-selection")
    assert page.input_value("#extract-range") == "Sales!A1:D6"
    # No schema: a clear message, nothing sent.
    page.click("#extract-run")
    assert "Paste a schema" in page.inner_text("#extract-status")
    # A schema that is not JSON Schema: the sidecar's sentence.
    page.fill("#extract-schema", '{"type": 12, "properties": 5}')
    page.click("#extract-run")
    page.wait_for_selector("body[data-extract='failed']")
    assert "not a valid JSON Schema" in page.inner_text("#extract-status")
    # Pick the schema from a file, preview the records.
    schema_file = workdir / "schema.json"
    schema_file.write_text(SCHEMA, encoding="utf-8")
    page.set_input_files("#extract-schema-file", str(schema_file))
    page.wait_for_function("document.getElementById('extract-schema').value.includes('Units')")
    page.click("#extract-run")
    page.wait_for_selector("body[data-extract='done']", timeout=30_000)
    assert page.inner_text("#extract-status").startswith("10 records from Sales!A1:D6")
    heads = page.locator(".records-table th").all_inner_texts()
    assert heads[:4] == ["address", "value", "type", "unit"] and "text" not in heads
    first = page.locator(".records-table tbody tr").first.locator("td").all_inner_texts()
    assert first[:3] == ["C2", "10", "Units"]
    snap(page, "pane-800-extract-preview")
    with page.expect_download() as dl:
        page.click("#extract-download")
    saved = json.loads(Path(dl.value.path()).read_text(encoding="utf-8"))
    assert len(saved) == 10 and saved[0]["address"] == "C2" and saved[0]["type"] == "Units"
    # A bad sheet name is refused with the reason; then a new sheet: preview, apply, undo.
    page.fill("#extract-sheet", "Sales")
    page.click("#extract-to-sheet")
    page.locator("#extract-plan .error").wait_for()
    assert "already has a sheet named 'Sales'" in page.inner_text("#extract-plan")
    page.fill("#extract-sheet", "Records")
    page.click("#extract-to-sheet")
    page.locator(".plan-summary").wait_for()
    assert "new sheet “Records” with a header row and 10 record rows" in page.inner_text(".plan-summary")
    assert openpyxl.load_workbook(book).sheetnames == ["Sales", "Big"]  # nothing written by a preview
    snap(page, "pane-800-extract-plan")
    page.locator("#extract-plan").get_by_role("button", name="Apply").click()
    page.locator("#extract-plan .done").wait_for()
    wb = openpyxl.load_workbook(book)
    assert wb.sheetnames == ["Sales", "Big", "Records"]
    assert [c.value for c in wb["Records"][2]][:3] == ["C2", "10", "Units"]
    # (the pane reloads the sheet list after the write: wait for it rather than race it)
    page.locator("#sheet-select option", has_text="Records").wait_for(state="attached", timeout=15_000)
    assert "Records" in page.locator("#sheet-select option").all_inner_texts()
    page.locator("#extract-plan").get_by_role("button", name="Undo").click()
    page.locator("#extract-plan .done", has_text="Undone").wait_for()
    assert openpyxl.load_workbook(book).sheetnames == ["Sales", "Big"]
    assert page.locator("[aria-busy='true']").count() == 0


def test_extract_from_a_snapshot_session(open_pane: Any) -> None:
    """A workbook sent as a snapshot (what Excel's add-in does): records preview as usual, and both
    exports are offered (the add-in adds the sheet through the edit plan's new_sheets)."""
    page = open_pane(320)
    wid = page.evaluate(
        """async () => {
        const b = await import('/addin/bridge.js');
        const values = [['Compound', 'IC50 (nM)'], ['C-1', 12], ['C-2', 8.5]];
        const types = [['String', 'String'], ['String', 'Double'], ['String', 'Double']];
        const fmts = values.map(r => r.map(() => 'General'));
        const entry = b.blockEntry('Assay', 0, 0, values, values, fmts, types, null);
        const docs = b.packChunks([entry], {name: 'live.xlsx'});
        return (await b.uploadSnapshot(window.GridSight.api, docs, 'live.xlsx')).id;
    }"""
    )
    page.evaluate("id => window.GridSight.app.switchWorkbook(id)", wid)
    page.wait_for_function("id => document.body.dataset.workbook === id", arg=wid)
    page.click("#tab-extract")
    page.fill("#extract-range", "Assay!A1:B3")
    page.fill("#extract-schema", SCHEMA.replace("Units", "IC50"))
    page.click("#extract-run")
    page.wait_for_selector("body[data-extract='done']", timeout=30_000)
    assert page.inner_text("#extract-status").startswith("2 records from Assay!A1:B3")
    assert page.locator(".records-table tbody tr").first.locator("td").all_inner_texts()[:4] == [
        "B2",
        "12",
        "IC50",
        "nM",
    ]
    assert page.is_enabled("#extract-to-sheet")
    assert page.is_enabled("#extract-download")


#: A small stand-in for Excel's object model (worksheets, ranges, sync), enough for applyEditPlan.
FAKE_EXCEL = """
(() => {
  const book = {Assay: {}};
  const raw = {};
  const range = (sheet, cell) => ({
    load() {},
    get values() { return [[book[sheet][cell] ?? '']]; },
    set values(v) {  // Excel keeps a leading apostrophe out of the value: it marks text
      const x = v[0][0];
      raw[sheet + '!' + cell] = x;
      book[sheet][cell] = typeof x === 'string' && x.startsWith("'") ? x.slice(1) : x;
    },
    get formulas() { return [[book[sheet][cell] ?? '']]; },
    set formulas(v) { book[sheet][cell] = v[0][0]; },
    get valueTypes() { return [[cell in book[sheet] ? 'String' : 'Empty']]; },
    get numberFormat() { return [['General']]; },
    set numberFormat(_v) {},
    clear() { delete book[sheet][cell]; },
  });
  const sheet = (name) => ({
    getRange: (cell) => range(name, cell),
    delete() { delete book[name]; },
  });
  const worksheets = {
    getItemOrNullObject: (name) => ({load() {}, isNullObject: !(name in book)}),
    getItem: (name) => { if (!(name in book)) throw new Error('no sheet ' + name); return sheet(name); },
    add: (name) => { book[name] = {}; return sheet(name); },
  };
  window.Excel = {run: async (fn) => fn({workbook: {worksheets}, sync: async () => {}})};
  window.fakeBook = book;
  window.fakeRaw = raw;
})();
"""


def test_the_add_in_adds_the_records_sheet_and_undo_deletes_it(open_pane: Any) -> None:
    """A snapshot session (Excel's add-in): the plan's editplan.v1 names the new sheet; the bridge adds
    it, writes the records as text, and the undo's editplan deletes it again. A sheet of that name
    already in Excel is a conflict: nothing is added or written."""
    page = open_pane(320)
    page.evaluate(FAKE_EXCEL)
    out = page.evaluate(
        """async (schema) => {
        const b = await import('/addin/bridge.js');
        const api = window.GridSight.api;
        const values = [['Compound', 'IC50 (nM)'], ['C-1', 12], ['C-2', 8.5]];
        const types = [['String', 'String'], ['String', 'Double'], ['String', 'Double']];
        const fmts = values.map(r => r.map(() => 'General'));
        const entry = b.blockEntry('Assay', 0, 0, values, values, fmts, types, null);
        const wid = (await b.uploadSnapshot(api, b.packChunks([entry], {name: 'live.xlsx'}), 'live.xlsx')).id;
        const got = await api.post(`/workbooks/${wid}/extract`, {schema, range: 'Assay!A1:B3'});
        const plan = await api.post(`/workbooks/${wid}/extract/sheet`,
                                    {records: got.records, sheet_name: 'Records'});
        await api.post(`/workbooks/${wid}/plans/${plan.id}/preview`);
        const applied = await api.post(`/workbooks/${wid}/plans/${plan.id}/apply`);
        const done = await b.applyEditPlan(applied.editplan);
        const written = JSON.parse(JSON.stringify(window.fakeRaw));
        const undo = await api.post(`/workbooks/${wid}/undo`);
        const undone = await b.applyEditPlan(undo.editplan);
        const sheetsAfter = Object.keys(window.fakeBook);
        window.fakeBook.Records = {A1: 'mine'};  // the user made a sheet of that name meanwhile
        const clash = await b.applyEditPlan(applied.editplan);
        return {newSheets: applied.editplan.new_sheets, drop: undo.editplan.drop_sheets, done, written,
                undone, sheetsAfter, clash, mine: window.fakeBook.Records};
    }""",
        SCHEMA.replace("Units", "IC50"),
    )
    assert out["newSheets"] == ["Records"] and out["drop"] == ["Records"]
    assert out["done"]["ok"] and out["done"]["written"] > 0
    assert out["written"]["Records!A1"] == "'address" and out["written"]["Records!B2"] == "'12"  # as text
    assert out["undone"]["ok"] and out["sheetsAfter"] == ["Assay"]
    assert not out["clash"]["ok"] and out["clash"]["conflicts"][0]["sheet"] == "Records"
    assert out["mine"] == {"A1": "mine"}  # nothing of the user's was touched
