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

import copy
import hashlib
import json
import unicodedata
from typing import Any

import orjson

__all__ = ["canonical_json", "sha256_hex", "digest", "data_digest", "state_hash", "state_json", "copy_json",
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


def data_digest(data: Any) -> str:
    """:func:`digest` of data read from files (YAML or JSON: a ruleset's documents), the same
    hex written by orjson (:func:`canonical_json_fast`; issue 35: 0.7 ms where :func:`digest`
    takes 4.4 for BlitzWAR's 90 KB of rules, in every command that reads a scenario): such data
    holds no float, the one value the two write differently."""
    return sha256_hex(canonical_json_fast(data))


def state_hash(state: dict[str, Any]) -> str:
    """Digest of ``state`` without its top-level ``"hash"`` key (input untouched)."""
    return sha256_hex(state_json(state))


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
