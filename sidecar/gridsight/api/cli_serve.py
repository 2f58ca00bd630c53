"""`gridsight serve`: the sidecar on https://localhost:PORT (127.0.0.1 only)."""

from __future__ import annotations

import errno
import json
import signal
from pathlib import Path

import click

from gridsight.errors import GridSightError


@click.command("serve")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=None,
    help="Port on 127.0.0.1 (default 8765; 0 picks a free one).",
)
@click.option("--demo", is_flag=True, help="Open the bundled demo workbook as a session at start.")
@click.option(
    "--workbook",
    "workbooks",
    multiple=True,
    type=click.Path(path_type=Path, dir_okay=False),
    help="Open this file as a session at start (repeatable).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Print the start-up facts as text or one JSON line.",
)
def command(port: int | None, demo: bool, workbooks: tuple[Path, ...], fmt: str) -> None:
    """Serve the GridSight API over HTTPS on localhost until Ctrl-C."""
    from gridsight.api import DEFAULT_PORT, SECRET_FILE, SECRET_HEADER, build_server
    from gridsight.api._routes_workbooks import session_from_file
    from gridsight.api._tls import is_trusted

    try:
        running = build_server(DEFAULT_PORT if port is None else port)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise GridSightError(
                f"port {port or DEFAULT_PORT} is already in use; choose another with --port"
            ) from None
        raise GridSightError(f"cannot listen on 127.0.0.1: {exc.strerror or exc}") from None
    sessions = running.app.extensions["gridsight"].sessions  # type: ignore[attr-defined]
    paths = list(workbooks)
    if demo:
        from gridsight.demo import DEMO_NAME, build_demo_workbook

        target = running.config.home / "demo" / DEMO_NAME
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            build_demo_workbook(target)
        paths.insert(0, target)
    opened = []
    for p in paths:
        s = sessions.add(session_from_file(p.expanduser().resolve()))
        opened.append({"id": s.id, "name": s.name, "path": str(s.path)})
    facts = {
        "url": running.url,
        "port": running.port,
        "api": f"{running.url}/api/v1/",
        "secret_file": str(running.config.home / SECRET_FILE),
        "secret_header": SECRET_HEADER,
        "ca_certificate": str(running.certs.ca_cert),
        "ca_trusted": is_trusted(running.certs),
        "workbooks": opened,
    }
    if fmt == "json":
        click.echo(json.dumps(facts))
    else:
        click.echo(f"GridSight sidecar on {running.url} (127.0.0.1 only)")
        click.echo(f"  secret: {facts['secret_file']} (send it as {SECRET_HEADER})")
        click.echo(
            f"  CA:     {facts['ca_certificate']}"
            + ("" if facts["ca_trusted"] else "  (not trusted yet: run `gridsight cert install`)")
        )
        for w in opened:
            click.echo(f"  workbook {w['id']}: {w['path']}")
        click.echo("Ctrl-C stops it.")
    signal.signal(signal.SIGTERM, lambda *_: running.server.request_stop())
    try:
        running.server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        click.echo("stopped", err=True)
