"""The highest number of a counter id stem read in one pass (placing.last_number, kept per stem
by the placement's index; issue 35 "Speed") is what splitting every id at its last ``-`` gives,
over the counters of the example campaign and odd ids; and a replay of the campaign gives the
ids that the plain scan would at every new counter put on the map."""
from __future__ import annotations

from replayed import EXAMPLE, replay_copy

from pbem.blitzwar import placing
from pbem.core.campaign import Campaign, load_state_file


def plain(counters, stem: str) -> int:
    return max([int(x.rsplit("-", 1)[1]) for x in counters if x.rsplit("-", 1)[0] == stem] or [0])


def test_last_number_is_the_split_of_every_id():
    camp = Campaign(EXAMPLE)
    odd = {"ger-i1-2": {}, "ger-i1-10": {}, "ger-i1-x-3": {}, "ger-i1": {}, "ger-i12-7": {}, "ger-i1t-4": {},
           "xger-i1-9": {}, "ger-i1-": {}}
    cases = [odd]
    for d in camp.step_dirs()[::10]:
        state, _ = load_state_file(camp.state_path(d))
        cases.append(state["counters"])
    for counters in cases:
        stems = {x.rsplit("-", 1)[0] for x in counters} | {"ger-i1", "ger-i1-x", "zz-i9", "ger-i1t"}
        for stem in sorted(stems):
            try:
                want = plain(counters, stem)
            except ValueError:
                want = None
            try:
                got = placing.last_number(counters, stem)
            except ValueError:
                got = None
            assert got == want, stem


def test_new_ids_in_a_replay_are_the_plain_scans(tmp_path, monkeypatch):
    real = placing.last_number
    seen = {"n": 0}

    def checked(counters, stem):
        got = real(counters, stem)
        assert got == plain(counters, stem)
        return got

    real_last = placing._Index.last

    def checked_last(self, stem):
        got = real_last(self, stem)
        assert got == plain(self.counters, stem), stem
        seen["n"] += 1
        return got

    monkeypatch.setattr(placing, "last_number", checked)
    monkeypatch.setattr(placing._Index, "last", checked_last)
    replay_copy(EXAMPLE, tmp_path)
    assert seen["n"] > 20       # the index's numbers were read, not only the scan


def test_put_leaves_the_counters_sorted_when_it_adds_none():
    """A campaign's first states keep the scenario's order of counters (not sorted by id); put
    sorts them even when every counter it places comes from the pool and no id is added, as it
    always did: a state written then has the same bytes (issue 35 kept this when it sped put up)."""
    from pbem.blitzwar.context import Ctx
    from pbem.core.data import load_ruleset

    rs = load_ruleset("blitzwar-1939")[1]
    camp = Campaign(EXAMPLE)
    state, _ = load_state_file(camp.state_path(camp.step_dirs()[0]))
    ids = list(state["counters"])
    assert ids != sorted(ids)       # (the case: the scenario's order)
    ctx = Ctx(rs=rs, state=state, turn=state["turn"], phase=state["phase"])
    cid = ids[-1]
    zone = ctx.counters[cid]["at"]
    ctx.move(cid, "pool")
    assert placing.put(ctx, [{**ctx.counters[cid], "at": zone}]) == [cid]      # its own id back
    assert list(ctx.counters) == sorted(ids)
    assert ctx.counters[cid]["at"] == zone
