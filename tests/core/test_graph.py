"""pbem.core.graph: the game-neutral graph checks used by Battle for Germany's hex grid and
BlitzWAR's zone graph."""
from pbem.core.graph import asymmetric, distances, reachable, symmetric_table, unknown_targets, unreachable

G = {"a": ["b", "c"], "b": ["a"], "c": ["a", "d"], "d": [], "e": ["x"]}
nb = symmetric_table(G)


def test_asymmetric_pairs_in_order():
    assert asymmetric(G, nb) == [("c", "d"), ("e", "x")]


def test_unknown_targets():
    assert unknown_targets(G, nb, G) == [("e", "x")]


def test_reachability_and_distances():
    assert reachable("a", nb) == {"a", "b", "c", "d"}
    assert reachable("a", nb, allowed=lambda n: n != "c") == {"a", "b"}
    assert unreachable(["a", "b", "c", "d", "e"], nb) == ["e"]
    assert unreachable(["a", "b", "d"], nb) == ["d"]       # only through the listed nodes
    assert unreachable([], nb) == []
    assert distances("a", nb) == {"a": 0, "b": 1, "c": 1, "d": 2}
    assert distances("a", nb, limit=1) == {"a": 0, "b": 1, "c": 1}
