"""No dead ends (issue 9): from every state reached by play, the awaited player's
missing-orders default is accepted, and so is an empty order file where the rules allow one
(everywhere but the turn-1 West German combat phase, where 12.2.1 compels two attacks). No
reachable position leaves a player without a legal order file.

States reached by play: every state of the example campaigns; every scenario played from its
start to its end by missing orders alone (the game master's default for every step); the
states hypothesis reaches with random orders on the example states (test_play_properties also
checks this on each state it reaches); and the positions around the Courland ports (8.0 with
5.3, issue 23) that no example reaches: synthetic states with Stettin and Rostock holding 0-2
East German units or enemy units, their land neighbours enemy-held or free, and a German unit
leaving Courland to any port with any die roll."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as hs

from pbem.bfg import adjudicate
from pbem.bfg.board import Board
from pbem.bfg.combat import t1_attacks_needed
from pbem.bfg.context import Ctx
from pbem.bfg.scenario import initial_state
from pbem.core.campaign import load_state_file
from pbem.core.canon import digest, state_hash
from pbem.core.data import load_ruleset
from pbem.core.dicesource import dice_factory
from pbem.core.game import Submission

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


# ---------------------------------------------------------------- Courland landings (8.0, 5.3)
STETTIN, ROSTOCK = "0909", "1110"
PORT_CITIES = [{"hex": STETTIN, "name": "Stettin", "vp": 1, "courland_port": True},
               {"hex": ROSTOCK, "name": "Rostock", "vp": 1, "courland_port": True}]


def _courland_position(stettin: int, rostock: int, ring: list[bool], port, roll: int):
    """A synthetic East German replacement phase: ``stettin``/``rostock`` East German units in the
    port (-1: an enemy unit there), ``ring[i]``: a Soviet unit on the i-th land neighbour of
    Rostock, a German unit in Courland ordered out to ``port`` (None: pbem asks or takes the
    only one)."""
    from pbem.bfg import synth
    units = [synth.unit("eg-c1", "east-german", "2-3-4", "courland"), synth.unit("eg-c2", "east-german", "2-3-4", "courland")]
    rs0 = synth.ruleset(units, cities=PORT_CITIES)
    for h, n, tag in ((STETTIN, stettin, "s"), (ROSTOCK, rostock, "r")):
        if n < 0:
            units.append(synth.unit(f"sov-{tag}", "soviet", "4-4-4", h))
        units += [synth.unit(f"eg-{tag}{i}", "east-german", "2-3-4", h) for i in range(n)]
    for i, (n, held) in enumerate(zip(rs0.neighbours(ROSTOCK), ring)):
        if held and n not in (STETTIN,):
            units.append(synth.unit(f"sov-{i}", "soviet", "4-4-4", n))
    rs = synth.ruleset(units, cities=PORT_CITIES)
    st = synth.state(rs, turn=2, phase="east-german.replacement", standing={"courland_port": "auto"})
    order = {"unit": "eg-c1"} | ({"port": port} if port else {})
    doc = synth.orders("western", st, [{"phase": "east-german.replacement", "courland_exit": order}])
    return rs, st, synth.sub(doc), synth.scripted({"courland-eg-c1/d6": roll})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stettin=hs.integers(-1, 2), rostock=hs.integers(-1, 2), ring=hs.lists(hs.booleans(), min_size=6, max_size=6),
       port=hs.sampled_from([None, "Stettin", "Rostock"]), roll=hs.integers(1, 6))
@example(stettin=-1, rostock=2, ring=[True] * 6, port="Rostock", roll=4)      # issue 23: a third unit in Rostock
@example(stettin=2, rostock=2, ring=[True] * 6, port=None, roll=6)
@example(stettin=-1, rostock=1, ring=[True] * 6, port="Rostock", roll=2)
def test_no_dead_end_after_a_courland_landing(stettin, rostock, ring, port, roll):
    """Whatever a unit leaving Courland does (refused, sunk, landed), the position after it
    leaves the East German player a legal order file: the replacement phase itself and the
    movement phase after it accept the empty file and the missing-orders default (8.0, 5.3)."""
    rs, st, sub, dice = _courland_position(stettin, rostock, ring, port, roll)
    label = f"Stettin {stettin}, Rostock {rostock}, ring {ring}, port {port}, die {roll}"
    assert_no_dead_end(rs, st, label + " (before the exit)")
    out = adjudicate(rs, st, [sub], dice)
    if out.stopped == "refused":
        assert [i.code for i in out.issues] == ["BFG-COURLAND-PORT"], label
        return
    assert out.state is not None and not out.state.get("pending"), label
    after = dict(out.state)
    after["hash"] = state_hash(out.state)
    for h in (STETTIN, ROSTOCK):
        assert sum(1 for u in after["units"].values() if u["at"] == h) <= 2, f"{label}: three units in {h}"
    assert_no_dead_end(rs, after, label + " (after the exit)")
