"""The mailed preview is the area of the step's events in either game (issue 33): Battle for
Germany names that area (``data-focus``) as BlitzWAR does, and both name their map's area
(``data-map``), so that the window stays on the map rather than on the side panel."""
from __future__ import annotations

import json
import re
from pathlib import Path

from pbem.core.campaign import load_state_file
from pbem.core.data import load_ruleset
from pbem.core.png import focused, svg_width_height

ROOT = Path(__file__).resolve().parents[1]


def _drawn(example: str, step: str) -> str:
    d = ROOT / "examples" / example / "steps" / step
    st, _ = load_state_file(next(p for p in d.glob("*.yaml") if not p.name.startswith("orders-")))
    g, rs = load_ruleset(st["scenario"])
    return str(g.draw_map(rs, st, report=json.loads((d / "report.json").read_text("utf-8"))))


def _box(svg: str, name: str) -> tuple[float, ...]:
    return tuple(float(v) for v in re.search(rf'\s{name}="([^"]+)"', svg[:3000]).group(1).split())


def test_a_battle_for_germany_step_is_mailed_as_the_area_of_its_marks():
    svg = _drawn("bfg-chain-decisions", "002")         # an attack on Warsaw, its decision pending
    fx, fy, fw, fh = _box(svg, "data-focus")
    ax, ay, aw, ah = _box(svg, "data-map")
    cut = focused(svg)
    assert svg_width_height(cut) == (900.0, 680.0)       # at the map's own scale
    x0, y0, w, h = _box(cut, "viewBox")
    assert x0 <= fx and y0 <= fy and x0 + w >= fx + fw and y0 + h >= fy + fh    # every mark
    assert ax <= x0 and x0 + w <= ax + aw + 0.1 and ay <= y0 and y0 + h <= ay + ah + 0.1  # on the map, not the panel
    assert cut[cut.index("<svg"):].split(">", 1)[1] == svg[svg.index("<svg"):].split(">", 1)[1]


def test_a_wide_battle_for_germany_step_is_cut_where_that_draws_it_bigger():
    """Nine attacks along the front: the area is most of the map's height, drawn at about 0.56
    of its scale, where the whole map would be at 0.34."""
    svg = _drawn("bfg-historical", "003")
    cut = focused(svg)
    assert cut != svg
    w, h = svg_width_height(cut)
    assert 900 / w >= 1.5 * min(900 / svg_width_height(svg)[0], 680 / svg_width_height(svg)[1])


def test_the_window_stays_on_the_blitzwar_map_at_its_east_edge():
    svg = _drawn("blitzwar-1939", "004")
    ax, ay, aw, ah = _box(svg, "data-map")
    W, _ = svg_width_height(svg)
    assert aw < W                                        # the side panel is right of the map
    east = re.sub(r'data-focus="[^"]+"', f'data-focus="{aw - 300:.0f} 1000 290 200"', svg, count=1)
    x0, _, w, _ = _box(focused(east), "viewBox")
    assert x0 + w <= aw + 0.1 and x0 + w >= aw - 1
