"""Issue 30, as a property: a file with one mistake that no die changes (a counter or unit
written wrong, a zone or hex that is not on the map, a path step that is not next to the one
before it, a blitz in mud), placed AFTER a decision or a die of the same file, is refused up
front, in both games: `validate` lists it as an error, `adjudicate` refuses the file before any
die (nothing rolled, nothing written). The kernel runs the phase table's static checks for every
phase of the file on arrival (pbem/core/kernel.py static_issues)."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from pbem.bfg.cases import kit as bfg_kit
from pbem.blitzwar.cases import kit as bw_kit


class NoDice:
    """Dice that fail the test if a die is rolled."""
    prefix = ""

    def __init__(self):
        self.log: list = []

    def roll(self, label, sides=6):
        raise AssertionError(f"a die was rolled: {label}")


def no_dice(**_):
    return NoDice()


def refused_up_front(k, rs, state, doc, code, where):
    sub = k.submission(state, doc)
    v = [i for i in k.validate(rs, state, [sub]) if i.is_error]
    assert any(i.code == code and tuple(i.path)[:len(where)] == where for i in v), (code, where, v)
    out = k.adjudicate(rs, state, [sub], no_dice)
    assert out.stopped == "refused" and out.state is None and not out.rolls, out.stopped
    assert any(i.code == code and tuple(i.path)[:len(where)] == where for i in out.issues), out.issues


# ------------------------------------------------------------------------------ BlitzWAR
BW_POSITION = {
    "hamburg": [{"id": "ger-i2-1", "nation": "GER", "type": "infantry", "units": 2}],
    "breslau": [{"id": "ger-c2-1", "nation": "GER", "type": "armour", "units": 2},
                {"id": "ger-i3-2", "nation": "GER", "type": "infantry", "units": 3}],
    "ruhr": [{"id": "ger-a1-9", "nation": "GER", "type": "air", "units": 1}],
    "paris": [{"id": "fra-a1-1", "nation": "FRA", "type": "air", "units": 1},
              {"id": "fra-i2-1", "nation": "FRA", "type": "infantry", "units": 2}],
    "lodz": [{"id": "pol-i2-1", "nation": "POL", "type": "infantry", "units": 2}],
}
BW_AT_SEA = {"north-atlantic": [{"id": "ger-f1-1", "nation": "GER", "type": "fleet", "units": 1},
                                {"id": "uk-f1-1", "nation": "UK", "type": "fleet", "units": 1}]}
BW = bw_kit()
BW_FIRST = {"naval battle (a die)": {"phase": "axis.4.naval", "naval_attacks": ["north-atlantic"]},
            "air mission (an interception the Allies answer)": {"phase": "axis.5.air",
                                                               "air": [{"counter": "ger-a1-9", "to": "nancy"}]}}


def bw_state(turn: int):
    return BW.setup({"position": BW_POSITION, "at_sea": BW_AT_SEA, "supply": {"axis": 10, "allies": 10, "ussr": 10},
                     "start": {"phase": "axis.4.naval", "turn": turn}})


def bw_mistake(kind: str, zone: str, letter: str):
    """(phase entry, code, key) of one dice-independent mistake."""
    w = BW.rs
    far = zone if zone not in w.zones["hamburg"].links and zone != "hamburg" else "warsaw"
    typo = zone + letter
    return {
        "counter typo in a move": ({"phase": "axis.7.movement", "moves": [{"counter": "ger-i2-" + letter, "path": ["berlin"]}]},
                                   "BW-COUNTER", "moves"),
        "zone typo in a path": ({"phase": "axis.7.movement", "moves": [{"counter": "ger-i2-1", "path": [typo]}]},
                                "BW-ZONE", "moves"),
        "path step not next": ({"phase": "axis.7.movement", "moves": [{"counter": "ger-i2-1", "path": [far]}]},
                               "BW-PATH", "moves"),
        "blitz target typo": ({"phase": "axis.8.blitz", "attacks": [{"target": typo, "counters": ["ger-c2-1"]}]},
                              "BW-ZONE", "attacks"),
        "blitz counter typo": ({"phase": "axis.8.blitz", "attacks": [{"target": "lodz", "counters": ["ger-c2-" + letter]}]},
                               "BW-ATTACK-COUNTER", "attacks"),
        "combat counter typo": ({"phase": "axis.9.combat", "attacks": [{"target": "lodz", "counters": ["ger-i3-" + letter]}]},
                                "BW-ATTACK-COUNTER", "attacks"),
    }[kind]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=st.sampled_from(sorted(BW_FIRST)),
       kind=st.sampled_from(["counter typo in a move", "zone typo in a path", "path step not next", "blitz target typo",
                             "blitz counter typo", "combat counter typo"]),
       zone=st.sampled_from(sorted(BW.rs.zones)), letter=st.sampled_from(["q", "x", "zz"]))
def test_blitzwar_mistake_after_a_die_or_a_decision_is_refused_up_front(first, kind, zone, letter):
    rs, state = bw_state(1)
    entry, code, key = bw_mistake(kind, zone, letter)
    doc = {"player": "axis", "phases": [BW_FIRST[first], entry]}
    refused_up_front(BW, rs, state, doc, code, ("phases", 1, key))


@settings(max_examples=6, deadline=None)
@given(first=st.sampled_from(["naval battle (a die)"]), target=st.sampled_from(["lodz", "poznan", "krakow"]))
def test_blitzwar_blitz_in_mud_is_refused_up_front(first, target):
    rs, state = bw_state(2)          # turn 2: mud (6)
    doc = {"player": "axis", "phases": [BW_FIRST[first],
                                        {"phase": "axis.8.blitz", "attacks": [{"target": target, "counters": ["ger-c2-1"]}]}]}
    refused_up_front(BW, rs, state, doc, "BW-NO-BLITZ", ("phases", 1, "attacks"))


# ------------------------------------------------------------------------------ Battle for Germany
BFG = bfg_kit()
#: before the mistake, a decision: rulebook 7.2 Example 1 (tests/cases/bfg/7.21-example-1-tie-is-a-
#: decision.yaml), a replacement that names only the hex is its owner's decision; or a die: the
#: Courland evacuation (tests/cases/bfg/8.0-courland-port-by-order.yaml). One unit on the map
#: to move and attack with.
BFG_FIRST = {
    "a replacement tie (a decision)": (
        {"units": [["wg-656", "west-german", "6-5-6", "box:west-german"], ["wg-564", "west-german", "5-6-4", "box:west-german"],
                   ["wg-244", "west-german", "2-4-4", "box:west-german"], ["wg-234", "west-german", "2-3-4", "box:west-german"],
                   ["wg-465", "west-german", "4-6-5", "1005"]],
         "start": {"turn": 4, "phase": "west-german.replacement"}},
        "soviet", "west-german", "wg-465", {"phase": "west-german.replacement", "replacements": [{"hex": "1005"}]}),
    "the Courland exit (a die)": (
        {"map": {"cities": [{"hex": "1109", "name": "Stettin", "vp": 1, "courland_port": True},
                            {"hex": "1104", "name": "Rostock", "vp": 1, "courland_port": True}]},
         "units": [["eg-c1", "east-german", "2-3-4", "courland"], ["eg-c2", "east-german", "2-3-4", "courland"],
                   ["sov-c1", "soviet", "4-4-4", "courland"], ["eg-465", "east-german", "4-6-5", "1005"]],
         "start": {"turn": 2, "phase": "east-german.replacement"}},
        "western", "east-german", "eg-465",
        {"phase": "east-german.replacement", "courland_exit": {"unit": "eg-c2", "port": "Rostock"}}),
}
_GRID = BFG.setup(BFG_FIRST["a replacement tie (a decision)"][0])[0].grid
#: hexes of the map not adjacent to 1006 (a path step from 1006 to one of them is no step)
FAR = sorted(h for h in _GRID.ids if h != "1006" and not _GRID.adjacent("1006", h))


def bfg_mistake(kind: str, letter: str, far: str, force: str, unit: str):
    move, combat = f"{force}.movement", f"{force}.combat"
    return {
        "unit typo in a move": ({"phase": move, "moves": [{"unit": unit + letter, "to": "1006"}]}, "BFG-UNIT-UNKNOWN", "moves"),
        "hex off the map": ({"phase": move, "moves": [{"unit": unit, "to": "99" + "99"}]}, "BFG-MOVE-OFF-MAP", "moves"),
        "path step not adjacent": ({"phase": move, "moves": [{"unit": unit, "path": ["1006", far]}]},
                                   "BFG-MOVE-NOT-ADJACENT", "moves"),
        "unit typo in an attack": ({"phase": combat, "attacks": [{"target": "1006", "units": [unit + letter]}]},
                                   "BFG-UNIT-UNKNOWN", "attacks"),
        "attack off the map": ({"phase": combat, "attacks": [{"target": "9999", "units": [unit]}]}, "BFG-ATTACK-HEX", "attacks"),
    }[kind]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=st.sampled_from(sorted(BFG_FIRST)),
       kind=st.sampled_from(["unit typo in a move", "hex off the map", "path step not adjacent", "unit typo in an attack",
                             "attack off the map"]),
       letter=st.sampled_from(["x", "q"]), far=st.sampled_from(FAR))
def test_bfg_mistake_after_a_decision_or_a_die_is_refused_up_front(first, kind, letter, far):
    case, player, force, unit, entry0 = BFG_FIRST[first]
    rs, state = BFG.setup(case)
    entry, code, key = bfg_mistake(kind, letter, far, force, unit)
    doc = {"player": player, "phases": [entry0, entry]}
    refused_up_front(BFG, rs, state, doc, code, ("phases", 1, key))
