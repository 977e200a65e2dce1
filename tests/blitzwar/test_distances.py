"""The supply lines' breadth-first search taken level by level (supply._distances; issue 35
"Speed") gives the distances, in the order the places are reached, of the search with a queue:
at every search of a replay of the example campaign, and on small graphs with several starts,
loops and places without steps."""
from __future__ import annotations

from collections import deque

from replayed import EXAMPLE, replay_copy

from pbem.blitzwar import supply


def queued(starts, steps):
    dist = dict.fromkeys(starts, 0)
    q = deque(dist)
    while q:
        n = q.popleft()
        d = dist[n] + 1
        for x in steps.get(n, ()):
            if x not in dist:
                dist[x] = d
                q.append(x)
    return dist


def same(starts, steps):
    got = supply._distances(starts, steps)
    want = queued(starts, steps)
    assert got == want and list(got) == list(want)
    return got


def test_small_graphs():
    g = {"a": ["b", "c"], "b": ["d", "a"], "c": ["d", "e"], "d": ["f"], "e": ["a"], "f": []}
    for starts in [("a",), ("c", "a"), ("f",), ("z",), ("a", "a"), (), ("e", "d", "b")]:
        same(starts, g)
    assert same(("a",), g) == {"a": 0, "b": 1, "c": 1, "d": 2, "e": 2, "f": 3}


def test_every_search_of_a_replay(tmp_path, monkeypatch):
    real = supply._distances
    seen = {"n": 0}

    def checked(starts, steps):
        got = real(starts, steps)
        want = queued(starts, steps)
        assert got == want and list(got) == list(want)
        seen["n"] += 1
        return got

    monkeypatch.setattr(supply, "_distances", checked)
    replay_copy(EXAMPLE, tmp_path)
    assert seen["n"] > 20
