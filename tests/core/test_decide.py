"""One decision behaviour for every game (issue 18, pbem.core.game.PhaseContext.decide): an
illegal written choice is reported and ignored; the missing-orders default is recorded as an
answer; a standing value `none` declines (an option), it never means `auto`."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from pbem.blitzwar.context import Ctx as BwCtx
from pbem.core.game import NeedDecision, PhaseContext


@dataclass
class _Ctx(PhaseContext):
    state: dict
    turn: int = 3
    phase: str = "x.combat"
    answers: dict[str, Any] = field(default_factory=dict)
    events: list[dict] = field(default_factory=list)
    validating: bool = False
    auto_players: frozenset = frozenset()


def _decide(ctx, **kw):
    args = dict(id="d1", player="red", kind="advance", options=["none", "a", "b"], prompt="?")
    args.update(kw)
    return ctx.decide(**args)


def test_an_illegal_written_choice_is_reported_then_the_decision_is_asked():
    ctx = _Ctx(state={})
    with pytest.raises(NeedDecision):
        _decide(ctx, ordered="zz")
    assert ctx.events == [{"type": "order-ignored", "turn": 3, "phase": "x.combat", "decision": "d1", "ordered": "zz",
                           "options": ["none", "a", "b"], "reason": "the ordered choice is not legal at this point"}]


def test_the_missing_orders_default_is_recorded_as_an_answer():
    ctx = _Ctx(state={}, auto_players=frozenset({"red"}))
    assert _decide(ctx, auto=lambda: "b") == ("b", "no answer received: default")
    assert ctx.answers == {"d1": "b"}


def test_none_declines_and_auto_takes_the_default():
    ctx = _Ctx(state={"standing": {"red": {"advance": "none"}}})
    assert _decide(ctx, auto=lambda: "a", standing_key="advance") == ("none", "standing order none")
    ctx = _Ctx(state={"standing": {"red": {"advance": "auto"}}})
    assert _decide(ctx, auto=lambda: "a", standing_key="advance") == ("a", "standing order auto")


def test_blitzwar_decides_the_same_way_for_the_player_of_a_side():
    ctx = BwCtx(rs=None, state={"sides": {"axis": "red"}}, turn=1, phase="axis.9.combat", side="axis",
                auto_players=frozenset({"red"}))
    assert ctx.decide(id="d2", side="axis", kind="advance", options=["stay", "z"], prompt="?", ordered="q",
                      auto=lambda: "stay") == ("stay", "no answer received: default")
    assert [e["type"] for e in ctx.events] == ["order-ignored"] and ctx.answers == {"d2": "stay"}
    with pytest.raises(NeedDecision) as e:
        BwCtx(rs=None, state={"sides": {"axis": "red"}, "standing": {"red": {"advance": "none"}}}, turn=1,
              phase="axis.9.combat").decide(id="d3", side="axis", kind="advance", options=["stay", "z"], prompt="?",
                                            standing_key="advance", rule="16.4")
    assert e.value.decision["context"] == {"rule": "16.4"}
