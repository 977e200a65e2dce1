"""Names a player writes in a BlitzWAR order file (zones, counters) and what pbem says when one
is not known: a "did you mean" (the core's :func:`pbem.core.errors.did_you_mean`, as Battle for
Germany's unknown units have), nearest first among what the order could mean (the zones next to
the counter, the player's own counters), then among every zone or counter of the game."""
from __future__ import annotations

from collections.abc import Iterable

from ..core.errors import did_you_mean


def zone_guess(w, z, near: Iterable[str] = ()) -> str:
    """`` (did you mean 'warsaw'?)`` for a zone id written wrong: a zone's name written for its
    id ("Warsaw", "Brest-Litovsk"), else the closest id among ``near``, then among every zone."""
    if not isinstance(z, str):
        return ""
    named = w.zone_named(z) or w.zone_named(z.replace("-", " ")) or w.zones.get(z.strip().lower().replace(" ", "-"))
    if named is not None and named.id != z:
        return f" (did you mean '{named.id}'?)"
    return did_you_mean(z.strip().lower(), list(near), list(w.zones))


def unknown_zone(w, z, near: Iterable[str] = ()) -> str:
    """The words for a zone that is not on the map: ``no zone 'warsw' (did you mean 'warsaw'?)``."""
    return f"no zone {z!r} on the map{zone_guess(w, z, near)}"


def counter_guess(state: dict, cid, mine: Iterable[str] = ()) -> str:
    """`` (did you mean 'ger-i3-1'?)`` for a counter id written wrong: the closest among
    ``mine`` (the counters the order could name), then among every counter of the game."""
    return did_you_mean(cid, list(mine), list(state.get("counters") or ()))
