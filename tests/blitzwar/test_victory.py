"""Victory (18) as `pbem show` and the result say it (pbem/blitzwar/victory.py); the case files
tests/cases/blitzwar/victory/ play the two endings through the kernel."""
from __future__ import annotations

from pbem.blitzwar.cases import world
from pbem.blitzwar.text import summary_lines
from pbem.blitzwar.victory import at_end, on_germany_surrender, show_lines


def _state(**flags):
    _, w = world()
    st = {"turn": 30, "phase": "1.diplomacy", "sides": {"axis": "axis", "allies": "allies", "ussr": "ussr"},
          "counters": {}, "control": {}, "supply": {"axis": "0", "allies": "0", "ussr": "0"}, "war": {}, "marks": [],
          "flags": dict(flags), "result": None}
    return w, st


def test_every_surrender_turn_and_point_total_splits_ten_points():
    w, st = _state()
    for t in w.turn_list:
        p = on_germany_surrender(w, st, t)["points"]
        assert p["allies/ussr"] + p["axis"] == 10 and p["allies/ussr"] >= 5
    for pts in range(0, 60):
        st["flags"]["axis_strategic_points"] = pts
        r = at_end(w, st)
        assert r["winner"] == "axis" and sum(r["points"].values()) == 10 and r["points"]["axis"] >= 6


def test_two_players_one_winner_three_players_both():
    w, st = _state()
    assert on_germany_surrender(w, st, 30)["winners"] == ["allies", "ussr"]
    st["sides"] = {"axis": "axis", "allies": "allies", "ussr": "allies"}
    r = on_germany_surrender(w, st, 30)
    assert r["winner"] == "allies" and "winners" not in r


def test_show_says_what_the_end_would_give_now_and_the_result_at_the_end():
    w, st = _state(axis_strategic_points=14)
    line = " ".join(show_lines(w, st))
    assert "14 strategic points" in line and "Allies/USSR 3, Axis 7" in line
    st["result"], st["phase"] = at_end(w, st), "end"
    assert any("victory points: Allies/USSR 3, Axis 7" in x for x in show_lines(w, st))
    assert any(x.startswith("victory (18)") for x in summary_lines(w, st, units=False))
