"""The `gridsight` command line: thin faces over the engine.

Every command that prints results takes ``--format json``. Any :class:`GridSightError` becomes
one line on stderr and exit code 2 -- never a traceback.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from typing import Any

import click

from gridsight import __version__
from gridsight.errors import GridSightError

#: Commands that live in their own modules (``module`` exposing a click command named ``command``, or
#: ``module:attribute``), imported only when used so that start-up stays fast.
LAZY_COMMANDS: dict[str, str] = {
    "info": "gridsight.commands.info",
    "show": "gridsight.commands.show",
    "demo": "gridsight.commands.demo",
    "bench": "gridsight.bench",
    "serve": "gridsight.api.cli_serve",
    "cert": "gridsight.api.cli_cert",
    "encode": "gridsight.encode.cli",
    "detect": "gridsight.detect.cli",
    "model": "gridsight.llm.cli",
    "explain-formula": "gridsight.formula.cli",
    "formula": "gridsight.formula.cli:formula_command",
    "explain": "gridsight.commands.explain",
    "ask": "gridsight.qa.cli",
    "index": "gridsight.retrieval.cli",
    "extract": "gridsight.extract.cli",
    "manifest": "gridsight.manifest",
    "desktop": "gridsight.desktop.cli",
    "recalc": "gridsight.commands.recalc",
}


class _Group(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        names = set(super().list_commands(ctx))
        names.update(
            n for n, m in LAZY_COMMANDS.items() if importlib.util.find_spec(m.partition(":")[0]) is not None
        )
        return sorted(names)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in LAZY_COMMANDS:
            module_name, _, attr = LAZY_COMMANDS[cmd_name].partition(":")
            module = importlib.import_module(module_name)
            return getattr(module, attr or "command")
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except GridSightError as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(2)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            ctx.exit(130)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="gridsight")
def cli() -> None:
    """GridSight: a local, private AI copilot for Excel workbooks."""


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    cli.main(args=argv, prog_name="gridsight")


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
