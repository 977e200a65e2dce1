"""Graph checks shared by every map, whether a hex grid (Battle for Germany) or a graph of named
zones (BlitzWAR): links that one node lists and the other does not, links to nodes that do not
exist, and nodes that cannot be reached. Pure functions over a ``neighbours`` callable, so a game
passes whatever adjacency it has (grid offsets, zone lists, land plus sea legs)."""
from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

N = TypeVar("N", bound="SupportsRichComparison")   # nodes are sorted: ids, hex numbers


def asymmetric(nodes: Iterable[N], neighbours: Callable[[N], Iterable[N]]) -> list[tuple[N, N]]:
    """Every (a, b), in the order of ``nodes`` and of a's neighbours, where a lists b as a
    neighbour but b does not list a. A neighbour that is not a node counts as not listing a."""
    out: list[tuple[N, N]] = []
    for a in nodes:
        for b in neighbours(a):
            if a not in neighbours(b):
                out.append((a, b))
    return out


def unknown_targets(nodes: Iterable[N], neighbours: Callable[[N], Iterable[N]], known: Container[N]) -> list[tuple[N, N]]:
    """Every (a, b) where a lists b and b is not in ``known``."""
    return [(a, b) for a in nodes for b in neighbours(a) if b not in known]


def reachable(start: N, neighbours: Callable[[N], Iterable[N]], allowed: Callable[[N], bool] | None = None) -> set[N]:
    """The nodes reached from ``start`` by following ``neighbours`` through nodes that
    ``allowed`` accepts (all nodes when it is None)."""
    seen = {start}
    stack = [start]
    while stack:
        a = stack.pop()
        for b in neighbours(a):
            if b not in seen and (allowed is None or allowed(b)):
                seen.add(b)
                stack.append(b)
    return seen


def unreachable(nodes: Iterable[N], neighbours: Callable[[N], Iterable[N]], start: N | None = None) -> list[N]:
    """The nodes (sorted) that cannot be reached from ``start`` (default: the first node) moving
    only through ``nodes``."""
    order = list(nodes)
    if not order:
        return []
    inside = set(order)
    seen = reachable(order[0] if start is None else start, neighbours, lambda n: n in inside)
    return sorted(inside - seen)


def distances(start: N, neighbours: Callable[[N], Iterable[N]], limit: int | None = None) -> dict[N, int]:
    """Breadth-first distance (in links) from ``start`` to every node reached, up to ``limit``."""
    dist = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for a in frontier:
            d = dist[a] + 1
            if limit is not None and d > limit:
                continue
            for b in neighbours(a):
                if b not in dist:
                    dist[b] = d
                    nxt.append(b)
        frontier = nxt
    return dist


def symmetric_table(pairs: Mapping[N, Iterable[N]]) -> Callable[[N], tuple[N, ...]]:
    """A ``neighbours`` callable over a mapping node -> listed neighbours (unknown nodes list
    nothing)."""
    return lambda n: tuple(pairs.get(n, ()))
