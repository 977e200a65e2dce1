"""Adjudication context: the board, the dice, the event log and mid-phase decisions.

A decision that belongs to a player in mid-phase (a retreat hex, the Ex losses, an advance,
a replacement tie, the Courland port) is taken, in this order, from: the phasing player's
explicit order for that combat; an answer to the pending decision of the same id; the only
legal option; the deciding player's standing order ``auto``. Otherwise the phase stops with
:class:`NeedDecision` and the state records a pending decision naming the player, the choice
and the legal options.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .board import Board
from .ruleset import Ruleset, is_provisional


# The kernel's exceptions (pbem.core.game), named here for the rule modules.
from ..core.game import NeedDecision, PhaseOrdersInvalid  # noqa: E402,F401


@dataclass
class Ctx:
    rs: Ruleset
    board: Board
    turn: int
    phase: str
    player: str                      # the phasing player
    dice: Any = None                 # pbem.core.dice.Dice or compatible (None while validating)
    answers: dict[str, Any] = field(default_factory=dict)
    events: list[dict] = field(default_factory=list)
    validating: bool = False
    auto_players: frozenset = frozenset()   # players whose decisions default to `auto` (--missing-orders)

    @property
    def state(self) -> dict:
        return self.board.state

    def emit(self, type_: str, **data: Any) -> dict:
        ev = {"type": type_, "turn": self.turn, "phase": self.phase}
        ev.update(data)
        self.events.append(ev)
        return ev

    def standing(self, player: str, key: str, default: str = "ask") -> str:
        return self.state.get("standing", {}).get(player, {}).get(key, default)

    def decide(self, *, id: str, player: str, kind: str, options: list, prompt: str,
               ordered: Any = None, auto: Callable[[], Any] | None = None,
               standing_key: str | None = None, context: dict | None = None) -> tuple[Any, str]:
        """Return (choice, how) or raise NeedDecision. ``options`` must be JSON-ready."""
        if ordered is not None:
            if ordered in options:
                return ordered, "order"
            self.emit("order-ignored", decision=id, ordered=ordered, options=options,
                      reason="the ordered choice is not legal at this point")
        if id in self.answers:
            ans = self.answers[id]
            if ans in options:
                return ans, "answer"
        if len(options) == 1:
            return options[0], "only option"
        value = self.standing(player, standing_key) if standing_key else "ask"
        if auto is not None and value in ("auto", "none"):
            return auto(), f"standing order {value}"
        if auto is not None and player in self.auto_players:
            # Remembered as an answer: if a later decision of another player stops the phase,
            # the resumed phase must not ask this one again (no dead end, issue 9).
            choice = auto()
            self.answers[id] = choice
            return choice, "no answer received: default"
        dec = {"id": id, "player": player, "kind": kind, "turn": self.turn, "phase": self.phase,
               "prompt": prompt, "options": options}
        if context:
            dec["context"] = context
        raise NeedDecision(dec)


def prov_note(prov: dict, what: str) -> dict | None:
    if is_provisional(prov):
        return {"item": what, "note": prov.get("note", "")}
    return None
