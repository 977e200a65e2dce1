"""The outline's points written many at a time (:func:`pbem.blitzwar.draw_base._points_text`,
scaled in two comprehensions and formatted by one ``%``: issue 35, the mail step's speed) give,
for every ring of the shipped outline at the scales the maps are drawn at, the bytes of the
straightforward way: an f-string a point, its ``.0`` and ``-0`` taken out (:func:`num`)."""
from pbem.blitzwar import draw_base as D
from pbem.core.data import data_path


def straightforward(flat: list, k: float, ox: float, oy: float) -> str:
    it = iter(flat)
    return " L".join(f"{D.num((x - ox) * k)} {D.num((y - oy) * k)}" for x, y in zip(it, it))


def _rings(geo: dict) -> list:
    out = [r for z in geo["zones"].values() for poly in z["rings"] for r in poly]
    out += [r for s in geo["seas"].values() for poly in s["rings"] for r in poly]
    out += [r for poly in geo["land"] for r in poly]
    out += [flat for _, _, flat in geo["sea_borders"]]
    return out


def test_every_ring_of_the_outline_as_the_straightforward_way():
    geo = D._load_outline(str(data_path(D.OUTLINE_FILE)))
    x0, y0 = geo["view"][0], geo["view"][1]
    rings = _rings(geo)
    assert len(rings) > 1000
    for k in (D.SCALE, D.SCALE * 0.5, D.SCALE * 1.5, D.SCALE * 2, 0.77):
        for ox, oy in ((x0, y0), (0, 0), (x0 + 0.05, y0 - 0.05)):
            for r in rings:
                assert D._points_text(r, k, ox, oy) == straightforward(r, k, ox, oy)


def test_odd_and_empty_rings():
    for flat in ([], [1.0], [1.0, 2.0, 3.0], [-0.01, 0.04, -0.05, 5], [0, -0.0, 7, 8, 9]):
        for k in (0.6, 1.0):
            assert D._points_text(flat, k, 0, 0) == straightforward(flat, k, 0, 0)
