"""pbem's own rasteriser (pbem/core/raster.py) draws the SVG pbem's maps are written in as
cairosvg does (issue 35: the mail's preview without cairosvg's half-second import and two-second
drawing), and leaves to another converter what it does not draw."""
from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from pbem.core import png

pytestmark = pytest.mark.skipif(png.png_converter() != "pillow", reason="needs Pillow and the DejaVu fonts")
ROOT = Path(__file__).resolve().parents[2]

# every feature the maps use: fills and strokes with opacity, a rounded rectangle, a dashed ring,
# an even-odd path with a hole and an island, a quadratic curve, a pattern, a clipped group, a
# polyline with round caps, text anchored start, middle and end, bold, italic, a halo
SAMPLE = """<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200" viewBox="0 0 300 200" font-family="DejaVu Sans">
 <defs>
  <pattern id="hatch" patternUnits="userSpaceOnUse" width="10" height="10"><path d="M0 10 L10 0" stroke="#884400" stroke-width="2"/></pattern>
  <clipPath id="win"><rect x="0" y="0" width="200" height="200"/></clipPath>
 </defs>
 <rect x="0" y="0" width="300" height="200" fill="#ffffff"/>
 <g clip-path="url(#win)">
  <rect x="10" y="10" width="280" height="80" fill="#a9cbe6"/>
  <path d="M20 20 L120 20 L120 80 L20 80 Z M50 40 L90 40 L90 60 L50 60 Z M130 30 L150 30 L150 50 Z" fill="#d2bf8e" fill-rule="evenodd" stroke="#333333" stroke-width="1.5"/>
  <path d="M20 20 L120 20 L120 80 L20 80 Z" fill="url(#hatch)"/>
 </g>
 <rect x="160" y="100" width="120" height="50" rx="8" fill="#ffffff" stroke="#c2185b" stroke-width="3" fill-opacity="0.9"/>
 <circle cx="60" cy="140" r="25" fill="none" stroke="#1f55d0" stroke-width="3" stroke-dasharray="6 4"/>
 <circle cx="120" cy="140" r="10" fill="#c01818" opacity="0.8"/>
 <polyline points="20,190 80,170 140,190" fill="none" stroke="#2e7d32" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>
 <path d="M150 180 Q200 120 250 180" fill="none" stroke="#000000" stroke-width="2" stroke-opacity="0.75"/>
 <line x1="160" y1="95" x2="290" y2="95" stroke="#000000" stroke-width="0.7"/>
 <text x="220" y="120" font-size="14" text-anchor="middle" fill="none" stroke="#ffffff" stroke-width="4">Warsaw</text>
 <text x="220" y="120" font-size="14" text-anchor="middle" font-weight="bold" fill="#b01010">Warsaw</text>
 <text x="165" y="140" font-size="11" text-anchor="start" dominant-baseline="central" fill="#111111">start</text>
 <text x="275" y="140" font-size="11" text-anchor="end" font-style="italic" fill="#111111">end</text>
</svg>"""


def _pixels(data: bytes):
    from PIL import Image
    with Image.open(io.BytesIO(data)) as im:
        return im.convert("RGB")


def _difference(a, b) -> float:
    """The mean difference of two pictures of one size, per channel, 0-255, a little blurred
    (anti-aliasing and a pattern's phase differ by a pixel)."""
    from PIL import ImageChops, ImageFilter, ImageStat
    a, b = (im.filter(ImageFilter.GaussianBlur(1.5)) for im in (a, b))
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def test_the_rasteriser_draws_what_cairosvg_draws():
    ours = _pixels(png.svg_to_png(SAMPLE, converter="pillow"))
    assert ours.size == (300, 200)
    assert ours.getpixel((70, 50)) == (169, 203, 230)            # the hole shows the sea under it
    land = ours.crop((25, 25, 45, 75))
    assert sum(1 for y in range(land.height) for x in range(land.width)   # the hatch over the land
               if sum(abs(a - b) for a, b in zip(land.getpixel((x, y)), (0x88, 0x44, 0x00))) < 90) > 60
    assert ours.getpixel((250, 50)) == (255, 255, 255)            # clipped away
    if png.cairosvg_usable():
        theirs = _pixels(png.svg_to_png(SAMPLE, converter="cairosvg"))
        assert _difference(ours, theirs) < 3.0


def test_what_it_does_not_draw_goes_to_another_converter():
    from pbem.core import raster
    turned = SAMPLE.replace('<g clip-path="url(#win)">', '<g transform="rotate(10)">')
    with pytest.raises(raster.Unsupported):
        raster.render(turned)
    if png.cairosvg_usable():
        assert png.svg_to_png(turned).startswith(b"\x89PNG")     # cairosvg drew it


@pytest.mark.parametrize("example, step", [("blitzwar-1939", "004"), ("bfg-historical", "003")])
def test_the_mailed_preview_is_close_to_cairosvg_s(example, step):
    """A step of each game, as mailed: pbem's drawing against cairosvg's of the same window."""
    from pbem.core.campaign import load_state_file
    from pbem.core.data import load_ruleset
    d = ROOT / "examples" / example / "steps" / step
    st, _ = load_state_file(next(p for p in d.glob("*.yaml") if not p.name.startswith("orders-")))
    g, rs = load_ruleset(st["scenario"])
    svg = png.focused(g.draw_map(rs, st, report=json.loads((d / "report.json").read_text("utf-8"))))
    assert re.search(r'viewBox="[^"]+"', svg[:3000]).group(0) != 'viewBox="0 0 {:g} {:g}"'.format(*png.svg_width_height(svg))
    w = min(900, round(png.svg_width_height(svg)[0] * min(1.0, 900 / png.svg_width_height(svg)[0],
                                                          680 / png.svg_width_height(svg)[1])))
    ours = _pixels(png.svg_to_png(svg, converter="pillow", width=w))
    if png.cairosvg_usable():
        theirs = _pixels(png.svg_to_png(svg, converter="cairosvg", width=w))
        assert ours.size == theirs.size and _difference(ours, theirs) < 4.0


def test_the_whole_map_of_a_step_that_marks_nothing_is_close_to_cairosvg_s():
    """The BlitzWAR example's last step (diplomacy: nothing marked, so the preview is the whole
    map, 5,400 elements: the mail step's slowest drawing) against cairosvg's."""
    from pbem.core.campaign import load_state_file
    from pbem.core.data import load_ruleset
    d = sorted((ROOT / "examples" / "blitzwar-1939" / "steps").iterdir())[-1]
    st, _ = load_state_file(next(p for p in d.glob("*.yaml") if not p.name.startswith("orders-")))
    g, rs = load_ruleset(st["scenario"])
    svg = g.draw_map(rs, st, report=json.loads((d / "report.json").read_text("utf-8")))
    assert png.focused(svg) == svg
    ours = _pixels(png.svg_to_png(svg, converter="pillow", width=900))
    assert ours.size == (900, 581)
    if png.cairosvg_usable():
        theirs = _pixels(png.svg_to_png(svg, converter="cairosvg", width=900))
        assert _difference(ours, theirs) < 2.5


def test_a_path_s_numbers_read_alike_apart_or_run_together():
    """The outline's paths are read by splitting (the mail step's speed); numbers run together,
    as SVG allows, fall back to the full reading: the same points either way."""
    from pbem.core.raster import _subpaths
    want = [([(1.0, 2.0), (3.5, -4.0), (10.0, 0.5)], True), ([(7.0, 8.0), (9.0, 10.0)], False)]
    assert _subpaths("M1 2 L3.5 -4 L1e1 0.5 Z M7 8 L9 10") == want
    assert _subpaths("M1,2 L3.5,-4 L1e1,.5 Z M7,8 L9,10") == want
    assert _subpaths("M1 2L3.5-4L1e1.5Z M7 8L9 10") == want


@pytest.mark.parametrize("change", [
    ('<circle cx="120"', '<circle display="none" cx="120"'),               # hidden: it would be drawn
    ('<circle cx="120"', '<circle visibility="hidden" cx="120"'),
    ('<line x1="160"', '<line marker-end="url(#hatch)" x1="160"'),          # an arrow head: left out
    ('<circle cx="60"', '<circle clip-path="url(#win)" cx="60"'),           # a clip on a shape: not clipped
    ('<text x="165"', '<text dx="30" x="165"'),                              # shifted text: not shifted
    ('<rect x="160"', '<svg x="40" y="40" viewBox="0 0 10 10"><rect x="160"'),  # a nested viewport
    ('viewBox="0 0 300 200"', 'viewBox="0 0 300 200" preserveAspectRatio="none"'),
])
def test_an_attribute_it_does_not_draw_goes_to_another_converter(change):
    """What it would draw wrong, or not at all, it does not draw: an attribute or element it does
    not know is refused (Unsupported) as a transform is, not ignored."""
    from pbem.core import raster
    svg = SAMPLE.replace(*change)
    if change[1].startswith("<svg"):
        svg = svg.replace('fill-opacity="0.9"/>', 'fill-opacity="0.9"/></svg>', 1)
    assert svg != SAMPLE
    with pytest.raises(raster.Unsupported):
        raster.render(svg)
    raster.render(SAMPLE)        # the maps' own attributes are all drawn


def test_a_character_the_font_lacks_goes_to_another_converter():
    """A name in Japanese (a user's own data) would be drawn as empty boxes with the maps' font:
    another converter, which has the system's fonts, draws it; accented Latin is drawn."""
    from pbem.core import raster
    with pytest.raises(raster.Unsupported):
        raster.render(SAMPLE.replace(">Warsaw<", ">ワルシャワ<"))
    raster.render(SAMPLE.replace(">Warsaw<", ">Łódź → Kraków<"))
