"""Bugs the scripted whole campaign (benchmarks/blitzwar_player.py, issue 21) found, beyond the
case files named in each test: what the order template and `pbem seal` offer must be what the
phase they are for accepts."""
from __future__ import annotations

from pathlib import Path

import yaml

from pbem.blitzwar.cards import check_sealed_choice, picking_deck
from pbem.blitzwar.cases import case_state, world
from pbem.blitzwar.replacements import _cards_template

CASES = Path(__file__).resolve().parents[1] / "cases" / "blitzwar"


def test_the_us_entering_earlier_switches_the_template_and_seal_to_the_total_war_deck():
    """10.2, 9.3 (case replacements/10.2-us-entry-earlier-deck-in-the-template): the US joins the
    Allies in this turn's diplomacy phase, a turn early; the template of the shared phases and
    `pbem seal` offer the total-war cards, which the cards phase after it accepts (the limited-war
    ones it refuses: the template as it was then could not be sent)."""
    g, w = world()
    case = yaml.safe_load((CASES / "replacements" / "10.2-us-entry-earlier-deck-in-the-template.yaml").read_text("utf-8"))
    st = case_state(w, g, case)
    assert st["phase"] == "1.diplomacy" and (st.get("war") or {}).get("US") != "allies"
    assert picking_deck(w, st, "allies") == picking_deck(w, st, "axis") == "total"
    assert picking_deck(w, st, "ussr") == "limited"
    text = "\n".join(_cards_template(w, st, "allies", ["allies"]))
    assert "allies: free (total-war deck): allies-t1" in text and "allies-l1" not in text
    assert check_sealed_choice(w, st, "axis", "cards-axis-t22", "axis-t2") is None
    assert "not a free card" in (check_sealed_choice(w, st, "axis", "cards-axis-t22", "axis-l2") or "")


def test_the_naval_template_offers_an_italian_uboat_only_its_area():
    """12.1 with 9.6: an Italian U-boat acts only in the Mediterranean and Italy's ports; with
    the Axis holding Gibraltar (its strait open, 12.1) the template listed the Atlantic as where
    its move may end, and validate refused the move (BW-NAVAL-ITALY). Every place the template
    offers is one the checks accept."""
    from pbem.blitzwar import naval
    from pbem.blitzwar.context import Ctx
    g, w = world()
    case = {"case": "x", "rule": "9.6", "war": {"ITA": "axis"}, "control": {"gibraltar": "axis"},
            "position": {"naples": [{"id": "ita-u1-1", "nation": "ITA", "type": "uboat", "units": 1},
                                    {"id": "ita-f1-1", "nation": "ITA", "type": "fleet", "units": 1}]},
            "start": {"phase": "axis.4.naval", "turn": 10}}
    st = case_state(w, g, case)
    ctx = Ctx(rs=w, state=st, turn=10, phase="axis.4.naval", side="axis")
    places = naval.reachable(ctx, "ita-u1-1", "axis")
    assert "western-med" in places and "mid-atlantic" not in places and "gibraltar" not in places
    assert all(naval._in_italian_area(ctx, x) for x in places)
    assert "mid-atlantic" in naval.reachable(ctx, "ita-f1-1", "axis")      # the fleets may leave it (9.6)
    text = "\n".join(naval.template_lines(w, st, "axis.4.naval"))
    line = next(ln for ln in text.splitlines() if "ita-u1-1" in ln)
    assert "atlantic" not in line, line
