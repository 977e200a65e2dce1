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
from typing import Any

# The kernel's exceptions (pbem.core.game), named here for the rule modules.
from ..core.game import NeedDecision, PhaseContext, PhaseOrdersInvalid  # noqa: F401
from .board import Board
from .ruleset import Ruleset, is_provisional


@dataclass
class Ctx(PhaseContext):
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

    # emit, standing and decide: the core's (pbem.core.game.PhaseContext)


def prov_note(prov: dict, what: str) -> dict | None:
    if is_provisional(prov):
        return {"item": what, "note": prov.get("note", "")}
    return None


def entry_overstack(ctx: Ctx, uid: str, h: str) -> str | None:
    """5.3 at the entry hex (rulings ``replacement_stacking``): at most two units, one Front. Read by
    replacements (replacements.py) and the Courland pocket's entries (courland.py), so here below
    both (issue 30)."""
    board = ctx.board
    there = [u for u in board.units_in(h) if u != uid]
    if len(there) >= 2:
        return f"it already holds {len(there)} units ({', '.join(there)}); at most 2 may stack"
    if ctx.rs.units[uid].is_front and any(ctx.rs.units[u].is_front for u in there):
        return f"it already holds a Front ({', '.join(u for u in there if ctx.rs.units[u].is_front)})"
    return None
