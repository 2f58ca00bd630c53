"""The package's type hints are checked: mypy, configured in pyproject.toml ([tool.mypy]), finds nothing.

mypy runs in a child process with this interpreter (the one that has the `dev` extra installed) and
the project's config; its cache sits in the checkout's .mypy_cache, so a second run takes seconds.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "pyproject.toml"


def _mypy(*targets: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(CONFIG), *(str(t) for t in targets)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_package_type_checks() -> None:
    proc = _mypy(ROOT / "sidecar" / "gridsight")
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    assert proc.returncode == 0 and not errors, (
        f"mypy found {len(errors)} error(s):\n{proc.stdout}{proc.stderr}"
    )
    assert "Success: no issues found" in proc.stdout, proc.stdout + proc.stderr


def test_the_config_refuses_unannotated_functions_and_stale_ignores(tmp_path: Path) -> None:
    """The config is live: an unannotated function, a type error inside it and an unneeded
    ``type: ignore`` are all reported, so the test above cannot pass by checking nothing."""
    bad = tmp_path / "bad_module.py"
    bad.write_text(
        textwrap.dedent(
            """\
            def untyped():
                x: int = "text"
                return x

            y: int = 1  # type: ignore[assignment]
            """
        ),
        encoding="utf-8",
    )
    proc = _mypy(bad)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "bad_module.py:1: error: Function is missing a return type annotation" in proc.stdout, proc.stdout
    assert "bad_module.py:2: error: Incompatible types in assignment" in proc.stdout, proc.stdout
    assert 'bad_module.py:5: error: Unused "type: ignore" comment' in proc.stdout, proc.stdout
