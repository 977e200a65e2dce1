"""Property tests (hypothesis): random order files, legal and illegal, on a synthetic map.

Whatever the orders, no exception escapes the engine; a refusal is a list of issues with
codes; an accepted adjudication keeps every unit somewhere (map, Courland, a box, or gone for
good), never puts units of enemy sides in one hex, respects stacking after movement, and
gives the same result when run again (replay)."""
from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings, strategies as st
from synth import orders, ruleset, scripted, state, sub, unit

from pbem.bfg import adjudicate
from pbem.bfg.board import Board, is_hex
from pbem.core.canon import state_hash

UNITS = [
    unit("us-1", "western-allied", "7-4-8", "0703"), unit("us-2", "western-allied", "6-6-7", "0603"),
    unit("us-3", "western-allied", "4-8-6", "0503"), unit("us-4", "western-allied", "6-6-7", "0802"),
    unit("wg-1", "west-german", "2-3-4", "0705"), unit("wg-2", "west-german", "5-6-4", "0605"),
    unit("wg-3", "west-german", "4-6-5", "0505"), unit("wg-4", "west-german", "6-5-6", "0806"),
    unit("sov-1", "soviet", "8-20-3", "0611", type_="front"), unit("sov-2", "soviet", "7-7-4", "0711"),
    unit("eg-1", "east-german", "6-5-6", "0609"), unit("eg-2", "east-german", "2-3-4", "0709"),
]
RS = ruleset(UNITS, terrain={"0605": "rough", "0504": "rough", "0910": "mountain"},
             rivers=["0604/0605", "0704/0705"], fortresses=["0705"])
HEXES = [f"{r:02d}{c:02d}" for r in range(1, 13) for c in range(1, 13)]
WA = [u["id"] for u in UNITS if u["force"] == "western-allied"]

hexes = st.sampled_from(HEXES)
moves = st.lists(st.fixed_dictionaries({"unit": st.sampled_from(WA + ["wg-1", "nobody"]),
                                        "path": st.lists(hexes, max_size=4)}), max_size=5)
attacks = st.lists(st.fixed_dictionaries({"target": hexes, "units": st.lists(st.sampled_from(WA), min_size=1, max_size=3, unique=True)}),
                   max_size=3)
rolls = st.lists(st.integers(1, 6), min_size=3, max_size=3)


def invariants(before: dict, after: dict) -> None:
    assert set(before["units"]) == set(after["units"])
    board = Board(RS, copy.deepcopy(after))
    for h, us in board.occ.items():
        camps = {board.camp(u) for u in us}
        assert len(camps) == 1, (h, us)
        assert len(us) <= 2, (h, us)
    for _uid, u in after["units"].items():
        assert is_hex(u["at"]) or u["at"] in ("courland", "dead", "exited", "removed") or u["at"].startswith("box:")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moves=moves, attacks=attacks, rolls=rolls, auto=st.booleans())
def test_random_orders_never_crash(moves, attacks, rolls, auto):
    standing = {"retreat": "auto", "advance": "none", "ex_losses": "auto"} if auto else None
    st0 = state(RS, turn=2, phase="western-allied.movement", standing=standing)
    doc = orders("western", st0, [{"phase": "western-allied.movement", "moves": moves},
                                  {"phase": "western-allied.combat", "attacks": [dict(a) for a in attacks]}])
    dice = {f"c{i + 1}-{a['target']}/d6": rolls[i] for i, a in enumerate(attacks)}
    out = adjudicate(RS, st0, [sub(doc)], scripted(dice))
    if out.state is None:
        assert out.issues and all(i.code for i in out.issues)
        return
    invariants(st0, out.state)
    again = adjudicate(RS, st0, [sub(doc)], scripted(dice))
    assert state_hash(again.state) == state_hash(out.state)
    assert again.events == out.events
