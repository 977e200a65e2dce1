"""The mail's PNG preview is drawn once (issue 35: a late BlitzWAR step drew its map three or four
times, two to three seconds each, because each smaller try drew the SVG again): a preview over its
byte budget is made smaller from the picture already drawn."""
from __future__ import annotations

import io

import pytest

from pbem.core import png


def _busy_svg(w: int = 900, h: int = 680) -> str:
    """Many small cells of many colours: a picture whose PNG is far over a small budget."""
    cells = []
    for i in range(0, w, 10):
        for j in range(0, h, 10):
            c = (i * 7 + j * 13) % 256, (i * 3 + j * 5) % 256, (i + j * 11) % 256
            cells.append(f'<rect x="{i}" y="{j}" width="10" height="10" fill="rgb{c}"/>')
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}">{"".join(cells)}</svg>'


@pytest.mark.skipif(not png.cairosvg_usable(), reason="needs cairosvg (pbem[png])")
def test_a_preview_over_its_budget_is_drawn_once(monkeypatch):
    from PIL import Image
    calls = []
    real = png.svg_to_png
    monkeypatch.setattr(png, "png_converter", lambda: "cairosvg")   # another converter than pbem's own

    def counted(*a, **k):
        calls.append(k.get("width"))
        return real(*a, **k)
    monkeypatch.setattr(png, "svg_to_png", counted)
    first = png.preview_png(_busy_svg(), budget=None)
    small = png.preview_png(_busy_svg(), budget=1)  # a budget no picture meets: the smallest try
    assert len(calls) == 2                      # one drawing for each preview, none for the smaller tries
    with Image.open(io.BytesIO(first)) as a, Image.open(io.BytesIO(small)) as b:
        assert a.size == (900, 680)
        assert b.size == (540, 408)             # made smaller, down to 60 % of the first size


@pytest.mark.skipif(png.png_converter() != "pillow", reason="needs Pillow and the DejaVu fonts")
def test_pbem_s_own_rasteriser_draws_the_preview_once_without_cairosvg(monkeypatch):
    """The preview is drawn by pbem's rasteriser (importing cairosvg alone took longer than a
    step's adjudication), once, at its final size: a smaller try scales that drawing."""
    from PIL import Image

    from pbem.core import raster
    calls = []
    real = raster.render

    def counted(*a, **k):
        calls.append(k.get("width"))
        return real(*a, **k)
    monkeypatch.setattr(raster, "render", counted)
    monkeypatch.setattr(png, "svg_to_png", lambda *a, **k: pytest.fail("no other converter"))
    first = png.preview_png(_busy_svg(), budget=None)
    small = png.preview_png(_busy_svg(), budget=1)
    assert calls == [900, 900]
    with Image.open(io.BytesIO(first)) as a, Image.open(io.BytesIO(small)) as b:
        assert a.size == (900, 680) and b.size == (540, 408)


def test_scaled_png_keeps_the_proportions():
    pytest.importorskip("PIL")
    from PIL import Image
    out = io.BytesIO()
    Image.new("RGB", (300, 200), "#336699").save(out, format="PNG")
    with Image.open(io.BytesIO(png.scaled_png(out.getvalue(), 150))) as im:
        assert im.size == (150, 100)
