"""Battle for Germany (Dunnigan; SPI 1975, Decision Games 2nd edition 1994).

One module per rule chapter (DG2 numbering): sequence (3.0), board/zoc (4.x), movement (5.0-5.3,
9.x in exiting), boundary (5.4, 5.5), combat (6.x), replacements (7.x), courland (8.0),
garrison (10.x), victory (11.0), scenario (12.x-17.x). ``play`` reads how a scenario is played
(players, command of the forces, sequence, scenario rules: 3.0, 12.0-17.3) from its data file.
``engine`` ties them into the pure adjudication function; ``template`` and ``describe`` produce
text for players.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .game import BattleForGermany

if TYPE_CHECKING:
    from ..core.game import DiceFactory, Submission
    from ..core.kernel import Outcome
    from .ruleset import Ruleset

GAME = BattleForGermany()


def adjudicate(rs: Ruleset, state: dict, subs: list[Submission], dice_factory: DiceFactory,
               *, missing_orders: bool = False, received=None) -> Outcome:
    """Apply the submitted order files to ``state`` (the core's kernel with this game): here, with
    the plug-in it hands the kernel, above the rules (engine.py does not import the package,
    issue 30)."""
    # the kernel is loaded when used: the package's import stays light
    from ..core.kernel import adjudicate as kernel_adjudicate
    return kernel_adjudicate(GAME, rs, state, subs, dice_factory, missing_orders=missing_orders, received=received)
