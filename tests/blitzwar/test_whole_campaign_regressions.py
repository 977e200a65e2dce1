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
