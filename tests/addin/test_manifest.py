"""The add-in manifest, checked offline.

Microsoft's validator calls a web service, and the official XSDs ship in no registry package
(checked: npm office-addin-manifest 3.0.0, office-addin-manifest-converter 0.4.1 and
office-addin-validator 1.0.5 carry none), so these are the structural checks the schema would make:
element order, every resid resolving to a resource of the right kind, https URLs on the sidecar's
port, string length limits, the shared runtime wiring and the requirement sets.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from click.testing import CliRunner

from gridsight.cli import cli
from gridsight.manifest import ICON_SIZES, render_manifest, template_path
from gridsight.webroot import web_root

NS = {
    "o": "http://schemas.microsoft.com/office/appforoffice/1.1",
    "bt": "http://schemas.microsoft.com/office/officeappbasictypes/1.0",
    "ov": "http://schemas.microsoft.com/office/taskpaneappversionoverrides",
    "xsi": "http://www.w3.org/2001/XMLSchema-instance",
}
XSI_TYPE = f"{{{NS['xsi']}}}type"
#: OfficeApp's children in the order the TaskPaneApp schema's sequence requires.
OFFICEAPP_ORDER = [
    "Id", "AlternateId", "Version", "ProviderName", "DefaultLocale", "DisplayName", "Description",
    "IconUrl", "HighResolutionIconUrl", "SupportUrl", "AppDomains", "Hosts", "Requirements",
    "DefaultSettings", "Permissions", "AllowSnapshot", "VersionOverrides",
]  # fmt: skip
VO_ORDER = ["Description", "Requirements", "Hosts", "Resources", "EquivalentAddins", "WebApplicationInfo"]
HOST_ORDER = ["Runtimes", "AllFormFactors", "DesktopFormFactor"]
DESKTOP_ORDER = ["GetStarted", "FunctionFile", "ExtensionPoint"]
RESOURCE_ORDER = ["Images", "Urls", "ShortStrings", "LongStrings"]


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _in_order(parent: ET.Element, order: list[str]) -> None:
    names = [_local(c.tag) for c in parent]
    unknown = [n for n in names if n not in order]
    assert not unknown, f"{_local(parent.tag)} has unexpected children {unknown}"
    ranks = [order.index(n) for n in names]
    assert ranks == sorted(ranks), f"{_local(parent.tag)} children out of schema order: {names}"


def _parse(text: str) -> ET.Element:
    return ET.fromstring(text.encode("utf-8"))


@pytest.fixture(scope="module")
def manifest() -> ET.Element:
    return _parse(render_manifest(9123))


def test_template_is_the_default_port_manifest() -> None:
    text = template_path().read_text(encoding="utf-8")
    assert render_manifest(8765) == text
    assert "https://localhost:8765" in text


def test_element_order_and_basics(manifest: ET.Element) -> None:
    assert _local(manifest.tag) == "OfficeApp" and manifest.get(XSI_TYPE) == "TaskPaneApp"
    _in_order(manifest, OFFICEAPP_ORDER)
    assert re.fullmatch(
        r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
        manifest.findtext("o:Id", namespaces=NS),
    )
    assert re.fullmatch(r"\d+\.\d+\.\d+\.\d+", manifest.findtext("o:Version", namespaces=NS))
    assert manifest.findtext("o:Permissions", namespaces=NS) == "ReadWriteDocument"
    assert [h.get("Name") for h in manifest.findall("o:Hosts/o:Host", NS)] == ["Workbook"]
    vo = manifest.find("ov:VersionOverrides", NS)
    assert vo is not None and vo.get(XSI_TYPE) == "VersionOverridesV1_0"
    _in_order(vo, VO_ORDER)
    host = vo.find("ov:Hosts/ov:Host", NS)
    assert host.get(XSI_TYPE) == "Workbook"
    _in_order(host, HOST_ORDER)
    _in_order(host.find("ov:DesktopFormFactor", NS), DESKTOP_ORDER)
    _in_order(vo.find("ov:Resources", NS), RESOURCE_ORDER)


def test_requirement_sets(manifest: ET.Element) -> None:
    sets = {s.get("Name"): s.get("MinVersion") for s in manifest.findall("o:Requirements/o:Sets/o:Set", NS)}
    assert sets["AddinCommands"] == "1.1"
    assert sets["SharedRuntime"] == "1.1"
    assert sets["ExcelApi"] == "1.9"  # getCellProperties, worksheets.onChanged


def test_every_resid_resolves_to_the_right_kind(manifest: ET.Element) -> None:
    res = manifest.find("ov:VersionOverrides/ov:Resources", NS)
    kinds = {
        "Images": {e.get("id") for e in res.findall("bt:Images/bt:Image", NS)},
        "Urls": {e.get("id") for e in res.findall("bt:Urls/bt:Url", NS)},
        "ShortStrings": {e.get("id") for e in res.findall("bt:ShortStrings/bt:String", NS)},
        "LongStrings": {e.get("id") for e in res.findall("bt:LongStrings/bt:String", NS)},
    }
    for ids in kinds.values():
        assert all(i and len(i) <= 32 for i in ids), ids  # the schema caps resid at 32 characters
    used: set[str] = set()
    for el in manifest.iter():
        rid = el.get("resid")
        if rid is None:
            continue
        used.add(rid)
        name = _local(el.tag)
        want = {
            "Image": "Images",
            "Runtime": "Urls",
            "FunctionFile": "Urls",
            "SourceLocation": "Urls",
            "LearnMoreUrl": "Urls",
            "Label": "ShortStrings",
            "Title": "ShortStrings",
            "Description": "LongStrings",
        }[name]
        assert rid in kinds[want], f"<{name} resid={rid!r}> has no {want} resource"
    declared = set().union(*kinds.values())
    assert declared <= used, f"unused resources: {declared - used}"
    for s in res.findall("bt:ShortStrings/bt:String", NS):
        assert len(s.get("DefaultValue")) <= 125
    for s in res.findall("bt:LongStrings/bt:String", NS):
        assert len(s.get("DefaultValue")) <= 250


def test_every_url_is_https_on_the_chosen_port(manifest: ET.Element) -> None:
    urls = [
        e.get("DefaultValue")
        for e in manifest.iter()
        if (e.get("DefaultValue") or "").startswith(("http:", "https:"))
    ]
    urls += [e.text for e in manifest.iter() if _local(e.tag) == "AppDomain"]
    assert len(urls) >= 8
    for u in urls:
        assert u.startswith("https://localhost:9123/") or u == "https://localhost:9123", u


def test_shared_runtime_and_commands(manifest: ET.Element) -> None:
    host = manifest.find("ov:VersionOverrides/ov:Hosts/ov:Host", NS)
    runtime = host.find("ov:Runtimes/ov:Runtime", NS)
    assert runtime.get("lifetime") == "long"
    pane_url = runtime.get("resid")
    desktop = host.find("ov:DesktopFormFactor", NS)
    assert desktop.find("ov:FunctionFile", NS).get("resid") == pane_url  # shared runtime: one page
    button = desktop.find("ov:ExtensionPoint[@xsi:type='PrimaryCommandSurface']/ov:OfficeTab", NS)
    assert button.get("id") == "TabHome"
    action = button.find(".//ov:Action", NS)
    assert action.get(XSI_TYPE) == "ShowTaskpane"
    assert action.find("ov:SourceLocation", NS).get("resid") == pane_url
    menu = desktop.find("ov:ExtensionPoint[@xsi:type='ContextMenu']/ov:OfficeMenu", NS)
    assert menu.get("id") == "ContextMenuCell"
    item = menu.find(".//ov:Item", NS)
    assert item.find("ov:Action", NS).get(XSI_TYPE) == "ExecuteFunction"
    assert item.find("ov:Action/ov:FunctionName", NS).text == "explainRegion"
    labels = {
        s.get("id"): s.get("DefaultValue")
        for s in manifest.findall("ov:VersionOverrides/ov:Resources/bt:ShortStrings/bt:String", NS)
    }
    assert labels[item.find("ov:Label", NS).get("resid")] == "Explain this region"
    # the function the menu names is the one the pane registers
    commands = (web_root() / "addin" / "commands.js").read_text(encoding="utf-8")
    assert 'associate("explainRegion", explainRegion)' in commands


def test_icons_exist_at_their_sizes(manifest: ET.Element) -> None:
    for n in ICON_SIZES:
        data = (web_root() / "addin" / "assets" / f"icon-{n}.png").read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", data[16:24]) == (n, n)
    for img in manifest.iter(f"{{{NS['bt']}}}Image"):
        if img.get("size"):
            assert img.get("resid") in {"Icon.16", "Icon.32", "Icon.80"}
            assert f"Icon.{img.get('size')}" == img.get("resid")


def test_cli_writes_the_manifest_for_a_port(tmp_path: Path) -> None:
    out = tmp_path / "m.xml"
    res = CliRunner().invoke(cli, ["manifest", "--port", "9443", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[0] == f"wrote {out} (add-in served from https://localhost:9443/)"
    text = out.read_text(encoding="utf-8")
    assert "https://localhost:9443/taskpane/index.html?host=excel" in text
    assert "8765" not in text
    _parse(text)
    bad = CliRunner().invoke(cli, ["manifest", "--port", "70000"])
    assert bad.exit_code == 2 and "70000" in bad.output
    printed = CliRunner().invoke(cli, ["manifest"])
    assert printed.exit_code == 0 and printed.output == template_path().read_text(encoding="utf-8")
