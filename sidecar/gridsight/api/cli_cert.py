"""`gridsight cert install|status`: the local CA that makes https://localhost trusted by Office."""

from __future__ import annotations

import json
import shlex
import subprocess

import click

from gridsight.errors import CertificateError


@click.group("cert")
def command() -> None:
    """Manage the local HTTPS certificate (a CA that can sign only localhost)."""


@command.command("status")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def status_cmd(fmt: str) -> None:
    """Show where the certificates are, their validity, key file modes and whether the CA is trusted."""
    from gridsight.api._tls import status

    doc = status()
    if fmt == "json":
        click.echo(json.dumps(doc, indent=2))
        return
    if not doc["exists"]:
        click.echo(
            f"no certificate yet in {doc['folder']}; `gridsight serve` or `gridsight cert install` makes one"
        )
        return
    ca, leaf = doc["ca"], doc["certificate"]
    trusted = {True: "yes", False: "no (run `gridsight cert install`)", None: "unknown on this system"}
    click.echo(f"folder:      {doc['folder']}")
    click.echo(f"CA:          {ca['subject']}")
    click.echo(f"  file:      {ca['file']}")
    click.echo(f"  valid to:  {ca['not_after']}")
    click.echo(f"  sha256:    {ca['sha256']}")
    click.echo(
        f"certificate: {leaf['subject']}, {leaf['days_left']} days left, signed by the CA: "
        f"{'yes' if leaf['signed_by_ca'] else 'NO'}"
    )
    click.echo("key modes:   " + ", ".join(f"{k} {v}" for k, v in doc["key_modes"].items()))
    click.echo(f"trusted:     {trusted[doc['trusted']]}")


@command.command("install")
@click.option(
    "--run",
    "run_it",
    is_flag=True,
    help="Run the trust command(s) now (may ask for your password); without it they are only printed.",
)
def install_cmd(run_it: bool) -> None:
    """Print (or, with --run, perform) the step that makes this computer trust GridSight's local CA."""
    from gridsight.api._tls import ensure_certificates, trust_commands

    paths = ensure_certificates()
    cmds = trust_commands(paths)
    if not run_it:
        click.echo(f"GridSight's local CA is {paths.ca_cert}")
        click.echo("It can sign certificates for localhost, 127.0.0.1 and ::1 only.")
        click.echo("Trust it once by running:")
        for c in cmds:
            click.echo("  " + shlex.join(c))
        click.echo("(or run `gridsight cert install --run` to do it now)")
        return
    for c in cmds:
        click.echo("running: " + shlex.join(c))
        try:
            done = subprocess.run(c, check=False)
        except FileNotFoundError:
            raise CertificateError(
                f"{c[0]} is not available on this system; add {paths.ca_cert} to your "
                "trusted root certificates by hand"
            ) from None
        if done.returncode != 0:
            raise CertificateError(f"{shlex.join(c)} failed with exit code {done.returncode}")
    click.echo("done: restart Excel so it picks up the new trust")
