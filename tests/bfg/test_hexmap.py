"""The hex grid's neighbours, worked out from the table of ids (issue 35), are each hex's
neighbours as HexGrid._compute_neighbours gives them, on every grid shape and offset."""
from __future__ import annotations

import pytest

from pbem.bfg.hexmap import HexGrid


@pytest.mark.parametrize("offset", ["even-rows-east", "odd-rows-east"])
@pytest.mark.parametrize("rows,columns", [(35, 26), (1, 1), (1, 4), (4, 1), (2, 3), (5, 7)])
def test_the_neighbours_are_those_of_each_hex(rows, columns, offset):
    g = HexGrid(rows, columns, offset)
    assert g._nbrs == {h: g._compute_neighbours(h) for h in g.ids}
    assert list(g.ids) == sorted(g.ids) and len(g.ids) == rows * columns
