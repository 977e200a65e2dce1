"""A picture's tree leaves out the texts the rasteriser would leave out unread (raster.specks,
issue 35: the whole BlitzWAR map's 1,000 place names in a mail's preview were made, then
skipped): the same pixels as the whole tree, at the preview's scale and others."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("PIL")

from pbem.core import mail, png, raster

ROOT = Path(__file__).resolve().parents[2]


def _picture(monkeypatch, example: str, step: int | None):
    """The Picture a step's mail paints, and the preview's root start tag and width."""
    seen = []
    real = png._pillow

    def keep(svg, width, **k):
        seen.append((svg, width, k.get("head")))
        return real(svg, width, **k)
    monkeypatch.setattr(png, "_pillow", keep)
    mail.step_messages(ROOT / "examples" / example, step)
    return seen[0]


@pytest.mark.parametrize("example, step", [("blitzwar-1939", None), ("blitzwar-1939", 1), ("blitzwar-chain-signed", None)])
def test_a_tree_without_the_specks_paints_the_same_pixels(monkeypatch, example, step):
    pic, width, head = _picture(monkeypatch, example, step)
    if not hasattr(pic, "tree"):
        pytest.skip("not a drawn picture")
    left_out = 0
    for w, h in ((width, head), (300, None), (900, None), (2400, None)):
        for ss in (1, raster.SUPERSAMPLE):
            full = pic.tree(h)
            cut = pic.tree(h, specks=lambda root, w=w, ss=ss: raster.specks(root, w, supersample=ss))
            left_out += len(list(full.iter())) - len(list(cut.iter()))
            a = raster.render(full, width=w, supersample=ss, scaled=False)
            b = raster.render(cut, width=w, supersample=ss, scaled=False)
            assert a.tobytes() == b.tobytes(), (w, ss)
    assert left_out > 1000      # (the test tests something)


def test_specks_is_the_walks_test():
    """specks' test is the walk's: a text just below the floor is not drawn, one at it is."""
    import xml.etree.ElementTree as ET
    root = ET.fromstring('<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="500" viewBox="0 0 2000 1000"/>')
    test = raster.specks(root, 500, supersample=2)
    ky = 250 * 2 / 1000
    assert test(raster.MIN_TEXT * 2 / ky - 0.01) and not test(raster.MIN_TEXT * 2 / ky)
    assert test("11.9") and not test("12")
