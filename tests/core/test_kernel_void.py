"""The kernel's rule, game-neutral (issue 17, way through 1): orders found wrong before the
step's first die refuse the step (nothing written); once a die is rolled nothing refuses or
reverts the phase: an order that no longer fits is void (an event with its reason and rule), the
phase is carried out again without it with the same dice, and goes on."""
from __future__ import annotations

import pytest

from pbem.core.dice import ScriptedDice
from pbem.core.errors import Issue
from pbem.core.game import Game, PhaseOrdersInvalid, Submission
from pbem.core.kernel import adjudicate


class Tiny(Game):
    """One player, phases a and b. A phase may roll one die (``roll: true``); its ``moves``
    ({to: X}) are checked before the die (``bad`` never fits) and after it (``odd`` fits only
    after an even die)."""
    id = "tiny"

    def acting_players(self, rs, state, phase=None):
        return ["p"]

    def orderable_phases(self, rs, state, player):
        return ["a", "b"][["a", "b"].index(state["phase"]):] if state["phase"] in ("a", "b") else []

    def run_phase(self, run):
        o = run.orders["p"]
        moves = [(tuple(m.get("_path") or o["_path"] + ("moves", j)), m) for j, m in enumerate(o.get("moves") or [])]
        bad = [Issue("T-BAD", "never fits", path=p, rule="1") for p, m in moves if m["to"] == "bad"]
        if bad:
            raise PhaseOrdersInvalid(bad)
        if o.get("roll"):
            v = run.dice.roll(f"{run.phase}/d6", 6)
            run.state["last"] = v
            run.events.append({"type": "rolled", "turn": 1, "phase": run.phase, "value": v})
        late = [Issue("T-LATE", "fits only after an even die", path=p + ("to",), rule="2")
                for p, m in moves if m["to"] == "odd" and run.state.get("last", 0) % 2]
        if late:
            raise PhaseOrdersInvalid(late)
        for _, m in moves:
            run.state.setdefault("moved", []).append(m["to"])
            run.events.append({"type": "moved", "turn": 1, "phase": run.phase, "to": m["to"]})

    def advance(self, rs, state, events):
        state["phase"] = "b" if state["phase"] == "a" else "end"


STATE = {"turn": 1, "phase": "a", "step": 0, "players": {"p": {"name": "P"}}, "awaiting": {"player": "p", "for": "orders"},
         "pending": [], "standing": {}}


def _run(phases, dice):
    sub = Submission(player="p", doc={"player": "p", "turn": 1, "phases": phases}, digest="d" * 64, name="p.yaml")

    def make(*, step, orders_digest, state_hash):
        return ScriptedDice(dice, prefix="tiny/")
    return adjudicate(Tiny(), None, STATE, [sub], make)


def test_an_order_wrong_before_the_die_refuses_the_step():
    out = _run([{"phase": "a", "roll": True, "moves": [{"to": "x"}, {"to": "bad"}]}], {})   # no die scripted: none rolled
    assert out.stopped == "refused" and out.state is None and not out.rolls
    assert [(i.code, i.path) for i in out.issues] == [("T-BAD", ("phases", 0, "moves", 1))]


def test_an_order_the_die_makes_unfit_is_void_and_the_phase_goes_on():
    out = _run([{"phase": "a", "roll": True, "moves": [{"to": "odd"}, {"to": "x"}, {"to": "odd"}]}], {"a/d6": 3})
    assert out.stopped == "complete", [i.format() for i in out.issues]
    assert [r["value"] for r in out.rolls] == [3]                   # rolled once, reported once
    types = [e["type"] for e in out.events]
    assert types == ["phase", "rolled", "void", "void", "moved"]
    void = [e for e in out.events if e["type"] == "void"]
    assert [v["order"] for v in void] == [["phases", 0, "moves", 0], ["phases", 0, "moves", 2]]
    assert void[0]["code"] == "T-LATE" and void[0]["rule"] == "2" and void[0]["reason"] == "fits only after an even die"
    # issue 30: the event says what changed the position: the die rolled last before it was found unfit
    assert void[0]["after"] == "the die tiny/a/d6 (3)"
    assert out.state["moved"] == ["x"] and out.state["phase"] == "b"
    # with an even die everything fits
    out = _run([{"phase": "a", "roll": True, "moves": [{"to": "odd"}, {"to": "x"}]}], {"a/d6": 4})
    assert out.state["moved"] == ["odd", "x"] and not [e for e in out.events if e["type"] == "void"]


def test_an_order_of_a_later_phase_is_void_not_sent_back():
    out = _run([{"phase": "a", "roll": True}, {"phase": "b", "moves": [{"to": "odd"}, {"to": "x"}]}], {"a/d6": 5})
    assert out.stopped == "game-over"
    assert [(e["phase"], e["order"]) for e in out.events if e["type"] == "void"] == [("b", ["phases", 1, "moves", 0])]
    # (a die of an earlier phase of the step: named too)
    assert [e["after"] for e in out.events if e["type"] == "void"] == ["the die tiny/a/d6 (5)"]
    assert out.state["phase"] == "end" and out.state["moved"] == ["x"]


def test_a_void_that_would_change_the_dice_already_rolled_is_a_bug_not_a_revert():
    class Careless(Tiny):
        def run_phase(self, run):
            o = run.orders["p"]
            if o.get("roll"):
                run.dice.roll("a/d6", 6)
                raise PhaseOrdersInvalid([Issue("T-WHOLE", "the whole phase", path=("phases", 0, "roll"))])

    sub = Submission(player="p", doc={"player": "p", "turn": 1, "phases": [{"phase": "a", "roll": True}]},
                     digest="d" * 64, name="p.yaml")
    with pytest.raises(RuntimeError, match="changed the dice"):
        adjudicate(Careless(), None, STATE, [sub], lambda **k: ScriptedDice({"a/d6": 2}, prefix="tiny/"))
