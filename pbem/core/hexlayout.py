"""Pixel layout of a hex grid, for drawing a hex map with :mod:`pbem.core.svg` (a zone map,
whose zones are polygons given by the game, needs no layout of its own)."""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .svg import Point


class HexLayout:
    """Pixel geometry of an offset grid of pointy-top hexes: ``size`` is the circumradius; row
    ``top_row`` is drawn at the top; ``shifted(row)`` tells which rows stand half a hex east."""

    def __init__(self, *, rows: Sequence[int], columns: Sequence[int], size: float, shifted: Any,
                 origin: Point = (0.0, 0.0)):
        self.rows = list(rows)          # top to bottom
        self.columns = list(columns)    # left to right
        self.size = float(size)
        self.width = math.sqrt(3) * self.size   # flat side to flat side
        self.shifted = shifted
        self.origin = origin
        self._row_index = {r: i for i, r in enumerate(self.rows)}
        self._col_index = {c: i for i, c in enumerate(self.columns)}

    @property
    def pixel_width(self) -> float:
        return (len(self.columns) + 0.5) * self.width

    @property
    def pixel_height(self) -> float:
        return (len(self.rows) - 1) * 1.5 * self.size + 2 * self.size

    def center(self, row: int, col: int) -> Point:
        ox, oy = self.origin
        x = ox + self.width / 2 + self._col_index[col] * self.width + (self.width / 2 if self.shifted(row) else 0)
        y = oy + self.size + self._row_index[row] * 1.5 * self.size
        return (x, y)

    def corners(self, row: int, col: int, scale: float = 1.0) -> list[Point]:
        cx, cy = self.center(row, col)
        r = self.size * scale
        return [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
                for a in (-90, -30, 30, 90, 150, 210)]

    def edge(self, a: tuple[int, int], b: tuple[int, int]) -> tuple[Point, Point]:
        """The side shared by two adjacent hexes."""
        (ax, ay), (bx, by) = self.center(*a), self.center(*b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy) or 1.0
        px, py = -dy / length * self.size / 2, dx / length * self.size / 2
        p1, p2 = (mx + px, my + py), (mx - px, my - py)
        return (p1, p2) if (round(p1[0], 3), round(p1[1], 3)) <= (round(p2[0], 3), round(p2[1], 3)) else (p2, p1)
