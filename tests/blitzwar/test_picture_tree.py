"""The map painted from the drawing itself (issue 35: the mail's preview drew the BlitzWAR map as
a megabyte of SVG text, then parsed it back): :meth:`pbem.core.mapdraw.Picture.tree` gives the
rasteriser the elements and numbers the text carries, so that the PNG is the one the text gives,
byte for byte; the text is the one the writer wrote line by line (its parts, its pieces)."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pbem.blitzwar import draw_base as D
from pbem.core.campaign import Campaign, load_state_file
from pbem.core.data import load_ruleset
from pbem.core.mapdraw import Picture

ROOT = Path(__file__).resolve().parents[2]
raster = pytest.importorskip("pbem.core.raster")
png = pytest.importorskip("pbem.core.png")
needs_font = pytest.mark.skipif(not png.raster_usable(), reason="needs Pillow and the maps' font")


def _step(example: str, n: int):
    camp = Campaign(ROOT / "examples" / example)
    sd = next(d for d in camp.step_dirs() if int(d.name) == n)
    state, _ = load_state_file(camp.state_path(sd))
    report = json.loads((sd / "report.json").read_text(encoding="utf-8")) if n else None
    g, rs = load_ruleset(state["scenario"])
    return g, rs, state, report


# the start, a step stopped for a decision (1), steps of every kind, the last (the mail's benchmark)
@needs_font
@pytest.mark.parametrize("example,n", [("blitzwar-1939", 0), ("blitzwar-1939", 1), ("blitzwar-1939", 40),
                                       ("blitzwar-1939", 88), ("blitzwar-1939", 122), ("blitzwar-chain-signed", 9)])
def test_the_picture_paints_as_its_text(example, n):
    g, rs, state, report = _step(example, n)
    pic = g.draw_picture(rs, state, report)
    text = pic.text()
    assert text == g.draw_map(rs, state, report) == "\n".join(g.draw_map_parts(rs, state, report))
    assert raster.render(pic.tree(), width=700).tobytes() == raster.render(text, width=700).tobytes()
    assert png.preview_png(pic) == png.preview_png(text)


@needs_font
def test_a_game_without_a_picture_previews_its_text():
    """Battle for Germany draws text (pbem.core.svg): the mail paints that, as before."""
    g, rs, state, report = _step("bfg-chain-decisions", 3)
    assert getattr(g, "draw_picture", None) is None
    assert png.preview_png(g.draw_map(rs, state, report))[:8] == b"\x89PNG\r\n\x1a\n"


def test_path_data_numbers_are_those_of_its_text():
    """PathData.subpaths: the numbers float() reads in its text, for whole numbers (the outline's,
    by int arithmetic) and any other (round)."""
    rnd = random.Random(35)
    for _ in range(400):
        ints = rnd.random() < 0.5
        rings = [[[rnd.randrange(-3000, 4000) if ints else rnd.choice([rnd.uniform(-3000, 4000), -0.04, 0.05, 0.25])
                   for _ in range(2 * rnd.randrange(0, 9) + rnd.randrange(2))] for _ in range(rnd.randrange(1, 3))]]
        k = rnd.choice([0.6, 1.2, 0.3, 0.6 * 1.5, 0.45])
        ox, oy = rnd.choice([(-2750, -2450), (0, 0), (0.01, -2450), (-2750.5, 3)])
        for closed, shape in ((True, rings), (False, rings[0][0])):
            d = D.PathData(shape, k, ox, oy, closed)
            want = []
            for chunk in str(d).split("M")[1:]:
                n = [float(v) for v in chunk.replace("L", " ").replace("Z", " ").split()]
                if len(n) > 2:
                    want.append((n, closed))
            assert d.subpaths() == want


def test_path_data_numbers_of_mixed_rings():
    """A ring of whole numbers and floats together (the int arithmetic only for whole numbers
    alone), an odd number left over, numbers beyond its range: the numbers of its text."""
    for ring in ([10, 20, 30.5, 40, 50, 60], [10, 20, 30, 40, 50.0], [10, 20, 30, 40, 7], [10, 2 * 10 ** 6, 30, 40],
                 [-3 * 10 ** 6, 20, 30, 41, 55, 66], [True, 20, 30, 40]):
        for closed, shape in ((True, [[ring]]), (False, ring)):
            d = D.PathData(shape, 0.6, -2750, 3, closed)
            want = []
            for chunk in str(d).split("M")[1:]:
                n = [float(v) for v in chunk.replace("L", " ").replace("Z", " ").split()]
                want.append((n, closed))
            assert d.subpaths() == want, ring


def test_the_writer_s_lines_as_written():
    """An element, a group with its title and its end, and a shared piece: the lines of text the
    writer wrote before it kept items; the tree holds what the rasteriser reads."""
    svg = D.Svg()
    svg.open("zone", data={"zone": "Z1"}, title='A "zone" <1>', clip_path="url(#w)")
    svg.el("rect", "r", x=1.04, y=-0.04, width=2, height=3.25, fill="#ffffff", stroke_width=None)
    svg.text(5.0, 6.0, "Paris & Co", "label", size=12.0, halo=True, title="the capital")
    svg.text(5.0, 7.0, "Lyon", "label", size=9.0)
    svg.shared(("k",), lambda sub: sub.el("circle", None, cx=1.0, cy=2.0, r=0.55))
    svg.close()
    pic = Picture('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">', svg.out, "</svg>\n")
    lines = pic.text().split("\n")
    assert lines[1:4] == [' <g class="zone" data-zone="Z1" clip-path="url(#w)">',
                          '  <title>A "zone" &lt;1&gt;</title>',
                          '  <rect class="r" x="1" y="0" width="2" height="3.2" fill="#ffffff"/>']
    assert lines[-4:] == ['  <circle cx="1" cy="2" r="0.6"/>', " </g>", "</svg>", ""]
    g = pic.tree()[0]
    assert g.get("clip-path") == "url(#w)" and "class" not in g.attrib
    rect, halo, label, lyon, circle = list(g)
    assert rect.attrib == {"x": 1.0, "y": 0.0, "width": "2", "height": 3.2, "fill": "#ffffff"}
    assert halo.text == "Paris & Co" and label.text is None     # after its title: the title's tail, as parsed
    assert lyon.text == "Lyon" and circle.get("r") == 0.6
    assert pic.text() == "\n".join(pic.parts())


@needs_font
def test_a_picture_the_rasteriser_refuses_goes_to_another_converter_as_text(monkeypatch):
    """When pbem's rasteriser cannot paint the tree, the other converter gets the picture's text,
    its window focused as the text path focuses it."""
    g, rs, state, report = _step("blitzwar-1939", 88)
    pic = g.draw_picture(rs, state, report)
    real = raster.render

    def refuse(svg, **kw):
        if not isinstance(svg, str):
            raise raster.Unsupported("test")
        return real(svg, **kw)
    got = []
    monkeypatch.setattr(raster, "render", refuse)
    monkeypatch.setattr(png, "_external", lambda: "cairosvg")
    monkeypatch.setattr(png, "svg_to_png", lambda text, **kw: got.append(text) or b"not a png")
    assert png.preview_png(pic) == b"not a png"
    assert got == [png.focused(pic.text())] and got[0] != pic.text()


def test_node_numbers_rounded_once_a_value_as_every_number():
    """_node_attrs keeps round(v, 1) + 0.0 by the number (_ROUNDED): the same numbers as rounding
    each (-0.0 and 0.0, -0.04, halves, recurring and new values, the memo full and cleared)."""
    rnd = random.Random(36)
    values = [0.0, -0.0, -0.04, 0.05, 0.25, -0.25, 1.25, 2.675, 1e-9, -1e-9] \
        + [rnd.uniform(-3000, 3000) for _ in range(300)] + [rnd.randrange(-300, 300) / 8 for _ in range(300)]
    D._ROUNDED.clear()
    for _ in range(2):
        for v in values:
            got = D._node_attrs({"x": v, "stroke_width": v})
            want = round(v, 1) + 0.0
            assert repr(got["x"]) == repr(want) and repr(got["stroke-width"]) == repr(want), v
    D._ROUNDED.update({float(i): float(i) for i in range(65537)})
    assert repr(D._node_attrs({"y": -70000.04})["y"]) == "-70000.0" and len(D._ROUNDED) == 1
