"""Clarification 5: the Karelia counters are in the Soviet pool only once ``flags.karelia`` is
set (pbem/blitzwar/dated.py); the case files tests/cases/blitzwar/dated/ play the marks."""
from __future__ import annotations

from pbem.blitzwar.cases import world
from pbem.blitzwar.context import Ctx
from pbem.blitzwar.placing import _Pool


def _karelia_count(flags: dict) -> int:
    _, w = world()
    st = {"counters": {}, "flags": flags, "cards": {}, "control": {}, "war": {}, "marks": []}
    pool = _Pool(Ctx(rs=w, state=st, turn=19, phase="3.replacements"), "USSR", 99)
    return sum(k.count for k, orig in zip(pool.counters["USSR"], w.counters["USSR"]) if orig.available == "karelia")


def test_karelia_counters_join_the_pool_only_with_the_flag():
    assert _karelia_count({}) == 0
    assert _karelia_count({"karelia": 19}) == 2
