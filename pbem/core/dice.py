"""Verifiable dice: every roll is recomputable from published inputs.

Algorithm ``hmac-sha256-rej64/v1``
=================================

Inputs published in the turn archive: the GM's revealed secret ``key`` (hex,
whose SHA-256 was published earlier as the *commitment*), the ``game``,
``campaign`` and ``step`` ids, the digest of the accepted orders and the hash
of the state before the step.

1. Phase key.  Build the canonical JSON (sorted keys, no spaces, UTF-8) of::

       {"algorithm":"hmac-sha256-rej64/v1","campaign":C,"game":G,
        "orders":ORDERS_DIGEST,"state":STATE_HASH,"step":S}

   and compute ``phase_key = HMAC-SHA256(key=bytes.fromhex(KEY), msg=that JSON)``
   as lower-case hex.

2. One roll of a ``sides``-sided die with label ``L`` (ASCII, no spaces; the
   full label including any prefix, as printed in the roll log):

   * ``limit = 2**64 - (2**64 % sides)``  (for a d6: 18446744073709551612);
   * for ``counter`` = 0, 1, 2, ...: ``block = HMAC-SHA256(key=bytes.fromhex(phase_key),
     msg = L + one NUL byte + the counter in decimal ASCII)``;
   * read the 32-byte block as four 8-byte big-endian unsigned integers ``x``,
     first bytes first (hex digits 1-16, 17-32, 33-48, 49-64); the first ``x``
     with ``x < limit`` gives the roll ``1 + x % sides``.  In practice the first
     chunk of counter 0 is (almost) always used.

By hand, with OpenSSL and Python as a calculator::

    KEY=...                                  # revealed secret, hex
    MSG='{"algorithm":"hmac-sha256-rej64/v1","campaign":"c1","game":"bfg","orders":"...","state":"...","step":"t03/soviet.combat"}'
    printf '%s' "$MSG" | openssl dgst -sha256 -mac HMAC -macopt hexkey:$KEY
    # -> PHASE_KEY
    printf '%s\\0%s' 'bfg/c1/t03/soviet.combat/hex-0812/d6#1' 0 \\
        | openssl dgst -sha256 -mac HMAC -macopt hexkey:$PHASE_KEY
    # -> BLOCK; take its first 16 hex digits:
    python3 -c 'x=int("<first 16 hex digits>",16); print(1 + x % 6 if x < 2**64 - 2**64 % 6 else "next chunk")'

Labels are refused when used twice within one :class:`Dice`, so adding,
removing or reordering one roll never changes another.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping

from pbem.core.canon import canonical_json_fast
from pbem.core.lazyclass import dataclass  # made when first used (issue 35)

__all__ = [
    "ALGORITHM", "new_key", "check_key", "commitment", "derive_phase_key", "roll_value",
    "Roll", "Dice", "ScriptedDice", "verify_roll", "receipt", "RECEIPT",
]

ALGORITHM = "hmac-sha256-rej64/v1"
_MIN_KEY_BYTES = 16
_MAX_SIDES = 2**32
_TWO64 = 2**64


def _key_bytes(key_hex: str, what: str = "key") -> bytes:
    """Decode a hex key, insisting on at least 128 bits."""
    if not isinstance(key_hex, str):
        raise TypeError(f"{what} must be a hex string")
    try:
        key = bytes.fromhex(key_hex)
    except ValueError:
        raise ValueError(f"{what} is not valid hex") from None
    if len(key) < _MIN_KEY_BYTES:
        raise ValueError(f"{what} must be at least {_MIN_KEY_BYTES} bytes")
    return key


def check_key(key_hex: str, what: str = "key") -> None:
    """Raise TypeError or ValueError unless ``key_hex`` is a dice key: hex, at least 128 bits
    (what deriving a phase key from it would raise, said before)."""
    _key_bytes(key_hex, what)


_LABEL = re.compile(r"[!-~]+")    # printable ASCII without spaces


def _check_label(label: str) -> None:
    """Labels are non-empty printable ASCII without spaces."""
    if not isinstance(label, str) or not label:
        raise ValueError("a roll label must be a non-empty string")
    if not _LABEL.fullmatch(label):
        raise ValueError(f"roll label must be printable ASCII without spaces: {label!r}")


def _check_sides(sides: int) -> None:
    """A die has between 2 and 2**32 sides."""
    if isinstance(sides, bool) or not isinstance(sides, int):
        raise TypeError(f"sides must be an int, not {sides!r}")
    if not 2 <= sides <= _MAX_SIDES:
        raise ValueError(f"sides must be between 2 and {_MAX_SIDES}: {sides}")


def new_key() -> str:
    """A fresh 32-byte secret from the OS CSPRNG, as hex."""
    return secrets.token_bytes(32).hex()


def commitment(key_hex: str) -> str:
    """SHA-256 hex of the key bytes; published before the orders are due."""
    return hashlib.sha256(_key_bytes(key_hex)).hexdigest()


RECEIPT = "hmac-sha256/v1"


def receipt(key_hex: str, raw: bytes) -> str:
    """The receipt of an order file in a campaign with a game master (``dice.receipts``):
    ``HMAC-SHA256(key, "pbem-receipt/v1" NUL file bytes)`` as hex. It binds the file like its
    sha256 but, unlike it, lets nobody without the key test a guess of the content (a file
    made from the template differs from it in a few choices only). Once the key is revealed
    anyone can check it; the report of the step that carries the file out gives its sha256."""
    return hmac.new(_key_bytes(key_hex), b"pbem-receipt/v1\x00" + bytes(raw), hashlib.sha256).hexdigest()


def derive_phase_key(key_hex: str, *, game: str, campaign: str, step: str,
                     orders_digest: str, state_hash: str) -> str:
    """HMAC-SHA256 of the canonical JSON of the step's inputs under the secret key."""
    message = canonical_json_fast({
        "algorithm": ALGORITHM,
        "game": game,
        "campaign": campaign,
        "step": step,
        "orders": orders_digest,
        "state": state_hash,
    })
    return hmac.digest(_key_bytes(key_hex), message, "sha256").hex()


def roll_value(phase_key_hex: str, label: str, sides: int = 6) -> int:
    """The value (1..sides) of the roll named ``label`` under ``phase_key_hex``."""
    _check_label(label)
    _check_sides(sides)
    return _value(_key_bytes(phase_key_hex, "phase key"), label, sides)


def _value(key: bytes, label: str, sides: int) -> int:
    """:func:`roll_value` under the phase key's bytes ``key`` of a checked label and number of
    sides: each block ``HMAC-SHA256(key, label NUL counter)`` in one call of OpenSSL's HMAC
    (``hmac.digest``: the same bytes as ``hmac.new(key, message).digest()``, without building
    the HMAC object in Python for every roll; issue 35)."""
    limit = _TWO64 - (_TWO64 % sides)
    prefix = label.encode("ascii") + b"\x00"
    counter = 0
    while True:
        block = hmac.digest(key, prefix + str(counter).encode("ascii"), "sha256")
        for start in range(0, 32, 8):
            x = int.from_bytes(block[start:start + 8], "big")
            if x < limit:
                return 1 + x % sides
        counter += 1


@dataclass(frozen=True)
class Roll:
    """One entry of the roll log."""

    label: str
    sides: int
    value: int

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form: ``{"label", "sides", "value"}``."""
        return {"label": self.label, "sides": self.sides, "value": self.value}


class Dice:
    """Labelled rolls for one step, with a log.

    ``prefix`` is prepended to every label (e.g. ``"bfg/demo/t03/soviet.combat/"``).
    A full label can be used only once.
    """

    def __init__(self, phase_key_hex: str, *, prefix: str = "") -> None:
        _key_bytes(phase_key_hex, "phase key")
        self._phase_key = phase_key_hex
        self._start(prefix)

    def _start(self, prefix: str) -> None:
        """Set the prefix, an empty log, no HMAC made yet."""
        self.prefix = prefix
        self.log: list[Roll] = []
        self._used: set[str] = set()
        self._key: bytes | None = None      # the phase key's bytes, read at the first roll

    def roll(self, label: str, sides: int = 6) -> int:
        """Roll the die named ``prefix + label``; log and return the value."""
        full = self.prefix + label
        _check_label(full)
        _check_sides(sides)
        if full in self._used:
            raise ValueError(f"roll label used twice: {full!r}")
        value = self._draw(full, label, sides)
        self._used.add(full)
        self.log.append(Roll(full, sides, value))
        return value

    def _draw(self, full_label: str, label: str, sides: int) -> int:
        """Compute the value of a roll (overridden by :class:`ScriptedDice`): :func:`roll_value`
        of the full label (checked by :meth:`roll`), the phase key's HMAC made once."""
        if self._key is None:
            self._key = _key_bytes(self._phase_key, "phase key")
        return _value(self._key, full_label, sides)


class ScriptedDice(Dice):
    """Dice with predetermined values, for tests.

    ``values`` maps a full label, or a label as passed to :meth:`roll`
    (without the prefix), to the value to return.  An unscripted roll raises
    KeyError naming the label; a value outside 1..sides raises ValueError.
    """

    def __init__(self, values: Mapping[str, int], *, prefix: str = "") -> None:
        self._phase_key = ""
        self._start(prefix)
        self.values = dict(values)

    def _draw(self, full_label: str, label: str, sides: int) -> int:
        """Look the value up by full label, then by the label without prefix."""
        if full_label in self.values:
            value = self.values[full_label]
        elif label in self.values:
            value = self.values[label]
        else:
            raise KeyError(f"no scripted roll for label {full_label!r}")
        if not 1 <= value <= sides:
            raise ValueError(f"scripted roll {full_label!r} = {value} is not a d{sides} value")
        return value


def verify_roll(key_hex: str, *, game: str, campaign: str, step: str,
                orders_digest: str, state_hash: str, label: str, sides: int = 6) -> int:
    """Recompute one logged roll from the revealed secret and the step inputs."""
    phase_key = derive_phase_key(key_hex, game=game, campaign=campaign, step=step,
                                 orders_digest=orders_digest, state_hash=state_hash)
    return roll_value(phase_key, label, sides)
