"""Canonical JSON bytes and SHA-256 digests of JSON-like data.

The canonical form is what pbem hashes and what dice keys are derived from,
so it must never change:

* UTF-8, no BOM, no trailing newline;
* object keys sorted by Unicode code point (after NFC normalisation);
* separators ``,`` and ``:`` with no spaces;
* non-ASCII characters written as themselves (``ensure_ascii=False``);
  ``"`` ``\\`` and control characters escaped as JSON requires;
* every string, key included, NFC-normalised;
* only dict (str keys), list/tuple, str, int, bool and None are accepted;
  floats raise TypeError (their text form is not stable across tools).
"""

from __future__ import annotations

import bisect
import copy
import hashlib
import json
import marshal
import unicodedata
from collections.abc import Callable
from typing import Any

import orjson

__all__ = ["canonical_json", "sha256_hex", "digest", "state_hash", "state_json", "marshal_entries", "copy_json",
           "snapshot_json", "restore_json"]


_NFC = unicodedata.normalize
_IS_NFC = unicodedata.is_normalized


def _normalise(obj: Any) -> Any:
    """Copy of ``obj`` with NFC strings and lists for tuples; rejects other types. The exact
    types of a state (dict, list, str, int, bool, None) are handled first and inline, and an
    ASCII string is kept as it is (it is its own NFC form): every state is hashed several
    times a step."""
    t = type(obj)
    if t is dict:
        result: dict[str, Any] = {}
        for key, value in obj.items():
            if type(key) is str:
                norm_key = key if key.isascii() else _NFC("NFC", key)
            elif isinstance(key, str):
                norm_key = _NFC("NFC", key)
            else:
                raise TypeError(
                    f"canonical JSON keys must be str, not {type(key).__name__}: {key!r}")
            if norm_key in result:
                raise ValueError(f"two keys are equal after NFC normalisation: {key!r}")
            tv = type(value)
            if tv is str:
                result[norm_key] = value if value.isascii() else _NFC("NFC", value)
            elif tv is int or tv is bool or value is None:
                result[norm_key] = value
            else:
                result[norm_key] = _normalise(value)
        return result
    if t is list:
        out = []
        for value in obj:
            tv = type(value)
            if tv is str:
                out.append(value if value.isascii() else _NFC("NFC", value))
            elif tv is int or tv is bool or value is None:
                out.append(value)
            else:
                out.append(_normalise(value))
        return out
    if t is str:
        return obj if obj.isascii() else _NFC("NFC", obj)
    if t is int:
        return obj
    return _normalise_other(obj)


def _normalise_other(obj: Any) -> Any:
    """:func:`_normalise` of anything but an exact str, dict, list or int."""
    if obj is None or obj is True or obj is False:
        return obj
    if isinstance(obj, str):
        return unicodedata.normalize("NFC", obj)
    if isinstance(obj, int):
        return int(obj)
    if isinstance(obj, dict):
        return _normalise(dict(obj))
    if isinstance(obj, (list, tuple)):
        return [_normalise(item) for item in obj]
    if isinstance(obj, float):
        raise TypeError(f"floats are not allowed in canonical JSON: {obj!r}")
    raise TypeError(f"cannot encode {type(obj).__name__} as canonical JSON: {obj!r}")


def _plain(obj: Any) -> bool:
    """Whether ``obj`` is its own :func:`_normalise` form: exact dicts with str keys, lists,
    strings, ints, bools and None only, every string already NFC (an ASCII one is: most states
    are then encoded as they are, without the copy; NFC keys cannot collide once normalised)."""
    t = type(obj)
    if t is dict:
        for key, value in obj.items():
            if type(key) is not str or not (key.isascii() or _IS_NFC("NFC", key)):
                return False
            tv = type(value)
            if tv is str:
                if not (value.isascii() or _IS_NFC("NFC", value)):
                    return False
            elif not (tv is int or tv is bool or value is None or _plain(value)):
                return False
        return True
    if t is list:
        for value in obj:
            tv = type(value)
            if tv is str:
                if not (value.isascii() or _IS_NFC("NFC", value)):
                    return False
            elif not (tv is int or tv is bool or value is None or _plain(value)):
                return False
        return True
    if t is str:
        return obj.isascii() or _IS_NFC("NFC", obj)
    return t is int or t is bool or obj is None


#: what ``json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
#: allow_nan=False)`` makes for each call (its options are not the defaults) and encodes with:
#: made once (it keeps nothing from one call to the next)
_ENCODE = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode


def canonical_json(obj: Any) -> bytes:
    """The canonical UTF-8 JSON encoding of ``obj`` (see module docstring)."""
    text: str = _ENCODE(obj if _plain(obj) else _normalise(obj))
    return text.encode("utf-8")


def sha256_hex(data: bytes) -> str:
    """Lower-case hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def digest(obj: Any) -> str:
    """SHA-256 hex of the canonical JSON of ``obj``."""
    return sha256_hex(canonical_json(obj))


def state_hash(state: dict[str, Any]) -> str:
    """Digest of ``state`` without its top-level ``"hash"`` key (input untouched)."""
    return sha256_hex(state_json(state))


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


#: orjson's options for :func:`snapshot_json`: every value of another type than those JSON
#: names (a subclass of str, int, dict or list, a date, a dataclass) refused, the data then
#: kept another way; a mapping's order is part of the data
_ORJSON_EXACT = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
#: the same, keys sorted, for :func:`state_json` (what orjson refuses, :func:`canonical_json` says)
_ORJSON_CANONICAL = _ORJSON_EXACT | orjson.OPT_SORT_KEYS


def state_json(state: dict[str, Any]) -> bytes:
    """:func:`canonical_json` of ``state`` without its top-level ``"hash"`` key, byte for byte,
    as orjson writes it (issue 35: a step hashes the state at the start of every phase; orjson,
    in C, writes the whole state in about a tenth of the time ``json`` takes): keys sorted by
    code point, ``,`` and ``:`` with no spaces, UTF-8, strings escaped as ``json`` escapes them,
    integers as Python writes them. What orjson would write otherwise is left to
    :func:`canonical_json`: a value of another type (orjson refuses it: a subclass, an integer
    beyond 64 bits, a key that is no string, a string that is no UTF-8) and a text not in NFC
    (canonical JSON normalises every string; a string is in NFC when the text is, the quotes
    about it composing with nothing). One difference, for a value no state holds: a float,
    which :func:`canonical_json` and the state file's writer refuse, is written as orjson
    writes it (a state read from a file holds none: every scalar is read as a string).
    tests/core/test_canon_fast.py holds it to :func:`canonical_json`."""
    return canonical_json_fast({k: v for k, v in state.items() if k != "hash"} if "hash" in state else state)


def canonical_json_fast(obj: Any) -> bytes:
    """:func:`canonical_json` of ``obj``, written by orjson wherever orjson writes the same
    bytes (:func:`state_json` says when it does not, and the one difference: a float)."""
    try:
        out = orjson.dumps(obj, option=_ORJSON_CANONICAL)
    except TypeError:
        return canonical_json(obj)
    if out.isascii() or _IS_NFC("NFC", out.decode("utf-8")):
        return out
    return canonical_json(obj)


_ATOMS = (str, int, bool, type(None), float)
_ATOM_TYPES = frozenset(_ATOMS)


def copy_json(obj: Any) -> Any:
    """A deep copy of JSON-like data (a state, an order file): dicts and lists copied, strings,
    numbers, booleans and None shared (they are immutable); anything else through
    :func:`copy.deepcopy`. Unlike ``copy.deepcopy``, which keeps a memo of every object, two
    references to one list become two lists. A mapping or list is copied whole in C (most
    values of a state are strings and numbers), then only its containers are replaced by
    their copies: about twice as fast as building it entry by entry, nine times as
    ``copy.deepcopy`` (issue 35: the kernel and the games copy states)."""
    t = type(obj)
    atoms = _ATOM_TYPES
    if t is dict:
        out = obj.copy()
        for k, v in obj.items():
            if type(v) not in atoms:
                out[k] = copy_json(v)     # (a key already there: the mapping keeps its size and order)
        return out
    if t is list:
        new = obj.copy()
        for i, v in enumerate(obj):
            if type(v) not in atoms:
                new[i] = copy_json(v)
        return new
    if t in atoms:
        return obj
    return copy.deepcopy(obj)


def snapshot_json(obj: Any) -> bytes | Any:
    """JSON-like data kept aside in case it is needed again (:func:`restore_json`): the JSON
    orjson writes of it (in its order), so that what :func:`restore_json` gives is fresh
    unshared data, as :func:`copy_json` would (two references to one list become two lists).
    A fifth of the cost of a copy (issue 35: the kernel keeps the state at the start of every
    phase, in case the phase must start again), and data never needed again is never built
    back. The same data comes back, exact types included, for every value a state file holds
    (dicts, lists, strings, integers, booleans, None); what else a state never holds comes
    back as JSON has it (a tuple as a list, a float that is no number as None). Data orjson
    refuses (a value of another type, a subclass, an integer beyond 64 bits, a key that is no
    string) is kept as :func:`copy_json` copies it."""
    try:
        return orjson.dumps(obj, option=_ORJSON_EXACT)
    except TypeError:
        return copy_json(obj)


def restore_json(snap: bytes | Any) -> Any:
    """A fresh copy of the data a :func:`snapshot_json` kept (each call its own)."""
    return orjson.loads(snap) if type(snap) is bytes else copy_json(snap)
