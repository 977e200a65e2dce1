"""The entries of a mapping found again by its :mod:`marshal` bytes (issue 35): the state
file's writer (:func:`pbem.core.yamlio.dump_state_yaml`) lays a large top-level mapping out
entry by entry, and a phase changes a few counters of hundreds, so each entry's lines are kept
and found again where its bytes are the same. Version 2 marshal writes each entry as its key's
bytes then its value's, the same wherever it stands (no back-references): equal bytes are equal
data of the same exact types. Held to each entry made anew by tests/core/test_canon_fast.py."""
from __future__ import annotations

import bisect
import marshal
from collections.abc import Callable
from typing import Any

__all__ = ["marshal_entries"]


#: marshal's mapping: "{", then each key and value, then "0" (:func:`marshal_entries`)
_DICT, _END = ord("{"), b"0"


def _common_prefix(a: bytes, b: bytes, n: int) -> int:
    """How many first bytes of ``a`` and ``b`` are the same, at most ``n`` (halving the span,
    each test one comparison in C)."""
    mb = memoryview(b)
    if a.startswith(mb[:n]):
        return n
    lo, hi = 0, n
    while hi - lo > 32:
        mid = (lo + hi) // 2
        if a.startswith(mb[:mid]):
            lo = mid
        else:
            hi = mid
    while lo < hi and a[lo] == b[lo]:
        lo += 1
    return lo


def _common_suffix(a: bytes, b: bytes, n: int) -> int:
    """How many last bytes of ``a`` and ``b`` are the same, at most ``n``."""
    mb, lb = memoryview(b), len(b)
    if a.endswith(mb[lb - n:]):
        return n
    lo, hi = 0, n
    while hi - lo > 32:
        mid = (lo + hi) // 2
        if a.endswith(mb[lb - mid:]):
            lo = mid
        else:
            hi = mid
    while lo < hi and a[-lo - 1] == b[-lo - 1]:
        lo += 1
    return lo


def _same_run(m: bytes, at: int, pm: bytes, pstarts: list[int], e: int, lim: int) -> int:
    """The end ``k`` (at most ``lim``) of the longest run of the last call's entries ``e`` to
    ``k - 1`` whose bytes (in ``pm``, from ``pstarts[e]``) ``m`` holds from ``at``: the same
    bytes from an entry's start are the same entries, key and value, exact types included (a
    value's bytes are the same wherever it stands). Halving on the entries, each test one
    comparison in C; ``e`` itself when its entry is not the next one."""
    pv, po = memoryview(pm), pstarts[e]
    if not m.startswith(pv[po:pstarts[e + 1]], at):
        return e
    if m.startswith(pv[po:pstarts[lim]], at):
        return lim
    lo, hi = e + 1, lim         # the run reaches lo, not hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if m.startswith(pv[po:pstarts[mid]], at):
            lo = mid
        else:
            hi = mid
    return lo


def _between(v: dict[Any, Any], keys: list[Any], m: bytes, cache: dict[Any, Any], make: Callable[[str, Any], Any],
             prev: tuple[bytes, list[int], list[Any]] | None, first: int, last: int, at: int,
             made: list[Any], starts: list[int]) -> int | None:
    """:func:`marshal_entries` of the entries ``first`` to ``last - 1`` of ``v``, the first at
    ``at`` in ``m``, appended to ``made`` and ``starts``: the runs of the last call's entries
    (``prev``) found at once between the entries that changed (:func:`_same_run`; the entry at
    ``first`` is one that changed), the others one by one. Where the last one ends; None: as
    :func:`marshal_entries`."""
    dumps, starts_with, get = marshal.dumps, m.startswith, cache.get
    pm, pstarts, pmade = prev if prev is not None else (b"", [], [])
    lim = min(last, len(pmade))
    # a run is looked for after an entry found the same (not after one that changed: most
    # entries of a mapping may have changed); where none is found, after twice as many entries
    # found the same as the last time (an entry added or removed: the last call's entries
    # stand one place off)
    e, wait, gap, again = first, 0, 1, False
    while e < last:
        if again and e < lim:
            k = _same_run(m, at, pm, pstarts, e, lim)
            if k > e:
                shift = at - pstarts[e]
                made += pmade[e:k]
                starts += [x + shift for x in pstarts[e:k]] if shift else pstarts[e:k]
                at, e = pstarts[k] + shift, k
                gap, again = 1, False
                continue
            gap *= 2
            wait = gap
        again = False
        sk = keys[e]       # in the order marshal wrote them
        e += 1
        hit = get(sk)
        if hit is None or not starts_with(hit[0], at):
            ev = v[sk]
            one = make(sk, ev) if type(sk) is str else None
            if one is None:
                return None
            hit = cache[sk] = (dumps(sk, 2) + dumps(ev, 2), one)
            if not starts_with(hit[0], at):      # (never: an entry's bytes are the same wherever it stands)
                return None
        elif wait:
            wait -= 1
        else:
            again = True
        starts.append(at)
        at += len(hit[0])
        made.append(hit[1])
    return at


def marshal_entries(v: dict[Any, Any], m: bytes, cache: dict[Any, Any],
                    make: Callable[[str, Any], Any]) -> list[Any] | None:
    """``make(key, value)`` of each entry of the mapping ``v``, in its order, whose marshal bytes
    (version 2) are ``m``; ``cache`` keeps them from one call to the next (key -> the entry's
    marshal bytes and what was made; None -> the last call's bytes, where each entry began, and
    what was made). Marshal writes a mapping as "{", each key's and value's bytes in turn, and
    "0", a value's bytes the same wherever it stands. So the entries that lie wholly within the
    bytes ``m`` begins and ends with as the last call's did are the last call's entries, and
    what was made of them is taken again; the others are found one by one: an entry whose
    bytes in ``cache`` are found in ``m`` where the entry stands is the same entry, of the same
    exact types; only the rest are marshalled and made anew (a phase moves a few counters of
    hundreds: issue 35). None: a key that is no string, ``make`` gave None, or ``m`` is not
    ``v``'s bytes."""
    keys = list(v)
    first, last = 0, len(keys)      # the entries to find one by one
    made: list[Any] = []            # what was made of each entry, in order
    starts: list[int] = []          # where each entry begins in m, and where the last one ends
    end: list[Any] = []             # what was made of the entries within the same end
    end_starts: list[int] = []      # where they begin in m, and where the last one ends
    at = 1
    prev = cache.get(None)
    if prev is not None:
        pm, pstarts, pmade = prev
        n = min(len(m), len(pm))
        same = _common_prefix(m, pm, n)
        tail = _common_suffix(m, pm, n - same)
        i = max(0, bisect.bisect_right(pstarts, same) - 1)      # entries before i: within the same beginning
        j = max(i, min(len(pmade), bisect.bisect_left(pstarts, len(pm) - tail)))   # from j: within the same end
        if i <= len(keys) - (len(pmade) - j):
            first, last = i, len(keys) - (len(pmade) - j)
            made, starts, at = pmade[:i], pstarts[:i], pstarts[i]
            d = len(m) - len(pm)
            end, end_starts = pmade[j:], [x + d for x in pstarts[j:]] if d else pstarts[j:]
    got = _between(v, keys, m, cache, make, prev, first, last, at, made, starts)
    if got is None:
        return None
    at = got
    if end_starts and at != end_starts[0]:
        # (an entry found one by one reaches into the same end: every entry found one by one)
        del cache[None]
        return marshal_entries(v, m, cache, make)
    starts += end_starts or [at]
    made += end
    if m[0] != _DICT or starts[-1] != len(m) - 1 or not m.endswith(_END) or len(made) != len(keys):
        return None                 # (never: marshal writes so)
    cache[None] = (m, starts, made)
    return made
