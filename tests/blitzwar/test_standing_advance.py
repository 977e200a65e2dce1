"""Issue 16, item 4: the standing order `advance` can be `all` / `auto` (every survivor that may
advances, armour goes no further unless told), and the BlitzWAR template shows the player's
standing orders in a `standing:` block with the values each key takes (17.3, 16.4)."""
from __future__ import annotations

import pytest

from pbem.blitzwar.cases import kit
from pbem.blitzwar.standing import STANDING_KEYS

POSITION = {
    "breslau": [{"id": "ger-arm", "nation": "GER", "type": "armour", "units": 2, "active": True},
                {"id": "ger-inf", "nation": "GER", "type": "infantry", "units": 2, "active": True}],
    "lodz": [{"id": "pol-1", "nation": "POL", "type": "infantry", "units": 1}],
}


def _run(standing):
    k = kit()
    rs, st = k.setup({"position": POSITION, "supply": {"axis": 10, "allies": 10, "ussr": 10},
                      "start": {"phase": "axis.9.combat", "turn": 1}})
    st = k.rehash(dict(st, standing={"axis": standing, "allies": {"losses": "auto", "retreat": "auto"}}))
    sub = k.submission(st, {"player": "axis", "phases": [{"phase": "axis.9.combat",
                                                          "attacks": [{"target": "lodz", "counters": ["ger-arm", "ger-inf"]}]}]})
    return k.adjudicate(rs, st, [sub], k.dice({"c1-lodz/d6": 6}))


@pytest.mark.parametrize("value", ["all", "auto"])
def test_standing_advance_all_takes_the_zone_in_one_step(value):
    out = _run({"losses": "auto", "advance": value})
    assert out.stopped == "complete", [i.format() for i in out.issues] + [e for e in out.events if e["type"] == "pending"]
    adv = {e["counter"]: e for e in out.events if e["type"] == "advance"}
    assert adv["ger-arm"]["path"] == ["lodz"] and adv["ger-inf"]["path"] == ["lodz"]   # armour goes no further
    assert adv["ger-arm"]["chosen_by"] == f"standing order {value}"
    assert out.state["counters"]["ger-arm"]["at"] == "lodz"


def test_standing_advance_none_still_stays():
    out = _run({"losses": "auto", "advance": "none"})
    assert out.stopped == "complete"
    assert all(e["path"] == [] for e in out.events if e["type"] == "advance")


def test_standing_advance_values_are_accepted_in_an_order_file():
    assert {"all", "auto"} <= set(STANDING_KEYS["advance"])


def test_the_template_shows_the_players_standing_orders():
    k = kit()
    rs, st = k.setup({"position": POSITION, "supply": {"axis": 10, "allies": 10, "ussr": 10},
                      "start": {"phase": "axis.9.combat", "turn": 1}})
    st = k.rehash(dict(st, standing={"axis": {"advance": "all"}}))
    text = k.game.order_template(rs, st, "axis", schema_ref="s.json", state_file="x.yaml")
    block = text[text.index("\nstanding:\n"):].splitlines()[1:]
    assert "  advance: all   # ask | none | all | auto" in block
    assert any(line.startswith("  losses: ask") for line in block)
    assert "17.1" in text and "void" in text      # the template says how the obligation and the dice work
    # the template's standing block is itself valid orders
    import yaml
    doc = yaml.safe_load(text)
    issues = k.validate(rs, st, [k.submission(st, {"player": "axis", **{x: doc[x] for x in ("phases", "standing")}})])
    assert not [i for i in issues if i.is_error], issues


# ------------------------------------------------------------------ decisions asked at once
THREE = {
    "breslau": [{"id": "ger-arm", "nation": "GER", "type": "armour", "units": 2, "active": True},
                {"id": "ger-inf", "nation": "GER", "type": "infantry", "units": 2, "active": True},
                {"id": "ger-inf2", "nation": "GER", "type": "infantry", "units": 2, "active": True}],
    "lodz": [{"id": "pol-1", "nation": "POL", "type": "infantry", "units": 2},
             {"id": "pol-3", "nation": "POL", "type": "infantry", "units": 1}],
}


def _attack(die):
    k = kit()
    rs, st = k.setup({"position": THREE, "supply": {"axis": 10, "allies": 10, "ussr": 10},
                      "start": {"phase": "axis.9.combat", "turn": 1}})
    sub = k.submission(st, {"player": "axis", "phases": [{"phase": "axis.9.combat", "attacks": [
        {"target": "lodz", "counters": ["ger-arm", "ger-inf", "ger-inf2"]}]}]})
    return k, rs, k.adjudicate(rs, st, [sub], k.dice({"c1-lodz/d6": die}))


def test_both_sides_losses_are_asked_at_once():
    # 1/2: the attacker's and the defender's losses do not depend on each other: before, the
    # defender was asked only after the attacker had answered (two round trips one after the
    # other); the decisions that follow in the attack are asked with them (issue 33)
    k, rs, out = _attack(4)
    assert out.stopped == "pending"
    asked = [(d["id"], d["player"]) for d in out.state["pending"]]
    assert asked[:2] == [("t01.axis.9.combat.c1.losses.axis", "axis"), ("t01.axis.9.combat.c1.losses.allies", "allies")]
    assert not [e for e in out.events if e["type"] == "losses"]      # nothing applied while asking
    st = k.rehash(out.state)

    def answers(player):
        return [{"id": d["id"], "choice": d["options"][0]} for d in st["pending"] if d["player"] == player]
    a = k.submission(st, {"player": "allies", "decisions": answers("allies")})
    out2 = k.adjudicate(rs, st, [a], k.dice({"c1-lodz/d6": 4}))
    assert out2.stopped == "waiting"
    st2 = k.rehash(out2.state)
    x = k.submission(st2, {"player": "axis", "decisions": answers("axis")})
    out3 = k.adjudicate(rs, st2, [x], k.dice({"c1-lodz/d6": 4}))
    assert out3.stopped in ("complete", "pending"), [i.format() for i in out3.issues]
    assert [e["side"] for e in out3.events if e["type"] == "losses"] == ["axis", "allies"]


def test_every_survivors_advance_is_asked_at_once():
    k, rs, out = _attack(6)
    assert out.stopped == "pending"
    ids = [d["id"] for d in out.state["pending"]]
    # with where the armour goes on from Lodz, asked ahead (issue 33: one answer file)
    assert ids == [f"t01.axis.9.combat.c1.advance.{c}" for c in ("ger-arm", "ger-inf", "ger-inf2")] + [
        "t01.axis.9.combat.c1.exploit.ger-arm.1"]
    st = k.rehash(out.state)
    ans = k.submission(st, {"player": "axis", "decisions": [{"id": i, "choice": "lodz" if ".advance." in i else "stay"}
                                                            for i in ids],
                            "standing": {"advance": "none"}})
    out2 = k.adjudicate(rs, st, [ans], k.dice({"c1-lodz/d6": 6}))
    assert out2.stopped == "complete", [i.format() for i in out2.issues]
    adv = {e["counter"]: e for e in out2.events if e["type"] == "advance"}
    assert all(adv[c]["path"] == ["lodz"] for c in ("ger-arm", "ger-inf", "ger-inf2")), adv


def test_a_retreat_zone_written_wrong_gets_a_did_you_mean():
    """The retreat is asked with the losses (one answer file, issue 33); a zone written wrong
    in the answer is refused with the zone meant among the legal ones."""
    k, rs, out = _attack(3)
    assert out.stopped == "pending"
    st = k.rehash(out.state)
    mine = [d for d in st["pending"] if d["player"] == "allies"]
    retreat = next(d for d in mine if d["kind"] == "retreat")
    zone = next(o for o in retreat["options"] if o not in ("stay", "refuse"))
    answers = [{"id": d["id"], "choice": d["options"][0]} for d in mine if d is not retreat]
    sub = k.submission(st, {"player": "allies", "decisions": answers + [{"id": retreat["id"], "choice": zone[:-1]}]})
    issues = [i for i in k.validate(rs, st, [sub]) if i.is_error]
    assert [i.code for i in issues] == ["ORDERS-DECISION-CHOICE"], [i.format() for i in issues]
    assert f"(did you mean '{zone}'?)" in issues[0].format()
