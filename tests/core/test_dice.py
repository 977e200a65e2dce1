"""Tests for pbem.core.dice: fixed vectors, distribution, labels, scripted dice."""

from __future__ import annotations

import collections
import hashlib
import hmac
import json
import shutil
import subprocess

import pytest

from pbem.core import dice as dice_module
from pbem.core.dice import (
    ALGORITHM,
    Dice,
    Roll,
    ScriptedDice,
    commitment,
    derive_phase_key,
    new_key,
    roll_value,
    verify_roll,
)

KEY = "00112233445566778899aabbccddeeff" * 2
STEP = dict(game="bfg", campaign="demo", step="t03/soviet.combat",
            orders_digest="a" * 64, state_hash="b" * 64)
# Computed once with this implementation and cross-checked with openssl;
# if any of these change, the algorithm changed and old games no longer verify.
PHASE_KEY = "6dbe7a8ef66e03773bec796643956a7e68060914d009657cd27ff6c567a2cd76"
COMMITMENT = "4773d12e2371bb935b9a0f5439b4a1c3ad3f2414b86980f8418d1cfabdfadfef"
PREFIX = "bfg/demo/t03/soviet.combat/"
D6_VALUES = [1, 6, 6, 5, 6, 4, 1, 6, 4, 4]  # hex-0812/d6#1 .. #10


def test_algorithm_id():
    assert ALGORITHM == "hmac-sha256-rej64/v1"


def test_known_vector():
    assert commitment(KEY) == COMMITMENT
    assert derive_phase_key(KEY, **STEP) == PHASE_KEY
    dice = Dice(PHASE_KEY, prefix=PREFIX)
    assert [dice.roll(f"hex-0812/d6#{i}") for i in range(1, 11)] == D6_VALUES
    assert dice.roll("x/d10", 10) == 2
    assert dice.roll("x/d20", 20) == 16
    assert dice.roll("x/d100", 100) == 92
    assert dice.roll("x/d2", 2) == 2


def _independent_roll(key_hex: str, label: str, sides: int) -> int:
    """The documented recipe, written out with the standard library only."""
    message = json.dumps({"algorithm": "hmac-sha256-rej64/v1", "campaign": "demo",
                          "game": "bfg", "orders": "a" * 64, "state": "b" * 64,
                          "step": "t03/soviet.combat"}, separators=(",", ":")).encode()
    phase = hmac.new(bytes.fromhex(key_hex), message, hashlib.sha256).hexdigest()
    block = hmac.new(bytes.fromhex(phase), label.encode() + b"\x000", hashlib.sha256).hexdigest()
    x = int(block[:16], 16)
    assert x < 2**64 - 2**64 % sides
    return 1 + x % sides


def test_matches_independent_implementation():
    for i in range(1, 11):
        label = f"{PREFIX}hex-0812/d6#{i}"
        assert _independent_roll(KEY, label, 6) == D6_VALUES[i - 1]
        assert verify_roll(KEY, label=label, **STEP) == D6_VALUES[i - 1]


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl not installed")
def test_openssl_recipe_from_docstring():
    label = PREFIX + "hex-0812/d6#1"
    block = subprocess.run(
        ["openssl", "dgst", "-sha256", "-mac", "HMAC", "-macopt", f"hexkey:{PHASE_KEY}"],
        input=label.encode() + b"\x00" + b"0", capture_output=True, check=True,
    ).stdout.decode().split()[-1]
    x = int(block[:16], 16)
    assert 1 + x % 6 == D6_VALUES[0]


def test_rejection_sampling_reads_chunks_in_order(monkeypatch):
    """Chunks at or above the limit are skipped; the next chunk, then the next counter."""
    messages = []
    too_big = (2**64 - 1).to_bytes(8, "big")

    def fake_digest(key, msg, digest):
        """HMAC-SHA256 as the dice use it: one call of OpenSSL's per block."""
        assert digest == "sha256" and key == bytes.fromhex("ab" * 32)
        messages.append(msg)
        if msg.endswith(b"\x000"):
            return too_big * 4  # counter 0: all four chunks rejected
        return too_big + (13).to_bytes(8, "big") + bytes(16)  # counter 1

    monkeypatch.setattr(dice_module.hmac, "digest", fake_digest)
    assert roll_value("ab" * 32, "lbl", 6) == 1 + 13 % 6
    assert messages == [b"lbl\x000", b"lbl\x001"]


def test_distribution_over_60000_rolls():
    phase = derive_phase_key(KEY, **{**STEP, "step": "distribution"})
    counts = collections.Counter(roll_value(phase, f"r{i}") for i in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(9_500 <= n <= 10_500 for n in counts.values()), counts


def test_other_die_sizes_stay_in_range():
    values = {roll_value(PHASE_KEY, f"d20-{i}", 20) for i in range(2_000)}
    assert values == set(range(1, 21))


def test_every_input_changes_the_phase_key():
    keys = {derive_phase_key(KEY, **STEP)}
    for field in STEP:
        keys.add(derive_phase_key(KEY, **{**STEP, field: STEP[field] + "x"}))
    keys.add(derive_phase_key("ff" * 32, **STEP))
    assert len(keys) == len(STEP) + 2


def test_ids_are_nfc_normalised():
    composed = derive_phase_key(KEY, **{**STEP, "campaign": "caf\u00e9"})
    decomposed = derive_phase_key(KEY, **{**STEP, "campaign": "cafe\u0301"})
    assert composed == decomposed


def test_duplicate_label_refused():
    dice = Dice(PHASE_KEY, prefix=PREFIX)
    dice.roll("combat/0812")
    with pytest.raises(ValueError, match="used twice"):
        dice.roll("combat/0812")
    with pytest.raises(ValueError, match="used twice"):
        dice.roll("combat/0812", 10)
    assert len(dice.log) == 1


def test_log_records_full_labels():
    dice = Dice(PHASE_KEY, prefix=PREFIX)
    value = dice.roll("hex-0812/d6#1")
    assert dice.log == [Roll(PREFIX + "hex-0812/d6#1", 6, value)]
    assert dice.log[0].to_dict() == {"label": PREFIX + "hex-0812/d6#1", "sides": 6,
                                     "value": value}


def test_adding_a_roll_does_not_change_others():
    first = Dice(PHASE_KEY)
    second = Dice(PHASE_KEY)
    second.roll("extra")
    assert first.roll("a") == second.roll("a")


@pytest.mark.parametrize("label", ["", "has space", "caf\u00e9", "tab\tx", "nl\n"])
def test_bad_labels_refused(label):
    with pytest.raises(ValueError):
        roll_value(PHASE_KEY, label)
    with pytest.raises(ValueError):
        Dice(PHASE_KEY).roll(label)


@pytest.mark.parametrize("sides", [0, 1, -6, 2**32 + 1])
def test_bad_sides_refused(sides):
    with pytest.raises(ValueError):
        roll_value(PHASE_KEY, "x", sides)


@pytest.mark.parametrize("sides", [6.0, "6", True])
def test_non_int_sides_refused(sides):
    with pytest.raises(TypeError):
        roll_value(PHASE_KEY, "x", sides)


@pytest.mark.parametrize("key", ["", "zz" * 32, "abc", "00" * 15])
def test_bad_keys_refused(key):
    with pytest.raises(ValueError):
        commitment(key)
    with pytest.raises(ValueError):
        Dice(key)


def test_new_key_is_random_hex():
    a, b = new_key(), new_key()
    assert a != b
    assert len(a) == 64 and bytes.fromhex(a)
    assert commitment(a) == hashlib.sha256(bytes.fromhex(a)).hexdigest()


def test_scripted_dice():
    dice = ScriptedDice({"combat/0812": 5, PREFIX + "combat/0913": 2}, prefix=PREFIX)
    assert isinstance(dice, Dice)
    assert dice.roll("combat/0812") == 5
    assert dice.roll("combat/0913") == 2
    assert [r.label for r in dice.log] == [PREFIX + "combat/0812", PREFIX + "combat/0913"]
    with pytest.raises(KeyError, match="combat/1014"):
        dice.roll("combat/1014")
    with pytest.raises(ValueError, match="used twice"):
        dice.roll("combat/0812")
    assert len(dice.log) == 2


def test_scripted_value_must_fit_the_die():
    with pytest.raises(ValueError):
        ScriptedDice({"x": 7}).roll("x", 6)
    assert ScriptedDice({"x": 7}).roll("x", 10) == 7


def test_factory_dice_derive_the_phase_key_at_the_first_roll():
    """The factory's dice derive the phase key only when a die is rolled (issue 35: most phases
    roll none): the same rolls, log and labels as dice made with the key derived at once; a
    key that is no key is refused when the dice are made, as before; the key is derived once."""
    from pbem.core import dicesource
    from pbem.core.dicesource import DiceSource, dice_factory

    make = dice_factory(KEY, "bfg", "demo")
    lazy = make(step=STEP["step"], orders_digest=STEP["orders_digest"], state_hash=STEP["state_hash"])
    eager = Dice(derive_phase_key(KEY, **STEP), prefix="bfg/demo/t03/soviet.combat/")
    assert lazy.prefix == eager.prefix
    for i, sides in enumerate([6, 6, 10, 2, 6, 20]):
        assert lazy.roll(f"c{i}/d6", sides) == eager.roll(f"c{i}/d6", sides)
    assert lazy.log == eager.log
    with pytest.raises(ValueError, match="roll label used twice"):
        lazy.roll("c0/d6")
    calls = []
    real = dicesource.derive_phase_key
    try:
        dicesource.derive_phase_key = lambda *a, **k: calls.append(1) or real(*a, **k)
        d = make(step="s", orders_digest="c" * 64, state_hash="d" * 64)
        assert calls == []
        d.roll("a")
        d.roll("b")
        assert calls == [1]
    finally:
        dicesource.derive_phase_key = real
    for bad in ("zz" * 16, "00" * 8):
        with pytest.raises(ValueError):
            dice_factory(bad, "bfg", "demo")(step="s", orders_digest="c" * 64, state_hash="d" * 64)
    chain = dice_factory(DiceSource(mode="chain", chain_keys={}), "bfg", "demo")
    with pytest.raises(Exception, match="no dice key"):
        chain(step="s", orders_digest="c" * 64, state_hash="d" * 64).roll("a")


def _straight_roll(phase_key_hex: str, label: str, sides: int) -> int:
    """The algorithm as the module docstring states it, each block keyed anew with ``hmac.new``."""
    key = bytes.fromhex(phase_key_hex)
    limit = 2**64 - (2**64 % sides)
    counter = 0
    while True:
        block = hmac.new(key, label.encode("ascii") + b"\x00" + str(counter).encode("ascii"), hashlib.sha256).digest()
        for i in range(4):
            x = int.from_bytes(block[8 * i:8 * i + 8], "big")
            if x < limit:
                return 1 + x % sides
        counter += 1


from hypothesis import given, settings, strategies as st  # noqa: E402

_labels = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=30)


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=16, max_size=80), st.lists(st.tuples(_labels, st.sampled_from([2, 3, 6, 10, 20, 100, 2**31 + 1, 2**32])),
                                                      max_size=8, unique_by=lambda t: t[0]))
def test_rolls_of_one_phase_are_the_straightforward_hmac(key, rolls):
    """Each block of a roll is one call of OpenSSL's HMAC (``hmac.digest``, issue 35): every
    roll of ``Dice``, of the factory's lazily keyed dice and of ``roll_value`` is the
    block-by-block ``hmac.new`` of the algorithm (keys longer than SHA-256's block included)."""
    from pbem.core.dicesource import _LazyDice
    pk = key.hex()
    d, lazy = Dice(pk, prefix="p/"), _LazyDice(lambda: pk, "p/")
    for label, sides in rolls:
        want = _straight_roll(pk, "p/" + label, sides)
        assert d.roll(label, sides) == want
        assert lazy.roll(label, sides) == want
        assert roll_value(pk, "p/" + label, sides) == want
    assert [r.value for r in d.log] == [r.value for r in lazy.log]


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=16, max_size=80), st.text(max_size=12), st.text(max_size=12), st.text(max_size=20))
def test_phase_key_is_the_straightforward_hmac_of_the_canonical_inputs(key, game, campaign, step):
    """The phase key's message is written by orjson where it writes canonical JSON's bytes
    (pbem.core.canon.canonical_json_fast) and keyed by OpenSSL's HMAC in one call: the same
    key as ``hmac.new`` of ``canonical_json`` for any game, campaign and step names."""
    from pbem.core.canon import canonical_json
    msg = canonical_json({"algorithm": ALGORITHM, "game": game, "campaign": campaign, "step": step,
                          "orders": "a" * 64, "state": "b" * 64})
    assert derive_phase_key(key.hex(), game=game, campaign=campaign, step=step, orders_digest="a" * 64,
                            state_hash="b" * 64) == hmac.new(key, msg, hashlib.sha256).hexdigest()
