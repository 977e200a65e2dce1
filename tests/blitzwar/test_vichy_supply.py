"""9.4: VFおよび自由フランスは、小勢力です。しかし、そのユニットは、その領域内にいる場合、常に補給下に
あります "Vichy and Free France are minor powers, but their units are always in supply in their
own territory" (pbem/blitzwar/supply.py always_supplied, read by supply.in_supply)."""
from __future__ import annotations

from pbem.blitzwar.cases import world
from pbem.blitzwar.context import Ctx
from pbem.blitzwar.supply import always_supplied, in_supply


def _ctx(counters: dict, flags: dict, control: dict | None = None, war: dict | None = None) -> Ctx:
    _, w = world()
    st = {"counters": counters, "flags": flags, "control": control or {}, "war": war or {}, "marks": [],
          "supply": {"axis": "0", "allies": "0", "ussr": "0"}, "sides": {"axis": "axis", "allies": "allies", "ussr": "ussr"}}
    return Ctx(rs=w, state=st, turn=20, phase="allies.7.movement")


def test_vichy_units_are_in_supply_in_vichy_only():
    cs = {"vf-1": {"nation": "VF", "type": "infantry", "units": 1, "kind": 0, "at": "tunis"},
          "vf-2": {"nation": "VF", "type": "infantry", "units": 1, "kind": 0, "at": "tripoli"}}
    ctx = _ctx(cs, {"vichy": 10, "surrendered": ["FRA"]}, war={"VF": "axis"})
    assert in_supply(ctx, "vf-1")
    assert not always_supplied(ctx, "vf-2")        # outside its territory: the normal rule (7)


def test_free_france_units_are_in_supply_in_french_zones_the_allies_hold():
    cs = {"fra-1": {"nation": "FRA", "type": "infantry", "units": 1, "kind": 0, "at": "algeria"}}
    ctx = _ctx(cs, {"vichy": 10, "free_france": 18, "surrendered": ["FRA", "VF"]}, control={"algeria": "allies"})
    assert in_supply(ctx, "fra-1")
