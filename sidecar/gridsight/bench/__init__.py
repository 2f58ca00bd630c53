"""Benchmarks: `gridsight bench NAME --corpus DIR --out FILE.json`.

Each benchmark is a module exposing a click ``command``; this group imports it only when asked,
so `gridsight --help` stays fast. Register a new one by adding its module to ``BENCHMARKS``.
"""

from __future__ import annotations

import importlib
import importlib.util

import click

#: name -> module holding a click command called ``command``.
BENCHMARKS: dict[str, str] = {
    "read": "gridsight.bench.read",
    "compress": "gridsight.bench.compress",
    "detect": "gridsight.bench.detect",
    "model": "gridsight.bench.model",
    "formula": "gridsight.bench.formula",
    "serve": "gridsight.bench.serve",
    "qa": "gridsight.bench.qa",
    "retrieval": "gridsight.bench.retrieval",
    "excel": "gridsight.bench.excel",
    "extract": "gridsight.bench.extract",
}


class _LazyBenchGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        available = []
        for name, module in BENCHMARKS.items():
            if importlib.util.find_spec(module) is not None:
                available.append(name)
        return sorted(available)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = BENCHMARKS.get(cmd_name)
        if module is None:
            return None
        return importlib.import_module(module).command


@click.group(cls=_LazyBenchGroup, name="bench")
def bench() -> None:
    """Run a benchmark over a corpus folder and write its figures as JSON."""


#: What `gridsight.cli` looks up.
command = bench
