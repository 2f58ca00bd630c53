"""`gridsight manifest`: the Office add-in manifest for the port the sidecar listens on.

``manifests/manifest.xml`` is a complete manifest for the default port (8765); every URL in it
starts with ``https://localhost:8765``. Writing it for another port replaces exactly that prefix,
so the file stays byte-for-byte what the tests validate, apart from the port.
"""

from __future__ import annotations

import io
from pathlib import Path

import click

from gridsight.errors import GridSightError
from gridsight.webroot import web_root

TEMPLATE_PORT = 8765
TEMPLATE_BASE = f"https://localhost:{TEMPLATE_PORT}"
#: Icon sizes the manifest names (16/32/80 for commands, 32/64 for the add-in's own icon).
ICON_SIZES = (16, 32, 64, 80)


def template_path() -> Path:
    return web_root() / "manifests" / "manifest.xml"


def render_manifest(port: int = TEMPLATE_PORT, template: str | None = None) -> str:
    """The manifest text with every URL pointing at ``https://localhost:PORT``."""
    if not 1 <= port <= 65535:
        raise GridSightError(f"port {port} is not a TCP port (1-65535)")
    text = template if template is not None else template_path().read_text(encoding="utf-8")
    if TEMPLATE_BASE not in text:
        raise GridSightError(f"{template_path()} has no {TEMPLATE_BASE} URLs to rewrite")
    return text.replace(TEMPLATE_BASE, f"https://localhost:{port}")


def draw_icon(size: int) -> bytes:
    """The GridSight icon as PNG bytes: a 2x2 grid of cells with one highlighted (the evidence).

    Drawn, not shipped from a design tool, so any size can be regenerated (``write_icons``).
    """
    from PIL import Image, ImageDraw

    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    pad = max(1, size // 16)
    radius = max(1, size // 8)
    d.rounded_rectangle((0, 0, size - 1, size - 1), radius=radius, fill=(16, 110, 80, 255))
    inner = size - 2 * pad
    gap = max(1, size // 16)
    cell = (inner - 3 * gap) // 2
    for i in range(2):
        for j in range(2):
            x0 = pad + gap + j * (cell + gap)
            y0 = pad + gap + i * (cell + gap)
            colour = (255, 200, 40, 255) if (i, j) == (1, 1) else (255, 255, 255, 255)
            d.rectangle((x0, y0, x0 + cell - 1, y0 + cell - 1), fill=colour)
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    return buf.getvalue()


def write_icons(folder: Path) -> list[Path]:
    """Write ``icon-N.png`` for every size the manifest uses (how addin/assets/ was made)."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for n in ICON_SIZES:
        p = folder / f"icon-{n}.png"
        p.write_bytes(draw_icon(n))
        out.append(p)
    return out


@click.command("manifest")
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=TEMPLATE_PORT,
    show_default=True,
    help="The port `gridsight serve` listens on.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Write the manifest to this file (default: print it).",
)
def command(port: int, out: Path | None) -> None:
    """Write the Office add-in manifest (manifest.xml) for the sidecar on https://localhost:PORT."""
    text = render_manifest(port)
    if out is None:
        click.echo(text, nl=False)
        return
    try:
        out.expanduser().write_text(text, encoding="utf-8")
    except OSError as exc:
        raise GridSightError(f"cannot write {out}: {exc.strerror or exc}") from None
    click.echo(f"wrote {out} (add-in served from https://localhost:{port}/)")
    click.echo("Sideload it in Excel: Insert > Add-ins > My Add-ins > Upload My Add-in (see docs/addin.md).")
