"""What `pbem validate` checks of a BlitzWAR order file: the phases are carried out on a copy of
the state up to the first die; the phases after it cannot be checked before the dice, and
validate says so instead of an OK that covers them (found by playing by hand, issue 12)."""
from __future__ import annotations

from pbem.blitzwar.cases import kit

POSITION = {
    "breslau": [{"id": "ger-arm", "nation": "GER", "type": "armour", "units": 2, "active": True},
                {"id": "ger-inf", "nation": "GER", "type": "infantry", "units": 2, "active": True}],
    "lodz": [{"id": "pol-1", "nation": "POL", "type": "infantry", "units": 2}],
    "konigsberg": [{"id": "ger-far", "nation": "GER", "type": "infantry", "units": 2}],
    "poznan": [{"id": "pol-2", "nation": "POL", "type": "infantry", "units": 1}],
}


def _validate(phases):
    k = kit()
    rs, st = k.setup({"position": POSITION, "supply": {"axis": 10, "allies": 10, "ussr": 10},
                      "start": {"phase": "axis.8.blitz", "turn": 1}})
    return k.validate(rs, st, [k.submission(st, {"player": "axis", "phases": phases})])


def test_the_phases_after_the_first_die_are_named_as_not_checked():
    blitz = {"phase": "axis.8.blitz", "attacks": [{"target": "lodz", "counters": ["ger-arm", "ger-inf"]}]}
    # konigsberg is not next to poznan and ger-far was never activated: refused when adjudicated
    combat = {"phase": "axis.9.combat", "attacks": [{"target": "poznan", "counters": ["ger-far"]}]}
    issues = _validate([blitz, combat])
    assert not [i for i in issues if i.is_error], issues
    w = [i for i in issues if i.code == "BW-CHECKED-UNTIL"]
    assert len(w) == 1 and not w[0].is_error and "axis.9.combat" in w[0].message and w[0].path == ("phases", 1)
    # without a die before it, the combat phase is checked and its errors reported
    issues = _validate([{"phase": "axis.8.blitz"}, combat])
    assert {"BW-ATTACK-NOT-ADJACENT", "BW-ATTACK-NOT-ACTIVE"} <= {i.code for i in issues}
    assert not [i for i in issues if i.code == "BW-CHECKED-UNTIL"]
    # nothing listed after the die: nothing to say
    assert not [i for i in _validate([blitz]) if i.code == "BW-CHECKED-UNTIL"]
    # nor when the phase after it is listed without orders, as the template writes it (issue
    # 16 by mail: a warning about "the orders of axis.9.combat" for `attacks: []`)
    empty = {"phase": "axis.9.combat", "attacks": [], "moves": []}
    assert not [i for i in _validate([blitz, empty]) if i.code == "BW-CHECKED-UNTIL"]



def test_a_void_attack_is_warned_about():
    # Played by hand: a 1:2 attack (void, 16.2) validated without a word; the activation was paid
    # for nothing. validate now warns, at the attack.
    position = dict(POSITION, lodz=POSITION["lodz"] + [{"id": "pol-3", "nation": "POL", "type": "infantry", "units": 2}])
    k = kit()
    rs, st = k.setup({"position": position, "supply": {"axis": 10, "allies": 10, "ussr": 10},
                      "start": {"phase": "axis.9.combat", "turn": 1}})
    sub = k.submission(st, {"player": "axis", "phases": [
        {"phase": "axis.9.combat", "attacks": [{"target": "lodz", "counters": ["ger-inf"]}]}]})
    issues = k.validate(rs, st, [sub])
    assert not [i for i in issues if i.is_error], issues
    w = [i for i in issues if i.code == "BW-VOID-ATTACK"]
    assert len(w) == 1 and w[0].path == ("phases", 0, "attacks", 0) and w[0].rule == "16.2", issues
    assert "below 2-3" in w[0].message
    # with both counters (4:4) the attack is not void
    sub = k.submission(st, {"player": "axis", "phases": [
        {"phase": "axis.9.combat", "attacks": [{"target": "lodz", "counters": ["ger-inf", "ger-arm"]}]}]})
    assert not [i for i in k.validate(rs, st, [sub]) if i.code == "BW-VOID-ATTACK"]


def test_every_problem_at_once_across_phases():
    # Played by hand: a file with a bad move and a bad blitz attack showed the move's error only;
    # the attack's came after a second round trip. The refused entries of a phase are now set
    # aside and the later phases checked too.
    k = kit()
    rs, st = k.setup({"position": POSITION, "supply": {"axis": 10, "allies": 10, "ussr": 10},
                      "start": {"phase": "axis.7.movement", "turn": 1}})
    phases = [{"phase": "axis.7.movement", "moves": [{"counter": "ger-far", "path": ["warsaw"]},
                                                     {"counter": "ger-arm", "path": ["poznan", "berlin"]}]},
              {"phase": "axis.8.blitz", "attacks": [{"target": "poznan", "counters": ["ger-far"]}]}]
    issues = k.validate(rs, st, [k.submission(st, {"player": "axis", "phases": phases})])
    by_phase = {i.path[1] for i in issues if i.is_error}
    assert by_phase == {0, 1}, issues
    move = [i for i in issues if i.is_error and i.path[1] == 0]
    # the second move is reported at its own place in the file
    assert all(i.path[:4] in (("phases", 0, "moves", 0), ("phases", 0, "moves", 1)) for i in move), move
    assert any(i.code == "BW-BLITZ-NO-ARMOUR" and i.path[:4] == ("phases", 1, "attacks", 0) for i in issues), issues
