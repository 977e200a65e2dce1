"""The mail preview's palette PNG is written by pbem (pbem/core/png.py ``_palette_png``: Pillow's
PNG plugin, and the EXIF tags it imports, took longer to import than writing takes): byte for
byte the PNG Pillow's ``save`` writes of the same picture."""
from __future__ import annotations

import io

import pytest

from pbem.core import png

PIL = pytest.importorskip("PIL")


def _pillow_s(q) -> bytes:
    out = io.BytesIO()
    q.save(out, format="PNG")
    return out.getvalue()


def _pictures():
    from PIL import Image
    flat = Image.new("RGB", (300, 200), "#bcd4e6")
    flat.paste((217, 214, 204), (40, 30, 260, 170))
    busy = Image.frombytes("RGB", (900, 600), bytes(((x * 7 + y * 13) ^ (x * y)) % 251 for y in range(600) for x in range(900)
                                                    for _ in range(3)))     # compressed over 64 KiB: several IDAT blocks
    return [flat, busy]


@pytest.mark.parametrize("colors", [17, 48, 128, 256])
def test_the_palette_png_is_pillow_s(colors):
    import heapq

    from PIL import Image
    for im in _pictures():
        counted = im.getcolors(im.width * im.height)
        top = [c for _, c in heapq.nsmallest(max(2, min(256, colors)), [(-n, c) for n, c in counted])]
        if len(top) <= 16:
            continue
        flat = [v for c in top for v in c]
        pal = Image.new("P", (1, 1))
        pal.putpalette(flat + flat[:3] * (256 - len(top)))
        q = im.quantize(palette=pal, dither=Image.Dither.NONE)
        ours = png._palette_png(q, bytes(flat))
        assert ours == _pillow_s(q.remap_palette(list(range(len(top)))) if len(top) < 256 else q)
        assert png.compact_image(im, colors=colors) == ours


def test_few_colours_and_optimize_go_through_pillow():
    from PIL import Image
    im = _pictures()[0]
    data = png.compact_image(im, colors=48, optimize=True)
    with Image.open(io.BytesIO(data)) as back:
        assert back.mode == "P" and back.convert("RGB").tobytes() == im.tobytes()


def test_the_colours_counted_in_a_small_table_make_the_same_png(monkeypatch):
    """compact_image counts the colours in a table of 65,536 first (``_colour_counts``): the
    same PNG as counted in one of a row a pixel, for a map of a few colours and for pictures
    of more than 65,536 colours (the second asking)."""
    import random

    from PIL import Image
    noisy = Image.frombytes("RGB", (400, 300), random.Random(35).randbytes(400 * 300 * 3))
    pictures = [*_pictures(), noisy]
    assert len(noisy.getcolors(400 * 300)) > 1 << 16
    small = [png.compact_image(im, colors=c) for im in pictures for c in (16, 48, 256)]
    monkeypatch.setattr(png, "_colour_counts", lambda rgb: rgb.getcolors(rgb.width * rgb.height))
    assert small == [png.compact_image(im, colors=c) for im in pictures for c in (16, 48, 256)]
