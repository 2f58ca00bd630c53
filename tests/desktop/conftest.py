"""The desktop window under a real X server: Xvfb started here, Qt WebEngine drawing into it.

Xvfb and the libraries Qt loads at run time are installed here when missing (`apt-get install -y
xvfb` plus the list in gridsight.desktop._preflight; CI runs as root on a clean Debian machine that
reaches the Debian registry), the same way the task pane tests install chromium. The window tests
are skipped, with the reason, only when the Xvfb binary cannot be had.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gridsight.desktop._preflight import QT_APT_PACKAGES, qt_environment, qt_probe, running_as_root

SHOTS = Path("/tmp/gridsight-shots")


def _apt_install(packages: list[str]) -> str:
    if shutil.which("apt-get") is None:
        return "no apt-get"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    cmd = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900, check=False)
    if done.returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True, timeout=900, check=False)
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900, check=False)
    if done.returncode != 0 and len(packages) > 1:
        # one renamed package (Debian 13's libasound2t64...) must not block the rest: one at a time
        failed = [p for p in packages if _apt_install([p])]
        return f"not installed: {' '.join(failed)}" if failed else ""
    return (done.stderr or done.stdout)[-300:] if done.returncode else ""


@pytest.fixture(scope="session")
def display() -> Iterator[dict[str, str]]:
    """An environment whose DISPLAY is a fresh Xvfb (1400x1000, 24-bit), with Qt's flags for root."""
    if shutil.which("Xvfb") is None:
        why = _apt_install(["xvfb"])
        if shutil.which("Xvfb") is None:
            pytest.skip(f"no Xvfb binary and apt-get install xvfb failed: {why}")
    read, write = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1400x1000x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as f:
        number = f.readline().strip()
    assert number.isdigit(), "Xvfb did not report its display number"
    env = qt_environment({**os.environ, "DISPLAY": f":{number}"}, running_as_root())
    env.pop("WAYLAND_DISPLAY", None)
    problem = qt_probe(env)
    if problem:  # a clean machine lacks Qt's X11 libraries: install them once, then Qt must start
        why = _apt_install(QT_APT_PACKAGES)
        problem = qt_probe(env)
        assert problem is None, f"{problem} (apt-get: {why or 'ok'})"
    yield env
    proc.terminate()
    proc.wait(timeout=10)


def gridsight(args: list[str], env: dict[str, str], timeout: float = 240) -> subprocess.CompletedProcess[str]:
    """`gridsight ...` in a child process (a window needs its own GUI main thread)."""
    return subprocess.run(
        [sys.executable, "-m", "gridsight", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def keep_shot(path: Path) -> None:
    """A copy for people to look at (the test's own tmp dir goes away)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, SHOTS / path.name)
