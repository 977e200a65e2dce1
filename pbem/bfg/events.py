"""What happens when a unit enters a hex, however it got there (move, retreat, advance,
placement): fortresses fall to Western Allied entry (6.83), cities record the last unit to pass
through or next to them (11.0), a side entering Berlin counts for the four-player race (17.32,
the one rule that says 進入 "enter").

Occupying (占領: 10.0, 12.2.3, 16.31) and falling (陥落: 12.2.2) are read as a unit ENDING its
movement, advance, retreat or placement in the hex (rulings.yaml ``occupy``): a unit that only
passes through Warsaw or Berlin neither captures the city nor makes Berlin fall. Callers pass
``ends=False`` for every hex of a move but the last."""
from __future__ import annotations

from .board import CAMP_OF
from .context import Ctx


def touch_hex(ctx: Ctx, uid: str, h: str, *, ends: bool = True) -> None:
    board = ctx.board
    rs = ctx.rs
    st = board.state
    u = board.units[uid]
    c = CAMP_OF.get(u["force"], "western")      # board.camp
    side = "german" if u.get("ss_half") else c      # board.city_side
    # 6.83: a fortress is destroyed the moment a Western Allied unit enters it; an SS unit the
    # Western Allied player commands (13.2) is a German unit and does not (rulings ``ss_cities``).
    if c == "western" and side == "western" and h in rs.fortresses and h not in st["fortresses_destroyed"]:
        st["fortresses_destroyed"].append(h)
        st["fortresses_destroyed"].sort()
        ctx.emit("fortress-destroyed", hex=h, unit=uid, rule="DG2 6.83")
    # 11.0: the last unit to pass through a city or next to it.
    # An SS unit under the Western Allied player (13.2) counts as German (rulings ``ss_cities``).
    last = st["city_last"]
    cities = rs.cities
    if h in cities and last.get(h) != side:
        last[h] = side
    for t in rs.neighbours(h):
        if t in cities and last.get(t) != side:
            last[t] = side
    if h in cities:
        city = rs.cities[h]
        if c in ("soviet", "western"):
            cap = st["captured"]
            race = city.berlin and rs.play.rule("victory") == "berlin-race"
            if race:
                # 17.32: who entered Berlin first, and whether each side did by turn 10.
                entries = st["berlin"].setdefault("entries", [])
                if c not in [e["side"] for e in entries]:
                    entries.append({"side": c, "turn": ctx.turn, "phase": ctx.phase, "unit": uid})
                    ctx.emit("berlin-entered", unit=uid, side=c,
                             rule="DG2 12.2.2, 17.32" if len(entries) == 1 else "DG2 17.32")
            if not ends:
                return
            if city.berlin and not st["berlin"].get("entered_by"):
                # 12.2.2: Berlin falls to the first side to occupy it.
                st["berlin"]["entered_by"] = c
                st["berlin"]["turn"] = ctx.turn
                st["berlin"]["phase"] = ctx.phase
                if not race:
                    ctx.emit("berlin-entered", unit=uid, side=c, rule="DG2 12.2.2, 17.32")
            if city.garrison and c == "soviet" and h not in cap:
                cap[h] = {"turn": ctx.turn, "phase": ctx.phase}
                ctx.emit("city-captured", hex=h, city=city.name, unit=uid, rule="DG2 10.0",
                         text="a Front must garrison it by the end of the next Soviet movement phase")
