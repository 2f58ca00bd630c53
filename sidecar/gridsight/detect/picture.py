"""The sheet map: the used range as a grid, each table's header, data, title and notes coloured.

One pixel block per cell, so a person sees at a glance where the tables are; huge sheets are
sampled down to at most ``max_px`` pixels a side. Pillow is imported here only (an edge module).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from gridsight.detect._model import Detection
from gridsight.grid import Range, Sheet

COLOURS: dict[str, tuple[int, int, int]] = {
    "empty": (255, 255, 255),
    "cell": (205, 205, 205),  # content outside any table
    "data": (160, 200, 240),
    "header": (245, 170, 80),
    "total": (120, 200, 120),
    "title": (190, 150, 230),
    "note": (230, 220, 120),
}
LEGEND = ("header", "data", "total", "title", "note", "cell")


def _paint(
    img: np.ndarray,
    rng: Range,
    origin: tuple[int, int],
    colour: tuple[int, int, int],
    mask: np.ndarray | None = None,
) -> None:
    r0, c0 = origin
    h, w = img.shape[:2]
    t, b = max(rng.top - r0, 0), min(rng.bottom - r0, h - 1)
    left, right = max(rng.left - c0, 0), min(rng.right - c0, w - 1)
    if t > b or left > right:
        return
    region = img[t : b + 1, left : right + 1]
    tint = np.array(colour, dtype=np.float32)
    if mask is None:
        region[...] = tint
    else:
        m = mask[t : b + 1, left : right + 1]
        region[m] = tint
        region[~m] = 0.45 * tint + 0.55 * 255


def render_map(sheet: Sheet, detection: Detection, out: Path, *, max_px: int = 1600) -> Path:
    """Draw the sheet map as a PNG at ``out``; returns the path written."""
    from PIL import Image, ImageDraw  # Pillow: only the picture needs it

    h, w = sheet.shape
    if h == 0 or w == 0:
        img = Image.new("RGB", (360, 60), "white")
        ImageDraw.Draw(img).text((10, 20), f"{sheet.name}: empty sheet", fill=(0, 0, 0))
        img.save(out)
        return out
    step = max(1, int(np.ceil(max(h, w) / max_px)))  # sample huge sheets
    occ = ((sheet.kinds != 0) | (sheet.formula_ids >= 0))[::step, ::step]
    origin = sheet.origin
    base = np.full((*occ.shape, 3), 255, dtype=np.float32)
    base[occ] = COLOURS["cell"]
    origin_s = (origin[0], origin[1])

    def scaled(rng: Range) -> Range:
        r0, c0 = origin
        return Range(
            (rng.top - r0) // step + r0,
            (rng.left - c0) // step + c0,
            (rng.bottom - r0) // step + r0,
            (rng.right - c0) // step + c0,
        )

    for t in detection.tables:
        _paint(base, scaled(t.range), origin_s, COLOURS["data"], occ)
        if t.header_range is not None:
            _paint(base, scaled(t.header_range), origin_s, COLOURS["header"], occ)
        for r in (*t.total_rows, *t.subtotal_rows):
            _paint(base, scaled(Range(r, t.range.left, r, t.range.right)), origin_s, COLOURS["total"], occ)
        for lab in t.titles:
            _paint(base, scaled(lab.range), origin_s, COLOURS["title"])
        for lab in t.notes:
            _paint(base, scaled(lab.range), origin_s, COLOURS["note"])
    sh, sw = occ.shape
    cell = int(max(2, min(24, max_px // max(sh, sw))))
    grid = np.repeat(np.repeat(base.astype(np.uint8), cell, axis=0), cell, axis=1)
    if cell >= 6:  # grid lines where cells are big enough to see them
        grid[::cell, :, :] = (grid[::cell, :, :] * 0.85).astype(np.uint8)
        grid[:, ::cell, :] = (grid[:, ::cell, :] * 0.85).astype(np.uint8)
    legend_h = 22
    canvas = Image.new("RGB", (max(grid.shape[1], 420), grid.shape[0] + legend_h), "white")
    canvas.paste(Image.fromarray(grid), (0, legend_h))
    draw = ImageDraw.Draw(canvas)
    x = 4
    for name in LEGEND:
        draw.rectangle((x, 5, x + 12, 17), fill=COLOURS[name], outline=(90, 90, 90))
        draw.text((x + 16, 5), name, fill=(0, 0, 0))
        x += 20 + 7 * len(name)
    for i, t in enumerate(detection.tables, 1):
        s = scaled(t.range)
        px, py = (s.left - origin[1]) * cell, (s.top - origin[0]) * cell + legend_h
        draw.rectangle(
            (px, py, (s.right - origin[1] + 1) * cell - 1, (s.bottom - origin[0] + 1) * cell - 1 + legend_h),
            outline=(20, 60, 160),
            width=2,
        )
        label = f"T{i} {t.range.ref()}"
        tw = 6 * len(label) + 4
        draw.rectangle((px + 2, py + 2, px + 2 + tw, py + 14), fill=(20, 60, 160))
        draw.text((px + 4, py + 2), label, fill=(255, 255, 255))
    canvas.save(out)
    return out
