"""Orders collected from several players for one phase (BlitzWAR phases 1-3): a player who
writes from the mail of the step that received another player's file (its state) is not
refused when a third player's file came in meanwhile (issue 16: a three-player campaign by mail)."""
from pbem.core.campaign import OrderFile, check_orders_against_state

H0, H1, H2, HX = ("0" * 64, "1" * 64, "2" * 64, "9" * 64)


def _of(state_hash):
    doc = {"game": "g", "campaign": "c", "state": state_hash}
    return OrderFile(name="o.yaml", raw=b"", doc=doc, marks={}, digest="d")


def codes(state_hash, state):
    return [i.code for i in check_orders_against_state(_of(state_hash), state)]


def test_a_file_written_against_any_state_of_the_collection_stands():
    # step 0 (H0) opened the collection, step 1 (H1) received one file, step 2 (H2) another
    state = {"game": "g", "campaign": "c", "hash": H2, "previous": H1, "written_against": H0}
    assert codes(H0, state) == []
    assert codes(H1, state) == []
    assert codes(H2, state) == []
    assert codes(HX, state) == ["HASH-ORDERS-STATE"]


def test_the_previous_state_stands_only_while_collecting():
    state = {"game": "g", "campaign": "c", "hash": H2, "previous": H1}
    assert codes(H1, state) == ["HASH-ORDERS-STATE"]


def test_a_file_for_a_phase_that_is_over_says_what_to_do():
    """A late player's file for phases that passed with the missing-orders default: the hint
    does not tell them to write a new template when nothing is awaited from them."""
    state = {"game": "g", "campaign": "c", "hash": H2, "turn": 1, "phase": "axis.4.naval", "step": 3,
             "awaiting": {"player": "axis", "for": "orders"}}
    of = _of(HX)
    of.doc.update(player="ussr", turn=1, phases=[{"phase": "1.diplomacy"}, {"phase": "2.cards"}])
    [i] = check_orders_against_state(of, state)
    assert "this file is for turn 1, phases 1.diplomacy, 2.cards; the game is at turn 1, axis.4.naval (step 3)" in i.message
    assert "the game awaits the axis player now, not the ussr player: nothing to send" in i.hint
    of.doc["player"] = "axis"
    [i] = check_orders_against_state(of, state)
    assert "make a new template with `pbem orders template`" in i.hint
