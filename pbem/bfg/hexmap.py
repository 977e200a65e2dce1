"""Hex grid geometry of the Battle for Germany map (DG2 2.2; ids from 7.25, 8.0, 9.0).

A hex id is ``RRCC``: RR counts rows south to north (01-35), CC columns west to east
(01-26). Hexes of one row with consecutive CC are adjacent. Which rows are shifted half a hex
is a property of the map data (``grid.offset``), never assumed here.
"""
from __future__ import annotations

from functools import lru_cache


def hex_id(row: int, col: int) -> str:
    return f"{row:02d}{col:02d}"


def parse_hex(h: str) -> tuple[int, int]:
    return int(h[:2]), int(h[2:])


class HexGrid:
    """Offset-row hex grid. ``offset`` is ``even-rows-east`` or ``odd-rows-east``."""

    def __init__(self, rows: int, columns: int, offset: str):
        if offset not in ("even-rows-east", "odd-rows-east"):
            raise ValueError(f"unknown grid offset {offset!r}")
        self.rows = rows
        self.columns = columns
        self.offset = offset
        self._shifted_parity = 0 if offset == "even-rows-east" else 1
        table = [[hex_id(r, c) for c in range(1, columns + 1)] for r in range(1, rows + 1)]
        self.ids = tuple(h for row in table for h in row)
        self._idset = frozenset(self.ids)
        self._nbrs = self._all_neighbours(table)

    def _all_neighbours(self, table: list[list[str]]) -> dict[str, tuple[str, ...]]:
        """Every hex's :meth:`_compute_neighbours`, from the table of ids by row and column
        (issue 35: formatting each neighbour's id again, 6,000 of them, was a tenth of a first
        `pbem show`; tests/bfg/test_hexmap.py holds both equal)."""
        nbrs = {}
        for r, row in enumerate(table, start=1):
            near = (-1, 0) if not self._shifted(r) else (0, 1)       # columns of the rows beside
            beside = [table[r - 2] if r > 1 else None, table[r] if r < self.rows else None]
            for c, h in enumerate(row, start=1):
                cand = [row[c - 2]] if c > 1 else []
                if c < self.columns:
                    cand.append(row[c])
                for other in beside:
                    if other is not None:
                        cand += [other[c + d - 1] for d in near if 1 <= c + d <= self.columns]
                nbrs[h] = tuple(sorted(cand))
        return nbrs

    def __contains__(self, h: object) -> bool:
        return h in self._idset

    def _shifted(self, row: int) -> bool:
        return row % 2 == self._shifted_parity

    def _compute_neighbours(self, h: str) -> tuple[str, ...]:
        r, c = parse_hex(h)
        cand = [(r, c - 1), (r, c + 1)]
        if self._shifted(r):
            cand += [(r - 1, c), (r - 1, c + 1), (r + 1, c), (r + 1, c + 1)]
        else:
            cand += [(r - 1, c - 1), (r - 1, c), (r + 1, c - 1), (r + 1, c)]
        return tuple(sorted(hex_id(rr, cc) for rr, cc in cand
                            if 1 <= rr <= self.rows and 1 <= cc <= self.columns))

    def neighbours(self, h: str) -> tuple[str, ...]:
        return self._nbrs[h]

    def adjacent(self, a: str, b: str) -> bool:
        return b in self._nbrs.get(a, ())

    def distance(self, a: str, b: str) -> int:
        return _distance(self, a, b)

    def on_edge(self, h: str) -> bool:
        r, c = parse_hex(h)
        return r in (1, self.rows) or c in (1, self.columns)


@lru_cache(maxsize=200_000)
def _distance_cached(shifted_parity: int, a: str, b: str) -> int:
    ra, ca = parse_hex(a)
    rb, cb = parse_hex(b)
    da = 2 * ca + (1 if ra % 2 == shifted_parity else 0)
    db = 2 * cb + (1 if rb % 2 == shifted_parity else 0)
    dr = abs(ra - rb)
    dcol = abs(da - db)
    return dr + max(0, (dcol - dr) // 2)


def _distance(grid: HexGrid, a: str, b: str) -> int:
    return _distance_cached(grid._shifted_parity, a, b)
