"""No dead ends (issue 9): from every state reached by play, the awaited player's
missing-orders default is accepted, and so is an empty order file where the rules allow one
(everywhere but the turn-1 West German combat phase, where 12.2.1 compels two attacks). No
reachable position leaves a player without a legal order file.

States reached by play: every state of the example campaigns; every scenario played from its
start to its end by missing orders alone (the game master's default for every step); and the
states hypothesis reaches with random orders on the example states (test_play_properties also
checks this on each state it reaches)."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from pbem.bfg.board import Board
from pbem.bfg.combat import t1_attacks_needed
from pbem.bfg.context import Ctx
from pbem.bfg.engine import Submission, adjudicate
from pbem.bfg.scenario import initial_state
from pbem.core.actions import dice_factory
from pbem.core.campaign import load_state_file
from pbem.core.canon import digest, state_hash
from pbem.core.data import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
KEY = "5" * 64


def _rulesets():
    cache = {}

    def get(scenario):
        if scenario not in cache:
            cache[scenario] = load_ruleset(scenario)[1]
        return cache[scenario]
    return get


RULESET = _rulesets()


def assert_no_dead_end(rs, state: dict, label: str) -> None:
    """The missing-orders default is accepted; an empty order file too where the rules allow one."""
    if state["phase"] == "end":
        return
    factory = dice_factory(KEY, "bfg", state["campaign"])
    out = adjudicate(rs, state, [], factory, missing_orders=True)
    assert out.stopped != "refused" and out.state is not None, \
        f"{label}: the missing-orders default is refused: " + "; ".join(i.format() for i in out.issues)
    if state.get("pending") or (state.get("awaiting") or {}).get("for") != "orders":
        return
    player = state["awaiting"]["player"]
    doc = {"schema": "pbem/orders/v1", "game": "bfg", "campaign": state["campaign"], "player": player,
           "turn": state["turn"], "state": state["hash"], "phases": [{"phase": state["phase"]}]}
    out = adjudicate(rs, state, [Submission(player=player, doc=doc, digest=digest(doc))], factory)
    ctx = Ctx(rs=rs, board=Board(rs, copy.deepcopy(state)), turn=state["turn"], phase=state["phase"], player=player)
    if state["phase"].endswith(".combat") and t1_attacks_needed(ctx):
        assert out.stopped == "refused" and [i.code for i in out.issues] == ["BFG-T1-ATTACKS"], label
        return
    assert out.stopped != "refused", f"{label}: an empty order file is refused: " + "; ".join(i.format() for i in out.issues)


EXAMPLE_STATES = sorted(f for f in ROOT.glob("examples/*/steps/*/*.yaml") if not f.name.startswith(("orders-", "reveal-"))
                        and b'game: "bfg"' in f.read_bytes()[:2000])        # the Battle for Germany examples


def test_no_dead_end_in_example_states():
    for f in EXAMPLE_STATES:
        st, _ = load_state_file(f)
        assert_no_dead_end(RULESET(st["scenario"]), st, f"{f.parent.parent.parent.name}/{f.name}")


SCENARIOS = ["bfg-historical", "bfg-expanded", "bfg-collapse", "bfg-redstar", "bfg-three-player", "bfg-four-player"]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_whole_game_of_missing_orders(scenario):
    """Every step of a game in which nobody sends anything is accepted, to the end."""
    rs = RULESET(scenario)
    players = {p: p.title() for p in rs.play.players}
    st = initial_state(rs, campaign="nd", players=players, commitment="0" * 64, algorithm="test", options={},
                       engine_version="test", standing={})
    st["hash"] = state_hash(st)
    factory = dice_factory(KEY, "bfg", "nd")
    for n in range(400):
        if st["phase"] == "end":
            break
        out = adjudicate(rs, st, [], factory, missing_orders=True)
        assert out.stopped != "refused" and out.state is not None, \
            f"{scenario} step {n} (turn {st['turn']} {st['phase']}): " + "; ".join(i.format() for i in out.issues)
        st = dict(out.state)
        st["hash"] = state_hash(out.state)
    assert st["phase"] == "end", f"{scenario}: not over after 400 steps (turn {st['turn']} {st['phase']})"
