"""Where a step's dice keys come from: the game master's key (mode ``gm``) or the players'
revealed hash-chain links (mode ``chain``, :mod:`pbem.core.chain`), and the factory that gives
each phase its :class:`~pbem.core.dice.Dice`."""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .campaign import Campaign
from .chain import check_reveals, combine, step_key
from .dice import Dice, check_key, derive_phase_key, roll_value
from .errors import Issue, PbemError

if TYPE_CHECKING:
    from .game import DiceFactory


class NeedLinks(Exception):
    """Chain mode: a die is needed whose key is not revealed yet (the links for ``digest``
    have not been asked for). The step archives the files and asks every player for a link."""

    def __init__(self, digest: str) -> None:
        super().__init__(digest)
        self.digest = digest


class _EpochDice(Dice):
    """Dice whose key changes after a given number of rolls: the rolls of a phase made before
    a decision keep the key they were made with, those after the answer use fresh links
    (chain protocol 2). ``parts``: (phase key or None: not revealed yet, number of rolls of
    the phase it covers or None: all the rest, digest)."""

    def __init__(self, parts: list[Any], prefix: str) -> None:
        self._start(prefix)
        self._parts = parts

    def _draw(self, full_label: str, label: str, sides: int) -> int:
        n = len(self.log)
        for pk, upto, digest in self._parts:
            if upto is None or n < upto:
                if pk is None:
                    raise NeedLinks(digest)
                return roll_value(pk, full_label, sides)
        raise AssertionError("no key part covers this roll")


class _LazyDice(Dice):
    """Dice whose phase key (an HMAC of the step's inputs, :func:`derive_phase_key`) is
    derived at the first roll: most phases of a step roll no die (a BlitzWAR side-turn's naval,
    air, sea transport and movement phases), and the key was a fixed cost of each (issue 35).
    The same key, the same rolls; the secret key is checked when the dice are made, as before."""

    def __init__(self, derive: Callable[[], str], prefix: str) -> None:
        self._start(prefix)
        self._derive: Callable[[], str] | None = derive
        self._phase_key = ""

    def _draw(self, full_label: str, label: str, sides: int) -> int:
        if self._derive is not None:
            self._phase_key, self._derive = self._derive(), None
        return super()._draw(full_label, label, sides)


class _NoDice(Dice):
    """Dice for a phase whose key is unknown (no reveals were needed): rolling is a bug."""

    def __init__(self, prefix: str) -> None:
        self._start(prefix)

    def _draw(self, full_label: str, label: str, sides: int) -> int:
        raise PbemError([Issue("DICE-NO-KEY", f"a die ({full_label}) is needed but no dice key is known for these orders")])


@dataclass
class DiceSource:
    """The game master's key (mode ``gm``), or (mode ``chain``) the dice key of each orders
    digest, combined from the links revealed for it."""
    mode: str = "gm"
    key: str | None = None
    chain_keys: dict[str, str] = field(default_factory=dict)
    lazy: bool = False    # chain: a die without a revealed key asks for links (NeedLinks)

    def key_for(self, orders_digest: str) -> str | None:
        return self.key if self.mode == "gm" else self.chain_keys.get(orders_digest)


def dice_factory(source: DiceSource | str, game: str, campaign: str) -> DiceFactory:
    if isinstance(source, str):
        source = DiceSource(key=source)

    def phase_key(digest: str, step: str, state_hash: str) -> str | None:
        key_hex = source.key_for(digest)
        if key_hex is None:
            return None
        return derive_phase_key(key_hex, game=game, campaign=campaign, step=step,
                                orders_digest=digest, state_hash=state_hash)

    def make(*, step: str, orders_digest: str, state_hash: str, epochs: list[Any] | None = None) -> Dice:
        prefix = f"{game}/{campaign}/{step}/"
        if source.mode == "chain" and (epochs or source.lazy):
            parts = [(phase_key(d, step, state_hash), n, d) for d, n in epochs or []]
            return _EpochDice(parts + [(phase_key(orders_digest, step, state_hash), None, orders_digest)], prefix)
        key_hex = source.key_for(orders_digest)
        if key_hex is None:
            return _NoDice(prefix)
        check_key(key_hex)      # (a key that is no key fails here, as deriving the phase key did)
        return _LazyDice(lambda: derive_phase_key(key_hex, game=game, campaign=campaign, step=step,
                                                  orders_digest=orders_digest, state_hash=state_hash), prefix)
    return make


def chain_keys_from_archive(camp: Campaign, upto: int) -> dict[str, str]:
    """Chain mode: the orders digest each earlier step's reveals were bound to -> the dice key
    of those reveals, for steps before ``upto`` (a resumed phase keeps the dice of the step
    that began it)."""
    out: dict[str, str] = {}
    for d in camp.step_dirs()[1:upto]:
        rep = json.loads(camp.inside(d / "report.json").read_text("utf-8"))
        rv = rep.get("dice", {}).get("reveals")
        if rv and rep.get("stopped") != "void":   # the links of void orders key nothing ever again
            out[rv[0]["orders"]] = combine({r["player"]: r["link"] for r in rv}, sorted(r["player"] for r in rv))
    return out


def chain_source(known: dict[str, str], state: dict[str, Any], digest: str | None, reveals: list[Any],
                 head: str | None = None, players: list[str] | None = None) -> tuple[DiceSource, list[Issue]]:
    """Check this step's reveals and build its dice source (chain mode). ``known``: the keys of
    the earlier steps (:func:`chain_keys_from_archive`); ``digest``: the orders digest this
    step's new dice are keyed on, or None when the step rolls no new dice (a decision answer,
    orders received while others are awaited, missing orders); ``head``: the archive head the
    reveals must name (links asked for archived orders). Without reveals and digest, a die
    that needs a key not revealed yet stops the step to ask for links (``lazy``)."""
    if digest is None and not reveals:
        return DiceSource(mode="chain", chain_keys=dict(known), lazy=True), []
    issues = check_reveals(reveals, state, digest, head, players)
    source = DiceSource(mode="chain", chain_keys=dict(known))
    if digest and not issues:
        source.chain_keys[digest] = step_key(reveals, state["dice"]["heads"])
    return source, issues
