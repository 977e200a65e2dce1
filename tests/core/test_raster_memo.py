"""The rasteriser's memos (issue 35, the mail step's speed) draw what the straightforward way
draws: the paints of a style found once for each set of the values they depend on
(``_Canvas._paints``) give the pixels of working them out for every element
(``_Canvas._paints_of``), the pens of a stroke style likewise (``_Canvas._pen``), and the styles of a kind of element found once (``_ALLOWED``) are those
of each of its elements; on the maps of several steps of both games' examples, and the sample
of every feature (tests/core/test_raster.py)."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pbem.core import png

pytestmark = pytest.mark.skipif(png.png_converter() != "pillow", reason="needs Pillow and the DejaVu fonts")
ROOT = Path(__file__).resolve().parents[2]
STEPS = [("blitzwar-1939", "000"), ("blitzwar-1939", "060"), ("blitzwar-1939", "122"), ("blitzwar-chain-signed", "005"),
         ("bfg-historical", "003"), ("bfg-four-player", "020")]


def _map(example: str, step: str) -> str:
    from pbem.core.campaign import Campaign, load_state_file
    from pbem.core.data import load_ruleset
    camp = Campaign(ROOT / "examples" / example)
    sd = camp.root / "steps" / step
    state = load_state_file(camp.state_path(sd))[0]
    report = json.loads((sd / "report.json").read_text("utf-8")) if (sd / "report.json").exists() else None
    g, rs = load_ruleset(state["scenario"])
    return g.draw_map(rs, state, report=report)


@pytest.fixture(scope="module")
def svgs() -> list[str]:
    from tests.core.test_raster import SAMPLE
    return [SAMPLE] + [_map(e, s) for e, s in STEPS]


def test_paints_once_a_style_as_every_element(svgs, monkeypatch):
    from pbem.core import raster
    memo = [raster.render(s, width=700).tobytes() for s in svgs]
    monkeypatch.setattr(raster._Canvas, "_paints", raster._Canvas._paints_of)
    assert [raster.render(s, width=700).tobytes() for s in svgs] == memo


def test_styles_once_a_kind_as_each_element(svgs):
    from pbem.core import raster
    raster._ALLOWED.clear()
    for s in svgs:
        raster.render(s, width=700)
    seen = 0
    for s in svgs:
        for el in ET.fromstring(s).iter():
            sig = (el.tag.rpartition("}")[2], *el.attrib.keys())
            if sig in raster._ALLOWED:
                seen += 1
                assert set(raster._ALLOWED[sig]) == raster._STYLED & el.attrib.keys(), sig
    assert seen > 1000


def test_pens_once_a_stroke_style_as_every_stroke(svgs, monkeypatch):
    """A stroke's width, colour, dashes and caps found once for each colour, width, dash array
    and cap (``_Canvas._pen``, kept in ``pens``) draw what working them out for every stroke draws."""
    from pbem.core import raster
    memo = [raster.render(s, width=700).tobytes() for s in svgs]
    stroke = raster._Canvas.stroke

    def afresh(self, *a, **k):
        self.pens.clear()
        return stroke(self, *a, **k)
    monkeypatch.setattr(raster._Canvas, "stroke", afresh)
    assert [raster.render(s, width=700).tobytes() for s in svgs] == memo
    assert any("stroke-dasharray" in s for s in svgs) and any('stroke-linecap="round"' in s for s in svgs)
