"""The canonical JSON of the faster normaliser (exact types first, ASCII strings kept as they are:
issue 18 "Speed") is byte for byte that of the straightforward one it replaced."""
from __future__ import annotations

import json
import unicodedata
from collections import OrderedDict
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from pbem.core.canon import canonical_json
from pbem.core.yamlio import dump_yaml


def reference(obj):
    if obj is None or obj is True or obj is False:
        return obj
    if isinstance(obj, str):
        return unicodedata.normalize("NFC", obj)
    if isinstance(obj, int):
        return int(obj)
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            if not isinstance(k, str):
                raise TypeError(k)
            nk = unicodedata.normalize("NFC", k)
            if nk in out:
                raise ValueError(k)
            out[nk] = reference(v)
        return out
    if isinstance(obj, (list, tuple)):
        return [reference(x) for x in obj]
    raise TypeError(obj)


def reference_json(obj) -> bytes:
    return json.dumps(reference(obj), sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


# pieces: ASCII (JSON escapes too), precomposed and decomposed accents, a character NFC changes
PIECES = ["a", "b", "Z", "0", " ", "-", '"', "\\", "\n", "\u00e9", "e\u0301", "\u00c5", "A\u030a", "\u00df",
          "\u65e5", "\u212b"]
text = st.lists(st.sampled_from(PIECES), max_size=6).map("".join)
json_like = st.recursive(st.none() | st.booleans() | st.integers() | text,
                         lambda kids: st.lists(kids, max_size=4) | st.tuples(kids, kids)
                         | st.dictionaries(text, kids, max_size=4), max_leaves=25)


@settings(max_examples=300, deadline=None)
@given(json_like)
def test_same_bytes_as_the_straightforward_normaliser(obj):
    try:
        want = reference_json(obj)
    except ValueError:
        with pytest.raises(ValueError):
            canonical_json(obj)
        return
    assert canonical_json(obj) == want


def test_subclasses_and_refusals():
    assert canonical_json(OrderedDict([("b", 1), ("a", (True, None))])) == b'{"a":[true,null],"b":1}'
    with pytest.raises(TypeError):
        canonical_json({"a": 1.5})
    with pytest.raises(TypeError):
        canonical_json({1: "a"})
    with pytest.raises(ValueError):
        canonical_json({"\u00e9": 1, "e\u0301": 2})


def test_copy_json_is_a_deep_copy():
    from pbem.core.canon import copy_json
    src = {"a": [1, {"b": "x", "c": None}], "d": True, "e": (1, [2]), "f": {3}}
    out = copy_json(src)
    assert out == src and out is not src
    out["a"][1]["b"] = "y"
    out["e"][1].append(3)
    out["f"].add(4)
    assert src == {"a": [1, {"b": "x", "c": None}], "d": True, "e": (1, [2]), "f": {3}}


def _containers(obj, out):
    if isinstance(obj, (dict, list)):
        out.append(id(obj))
        for v in (obj.values() if isinstance(obj, dict) else obj):
            _containers(v, out)
    return out


@given(json_like)
def test_copy_json_is_marshals_copy_and_shares_no_container(obj):
    """copy_json (issue 35: the containers copied whole, then their containers replaced) gives
    what a marshal round trip gives, exact types and order included, and no container of the
    source."""
    import marshal

    from pbem.core.canon import copy_json
    out = copy_json(obj)
    assert marshal.dumps(out, 2) == marshal.dumps(obj, 2)
    assert list(out) == list(obj) if isinstance(obj, dict) else True
    assert not set(_containers(out, [])) & set(_containers(obj, []))


# state_json (issue 35): a state's canonical JSON as orjson writes it, canonical_json's where
# orjson would write other bytes
states = st.dictionaries(st.sampled_from(["a", "b", "c", "hash", "Z", "d\x7f", "\u00e9"]), json_like, max_size=5)


def _agrees(fn, want_fn, obj) -> bool:
    """``fn(obj)`` gives ``want_fn(obj)``, or raises what it raises (False then)."""
    try:
        want = want_fn(obj)
    except (TypeError, ValueError) as e:
        with pytest.raises(type(e)):
            fn(obj)
        return False
    assert fn(obj) == want
    return True


def _plain_state_json(state):
    return canonical_json({k: v for k, v in state.items() if k != "hash"})


@settings(max_examples=300, deadline=None)
@given(st.lists(states, min_size=1, max_size=4))
def test_state_json_is_canonical_json_of_every_state_in_turn(seq):
    from pbem.core.canon import state_json
    for state in seq:
        _agrees(state_json, _plain_state_json, state)


def test_state_json_tells_exact_types_apart_and_sees_changes_in_place():
    from pbem.core.canon import state_hash, state_json
    a = {"turn": 1, "units": {"x": [1, 0, {"k": "v"}]}, "hash": "ignored"}
    assert state_json(a) == b'{"turn":1,"units":{"x":[1,0,{"k":"v"}]}}'
    b = {"turn": 1, "units": {"x": [True, False, {"k": "v"}]}}       # == a's units, not the same JSON
    assert b["units"] == a["units"]
    assert state_json(b) == b'{"turn":1,"units":{"x":[true,false,{"k":"v"}]}}'
    a["units"]["x"][2]["k"] = "w"             # changed in place after it was encoded
    assert state_json(a) == b'{"turn":1,"units":{"x":[1,0,{"k":"w"}]}}'
    assert state_hash(a) == state_hash(dict(a, hash="other"))
    with pytest.raises(TypeError):
        state_json({"units": {1: "a"}})
    assert state_json({"units": OrderedDict([("b", 1), ("a", 2)])}) == b'{"units":{"a":2,"b":1}}'


@settings(max_examples=300, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(["a", "b", "c", "hash", "d\x7f", "yes", "a b"]), json_like, max_size=5),
                min_size=1, max_size=4))
def test_dump_state_yaml_is_dump_yaml_of_every_state_in_turn(seq):
    """The state file's text reuses the lines of the top-level values written before (their
    marshal bytes the same): byte for byte dump_yaml's."""
    from pbem.core.yamlio import dump_state_yaml
    for state in seq:
        _agrees(lambda s: dump_state_yaml(s, header="h"), lambda s: dump_yaml(s, header="h"), state)
    changed = {"a": [1, {"b": True}]}
    assert dump_state_yaml(changed) == dump_yaml(changed)
    changed["a"][1]["b"] = 1          # changed in place: its marshal bytes made anew
    assert dump_state_yaml(changed) == dump_yaml(changed) == "a:\n  - 1\n  - b: 1\n"


def _entry(k, e):
    """What marshal_entries makes of an entry in these tests: its exact key and value."""
    import marshal
    return marshal.dumps((k, e), 2)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(["a", "b", "c", "d", "e\u00e9"]), json_like, max_size=5),
                min_size=1, max_size=6))
def test_marshal_entries_is_each_entry_made_anew(seq):
    """marshal_entries gives what ``make`` gives of each entry, in order, whatever the mappings
    before it were (the same beginning and end as the last one's bytes, entries reused found
    where they stand, keys added, removed, moved)."""
    import marshal

    from pbem.core.marshalcache import marshal_entries
    cache: dict = {}
    for v in seq:
        assert marshal_entries(v, marshal.dumps(v, 2), cache, _entry) == [_entry(k, e) for k, e in v.items()]


def test_marshal_entries_is_not_fooled_by_bytes_that_look_like_an_entry():
    """A value whose bytes hold another entry's, or a mapping that ends as the last one did
    but with other entries: found one by one (the same end is the last call's only where an
    entry found one by one ends)."""
    import marshal

    from pbem.core.marshalcache import marshal_entries
    a = {"a": 1, "b": 2, "c": [3]}
    inner = marshal.dumps("b", 2) + marshal.dumps(2, 2) + marshal.dumps("c", 2) + marshal.dumps([3], 2)
    cache: dict = {}
    for v in (a, {"a": inner.decode("latin-1")}, {"a": inner}, a, {"x": 1, "c": [3]}, {"b": 2, "c": [3]},
              {"a": 1, "b": 2, "c": [3], "d": None}, {"d": None, "a": 1, "b": 2, "c": [3]}, {}, a):
        assert marshal_entries(v, marshal.dumps(v, 2), cache, _entry) == [_entry(k, e) for k, e in v.items()]


def test_state_json_sees_each_change_in_place():
    """A state's counters changed in place (True for 1, a longer value), moved, added, removed
    or under a key that is no ASCII, or not in NFC: canonical_json's bytes each time."""
    from pbem.core.canon import state_json
    counters = {f"c{i:03d}": {"s": i, "f": [i % 2 == 0]} for i in range(40)}
    state = {"counters": counters, "turn": 1}

    def check():
        assert state_json(state) == canonical_json(state)
    check()
    for change in (lambda: counters["c003"].update(s=True), lambda: counters["c003"].update(s=1),
                   lambda: counters["c010"]["f"].append("a longer value"),
                   lambda: counters.update(c000=counters.pop("c000")),         # moved to the end
                   lambda: counters.update({"\u00e9": {"s": 0}}), lambda: counters.pop("\u00e9"),
                   lambda: counters.pop("c020"), lambda: counters.update(c020=True),
                   lambda: counters.update({"b\u0301": 1})):                  # (NFC: "\u1e03")
        change()
        check()


@settings(max_examples=300, deadline=None)
@given(st.lists(states, min_size=1, max_size=4))
def test_state_json_of_states_within_states_is_canonical_json(seq):
    """A state within a state's mapping and list (a counter, a pending phase's base): the same
    bytes."""
    from pbem.core.canon import state_json
    for state in seq:
        if _agrees(state_json, _plain_state_json, state):
            # (the state's own "hash" value is in it: a state leaves it out)
            _agrees(state_json, canonical_json, {"units": {"a": state, "b": [1, True], "c": 1}})


@settings(max_examples=300, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(["a", "b", "yes", "a b", "x" * 1001]), json_like, max_size=5),
                min_size=1, max_size=4))
def test_dump_state_yaml_entry_by_entry_is_dump_yaml(seq):
    """A large top-level mapping laid out entry by entry (every mapping taken as large here),
    a key too long for an implicit key included: dump_yaml's bytes."""
    import pbem.core.yamlio as yamlio
    split, yamlio._SPLIT = yamlio._SPLIT, 0
    try:
        for state in seq:
            for doc in (state, {"units": state}, {"units": {"u1": state, "u2": [state]}}):
                _agrees(yamlio.dump_state_yaml, yamlio.dump_yaml, doc)
    finally:
        yamlio._SPLIT = split


_MANY = [f"k{i:02d}" for i in range(40)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(_MANY), st.none() | st.booleans() | st.integers(-2, 300)
                                | st.lists(st.booleans() | st.integers(0, 1), max_size=3), min_size=20, max_size=40),
                min_size=2, max_size=6))
def test_marshal_entries_of_large_mappings_in_turn(seq):
    """The runs of the last call's entries found at once between the entries that changed
    (``_same_run``): what ``make`` gives of each entry, in order, for mappings of many entries
    that change in several places (True for 1, longer or shorter values, keys added, removed,
    in another order)."""
    import marshal

    from pbem.core.marshalcache import marshal_entries
    cache: dict = {}
    for v in seq:
        assert marshal_entries(v, marshal.dumps(v, 2), cache, _entry) == [_entry(k, e) for k, e in v.items()]
        w = dict(v)
        for k in list(w)[::7]:          # a few entries changed, spread over the mapping
            w[k] = [w[k]] if not isinstance(w[k], bool) else int(w[k])
        assert marshal_entries(w, marshal.dumps(w, 2), cache, _entry) == [_entry(k, e) for k, e in w.items()]


def test_state_json_of_counters_out_of_key_order_changed_here_and_there():
    """A state's counters in another order than their keys' (a new counter comes last), a few
    changed in each state at places spread over the mapping, some added, removed, moved: the
    canonical JSON each time (the entries put in key order by the order kept while the keys
    stand as they are, the unchanged runs between the changes found at once)."""
    import random

    from pbem.core.canon import state_json
    rnd = random.Random(35)
    ids = [f"c{i:03d}" for i in range(150)]
    rnd.shuffle(ids)
    counters = {c: {"at": f"z{rnd.randrange(40)}", "units": rnd.randrange(1, 4), "elite": rnd.random() < 0.2} for c in ids}
    state = {"turn": 1, "counters": counters, "marks": []}
    assert state_json(state) == canonical_json(state)
    for n in range(60):
        for c in rnd.sample(list(counters), rnd.randrange(1, 6)):
            what = rnd.randrange(5)
            if what == 0:
                counters[c]["at"] = f"z{rnd.randrange(40)}x"
            elif what == 1:
                counters[c]["elite"] = int(counters[c]["elite"]) if isinstance(counters[c]["elite"], bool) else True
            elif what == 2:
                counters[c] = counters.pop(c)         # moved to the end
            elif what == 3:
                counters[f"n{n:03d}"] = {"at": "pool", "units": 1}
            else:
                counters.pop(c)
        state["turn"] = n
        assert state_json(state) == canonical_json(state)


class _Key(str):
    """A key that equals a plain one but is not one (``state_json`` goes the long way)."""


_ATOMS = [1, True, 0, False, None, "1", "true", 2**70, "\u00e9", "e\u0301", ("t", [1]), Fraction(3, 2)]
_OPS = st.lists(st.tuples(st.integers(0, 6), st.sampled_from(["turn", "phase", "step", "hash", "z", "\u00e9"]),
                          st.integers(0, len(_ATOMS) - 1)), min_size=1, max_size=12)


@settings(max_examples=400, deadline=None)
@given(_OPS)
def test_state_json_of_one_state_changed_in_place_atoms_and_keys(ops):
    """One state changed in place step by step (an atom replaced by another equal to it under
    ``==`` but of another type, an equal string made anew, a tuple whose list changes in place,
    a key added, removed, moved to the end, or replaced by an equal key of another type): the
    canonical JSON each time, or refused as canonical_json refuses it."""
    from pbem.core.canon import state_json
    state = {"turn": 1, "phase": "a", "step": 3, "units": {"x": [1]}}
    for op, key, i in ops:
        atom = _ATOMS[i]
        if op == 0:
            state[key] = atom
        elif op == 1:
            state[key] = "".join(["a", "b"]) if key not in state or state[key] != "ab" else "".join(["a", "b"])
        elif op == 2:
            state.pop(key, None)
        elif op == 3 and key in state:
            state[key] = state.pop(key)              # moved to the end
        elif op == 4 and key in state:
            v = state.pop(key)
            state[_Key(key)] = v
        elif op == 5:
            t = state.get("z")
            if isinstance(t, tuple):
                t[1].append(len(t[1]))              # the same tuple, its list changed in place
            else:
                state["z"] = ("t", [1])
        else:
            state["units"]["x"].append(i)
        _agrees(state_json, _plain_state_json, state)


def test_state_json_atoms_told_apart_by_type():
    from pbem.core.canon import state_json
    s = {"turn": 1, "flag": 1}
    assert state_json(s) == b'{"flag":1,"turn":1}'
    s["flag"] = True                                  # == 1, another object and type
    assert state_json(s) == b'{"flag":true,"turn":1}'
    s["flag"] = 1
    assert state_json(s) == b'{"flag":1,"turn":1}'
    s["turn"] = "1"
    assert state_json(s) == b'{"flag":1,"turn":"1"}'
    t = ("a", [1])
    s["turn"] = t
    assert state_json(s) == b'{"flag":1,"turn":["a",[1]]}'
    t[1].append(2)                                    # the same tuple, changed within
    assert state_json(s) == b'{"flag":1,"turn":["a",[1,2]]}'


# the whole of Unicode (control characters, astral keys, what NFC changes) and the integers
# about orjson's 64 bits: where orjson writes the state, its bytes are canonical_json's
any_text = st.text(max_size=6) | st.sampled_from(PIECES)
wide = st.recursive(st.none() | st.booleans() | any_text
                    | st.integers() | st.sampled_from([2**63 - 1, -2**63, 2**64 - 1, 2**64, -2**63 - 1, -2**64]),
                    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(any_text, kids, max_size=4),
                    max_leaves=25)


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(any_text, wide, max_size=5))
def test_state_json_of_any_text_and_integer_is_canonical_json(state):
    from pbem.core.canon import state_json
    _agrees(state_json, _plain_state_json, state)


def test_state_json_writes_a_float_canonical_json_refuses():
    """The one difference (no state holds a float: a state file's scalars are read as strings,
    and its writer refuses a float): state_json writes it as orjson does."""
    from pbem.core.canon import state_json
    with pytest.raises(TypeError):
        canonical_json({"x": 1.5})
    with pytest.raises(TypeError):
        dump_yaml({"x": 1.5})
    assert state_json({"x": 1.5}) == b'{"x":1.5}'


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(any_text, wide, max_size=5))
def test_snapshot_json_builds_back_the_same_data(obj):
    """What a state holds comes back exactly (marshal's bytes: exact types, order), fresh each
    time and sharing no container; what orjson refuses is kept as copy_json copies it."""
    import marshal

    from pbem.core.canon import restore_json, snapshot_json
    snap = snapshot_json(obj)
    a, b = restore_json(snap), restore_json(snap)
    assert marshal.dumps(a, 2) == marshal.dumps(b, 2) == marshal.dumps(obj, 2)
    assert not set(_containers(a, [])) & (set(_containers(obj, [])) | set(_containers(b, [])))


def test_snapshot_json_of_what_no_state_holds():
    from pbem.core.canon import restore_json, snapshot_json
    odd = {"f": Fraction(1, 2), "k": _Key("k")}
    assert not isinstance(snapshot_json(odd), bytes) and restore_json(snapshot_json(odd)) == odd
    assert restore_json(snapshot_json({"t": (1, [2])})) == {"t": [1, [2]]}     # as a state file has it


@pytest.mark.parametrize("scenario", ["bfg-historical", "blitzwar-1939"])
def test_data_digest_is_digest_of_each_ruleset(scenario):
    """A ruleset's digest (pbem.core.data.load_ruleset, written by orjson: issue 35) is the one
    pbem.core.canon.digest gives of the same documents, for each game's scenario."""
    from pbem.core.canon import data_digest, digest
    from pbem.core.data import load_scenario_docs
    _, docs, _ = load_scenario_docs(scenario)
    assert data_digest(docs) == digest(docs)
