# ruff: noqa: E501  (the generated scripts keep each command on one line, as people will read them)
"""Per-OS finishing steps for an installed bundle, generated as files (scripts, a LaunchAgent, a
.desktop entry) that ``build_installer.py`` writes into ``<bundle>/setup/``.

Everything here is text: steps for another OS are generated on any machine and tested as text; the
Linux script is also run for real by the tests. The steps, per OS:

- every OS: the chat model goes to the user's data folder, never into the bundle: ``--model PATH``
  copies a local GGUF there (``gridsight model use``), otherwise the bundled default-model chunks are
  joined there (``gridsight model prepare``, sha256-checked);
- Windows: the localhost CA into the user's Root store (``gridsight cert install --run``, certutil),
  the manifest into a folder shared as a trusted catalog (an SMB share + Office's ``TrustedCatalogs``
  key), the sidecar in the user's ``Run`` key (autostart);
- macOS: the CA into the login keychain (``security add-trusted-cert``), the manifest into Excel's
  ``wef`` folder (sideloading), a LaunchAgent that starts the sidecar at login;
- Linux: a ``.desktop`` entry for ``gridsight desktop`` (the CA's system trust needs sudo, so its
  commands are printed, not run).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Literal

OS = Literal["windows", "macos", "linux"]
PORT = 8765
APP_ID = "com.gridsight.sidecar"
#: A fixed id for GridSight's trusted catalog, so the uninstaller removes exactly what was added.
CATALOG_ID = (
    "{" + str(uuid.uuid5(uuid.NAMESPACE_URL, "https://gridsight.local/trusted-catalog")).upper() + "}"
)
SHARE_NAME = "GridSightCatalog"
CA_NAME = "GridSight Local CA"
MANIFEST_NAME = "gridsight-manifest.xml"
WEF_DIR = "$HOME/Library/Containers/com.microsoft.Excel/Data/Documents/wef"
MIME_TYPES = (
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet;"
    "application/vnd.ms-excel.sheet.macroEnabled.12;application/vnd.ms-excel;"
    "application/vnd.oasis.opendocument.spreadsheet;text/csv;"
)


@dataclass(frozen=True)
class Finish:
    """The files of one OS's finishing steps (path under ``setup/`` -> text) and how to run them."""

    os: OS
    files: dict[str, str] = field(default_factory=dict)
    install: str = ""
    uninstall: str = ""


def finishing(os_name: OS, port: int = PORT) -> Finish:
    if os_name == "windows":
        return Finish(
            "windows",
            {"install.ps1": windows_install(port), "uninstall.ps1": windows_uninstall()},
            r"powershell -ExecutionPolicy Bypass -File setup\install.ps1 [-Model C:\path\model.gguf]",
            r"powershell -ExecutionPolicy Bypass -File setup\uninstall.ps1",
        )
    if os_name == "macos":
        return Finish(
            "macos",
            {
                "install.sh": macos_install(port),
                "uninstall.sh": macos_uninstall(),
                f"{APP_ID}.plist": launch_agent("@APP@/gridsight"),
            },
            "sh setup/install.sh [--model /path/model.gguf]",
            "sh setup/uninstall.sh",
        )
    if os_name == "linux":
        return Finish(
            "linux",
            {
                "install.sh": linux_install(),
                "uninstall.sh": linux_uninstall(),
                "gridsight.desktop": desktop_entry(),
            },
            "sh setup/install.sh [--model /path/model.gguf]",
            "sh setup/uninstall.sh",
        )
    raise ValueError(f"unknown OS {os_name!r}; known: windows, macos, linux")


# -- Windows ------------------------------------------------------------------------------------------
def windows_install(port: int = PORT) -> str:
    return f"""# GridSight: finish the install for this user. Run from the bundle folder:
#   powershell -ExecutionPolicy Bypass -File setup\\install.ps1 [-Model C:\\path\\model.gguf]
param([string]$Model = "")
$ErrorActionPreference = "Stop"
$App = Split-Path -Parent $PSScriptRoot
$Exe = Join-Path $App "gridsight.exe"
$Data = Join-Path $env:LOCALAPPDATA "GridSight"

# 1. The chat model lives in the data folder, never in the bundle.
if ($Model) {{
    $Models = Join-Path $Data "models"
    New-Item -ItemType Directory -Force -Path $Models | Out-Null
    Copy-Item -Force $Model $Models
    & $Exe model use (Join-Path $Models (Split-Path -Leaf $Model))
}} else {{
    & $Exe model prepare
}}

# 2. Trust the localhost CA (current user's Root store; Windows asks to confirm).
& $Exe cert install --run

# 3. The manifest in a shared folder that Office trusts as an add-in catalog.
$Catalog = Join-Path $Data "catalog"
New-Item -ItemType Directory -Force -Path $Catalog | Out-Null
& $Exe manifest --port {port} --out (Join-Path $Catalog "{MANIFEST_NAME}")
if (-not (Get-SmbShare -Name "{SHARE_NAME}" -ErrorAction SilentlyContinue)) {{
    # Creating a share needs an administrator; everything else here does not.
    Start-Process powershell -Verb RunAs -Wait -ArgumentList "-NoProfile -Command New-SmbShare -Name {SHARE_NAME} -Path '$Catalog' -ReadAccess '$env:USERDOMAIN\\$env:USERNAME'"
}}
$Key = "HKCU:\\Software\\Microsoft\\Office\\16.0\\WEF\\TrustedCatalogs\\{CATALOG_ID}"
New-Item -Path $Key -Force | Out-Null
Set-ItemProperty -Path $Key -Name "Id" -Value "{CATALOG_ID}"
Set-ItemProperty -Path $Key -Name "Url" -Value "\\\\$env:COMPUTERNAME\\{SHARE_NAME}"
New-ItemProperty -Path $Key -Name "Flags" -Value 1 -PropertyType DWord -Force | Out-Null

# 4. Start the sidecar at login.
Set-ItemProperty -Path "HKCU:\\Software\\Microsoft\\Windows\\CurrentVersion\\Run" -Name "GridSight" -Value "`"$Exe`" serve --port {port}"
Start-Process -WindowStyle Hidden -FilePath $Exe -ArgumentList "serve","--port","{port}"
Write-Host "GridSight is installed. In Excel: Insert > Add-ins > My Add-ins > SHARED FOLDER > GridSight."
"""


def windows_uninstall() -> str:
    return f"""# GridSight: undo setup\\install.ps1 (the data folder stays unless -Purge).
param([switch]$Purge)
$ErrorActionPreference = "Continue"
Remove-ItemProperty -Path "HKCU:\\Software\\Microsoft\\Windows\\CurrentVersion\\Run" -Name "GridSight" -ErrorAction SilentlyContinue
Remove-Item -Path "HKCU:\\Software\\Microsoft\\Office\\16.0\\WEF\\TrustedCatalogs\\{CATALOG_ID}" -Recurse -ErrorAction SilentlyContinue
if (Get-SmbShare -Name "{SHARE_NAME}" -ErrorAction SilentlyContinue) {{
    Start-Process powershell -Verb RunAs -Wait -ArgumentList "-NoProfile -Command Remove-SmbShare -Name {SHARE_NAME} -Force"
}}
certutil -user -delstore Root "{CA_NAME}"
if ($Purge) {{ Remove-Item -Recurse -Force (Join-Path $env:LOCALAPPDATA "GridSight") }}
Write-Host "GridSight is uninstalled; delete the bundle folder to finish."
"""


# -- macOS --------------------------------------------------------------------------------------------
def launch_agent(exe: str, port: int = PORT) -> str:
    """A LaunchAgent that runs the sidecar at login and restarts it if it dies."""
    import plistlib

    doc = {
        "Label": APP_ID,
        "ProgramArguments": [exe, "serve", "--port", str(port)],
        "RunAtLoad": True,
        "KeepAlive": {"SuccessfulExit": False},
        "StandardErrorPath": "/tmp/gridsight-sidecar.log",
    }
    return plistlib.dumps(doc).decode("utf-8")


_SH_MODEL = """MODEL=""
if [ "${1:-}" = "--model" ]; then MODEL="$2"; fi
# 1. The chat model lives in the data folder, never in the bundle.
if [ -n "$MODEL" ]; then
    mkdir -p "$DATA/models"
    cp "$MODEL" "$DATA/models/"
    "$EXE" model use "$DATA/models/$(basename "$MODEL")"
else
    "$EXE" model prepare
fi
"""


def macos_install(port: int = PORT) -> str:
    return f"""#!/bin/sh
# GridSight: finish the install for this user.  sh setup/install.sh [--model /path/model.gguf]
set -eu
APP="$(cd "$(dirname "$0")/.." && pwd)"
EXE="$APP/gridsight"
DATA="$HOME/Library/Application Support/GridSight"
{_SH_MODEL}
# 2. Trust the localhost CA in the login keychain (macOS asks for your password).
"$EXE" cert install --run
# 3. Sideload: the manifest in Excel's wef folder.
WEF="{WEF_DIR}"
mkdir -p "$WEF"
"$EXE" manifest --port {port} --out "$WEF/{MANIFEST_NAME}"
# 4. Start the sidecar at login (and now).
AGENT="$HOME/Library/LaunchAgents/{APP_ID}.plist"
mkdir -p "$HOME/Library/LaunchAgents"
sed "s|@APP@|$APP|g" "$APP/setup/{APP_ID}.plist" > "$AGENT"
launchctl bootout "gui/$(id -u)" "$AGENT" 2>/dev/null || true
launchctl bootstrap "gui/$(id -u)" "$AGENT"
echo "GridSight is installed. In Excel: Insert > Add-ins > My Add-ins > GridSight."
"""


def macos_uninstall() -> str:
    return f"""#!/bin/sh
# GridSight: undo setup/install.sh (the data folder stays unless --purge).
AGENT="$HOME/Library/LaunchAgents/{APP_ID}.plist"
launchctl bootout "gui/$(id -u)" "$AGENT" 2>/dev/null || true
rm -f "$AGENT" "{WEF_DIR}/{MANIFEST_NAME}"
security delete-certificate -c "{CA_NAME}" "$HOME/Library/Keychains/login.keychain-db" 2>/dev/null || true
if [ "${{1:-}}" = "--purge" ]; then rm -rf "$HOME/Library/Application Support/GridSight"; fi
echo "GridSight is uninstalled; delete the bundle folder to finish."
"""


# -- Linux --------------------------------------------------------------------------------------------
def desktop_entry() -> str:
    """A freedesktop entry for the window; @APP@ is replaced by the bundle's folder at install."""
    return f"""[Desktop Entry]
Type=Application
Name=GridSight
Comment=Ask your spreadsheets, with cell-level evidence (local, private)
Exec="@APP@/gridsight" desktop %f
Icon=@APP@/_internal/web/addin/assets/icon-80.png
Terminal=false
Categories=Office;Spreadsheet;
MimeType={MIME_TYPES}
StartupWMClass=GridSight
"""


def linux_install() -> str:
    return f"""#!/bin/sh
# GridSight: finish the install for this user.  sh setup/install.sh [--model /path/model.gguf]
set -eu
APP="$(cd "$(dirname "$0")/.." && pwd)"
EXE="$APP/gridsight"
DATA="${{XDG_DATA_HOME:-$HOME/.local/share}}/gridsight"
{_SH_MODEL}
# 2. The window in the applications menu.
APPS="${{XDG_DATA_HOME:-$HOME/.local/share}}/applications"
mkdir -p "$APPS"
sed "s|@APP@|$APP|g" "$APP/setup/gridsight.desktop" > "$APPS/gridsight.desktop"
# 3. The localhost CA: system trust needs sudo, so the commands are printed, not run.
"$EXE" cert install
echo "GridSight is installed: 'GridSight' in your applications menu, or $EXE desktop."
"""


def linux_uninstall() -> str:
    return """#!/bin/sh
# GridSight: undo setup/install.sh (the data folder stays unless --purge).
rm -f "${XDG_DATA_HOME:-$HOME/.local/share}/applications/gridsight.desktop"
if [ "${1:-}" = "--purge" ]; then rm -rf "${XDG_DATA_HOME:-$HOME/.local/share}/gridsight"; fi
echo "GridSight is uninstalled; delete the bundle folder (and the CA file you copied with sudo) to finish."
"""
