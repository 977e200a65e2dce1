"""The kernel carries out every phase after a step's first on the state the phase before left,
in place, and keeps that start as orjson's JSON instead of copying it per phase (issue 35).
What a step gives must be exactly what a copy per phase gave: the events as they were when
reported (an event may hold a list of the state the next phase changes), a phase carried out
again from its start after a void, a pending phase's ``base``, exact types (``True`` is not
``1``), and the caller's state untouched."""
from __future__ import annotations

import marshal

import pytest

from pbem.core import kernel
from pbem.core.dice import ScriptedDice
from pbem.core.errors import Issue
from pbem.core.game import Game, NeedDecision, PhaseOrdersInvalid, Submission
from pbem.core.kernel import adjudicate


class Chain(Game):
    """One player, phases a, b, c. Each phase appends its name to the list ``seen`` and reports
    that very list (shared with the state, as a game may); ``roll`` rolls a die; ``odd`` is void
    after an odd die; ``ask`` stops at a decision unless answered; ``flag`` sets a bool."""
    id = "chain"

    def acting_players(self, rs, state, phase=None):
        return ["p"]

    def orderable_phases(self, rs, state, player):
        names = ["a", "b", "c"]
        return names[names.index(state["phase"]):] if state["phase"] in names else []

    def run_phase(self, run):
        o, st = run.orders["p"], run.state
        st["seen"].append(run.phase)
        st["counts"][run.phase] = st["counts"].get(run.phase, 0) + 1
        run.events.append({"type": "seen", "turn": 1, "phase": run.phase, "seen": st["seen"], "flags": st["flags"]})
        if o.get("flag"):
            st["flags"]["set"] = True
            st["last"] = True
        if o.get("roll"):
            v = run.dice.roll(f"{run.phase}/d6", 6)
            st["last"] = v
            if o.get("odd") and v % 2:
                raise PhaseOrdersInvalid([Issue("C-ODD", "void after an odd die", path=o["_path"] + ("odd",), rule="1")])
        if o.get("ask") and f"{run.phase}.q" not in run.answers:
            raise NeedDecision({"id": f"{run.phase}.q", "player": "p", "kind": "q", "prompt": "?", "options": ["x", "y"],
                                "context": {"seen": st["seen"]}})

    def advance(self, rs, state, events):
        state["phase"] = {"a": "b", "b": "c"}.get(state["phase"], "end")


STATE = {"turn": 1, "phase": "a", "step": 0, "players": {"p": {"name": "P"}}, "awaiting": {"player": "p", "for": "orders"},
         "pending": [], "standing": {}, "seen": [], "counts": {}, "flags": {"set": 1}}


def _run(phases, dice, state=STATE):
    sub = Submission(player="p", doc={"player": "p", "turn": 1, "phases": phases}, digest="d" * 64, name="p.yaml")
    return adjudicate(Chain(), None, state, [sub], lambda **k: ScriptedDice(dice, prefix="chain/"))


@pytest.fixture
def copy_per_phase(monkeypatch):
    """The kernel as it was: every phase carried out on a copy of its start."""
    def run_old(phases, dice):
        monkeypatch.setattr(kernel._Start, "working", lambda self: kernel.copy_json(self.state))
        monkeypatch.setattr(kernel._Start, "intact", lambda self: self.state)
        try:
            return _run(phases, dice)
        finally:
            monkeypatch.undo()
    return run_old


CASES = [
    ([{"phase": "a"}, {"phase": "b"}, {"phase": "c"}], {}),
    ([{"phase": "a", "flag": True}, {"phase": "b", "roll": True}, {"phase": "c", "flag": True}], {"b/d6": 4}),
    # a void in a phase carried out in place: again from its start, restored from the bytes
    ([{"phase": "a", "roll": True}, {"phase": "b", "roll": True, "odd": True, "flag": True}, {"phase": "c"}],
     {"a/d6": 2, "b/d6": 3}),
    # a decision in a later phase: the pending base is that phase's start
    ([{"phase": "a", "flag": True}, {"phase": "b", "ask": True}, {"phase": "c"}], {}),
    ([{"phase": "a"}, {"phase": "b", "roll": True}, {"phase": "c", "ask": True, "flag": True}], {"b/d6": 5}),
]


@pytest.mark.parametrize("phases,dice", CASES)
def test_in_place_gives_what_a_copy_per_phase_gave(phases, dice, copy_per_phase):
    before = marshal.dumps(STATE, 2)
    new, old = _run(phases, dice), copy_per_phase(phases, dice)
    assert marshal.dumps(STATE, 2) == before                      # the caller's state untouched
    assert new.stopped == old.stopped and new.issues == old.issues
    # marshal tells True from 1 and an event list from its later self
    assert marshal.dumps(new.events, 2) == marshal.dumps(old.events, 2)
    assert marshal.dumps(new.rolls, 2) == marshal.dumps(old.rolls, 2)
    assert marshal.dumps(new.state, 2) == marshal.dumps(old.state, 2)


def test_an_event_says_what_was_so_when_it_happened():
    out = _run([{"phase": "a"}, {"phase": "b"}, {"phase": "c"}], {})
    assert [e["seen"] for e in out.events if e["type"] == "seen"] == [["a"], ["a", "b"], ["a", "b", "c"]]


def test_a_pending_phase_keeps_its_start():
    out = _run([{"phase": "a", "flag": True}, {"phase": "b", "ask": True}, {"phase": "c"}], {})
    assert out.stopped == "pending"
    base = out.state["resume"]["base"]
    assert base["phase"] == "b" and base["seen"] == ["a"] and base["counts"] == {"a": 1}
    assert base["flags"]["set"] is True and base["last"] is True
    assert out.state["seen"] == ["a", "b"]


def test_a_void_carries_the_phase_out_again_from_its_start():
    out = _run([{"phase": "a", "roll": True}, {"phase": "b", "roll": True, "odd": True, "flag": True}, {"phase": "c"}],
               {"a/d6": 2, "b/d6": 3})
    assert out.stopped == "game-over"
    assert out.state["seen"] == ["a", "b", "c"] and out.state["counts"] == {"a": 1, "b": 1, "c": 1}
    assert [e["order"] for e in out.events if e["type"] == "void"] == [["phases", 1, "odd"]]


def test_a_start_orjson_refuses_is_kept_as_a_copy():
    """A value orjson refuses (a subclass): the start is still carried out in place, kept aside
    as copy_json copies it, its types kept."""
    class Odd(dict):
        pass
    st = kernel._Start({"x": Odd(a=1), "y": [1]}, owned=True)
    assert not isinstance(st.kept, bytes)
    work = st.working()
    assert work is st.state
    work["y"].append(2)
    again = st.copy()
    assert again == {"x": {"a": 1}, "y": [1]} and type(again["x"]) is Odd and again is not st.copy()


def _aliased(state) -> list[str]:
    """Containers found twice in ``state`` (one list or mapping under two places)."""
    seen: dict[int, str] = {}
    out: list[str] = []

    def walk(x, where):
        if isinstance(x, (dict, list)):
            if id(x) in seen:
                out.append(f"{where} is {seen[id(x)]}")
                return
            seen[id(x)] = where
            for k, v in (x.items() if isinstance(x, dict) else enumerate(x)):
                walk(v, f"{where}/{k}")
    walk(state, "")
    return out


@pytest.mark.parametrize("example", ["blitzwar-1939", "blitzwar-chain-signed", "bfg-historical", "bfg-chain-decisions"])
def test_no_phase_of_the_examples_starts_from_a_state_with_a_shared_container(example, monkeypatch):
    """In place is a copy per phase only if no list or mapping sits in two places of the state a
    phase starts from (a copy would part them, a phase in place would change both), and the
    start kept aside is built back as the same data, exact types included (orjson's JSON: no
    tuple, no float): found on every phase of the examples."""
    from pathlib import Path

    from pbem.core.replay import replay_campaign
    init, found, starts = kernel._Start.__init__, [], []

    def checking(self, state, *, owned):
        init(self, state, owned=owned)
        if owned:
            starts.append(1)
            found.extend(_aliased(state))
            if marshal.dumps(kernel.restore_json(self.kept), 2) != marshal.dumps(state, 2):
                found.append(f"{state['phase']}: its kept copy is not the same data")
    monkeypatch.setattr(kernel._Start, "__init__", checking)
    res = replay_campaign(Path(__file__).resolve().parents[2] / "examples" / example)
    assert not [i for i in res.issues if i.is_error]
    assert starts and not found, found[:5]
