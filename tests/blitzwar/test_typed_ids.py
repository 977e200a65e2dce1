"""The counters' ids by type kept while the same counters exist in the same order
(context.typed_ids; issue 35 "Speed": the supply counters a line may reach, the air units whose
air superiority makes a beachhead) are the plain grouping of the counters, at every call of a
replay of the example campaign, and after counters come, go or change order."""
from __future__ import annotations

from replayed import EXAMPLE, replay_copy

from pbem.blitzwar import context, seacontrol, supply
from pbem.blitzwar.context import Ctx
from pbem.core.campaign import Campaign, load_state_file
from pbem.core.data import load_ruleset

_, W = load_ruleset("blitzwar-1939")


def typed_plain(counters: dict) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for cid, c in counters.items():
        out.setdefault(c["type"], []).append(cid)
    return out


def test_typed_ids_are_the_plain_grouping_throughout_a_replay(tmp_path, monkeypatch):
    real = context.typed_ids
    seen = {"asked": 0}

    def checked(counters):
        got = real(counters)
        assert got == typed_plain(counters)
        seen["asked"] += 1
        return got

    for module in (supply, seacontrol):
        monkeypatch.setattr(module, "typed_ids", checked)
    replay_copy(EXAMPLE, tmp_path)
    assert seen["asked"] > 100


def test_typed_ids_follow_counters_that_come_go_or_change_order():
    camp = Campaign(EXAMPLE)
    state, _ = load_state_file(camp.state_path(camp.step_dirs()[60]))
    ctx = Ctx(rs=W, state=state, turn=state["turn"], phase=state["phase"])
    cs = ctx.counters
    assert context.typed_ids(ctx.counters) == typed_plain(cs) == context.typed_ids(ctx.counters)
    sid = next(c for c, v in cs.items() if v["type"] == "supply")
    cs["zz-supply-9"] = dict(cs[sid])                   # a counter comes
    assert context.typed_ids(ctx.counters) == typed_plain(cs) and "zz-supply-9" in supply._supply_counters(ctx)
    del cs[sid]                                         # and goes
    assert context.typed_ids(ctx.counters) == typed_plain(cs) and sid not in supply._supply_counters(ctx)
    ctx.state["counters"] = dict(sorted(cs.items(), reverse=True))      # another dict, another order
    assert context.typed_ids(ctx.counters) == typed_plain(ctx.counters)
    assert list(context.typed_ids(ctx.counters)["supply"]) == [c for c, v in ctx.counters.items() if v["type"] == "supply"]
