"""The zones of control a Board keeps current as units move and change side (4.1, issue 18
"Speed") are those worked out from scratch after every change."""
from __future__ import annotations

import copy
from pathlib import Path

from hypothesis import example, given, settings, strategies as st

from pbem.bfg.board import Board
from pbem.core.campaign import load_state_file
from pbem.core.data import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
_, RS = load_ruleset("bfg-historical")
STATE, _ = load_state_file(sorted((ROOT / "examples" / "bfg-historical" / "steps" / "000").glob("*.yaml"))[0])
UNITS = sorted(STATE["units"])
HEXES = sorted(RS.playable)
FORCES = ["east-german", "west-german", "soviet", "western-allied"]


def from_scratch(board: Board, counts) -> set[str]:
    out = set()
    for h, us in board.occ.items():
        if any(counts(u) for u in us):
            out |= {n for n in RS.neighbours(h) if n in RS.playable and not RS.hexside_prohibited(h, n)}
    return out


def check(board: Board) -> None:
    for side in ("german", "soviet", "western"):
        assert set(board.zoc_of_camp(side)) == from_scratch(board, lambda u, side=side: board.camp(u) == side), side
        assert set(board.city_zoc(side)) == from_scratch(board, lambda u, side=side: board.city_side(u) == side), side


changes = st.lists(st.one_of(
    st.tuples(st.just("place"), st.sampled_from(UNITS), st.sampled_from(HEXES + ["box:soviet", "exited"])),
    st.tuples(st.just("force"), st.sampled_from(UNITS), st.sampled_from(FORCES))), max_size=25)


@settings(max_examples=40, deadline=None)
@given(changes, st.booleans())
def test_kept_zoc_is_the_zoc_worked_out_from_scratch(steps, ss):
    board = Board(RS, copy.deepcopy(STATE))
    board.zoc_of_camp("german")            # worked out before the changes, then kept
    for what, uid, to in steps:
        if what == "place":
            board.place(uid, to)
        else:
            board.set_force(uid, to, **({"ss_half": True} if ss and to == "western-allied" else {}))
        check(board)


@settings(max_examples=40, deadline=None)
@given(changes, st.booleans())
def test_zoc_read_from_the_units_next_to_a_hex_is_the_zoc_worked_out(steps, ss):
    """Before a board works out the whole map's ZOC, a question about one hex is answered from
    the units next to it (in_enemy_zoc, enemy_zoc_camps, city_zoc_sides): the same answers."""
    board = Board(RS, copy.deepcopy(STATE))
    board._ZOC_LOCAL = 10 ** 6      # (a board asks this many before it works out the whole ZOC)
    for what, uid, to in steps:
        if what == "place":
            board.place(uid, to)
        else:
            board.set_force(uid, to, **({"ss_half": True} if ss and to == "western-allied" else {}))
    sample = HEXES[::7] + [board.at(u) for u in UNITS[::5] if board.on_map(u)]
    local = [(board.in_enemy_zoc(h, c), board.enemy_zoc_camps(h, c), board.city_zoc_sides(h))
             for h in sample for c in ("german", "soviet", "western")]
    assert not board._zoc_cache, "answered without working out the whole ZOC"
    camps = {c: from_scratch(board, lambda u, c=c: board.camp(u) == c) for c in ("german", "soviet", "western")}
    cities = {c: from_scratch(board, lambda u, c=c: board.city_side(u) == c) for c in ("german", "soviet", "western")}
    expected = [(any(h in camps[e] for e in ("german", "soviet", "western") if board.camps_enemies(c, e)),
                 [e for e in ("german", "soviet", "western") if board.camps_enemies(c, e) and h in camps[e]],
                 {s for s in cities if h in cities[s]})
                for h in sample for c in ("german", "soviet", "western")]
    assert local == expected


# (the cities and the hexes next to them, often: stacks of several sides, SS units, empty cities
# reached by one side or several)
NEAR_CITIES = sorted({x for c in RS.city_hexes for x in (c, *RS.neighbours(c)) if x in RS.playable})
EMPTY_CITY = next(h for h in RS.city_hexes if all(u["at"] != h for u in STATE["units"].values()))
city_changes = st.lists(st.one_of(
    st.tuples(st.just("place"), st.sampled_from(UNITS), st.sampled_from(NEAR_CITIES + ["box:soviet"])),
    st.tuples(st.just("force"), st.sampled_from(UNITS), st.sampled_from(FORCES))), max_size=40)


@settings(max_examples=60, deadline=None)
@given(city_changes, st.booleans(), st.booleans())
@example([("place", UNITS[0], EMPTY_CITY), ("place", UNITS[1], EMPTY_CITY),
          ("force", UNITS[0], "western-allied"), ("force", UNITS[1], "western-allied")], True, False)   # two SS units
@example([("place", UNITS[0], EMPTY_CITY), ("place", UNITS[1], EMPTY_CITY),
          ("force", UNITS[0], "western-allied"), ("force", UNITS[1], "soviet")], False, True)       # two sides
def test_city_owners_in_one_pass_are_each_city_owner(steps, ss, kept):
    """City control after every phase (update_control) works out every city's owner in one
    pass over the occupied hexes (victory.city_owners): the owner city_owner gives each city,
    whether the board keeps the whole ZOC or answers from the units next to the city."""
    from pbem.bfg.victory import city_owner, city_owners
    state = copy.deepcopy(STATE)
    state["city_last"] = {h: s for h, s in zip(RS.city_hexes, ["soviet", "western", "german"] * 20)}
    board = Board(RS, state)
    if kept:
        board.zoc_of_camp("german")
    for what, uid, to in steps:
        if what == "place":
            board.place(uid, to)
        else:
            board.set_force(uid, to, **({"ss_half": True} if ss and to == "western-allied" else {}))
    owners = city_owners(board)
    assert list(owners) == list(RS.city_hexes)
    assert owners == {h: city_owner(board, h) for h in RS.city_hexes}


def test_board_kept_across_phases_is_the_board_made_afresh(monkeypatch, tmp_path):
    """The kernel carries a step's later phases out in place: each phase, its end and the
    warnings of a validating run take the board the phase before left (board.board_for). Through
    the replay of every Battle for Germany example (several players, decisions, void orders,
    the end of player-turns) that board is, whenever it is taken, the one made afresh from the
    state: the same occupancy and the same ZOC."""
    import shutil

    from pbem.bfg import board as board_mod
    from pbem.core.replay import replay_campaign
    taken = {"kept": 0, "all": 0}
    real = board_mod.board_for

    def checked(rs, state):
        kept = bool(board_mod._LEFT) and board_mod._LEFT[0].state is state
        b = real(rs, state)
        fresh = Board(rs, state)
        assert b.occ == fresh.occ
        if b._zoc_cache:
            for side in ("german", "soviet", "western"):
                assert set(b.zoc_of_camp(side)) == set(fresh.zoc_of_camp(side))
                assert set(b.city_zoc(side)) == set(fresh.city_zoc(side))
        taken["kept"] += kept
        taken["all"] += 1
        return b
    for mod in ("pbem.bfg.phasetable", "pbem.bfg.engine"):
        monkeypatch.setattr(f"{mod}.board_for", checked)
    for ex in sorted((ROOT / "examples").glob("bfg-*")):
        folder = tmp_path / ex.name
        shutil.copytree(ex, folder)
        res = replay_campaign(folder)
        assert not [i for i in res.issues if i.is_error], ex.name
    assert taken["kept"] > 100 and taken["all"] > taken["kept"]
