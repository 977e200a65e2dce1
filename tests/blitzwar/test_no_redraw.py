"""Attack tests: once a phase has rolled a die, nothing refuses or reverts it (issue 17, way
through 1; issue 16 items 2-3; issue 19 departures 14-16).

Before: a one-zone move into a zone a retreat may fill was refused after the attacks were
rolled (BW-MOVE-ENEMY, nothing written), so the player learnt the result and could resend the
same orders with a changed comment for new dice; the defender could send the phase back to its
start by answering a retreat with that zone. Now such an order is void (an event with its reason
and rule) and the phase goes on; everything that can be checked before the dice is checked
before them, by `pbem validate` too."""
from __future__ import annotations

from pbem.blitzwar.cases import kit
from pbem.core.dicesource import dice_factory

# pol-1 in Lodz can retreat only to Warsaw (the other zones next to it hold Germans); ger-far at
# Konigsberg moves one zone to Warsaw (17.4), empty when the phase starts.
POSITION = {
    "breslau": [{"id": "ger-arm", "nation": "GER", "type": "armour", "units": 2, "active": True},
                {"id": "ger-inf", "nation": "GER", "type": "infantry", "units": 2, "active": True}],
    "lodz": [{"id": "pol-1", "nation": "POL", "type": "infantry", "units": 2}],
    "konigsberg": [{"id": "ger-far", "nation": "GER", "type": "infantry", "units": 2}],
    "poznan": [{"id": "ger-p", "nation": "GER", "type": "infantry", "units": 1}],
    "krakow": [{"id": "ger-k", "nation": "GER", "type": "infantry", "units": 1}],
    "brest-litovsk": [{"id": "ger-b", "nation": "GER", "type": "infantry", "units": 1}],
}
ATTACK = {"target": "lodz", "counters": ["ger-arm", "ger-inf"], "losses": "infantry-first", "advance": "none"}


def _setup(position=POSITION, phase="axis.9.combat", turn=1, standing=None):
    k = kit()
    case = {"position": position, "supply": {"axis": 10, "allies": 10, "ussr": 10},
            "start": {"phase": phase, "turn": turn}}
    rs, st = k.setup(case)
    if standing:
        st = k.rehash(dict(st, standing=standing))
    return k, rs, st


def _orders(**extra):
    return {"player": "axis", "phases": [{"phase": "axis.9.combat", "attacks": [ATTACK],
                                          "moves": [{"counter": "ger-far", "to": "warsaw"}]}], **extra}


def _types(out, *types):
    return [e for e in out.events if e["type"] in types]


def test_a_move_a_retreat_makes_unfit_is_void_and_the_dice_stand():
    k, rs, st = _setup()
    out = k.adjudicate(rs, st, [k.submission(st, _orders())], k.dice({"c1-lodz/d6": 1}))   # 0/1: pol-1 retreats
    assert out.stopped == "complete", [i.format() for i in out.issues]
    assert [e["to"] for e in _types(out, "retreat")] == ["warsaw"]
    void = _types(out, "void")
    assert len(void) == 1 and void[0]["order"] == ["phases", 0, "moves", 0] and void[0]["code"] == "BW-MOVE-ENEMY"
    assert void[0]["rule"] == "15.3" and void[0]["player"] == "axis"
    assert out.state["counters"]["ger-far"]["at"] == "konigsberg"       # not moved ...
    assert out.state["supply"]["axis"] == "10"                          # ... and not paid for
    assert [r["value"] for r in out.rolls] == [1]                       # the combat's die stands
    # the report says why
    from pbem.core.report import _core_event
    assert "VOID" in _core_event(void[0])[0] and "15.3" in _core_event(void[0])[0]


def test_resending_with_a_changed_comment_never_gets_new_dice():
    # The grind of issue 17: twelve versions differing by a comment; before, half of them were
    # refused after rolling (nothing written), and the player could pick the dice he liked.
    k, rs, st = _setup()
    make = dice_factory("11" * 32, "blitzwar", "case")
    outcomes = set()
    for n in range(12):
        out = k.adjudicate(rs, st, [k.submission(st, _orders(comment=f"version {n}"))], make)
        assert out.stopped != "refused", [i.format() for i in out.issues]
        assert out.state is not None
        outcomes.add(bool(_types(out, "void")))
    assert outcomes == {True, False}      # some versions' dice send pol-1 to Warsaw: the move is void


def test_the_defender_cannot_veto_the_combat_by_his_answer():
    # Before: the Allies answered the retreat with Warsaw, which made the Axis move unfit, and the
    # phase went back to its start ("STOPPED: the orders for axis.9.combat do not fit the position
    # reached"): the attacker had to resend, with new dice.
    position = {z: v for z, v in POSITION.items() if z not in ("poznan", "krakow", "brest-litovsk")}
    k, rs, st = _setup(position)
    out = k.adjudicate(rs, st, [k.submission(st, _orders())], k.dice({"c1-lodz/d6": 1}))
    assert out.stopped == "pending"
    (dec,) = out.state["pending"]
    assert dec["player"] == "allies" and "warsaw" in dec["options"]
    st2 = k.rehash(out.state)
    ans = {"player": "allies", "decisions": [{"id": dec["id"], "choice": "warsaw"}]}
    out2 = k.adjudicate(rs, st2, [k.submission(st2, ans)], k.dice({"c1-lodz/d6": 1}))
    assert out2.stopped == "complete", [i.format() for i in out2.issues]
    assert not _types(out2, "orders-invalid")
    assert [e["code"] for e in _types(out2, "void")] == ["BW-MOVE-ENEMY"]
    assert out2.state["phase"] != "axis.9.combat"                        # the phase is over, not restarted
    assert out2.state["counters"]["pol-1"]["at"] == "warsaw"


def test_validate_passes_the_file_and_names_what_the_dice_may_void():
    k, rs, st = _setup()
    issues = k.validate(rs, st, [k.submission(st, _orders())])
    assert not [i for i in issues if i.is_error], issues
    w = [i for i in issues if i.code == "BW-CHECKED-BEFORE-DICE"]
    assert len(w) == 1 and w[0].path == ("phases", 0, "moves") and "void" in w[0].message


def test_a_one_zone_move_into_a_full_zone_is_refused_before_any_die():
    # issue 19, departure 14: the phase used to stop on a removal decision after the attacks
    # were rolled, and validate said nothing
    position = dict(POSITION, warsaw=[{"id": f"ger-w{n}", "nation": "GER", "type": "infantry", "units": 1}
                                      for n in range(kit().rs.stacking_default)])
    k, rs, st = _setup(position)
    sub = k.submission(st, _orders())
    out = k.adjudicate(rs, st, [sub], k.dice({"c1-lodz/d6": 3}))
    assert out.stopped == "refused" and out.state is None and not out.rolls
    assert [(i.code, i.path) for i in out.issues if i.is_error] == [("BW-STACK", ("phases", 0, "moves", 0))]
    assert [(i.code, i.path) for i in k.validate(rs, st, [sub]) if i.is_error] == [("BW-STACK", ("phases", 0, "moves", 0))]


def test_one_zone_moves_in_a_mud_blitz_phase_are_refused_with_the_reason():
    # issue 19, departure 15: 6, no blitz phase in mud; the moves were accepted and dropped
    k, rs, st = _setup(phase="axis.8.blitz", turn=2)
    assert rs.turns[2].weather == "mud"
    sub = k.submission(st, {"player": "axis", "phases": [{"phase": "axis.8.blitz",
                                                          "moves": [{"counter": "ger-far", "to": "warsaw"}]}]})
    out = k.adjudicate(rs, st, [sub], k.dice({}))
    assert out.stopped == "refused"
    bad = [i for i in out.issues if i.is_error]
    assert [(i.code, i.path) for i in bad] == [("BW-NO-BLITZ", ("phases", 0, "moves", 0))] and "mud" in bad[0].message
    assert [i.code for i in k.validate(rs, st, [sub]) if i.is_error] == ["BW-NO-BLITZ"]


def test_an_out_of_supply_move_that_cannot_be_is_refused_before_the_attacks():
    # issue 19, departure 16: validate stopped at the die and never checked it; adjudicate
    # refused it after rolling
    k, rs, st = _setup()
    sub = k.submission(st, {"player": "axis", "phases": [{"phase": "axis.9.combat", "attacks": [ATTACK],
                                                          "out_of_supply_moves": [{"counter": "ger-far", "to": "berlin"}]}]})
    out = k.adjudicate(rs, st, [sub], k.dice({"c1-lodz/d6": 3}))
    assert out.stopped == "refused" and not out.rolls
    assert [i.code for i in out.issues if i.is_error] == ["BW-PATH"]
    assert [i.code for i in k.validate(rs, st, [sub]) if i.is_error] == ["BW-PATH"]


BLITZ = {
    "breslau": [{"id": "ger-arm", "nation": "GER", "type": "armour", "units": 1, "active": True},
                {"id": "ger-inf", "nation": "GER", "type": "infantry", "units": 2, "active": True}],
    "lodz": [{"id": "pol-1", "nation": "POL", "type": "infantry", "units": 2},
             {"id": "pol-3", "nation": "POL", "type": "infantry", "units": 2}],
    "brno": [{"id": "ger-c", "nation": "GER", "type": "infantry", "units": 2, "active": True}],
    "krakow": [{"id": "pol-2", "nation": "POL", "type": "infantry", "units": 1}],
}


def _blitz_then_combat(combat_attacks):
    k, rs, st = _setup(BLITZ, phase="axis.8.blitz", standing={"axis": {"losses": "auto", "advance": "none"},
                                                              "allies": {"losses": "auto", "retreat": "auto"}})
    sub = k.submission(st, {"player": "axis", "phases": [
        {"phase": "axis.8.blitz", "attacks": [{"target": "lodz", "counters": ["ger-arm", "ger-inf"]}]},
        {"phase": "axis.9.combat", "attacks": combat_attacks}]})
    return k.adjudicate(rs, st, [sub], k.dice({"c1-lodz/d6": 1, "c1-krakow/d6": 6, "c2-lodz/d6": 6}))


def test_a_blitz_that_left_defenders_is_fought_on_without_refusing_the_file():
    # issue 16 item 3: the whole normal-combat file was void (BW-COMBAT-MUST-CONTINUE), a mail
    # round trip with exit 0; 17.1 compels the attack, so pbem makes it
    out = _blitz_then_combat([{"target": "krakow", "counters": ["ger-c"]}])
    assert out.stopped == "complete", [i.format() for i in out.issues]
    blitz = [e for e in _types(out, "combat") if e["phase"] == "axis.8.blitz"]
    assert blitz and blitz[0]["zone"] == "lodz"
    (f,) = _types(out, "fight-on")
    assert f["zone"] == "lodz" and f["written"] is False and f["rule"] == "17.1"
    later = [(e["zone"], e["combat"]) for e in _types(out, "combat") if e["phase"] == "axis.9.combat"]
    assert later == [("krakow", 1), ("lodz", 2)]


def test_an_attack_that_goes_against_the_fight_on_is_void_after_the_blitz_dice():
    # ger-arm was ordered on Krakow as if the blitz had cleared Lodz: that attack is void, the
    # blitz force fights Lodz on, and nothing is refused after the blitz's die
    out = _blitz_then_combat([{"target": "krakow", "counters": ["ger-arm", "ger-c"]}])
    assert out.stopped == "complete", [i.format() for i in out.issues]
    void = _types(out, "void")
    assert [(v["code"], v["order"]) for v in void] == [("BW-COMBAT-MUST-CONTINUE", ["phases", 1, "attacks", 0])]
    later = [e["zone"] for e in _types(out, "combat") if e["phase"] == "axis.9.combat"]
    assert later == ["lodz"]


def test_what_no_die_changes_in_a_later_phase_is_checked_before_the_dice():
    # issue 16 item 2: the combat phase after a blitz cannot be checked against the position,
    # but an unknown counter or zone can: validate and adjudicate refuse it before any die
    # (issue 30: by the phase table's static checks, with the combat phase's own codes, at the
    # counter named)
    k, rs, st = _setup(BLITZ, phase="axis.8.blitz")
    sub = k.submission(st, {"player": "axis", "phases": [
        {"phase": "axis.8.blitz", "attacks": [{"target": "lodz", "counters": ["ger-arm", "ger-inf"]}]},
        {"phase": "axis.9.combat", "attacks": [{"target": "krakow", "counters": ["ger-c", "ger-nope"]},
                                               {"target": "atlantis", "counters": ["pol-2"]}]}]})
    want = [("BW-ATTACK-COUNTER", ("phases", 1, "attacks", 0, "counters", 1)),
            ("BW-ATTACK-COUNTER", ("phases", 1, "attacks", 1, "counters", 0)),
            ("BW-ZONE", ("phases", 1, "attacks", 1, "target"))]
    assert [(i.code, i.path) for i in k.validate(rs, st, [sub]) if i.is_error] == want
    out = k.adjudicate(rs, st, [sub], k.dice({"c1-lodz/d6": 1}))
    assert out.stopped == "refused" and not out.rolls
    assert [(i.code, i.path) for i in out.issues if i.is_error] == want


def test_answers_written_in_an_attack_that_can_never_be_used_are_warned_about_before_the_dice():
    # issue 16 item 2: they were found out only after the die, when pbem asked instead
    k, rs, st = _setup()
    atk = dict(ATTACK, advance=["ger-far"], exploit={"ger-p": ["warsaw"]}, losses=["ger-k/infantry"], air_loss="ger-inf")
    sub = k.submission(st, {"player": "axis", "phases": [{"phase": "axis.9.combat", "attacks": [atk]}]})
    issues = k.validate(rs, st, [sub])
    assert not [i for i in issues if i.is_error]
    got = sorted(i.path[-1] for i in issues if i.code == "BW-ANSWER-UNUSED")
    assert got == ["advance", "air_loss", "exploit", "losses"]
