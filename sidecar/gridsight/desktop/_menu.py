"""The window's menus: open a workbook, a folder or a recent one; stop/start the sidecar; the
manifest path for sideloading; where the model runs."""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gridsight.desktop import _pane
from gridsight.desktop._sidecar import Sidecar
from gridsight.desktop._targets import SPREADSHEET_SUFFIXES, folder_files, load_recent, remember
from gridsight.errors import GridSightError

log = logging.getLogger("gridsight.desktop")
MANIFEST_NAME = "gridsight-manifest.xml"


def write_manifest(home: Path, port: int) -> Path:
    """The add-in manifest for this sidecar's port, in the data folder (what Excel sideloads)."""
    from gridsight.manifest import render_manifest

    target = home / "manifest" / MANIFEST_NAME
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(render_manifest(port), encoding="utf-8")
    return target


def model_facts() -> str:
    from gridsight.api._feat_model import model_status

    m = model_status()
    where = m.get("path") or "the default model (assembled into the data folder on first use)"
    runtime = (
        "llama.cpp (llama-cpp-python) on this computer's CPU" if m.get("runtime") else "no runtime installed"
    )
    ready = "ready" if m.get("ready") else f"not ready{': ' + str(m['error']) if m.get('error') else ''}"
    return f"Model: {where}. Runs with {runtime}; {ready}. Nothing leaves this machine."


@dataclass
class Controller:
    """What the menu items do; ``window`` is set once pywebview made it."""

    home: Path
    sidecar: Sidecar
    window: Any = None
    opened: list[str] = field(default_factory=list)

    # -- helpers ----------------------------------------------------------------------------------
    def _say(self, text: str) -> None:
        log.info("%s", text)
        if self.window is not None:
            self.window.evaluate_js(_pane.show_notice(text))

    def _open_paths(self, paths: list[Path]) -> None:
        last, opened = None, []
        for p in paths:
            try:
                last = self.sidecar.open_file(p)
            except GridSightError as exc:
                self._say(f"Could not open {exc}")
                continue
            opened.append(p)
        if last is not None:
            remember(self.home, opened)
            self.window.evaluate_js(_pane.switch_workbook(last))

    # -- menu actions -----------------------------------------------------------------------------
    def open_files(self) -> None:
        import webview

        kinds = ("Spreadsheets (" + ";".join("*" + s for s in SPREADSHEET_SUFFIXES) + ")",)
        picked = self.window.create_file_dialog(
            webview.FileDialog.OPEN, allow_multiple=True, file_types=kinds
        )
        if picked:
            self._open_paths([Path(p) for p in picked])

    def open_folder(self) -> None:
        import webview

        picked = self.window.create_file_dialog(webview.FileDialog.FOLDER)
        if picked:
            self._open_paths(folder_files(Path(picked[0])))
            self.window.evaluate_js(_pane.open_folder(str(Path(picked[0]))))

    def open_recent(self, path: Path) -> None:
        self._open_paths([path])

    def stop_sidecar(self) -> None:
        self.sidecar.stop()
        self._say(
            "The sidecar is stopped: the pane and Excel's add-in cannot reach it until you start it again."
        )

    def start_sidecar(self) -> None:
        try:
            self.sidecar.restart()
        except GridSightError as exc:
            self._say(str(exc))
            return
        self.window.load_url(self.sidecar.url + "/")

    def copy_manifest_path(self) -> None:
        path = write_manifest(self.home, self.sidecar.port)
        self.window.evaluate_js(
            f"navigator.clipboard && navigator.clipboard.writeText({str(path)!r}).catch(() => 0)"
        )
        self._say(f"Add-in manifest: {path} (copied). Excel: Insert › Add-ins › Upload My Add-in.")

    def show_model(self) -> None:
        self._say(model_facts())

    def menu(self) -> list[Any]:
        from webview.menu import Menu, MenuAction, MenuSeparator

        recent: list[Menu | MenuAction | MenuSeparator] = [
            MenuAction(p.name, functools.partial(self.open_recent, p))
            for p in load_recent(self.home)
            if p.exists()
        ]
        return [
            Menu(
                "Workbook",
                [
                    MenuAction("Open workbook…", self.open_files),
                    MenuAction("Open folder…", self.open_folder),
                    Menu("Open recent", recent or [MenuAction("(none yet)", lambda: None)]),
                ],
            ),
            Menu(
                "Sidecar",
                [
                    MenuAction("Stop the sidecar", self.stop_sidecar),
                    MenuAction("Start the sidecar", self.start_sidecar),
                    MenuSeparator(),
                    MenuAction("Copy the manifest path", self.copy_manifest_path),
                    MenuAction("Where the model runs", self.show_model),
                ],
            ),
        ]
