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
