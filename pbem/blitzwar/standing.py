"""BlitzWAR's standing orders: the keys a player may set and the values of ``--auto-decisions``.

A module of their own, so that the game's declaration (game.py, read by every ``pbem --help``)
does not import the combat rules and the world with them.
"""

STANDING_FIRST = ("ask", "never", "all", "bombers", "over")


def parse_standing(value: str) -> dict | None:
    """A standing order ``intercept`` as a player writes it, or None if it is not one: ``ask``,
    ``never``, ``all``, ``bombers`` (every strategic bomber, nothing else), ``over Z1,Z2`` (air
    units flying to those zones), each but ``ask`` and ``never`` optionally followed by ``keep
    N`` (only while at least N of the side's air units able to fly stay at their bases after
    the interception)."""
    words = str(value).split()
    if not words or words[0] not in STANDING_FIRST:
        return None
    out: dict = {"what": words[0], "zones": [], "keep": 0}
    rest = words[1:]
    if words[0] == "over":
        if not rest:
            return None
        out["zones"] = [z for z in rest[0].split(",") if z]
        rest = rest[1:]
    if rest:
        if words[0] in ("ask", "never") or len(rest) != 2 or rest[0] != "keep" or not rest[1].isdigit():
            return None
        out["keep"] = int(rest[1])
    return out


class _InterceptValues(tuple):
    """The values the standing order ``intercept`` takes: a few shown, any :func:`parse_standing`
    reads accepted (the kernel checks a standing order's value with ``in``)."""

    def __contains__(self, value: object) -> bool:
        return isinstance(value, str) and parse_standing(value) is not None


STANDING_KEYS: dict[str, tuple[str, ...]] = {
    "losses": ("ask", "auto", "infantry-first", "armour-first"),
    "retreat": ("ask", "auto"),
    "advance": ("ask", "none", "all", "auto"),
    "german_defence": ("ask", "auto"),
    "naval_losses": ("ask", "auto"),        # 12.2: which fleet or U-boat takes a loss (naval.py)
}
# 13.2: whether to intercept the other side's air units (pbem/blitzwar/air.py parse_standing):
# ask, never, all, bombers, over ZONE,ZONE, each of the last three optionally followed by keep N
STANDING_KEYS["intercept"] = _InterceptValues(("ask", "never", "all", "bombers", "all keep 2", "over ZONE,ZONE keep 1"))
AUTO_STANDING = {"losses": "auto", "retreat": "auto", "advance": "none", "german_defence": "auto", "naval_losses": "auto", "intercept": "never"}


# ---- the Battle of Britain (13.4.3, pbem/blitzwar/air.py): whose air units are lost, and the rounds
def parse_bob_losses(value: str) -> dict | None:
    """A standing order ``bob_losses`` (which of the player's own air units a round of the Battle
    of Britain destroys; ruling bob-loss-choice), or None: ``ask``; ``auto`` (the lowest counter
    id first, the missing-orders default); ``from Z1,Z2`` (the units based in those zones first,
    in the order named, then as auto)."""
    words = str(value).split()
    if words in (["ask"], ["auto"]):
        return {"what": words[0], "zones": []}
    zones = [z for z in words[1].split(",") if z] if len(words) == 2 and words[0] == "from" else []
    return {"what": "from", "zones": zones} if zones else None


def parse_bob_rounds(value: str) -> dict | None:
    """A standing order ``bob_rounds`` answering the Axis player's question before each round
    of the Battle of Britain after the first (orders ``battle_of_britain: {rounds: ask}``), or
    None: ``ask``; ``auto`` and ``stop`` (no further round, the missing-orders default);
    ``all`` (every round the rules allow); ``N`` (at most N rounds in all); ``keep N`` (another
    round only while at least N German air units within one zone of London would remain after
    the worst round of the table)."""
    words = str(value).split()
    if len(words) == 1 and words[0] in ("ask", "auto", "stop", "all"):
        return {"what": words[0], "n": 0}
    if len(words) == 1 and words[0].isdigit() and int(words[0]) >= 1:
        return {"what": "rounds", "n": int(words[0])}
    if len(words) == 2 and words[0] == "keep" and words[1].isdigit():
        return {"what": "keep", "n": int(words[1])}
    return None


class _ParsedValues(tuple):
    """The values of a standing order read by a parser: a few shown, any it reads accepted."""

    parser = staticmethod(parse_standing)

    def __contains__(self, value: object) -> bool:
        return isinstance(value, str) and type(self).parser(value) is not None


class _BobLossValues(_ParsedValues):
    parser = staticmethod(parse_bob_losses)


class _BobRoundValues(_ParsedValues):
    parser = staticmethod(parse_bob_rounds)


STANDING_KEYS["bob_losses"] = _BobLossValues(("ask", "auto", "from ZONE,ZONE"))
STANDING_KEYS["bob_rounds"] = _BobRoundValues(("ask", "auto", "stop", "all", "3", "keep 4"))
AUTO_STANDING.update({"bob_losses": "auto", "bob_rounds": "auto"})
# Who can ever be asked what (issue 33: the Allied and Soviet templates and `pbem show` listed
# orders only the Axis is asked): the German defence shift is the Axis defender's (16.3.2), the
# rounds of the Battle of Britain the Axis attacker's (13.4.3); its losses are of German and
# Allied (British) air units, never Soviet ones. By player id: with two players the allies
# player runs the USSR too, and keeps what the allies player is asked.
AXIS_ONLY = ("german_defence", "bob_rounds")
NOT_USSR = ("bob_losses",)


def keys_for(player: str) -> dict[str, tuple[str, ...]]:
    """The standing orders ``player`` can ever be asked (:meth:`pbem.core.game.Game.standing_keys_for`)."""
    drop = (set(AXIS_ONLY) if player != "axis" else set()) | (set(NOT_USSR) if player == "ussr" else set())
    return {k: v for k, v in STANDING_KEYS.items() if k not in drop}


def standing_keys_for(self, rs, player: str) -> dict[str, tuple[str, ...]]:
    """BlitzWAR's :meth:`pbem.core.game.Game.standing_keys_for`: :func:`keys_for`."""
    return keys_for(player)


STANDING_HELP = {
    "bob_losses": "your air units destroyed in a round of the Battle of Britain, 13.4.3 (auto: lowest id first; "
                  "from ZONE,ZONE: those based there first)",
    "bob_rounds": "Axis: another round of the Battle of Britain when ordered rounds: ask, 13.4.3 (stop, all, N rounds, "
                  "keep N German air units)",
}
