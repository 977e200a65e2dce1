"""The seas a side's supply line may use and its steps from each sea node, worked out once a
side per network and shared by the lines for attack and for defence, forward and back
(supply._Network._sea_of; issue 35 "Speed"), leave every line as a network that works them out
for that line alone makes it: on positions of the example campaign, in every order of asking."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from pbem.blitzwar import supply
from pbem.blitzwar.context import SIDES, Ctx
from pbem.core.campaign import Campaign, load_state_file
from pbem.core.data import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
CAMP = Campaign(ROOT / "examples" / "blitzwar-1939")
PATHS = [CAMP.state_path(d) for d in CAMP.step_dirs()]
_, W = load_ruleset("blitzwar-1939")


def alone(ctx: Ctx, side: str, defence: bool, back: bool) -> dict[str, list[str]]:
    """The line's steps (or steps back) on a network made for it alone."""
    net = supply._Network(ctx)
    return net.back_of(ctx, side, defence) if back else net.steps_of(ctx, side, defence)


@pytest.mark.parametrize("path", PATHS[::10], ids=lambda p: p.parent.name)
def test_shared_sea_steps_leave_every_line_as_made_alone(path):
    state, _ = load_state_file(path)
    state = copy.deepcopy(state)
    if W.seas:          # an enemy's sea control somewhere: a sea some side may not use (12.3)
        state["sea_air"] = {**(state.get("sea_air") or {}), "sea_control": {sorted(W.seas)[2]: "axis"}}
    ctx = Ctx(rs=W, state=state, turn=state["turn"], phase=state["phase"])
    asks = [(side, defence, back) for side in SIDES for defence in (True, False) for back in (True, False)]
    for order in (asks, asks[::-1]):
        net = supply._Network(ctx)
        for side, defence, back in order:
            got = net.back_of(ctx, side, defence) if back else net.steps_of(ctx, side, defence)
            assert list(got.items()) == list(alone(ctx, side, defence, back).items()), (side, defence, back)
        for side in SIDES:
            sea_ok, sea_from = net._sea_of(ctx, side)
            assert sea_ok == {s: supply._sea_ok(ctx, side, s) for s in W.seas}
            assert sea_from == {n: net.sea_steps(ctx, side, n, sea_ok) for n in W.sea_nodes}
