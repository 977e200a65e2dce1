"""16.3.2's German defence reads the Axis strategic points at the end of the last turn (ruling
combat-r19-german-defence-points): pbem/blitzwar/context.py records them when a turn ends
(phases.advance), from the end of turn 11 on; 9.3 and 18 keep reading the live count. The case
files tests/cases/blitzwar/combat/16.3.2-points-* and
tests/cases/blitzwar/diplomacy/9.3-with-16.3.2-one-track-two-moments play it through the kernel."""
from __future__ import annotations

import copy
import xml.etree.ElementTree as ET

from pbem.blitzwar.cases import Kit
from pbem.blitzwar.context import axis_points, german_defence_points, strategic_points
from pbem.blitzwar.draw import draw_map
from pbem.blitzwar.phases import advance


def _state(turn: int, phase: str = "ussr.9.combat"):
    kit = Kit()
    return kit.rs, kit.setup({"start": {"turn": turn, "phase": phase}})[1]


def test_the_end_of_turn_10_records_nothing_the_end_of_turn_11_records_the_live_count():
    rs, st = _state(10)
    advance(rs, st, [])
    assert st["turn"] == 11 and "german_defence_points" not in st["flags"]     # 1940: states as before
    st["phase"] = "ussr.9.combat"
    advance(rs, st, [])
    assert st["turn"] == 12
    assert (st["flags"]["german_defence_points"], st["flags"]["german_defence_turn"]) == (axis_points(rs, st), 11)


def test_a_phase_that_does_not_end_the_turn_records_nothing():
    rs, st = _state(13, "allies.9.combat")
    st["flags"].update(german_defence_points=7, german_defence_turn=12)
    advance(rs, st, [])
    assert st["phase"] == "ussr.4.naval" and st["flags"]["german_defence_points"] == 7


def test_the_condition_reads_the_record_else_the_live_count():
    rs, st = _state(13, "allies.9.combat")
    live = axis_points(rs, st)
    assert german_defence_points(rs, st) == (live, None)           # no turn's end seen: the position
    st["flags"].update(german_defence_points=live + 5, german_defence_turn=12)
    assert german_defence_points(rs, st) == (live + 5, 12)
    # 9.3 (Italy and Hungary at once) and 18 (victory) keep the live count
    assert axis_points(rs, st) == live and strategic_points(rs, st)["axis"] == live
    # a case's track override is the live count, and recorded as such at the turn's end
    st["flags"] = {"axis_strategic_points": 23}
    assert german_defence_points(rs, st) == (23, None)
    st["phase"] = "ussr.9.combat"
    advance(rs, st, [])
    assert german_defence_points(rs, st) == (23, 13)


def test_the_panel_says_which_count_decides_the_german_defence():
    rs, st = _state(13, "allies.9.combat")

    def note(s):
        tree = ET.fromstring(draw_map(rs, s, None))
        return [el for el in tree.iter() if "track-note" in (el.get("class") or "").split()][0]
    plain = note(st)
    assert "German defence:" not in "".join(plain.itertext())
    rec = copy.deepcopy(st)
    rec["flags"].update(german_defence_points=19, german_defence_turn=12)
    text = "".join(note(rec).itertext())
    assert f"Axis controls {axis_points(rs, rec)} strategic points" in text
    assert "German defence: 19 at the end of turn 12" in text
