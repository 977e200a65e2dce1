"""No dead ends in BlitzWAR: from every state reached by play, the missing-orders default of the
awaited players is accepted (a pending decision takes its auto default), so that no reachable
position leaves a player without an order file pbem accepts. States reached by play: every
state of examples/blitzwar-1939 (Poland, the cards and replacements, the move west, the attack on
Belgium-Netherlands), and a campaign played from its start by missing orders alone through the
whole war, all 47 turns (surrenders, calendar activations, the US entry and the total-war decks on the
way)."""
from __future__ import annotations

from pathlib import Path

from pbem.core.campaign import Campaign, load_state_file
from pbem.core.data import load_ruleset
from pbem.core.dicesource import dice_factory
from pbem.core.kernel import adjudicate
from pbem.core.orders import submissions
from pbem.core.step import naming, received_files

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "blitzwar-1939"
KEY = "7" * 64
GAME, RS = load_ruleset("blitzwar-1939")


def step_by_default(state: dict, label: str, received: list | None = None) -> dict | None:
    """The state after the missing-orders default of every awaited player (None at the end);
    ``received``: the archived order files the state names (a pending phase's, issue 20)."""
    if state["phase"] == "end":
        return None
    out = adjudicate(GAME, RS, state, [], dice_factory(KEY, "blitzwar", state["campaign"]), missing_orders=True,
                     received=received)
    assert out.stopped != "refused" and out.state is not None, \
        f"{label}: the missing-orders default is refused: " + "; ".join(i.format() for i in out.issues)
    return out.state


def test_no_dead_end_in_the_example_states():
    files = sorted(f for f in (EXAMPLE / "steps").glob("*/*.yaml")
                   if not f.name.startswith(("orders-", "reveal-")))
    assert len(files) > 40
    camp = Campaign(EXAMPLE)
    key = (EXAMPLE / "private" / "dice.key").read_text("utf-8").strip()
    for f in files:
        st, _ = load_state_file(f)
        # a pending phase's orders are read back from the archive, as `pbem adjudicate` does
        received = submissions(received_files(camp, st, naming(st, key)))
        step_by_default(st, f"{f.parent.name}/{f.name}", received)


def test_a_campaign_of_missing_orders_alone_never_stops():
    st = GAME.new_state(RS, campaign="nobody", players={p: p for p in ("axis", "allies", "ussr")}, commitment="0" * 64,
                        algorithm="hmac-sha256-rej64/v1", options={}, engine_version="test")
    from pbem.core.canon import state_hash
    runs = 0
    while st is not None:
        st["hash"] = state_hash(st)
        st = step_by_default(st, f"turn {st['turn']} {st['phase']}")
        runs += 1
        assert runs < 400, "missing orders do not move the campaign on"
    # the game ends after turn 47 (8): the last default reaches the end


def test_no_dead_end_through_the_fall_of_france_vichy_and_the_partisans():
    """Issue 21: the new decisions (the first elite counter's zone, the Spanish roll, the
    partisans' zones) take their auto default and the turn goes on, from the positions of the
    case files where France falls, Vichy surrenders and the partisans appear, to the next turn."""
    from pbem.blitzwar.cases import case_state, world
    from pbem.core.canon import state_hash
    from pbem.core.cases import load_case
    g, w = world()
    for name in ("vichy/9.4-france-falls-vichy-is-set-up", "vichy/9.4-vichy-surrenders-free-france",
                 "partisans/9.5-partisans-appear"):
        st = case_state(w, g, load_case(ROOT / "tests" / "cases" / "blitzwar" / f"{name}.yaml"))
        st["campaign"] = "dead-ends"
        turn = st["turn"]
        runs = 0
        while st is not None and st["turn"] == turn:
            st["hash"] = state_hash(st)
            st = step_by_default(st, f"{name}: turn {st['turn']} {st['phase']}")
            runs += 1
            assert runs < 40, f"{name}: missing orders do not move the turn on"
